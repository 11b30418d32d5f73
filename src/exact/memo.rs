//! Sub-results shared across the configs of a run: a law that many
//! configs need (a Cortex pool's roll law, whatever the opposition) is
//! worked out once and handed to each of them.
//!
//! A sweep's exact configs are solved in parallel, so the table sits
//! behind a mutex; the lock is held only to look up and to insert, never
//! while a law is worked out, so two threads may work out the same law at
//! once (the same value either way: solvers are deterministic) but never
//! wait for each other's arithmetic. A memo holds at most `CAP` laws
//! (4,096 unless its type says fewer, for big values such as sampler
//! tables) and starts afresh past that, so a 90,000-config sweep cannot
//! grow it without bound. A law worked out while this thread's solve was
//! told to stop ([`watch::stopped`](super::watch::stopped)) may be cut
//! short, so it is handed back but never kept.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

/// A process-wide table from a key to the law it stands for, meant for a
/// `static`; it keeps at most `CAP` laws.
pub struct Memo<K, V, const CAP: usize = 4096> {
    map: Mutex<Option<HashMap<K, Arc<V>>>>,
}

impl<K: Hash + Eq, V, const CAP: usize> Memo<K, V, CAP> {
    /// An empty memo.
    pub const fn new() -> Self {
        Memo {
            map: Mutex::new(None),
        }
    }

    /// The law for `key`, worked out by `make` the first time (and again
    /// next time if the solve was told to stop meanwhile).
    pub fn get(&self, key: K, make: impl FnOnce() -> V) -> Arc<V> {
        let lock = || self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = lock().as_ref().and_then(|m| m.get(&key)) {
            return Arc::clone(v);
        }
        let v = Arc::new(make());
        if super::watch::stopped() {
            return v;
        }
        let mut map = lock();
        let map = map.get_or_insert_with(HashMap::new);
        if map.len() >= CAP {
            map.clear();
        }
        Arc::clone(map.entry(key).or_insert(v))
    }
}

impl<K: Hash + Eq, V, const CAP: usize> Default for Memo<K, V, CAP> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_law_is_worked_out_once_per_key() {
        static MEMO: Memo<u32, u64> = Memo::new();
        let made = AtomicUsize::new(0);
        let square = |k: u32| {
            MEMO.get(k, || {
                made.fetch_add(1, Ordering::Relaxed);
                u64::from(k) * u64::from(k)
            })
        };
        assert_eq!(*square(7), 49);
        assert_eq!(*square(7), 49);
        assert_eq!(*square(8), 64);
        assert_eq!(made.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_full_memo_starts_afresh_and_still_answers() {
        let memo: Memo<usize, usize, 16> = Memo::new();
        for k in 0..16 + 10 {
            assert_eq!(*memo.get(k, || k + 1), k + 1);
        }
        let len = memo.map.lock().unwrap().as_ref().map_or(0, HashMap::len);
        assert!(len <= 16, "{len}");
        assert_eq!(*memo.get(3, || 4), 4);
    }

    #[test]
    fn a_law_made_while_told_to_stop_is_not_kept() {
        let memo: Memo<u32, Option<u32>> = Memo::new();
        // A solve cut short by a stop says "no answer"; that must not
        // stand for the key once nobody is stopping.
        let stop = || true;
        let cut = super::super::watch::stopping(&stop, || memo.get(1, || None));
        assert_eq!(*cut, None);
        assert_eq!(*memo.get(1, || Some(7)), Some(7));
    }
}
