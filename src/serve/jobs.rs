//! Work in flight: each request that may simulate gets a [`Ticket`], the
//! [`Progress`] the Monte Carlo engine asks "stop?" before each chunk (as
//! Ctrl-C stops `oddsmith run`). It says yes when the client went away,
//! when a newer request came from the same browser tab, when the time cap
//! is up, or when the server is shutting down.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oddsmith::sim::Progress;

/// Tabs remembered at most; past it the oldest are forgotten (a request
/// from a forgotten tab only loses the chance to be superseded).
const MAX_TABS: usize = 4096;

/// The tabs' latest requests, and the server's stop flag.
#[derive(Default)]
pub struct Jobs {
    tabs: Mutex<HashMap<String, Arc<AtomicBool>>>,
    shutdown: AtomicBool,
}

/// Why work stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// A newer request from the same tab, or the client went away.
    Superseded,
    /// The time cap.
    TimedOut,
    /// The server is shutting down.
    Shutdown,
}

/// One request's right to keep computing.
pub struct Ticket {
    jobs: Arc<Jobs>,
    tab: Option<String>,
    cancelled: Arc<AtomicBool>,
    deadline: Instant,
    timed_out: AtomicBool,
}

impl Jobs {
    /// A ticket for a request from `tab`, cancelling that tab's previous
    /// one; it times out after `limit`.
    pub fn ticket(self: &Arc<Self>, tab: Option<String>, limit: Duration) -> Ticket {
        let cancelled = Arc::new(AtomicBool::new(false));
        if let Some(tab) = &tab
            && let Ok(mut tabs) = self.tabs.lock()
        {
            if tabs.len() >= MAX_TABS {
                tabs.clear();
            }
            if let Some(old) = tabs.insert(tab.clone(), cancelled.clone()) {
                old.store(true, Ordering::SeqCst);
            }
        }
        Ticket {
            jobs: self.clone(),
            tab,
            cancelled,
            deadline: Instant::now() + limit,
            timed_out: AtomicBool::new(false),
        }
    }

    pub fn shut_down(&self) {
        self.shutdown.store(true, Ordering::SeqCst);
    }
}

impl Ticket {
    /// The flag that cancels this ticket (set when the request's future
    /// is dropped: the client disconnected).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.cancelled.clone()
    }

    /// Why the work stopped, if it did.
    pub fn stopped_because(&self) -> Option<Stopped> {
        if self.jobs.shutdown.load(Ordering::SeqCst) {
            Some(Stopped::Shutdown)
        } else if self.cancelled.load(Ordering::SeqCst) {
            Some(Stopped::Superseded)
        } else if self.timed_out.load(Ordering::SeqCst) {
            Some(Stopped::TimedOut)
        } else {
            None
        }
    }
}

impl Progress for Ticket {
    fn advance(&self, _: u64) {}

    fn stopped(&self) -> bool {
        if Instant::now() > self.deadline {
            self.timed_out.store(true, Ordering::SeqCst);
        }
        self.stopped_because().is_some()
    }
}

impl Drop for Ticket {
    /// Forget the tab's entry if it is still this request's.
    fn drop(&mut self) {
        if let Some(tab) = &self.tab
            && let Ok(mut tabs) = self.jobs.tabs.lock()
            && tabs
                .get(tab)
                .is_some_and(|f| Arc::ptr_eq(f, &self.cancelled))
        {
            tabs.remove(tab);
        }
    }
}

/// Sets a flag when dropped: held by a request's future, so a client that
/// disconnects (hyper drops the future) cancels the work it asked for.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
