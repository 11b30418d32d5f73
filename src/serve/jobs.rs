//! Work in flight: each request that computes gets a [`Ticket`], the
//! [`Progress`] the Monte Carlo engine asks "stop?" before each chunk (as
//! Ctrl-C stops `oddsmith run`), and the exact chain solver asks before
//! each round (through [`oddsmith::exact::watch`]). It says yes when the
//! client went away, when a newer request came from the same browser tab
//! (or the page's Cancel), when the time cap is up, or when the server is
//! shutting down. Its [`Live`] counts what is done, for
//! `POST /api/progress`.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use oddsmith::exact::watch::Watch;
use oddsmith::sim::Progress;

/// Tabs remembered at most; past it the oldest are forgotten (a request
/// from a forgotten tab only loses the chance to be superseded).
const MAX_TABS: usize = 4096;

/// One running request, as its tab's entry holds it.
struct Entry {
    cancelled: Arc<AtomicBool>,
    live: Arc<Live>,
}

/// The tabs' latest requests, and the server's stop flag.
#[derive(Default)]
pub struct Jobs {
    tabs: Mutex<HashMap<String, Entry>>,
    shutdown: AtomicBool,
}

/// Why work stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// A newer request from the same tab, a cancel, or the client went away.
    Superseded,
    /// The time cap.
    TimedOut,
    /// Monte Carlo planned (or run) past the trials a request may run.
    TrialCap,
    /// The server is shutting down.
    Shutdown,
}

/// What one request has done so far: counters its workers bump, read by
/// `POST /api/progress` from another thread (relaxed atomics: a snapshot
/// may mix two instants, which a progress bar does not mind).
pub struct Live {
    started: Instant,
    deadline: Instant,
    timed_out: AtomicBool,
    /// The mechanic or the expression being answered.
    what: Mutex<String>,
    /// Configs asked and solved exactly so far.
    configs: AtomicU64,
    solved: AtomicU64,
    /// Rounds of the exact chain propagated, the transient states live
    /// and the probability still in play (as f64 bits).
    round: AtomicU64,
    states: AtomicU64,
    in_play: AtomicU64,
    /// The chain solver was stopped before its end.
    abandoned: AtomicBool,
    /// Monte Carlo trials planned (0 until it starts) and done.
    trials: AtomicU64,
    trials_done: AtomicU64,
    /// Most trials the request may plan or run, and whether it went past.
    trial_cap: u64,
    over_cap: AtomicBool,
}

/// A snapshot of [`Live`], as `POST /api/progress` returns it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub running: bool,
    pub what: String,
    /// `"exact"` while the exact solver runs, `"monte-carlo"` once
    /// simulation started.
    pub phase: &'static str,
    pub elapsed_ms: u64,
    pub configs: u64,
    pub solved: u64,
    pub round: u64,
    pub states: u64,
    pub in_play: f64,
    pub trials: u64,
    pub trials_done: u64,
}

/// One request's right to keep computing.
pub struct Ticket {
    jobs: Arc<Jobs>,
    tab: Option<String>,
    cancelled: Arc<AtomicBool>,
    live: Arc<Live>,
}

impl Jobs {
    /// A ticket for a request from `tab`, cancelling that tab's previous
    /// one; it times out after `limit`.
    /// It also stops once Monte Carlo plans or runs more than `trial_cap`
    /// trials.
    pub fn ticket(
        self: &Arc<Self>,
        tab: Option<String>,
        limit: Duration,
        trial_cap: u64,
    ) -> Ticket {
        let cancelled = Arc::new(AtomicBool::new(false));
        let now = Instant::now();
        let live = Arc::new(Live {
            started: now,
            deadline: now + limit,
            timed_out: AtomicBool::new(false),
            what: Mutex::new(String::new()),
            configs: AtomicU64::new(0),
            solved: AtomicU64::new(0),
            round: AtomicU64::new(0),
            states: AtomicU64::new(0),
            in_play: AtomicU64::new(1f64.to_bits()),
            abandoned: AtomicBool::new(false),
            trials: AtomicU64::new(0),
            trials_done: AtomicU64::new(0),
            trial_cap,
            over_cap: AtomicBool::new(false),
        });
        if let Some(tab) = &tab
            && let Ok(mut tabs) = self.tabs.lock()
        {
            if tabs.len() >= MAX_TABS {
                tabs.clear();
            }
            let entry = Entry {
                cancelled: cancelled.clone(),
                live: live.clone(),
            };
            if let Some(old) = tabs.insert(tab.clone(), entry) {
                old.cancelled.store(true, Ordering::SeqCst);
            }
        }
        Ticket {
            jobs: self.clone(),
            tab,
            cancelled,
            live,
        }
    }

    pub fn shut_down(&self) {
        self.shutdown.store(true, Ordering::SeqCst);
    }

    /// What `tab`'s running request has done, if one runs.
    pub fn progress(&self, tab: &str) -> Option<Snapshot> {
        let tabs = self.tabs.lock().ok()?;
        tabs.get(tab).map(|e| e.live.snapshot())
    }

    /// Stop `tab`'s running request (the page's Cancel); whether one ran.
    pub fn cancel(&self, tab: &str) -> bool {
        let Ok(mut tabs) = self.tabs.lock() else {
            return false;
        };
        match tabs.remove(tab) {
            Some(e) => {
                e.cancelled.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }
}

impl Live {
    fn snapshot(&self) -> Snapshot {
        let trials = self.trials.load(Ordering::Relaxed);
        Snapshot {
            running: true,
            what: self.what.lock().map(|w| w.clone()).unwrap_or_default(),
            phase: if trials > 0 { "monte-carlo" } else { "exact" },
            elapsed_ms: self.started.elapsed().as_millis() as u64,
            configs: self.configs.load(Ordering::Relaxed),
            solved: self.solved.load(Ordering::Relaxed),
            round: self.round.load(Ordering::Relaxed),
            states: self.states.load(Ordering::Relaxed),
            in_play: f64::from_bits(self.in_play.load(Ordering::Relaxed)),
            trials,
            trials_done: self.trials_done.load(Ordering::Relaxed),
        }
    }

    /// Say what is being answered, over how many configs.
    pub fn asking(&self, what: &str, configs: usize) {
        if let Ok(mut w) = self.what.lock() {
            *w = what.to_string();
        }
        self.configs.store(configs as u64, Ordering::Relaxed);
    }

    /// Monte Carlo starts on more configs: `trials` more in all. Past
    /// the cap the work stops before it runs them.
    pub fn simulating(&self, trials: u64) {
        let planned = self
            .trials
            .fetch_add(trials.max(1), Ordering::Relaxed)
            .saturating_add(trials.max(1));
        if planned > self.trial_cap {
            self.over_cap.store(true, Ordering::SeqCst);
        }
    }

    /// Monte Carlo trials planned so far.
    pub fn planned(&self) -> u64 {
        self.trials.load(Ordering::Relaxed)
    }

    /// The exact solve was stopped before its end.
    pub fn abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed)
    }

    /// The round the exact solve reached.
    pub fn round(&self) -> u64 {
        self.round.load(Ordering::Relaxed)
    }
}

impl Ticket {
    /// The flag that cancels this ticket (set when the request's future
    /// is dropped: the client disconnected).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.cancelled.clone()
    }

    pub fn live(&self) -> &Live {
        &self.live
    }

    /// Why the work stopped, if it did.
    pub fn stopped_because(&self) -> Option<Stopped> {
        stop_reason(&self.jobs, &self.cancelled, &self.live)
    }

    /// What makes this ticket's watch, for any thread.
    pub fn watcher(&self) -> Watcher {
        Watcher {
            jobs: self.jobs.clone(),
            cancelled: self.cancelled.clone(),
            live: self.live.clone(),
        }
    }
}

/// A ticket's stop flags and counters, sendable to the threads that solve
/// for it; each makes its own [`Watcher::watch`] (a watch lives on one
/// thread).
#[derive(Clone)]
pub struct Watcher {
    jobs: Arc<Jobs>,
    cancelled: Arc<AtomicBool>,
    live: Arc<Live>,
}

impl Watcher {
    /// The watch the exact chain solver calls each round: it records the
    /// round and says stop when the ticket does.
    pub fn watch(&self) -> Rc<Watch> {
        let Watcher {
            jobs,
            cancelled,
            live,
        } = self.clone();
        Rc::new(move |round, states, in_play| {
            live.round.store(round as u64, Ordering::Relaxed);
            live.states.store(states as u64, Ordering::Relaxed);
            live.in_play.store(in_play.to_bits(), Ordering::Relaxed);
            let go_on = check_deadline(&live) && stop_reason(&jobs, &cancelled, &live).is_none();
            if !go_on {
                live.abandoned.store(true, Ordering::Relaxed);
            }
            go_on
        })
    }
}

/// False (and marked) once the deadline passed.
fn check_deadline(live: &Live) -> bool {
    if Instant::now() > live.deadline {
        live.timed_out.store(true, Ordering::SeqCst);
        return false;
    }
    true
}

fn stop_reason(jobs: &Jobs, cancelled: &AtomicBool, live: &Live) -> Option<Stopped> {
    if jobs.shutdown.load(Ordering::SeqCst) {
        Some(Stopped::Shutdown)
    } else if cancelled.load(Ordering::SeqCst) {
        Some(Stopped::Superseded)
    } else if live.over_cap.load(Ordering::SeqCst) {
        Some(Stopped::TrialCap)
    } else if live.timed_out.load(Ordering::SeqCst) {
        Some(Stopped::TimedOut)
    } else {
        None
    }
}

impl Progress for Ticket {
    fn advance(&self, trials: u64) {
        // Work that plans no trials ahead (a tune's search) is held to the
        // cap as it runs.
        let done = self.live.trials_done.fetch_add(trials, Ordering::Relaxed);
        if done.saturating_add(trials) > self.live.trial_cap {
            self.live.over_cap.store(true, Ordering::SeqCst);
        }
    }

    fn solved(&self, configs: u64) {
        self.live.solved.fetch_add(configs, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        check_deadline(&self.live);
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
                .is_some_and(|e| Arc::ptr_eq(&e.cancelled, &self.cancelled))
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
