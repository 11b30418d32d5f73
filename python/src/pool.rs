//! The worker threads of this process, made again after a `fork`.
//!
//! rayon's global pool is made once per address space: a child forked
//! from a Python process that had used it (what `multiprocessing` does by
//! default on Linux before Python 3.14) inherits the pool's bookkeeping
//! but none of its threads, so the first parallel call in the child
//! waits for ever for workers that do not exist. The binding never uses
//! the global pool: every call runs inside a pool owned by the process
//! that made it, and a process that finds a pool made by another (its
//! parent) makes its own.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::ThreadPool;

/// The pool, with the id of the process that made it.
static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// This process's pool (made on first use, and again in a forked child).
pub fn current() -> PyResult<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, pool)) = slot.as_ref()
        && *owner == pid
    {
        return Ok(pool.clone());
    }
    // A pool made by the parent: its threads are not in this process, so
    // it must not be dropped (that would signal them) but forgotten.
    if let Some((_, inherited)) = slot.take() {
        std::mem::forget(inherited);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("oddsmith-{i}"))
        .build()
        .map(Arc::new)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))?;
    *slot = Some((pid, pool.clone()));
    Ok(pool)
}
