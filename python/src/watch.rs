//! Long work with the GIL released, stopped by Ctrl-C. The work runs on
//! a Rust thread; the calling thread waits with the GIL released and,
//! every 50 ms, takes it back for a moment to let Python handle its
//! signals (Ctrl-C in a notebook, `_thread.interrupt_main()` from another
//! thread). On an interrupt it raises the stop flag the library's Monte
//! Carlo workers check before each chunk (the same [`Progress::stopped`]
//! the CLI's Ctrl-C sets), waits for them, and re-raises the
//! `KeyboardInterrupt`; the partial work is dropped. A panic on the work
//! thread comes back as a `RuntimeError`. The work's parallel parts run
//! in this process's own pool ([`crate::pool`]), so a forked child works.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use oddsmith::sim::Progress;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// The stop flag, shown to the library as its progress.
#[derive(Clone, Default)]
pub struct Stop(pub Arc<AtomicBool>);

impl Progress for Stop {
    fn advance(&self, _: u64) {}
    fn stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Run `work` on its own thread with the GIL released; Ctrl-C stops it.
pub fn interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&Stop) -> T + Send + 'static,
{
    let stop = Stop::default();
    let (tx, rx) = mpsc::channel();
    let theirs = stop.clone();
    let pool = crate::pool::current()?;
    let worker = std::thread::Builder::new()
        .name("oddsmith".into())
        .spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| work(&theirs))
            }));
            // The receiver is gone only if the waiting thread is; nothing to tell.
            let _ = tx.send(());
            out
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    // A Receiver is not Sync; detach wants what it borrows to be.
    let rx = std::sync::Mutex::new(rx);
    loop {
        let done = py.detach(|| match rx.lock() {
            Ok(rx) => rx.recv_timeout(POLL),
            Err(_) => Err(mpsc::RecvTimeoutError::Disconnected),
        });
        if !matches!(done, Err(mpsc::RecvTimeoutError::Timeout)) {
            break;
        }
        if let Err(interrupt) = py.check_signals() {
            stop.0.store(true, Ordering::Relaxed);
            // Workers stop at their next chunk (milliseconds).
            let _ = py.detach(|| worker.join());
            return Err(interrupt);
        }
    }
    match py.detach(|| worker.join()) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(panic)) | Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(PyRuntimeError::new_err(format!(
                "oddsmith failed inside (a bug; please report it): {what}"
            )))
        }
    }
}
