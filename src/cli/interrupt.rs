//! Ctrl-C (and SIGTERM or SIGHUP: a scheduler's time limit, a closed
//! terminal). The first press asks the run to stop: workers stop at their
//! next chunk, writers before their next file, and the command removes its
//! staging directory and exits 130. A second press removes the staging
//! directories at once and exits 130 without waiting.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Staging directories to remove on a second Ctrl-C.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The exit code after an interrupt (128 + SIGINT), as shells report it.
pub const EXIT_CODE: u8 = 130;

/// Take over Ctrl-C for a command that stops cooperatively. Commands that
/// do not call this keep the default: Ctrl-C ends them at once.
pub fn install() {
    // Fails only if a handler is already set, which is then this one.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            if let Ok(staged) = STAGED.lock() {
                for dir in staged.iter() {
                    // A writer may add a file while this runs; try again.
                    for _ in 0..3 {
                        if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
                            break;
                        }
                    }
                }
            }
            std::process::exit(EXIT_CODE.into());
        }
        eprintln!("\ninterrupted: stopping at the next chunk (press Ctrl-C again to quit at once)");
    });
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Remember a staging directory for a second Ctrl-C.
pub fn register(dir: &Path) {
    if let Ok(mut staged) = STAGED.lock() {
        staged.push(dir.to_path_buf());
    }
}

/// Forget a staging directory (committed, or removed by its owner).
pub fn unregister(dir: &Path) {
    if let Ok(mut staged) = STAGED.lock() {
        staged.retain(|d| d != dir);
    }
}

/// Begin staging the outputs for `out`, stopping at Ctrl-C.
pub fn stage(out: &Path) -> Result<oddsmith::report::Staging, oddsmith::report::OutputError> {
    let staging = oddsmith::report::Staging::begin(out)?.stop_on(&STOP);
    register(staging.path());
    Ok(staging)
}

/// Commit staged outputs (see [`stage`]).
pub fn commit(
    staging: oddsmith::report::Staging,
) -> Result<PathBuf, oddsmith::report::OutputError> {
    let dir = staging.path().to_path_buf();
    let result = staging.commit();
    unregister(&dir);
    result
}
