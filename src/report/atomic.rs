//! The output directory, committed all at once.
//!
//! A run never writes into `--out` itself. It writes into a private
//! staging directory beside it (`.NAME.oddsmith-staging.PID.RANDOM`, made
//! with `mkdir`, so nothing can be planted there first) and opens every
//! file in it with `O_EXCL`, so no symbolic link or stale file is ever
//! followed or overwritten. Only when every file is written is the staging
//! directory swapped in: the previous run is moved aside, the new one
//! renamed into place, the old one deleted (on Linux the first two steps
//! are one atomic `renameat2(RENAME_EXCHANGE)`). So `--out` always holds
//! one whole run and nothing else: a failure before the swap leaves the
//! previous run exactly as it was, and a run killed at any point leaves
//! hidden `.NAME.oddsmith-*` directories that the next run into the same
//! place removes (or restores, when the kill came between the renames).

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Failure to produce or write an output.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("cannot encode {what}: {message}")]
    Encode { what: String, message: String },
    /// Ctrl-C: the run stopped before its outputs were committed.
    #[error("interrupted; nothing was written")]
    Interrupted,
}

fn io(path: &Path, e: impl std::fmt::Display) -> OutputError {
    OutputError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The names oddsmith writes into an output directory (charts aside).
const DATA_FILES: &[&str] = &[
    "summary.csv",
    "results.csv",
    "results.parquet",
    "summary.parquet",
    "agreement.csv",
    "tune.csv",
    "tune.parquet",
    // Best play's tables (`best::report::DATA_FILES`).
    "best.csv",
    "best.parquet",
    "dominance.csv",
    "dominance.parquet",
    "rules.csv",
    "rules.parquet",
    "manifest.json",
    "scenario.toml",
    "report.md",
    "report.html",
];

/// Marks a staging directory, and a previous run moved aside.
const STAGING: &str = "oddsmith-staging";
const ASIDE: &str = "oddsmith-old";

/// A run's outputs on their way into `out`.
#[derive(Debug)]
pub struct Staging {
    /// The staging directory; `None` once committed.
    dir: Option<tempfile::TempDir>,
    out: PathBuf,
    parent: PathBuf,
    name: OsString,
    /// Ancestors of `out` this run created, removed again if it commits
    /// nothing.
    created: Vec<PathBuf>,
    stop: Option<&'static AtomicBool>,
}

impl Staging {
    /// Check `out`, clean up what killed runs into it left, and make the
    /// staging directory beside it. Done before a run starts, so a bad
    /// `--out` fails at once rather than after a long run.
    pub fn begin(out: &Path) -> Result<Staging, OutputError> {
        let name = match out.components().next_back() {
            Some(Component::Normal(n)) => n.to_os_string(),
            _ => {
                return Err(io(
                    out,
                    "does not name a directory of its own; give a path such as out/run1",
                ));
            }
        };
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Ok(meta) = fs::symlink_metadata(out) {
            if meta.file_type().is_symlink() {
                return Err(io(
                    out,
                    "is a symbolic link; give the directory it points to as --out",
                ));
            }
            if !meta.is_dir() {
                return Err(io(
                    out,
                    "exists and is not a directory; choose another --out",
                ));
            }
        }
        let created = create_ancestors(&parent)
            .map_err(|e| io(out, format!("cannot create the output directory: {e}")))?;
        let mut staging = Staging {
            dir: None,
            out: out.to_path_buf(),
            parent,
            name,
            created,
            stop: None,
        };
        staging.clean_leftovers();
        if out.is_dir() {
            if let Some(foreign) = foreign_entry(out, false).map_err(|e| io(out, e))? {
                return Err(io(
                    out,
                    format!(
                        "holds {}, which oddsmith did not write; a run replaces the whole directory, so choose a new or empty --out (or move that away)",
                        foreign.display()
                    ),
                ));
            }
        }
        let prefix = staging.prefix(STAGING);
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).rand_bytes(8);
        // rwxrwxrwx before the umask, as `mkdir` gives any directory: the
        // staging directory becomes `--out`, so it must not stay owner-only.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o777));
        }
        let dir = builder
            .tempdir_in(&staging.parent)
            .map_err(|e| io(out, format!("cannot create the output directory: {e}")))?;
        staging.dir = Some(dir);
        Ok(staging)
    }

    /// Refuse further writes (with [`OutputError::Interrupted`]) once
    /// `flag` is set.
    pub fn stop_on(mut self, flag: &'static AtomicBool) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Where the outputs will be once committed.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// The staging directory itself.
    pub fn path(&self) -> &Path {
        self.dir
            .as_ref()
            .map(|d| d.path())
            .expect("a staging directory exists until commit")
    }

    /// The top of the staging directory.
    pub fn root(&self) -> Dest<'_> {
        Dest {
            staging: self,
            dir: self.path().to_path_buf(),
        }
    }

    /// A new subdirectory `name` (a plain name) of the staging directory.
    pub fn subdir(&self, name: &str) -> Result<Dest<'_>, OutputError> {
        self.check_stop()?;
        let dir = self.path().join(plain(name)?);
        fs::create_dir(&dir).map_err(|e| io(&dir, e))?;
        Ok(Dest { staging: self, dir })
    }

    /// Copy into the staging directory every subdirectory `out` holds now
    /// whose name is not in `except`, so the commit keeps them: how `check
    /// --report DIR` with some scenarios replaces only their reports. The
    /// subdirectories hold output files only ([`begin`](Self::begin)
    /// refused anything else); a symbolic link among them is not followed
    /// but dropped, as a run replaces it. The names kept, sorted.
    pub fn carry_over(&self, except: &[String]) -> Result<Vec<String>, OutputError> {
        let mut kept = Vec::new();
        let Ok(entries) = fs::read_dir(&self.out) else {
            return Ok(kept);
        };
        for e in entries {
            self.check_stop()?;
            let e = e.map_err(|e| io(&self.out, e))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.file_type().map_err(|err| io(&e.path(), err))?.is_dir();
            if !is_dir || name.starts_with('.') || except.contains(&name) {
                continue;
            }
            let to = self.path().join(&name);
            fs::create_dir(&to).map_err(|err| io(&to, err))?;
            for f in fs::read_dir(e.path()).map_err(|err| io(&e.path(), err))? {
                let f = f.map_err(|err| io(&e.path(), err))?;
                if f.file_type().map_err(|err| io(&f.path(), err))?.is_file() {
                    fs::copy(f.path(), to.join(f.file_name())).map_err(|err| io(&f.path(), err))?;
                }
            }
            kept.push(name);
        }
        kept.sort();
        Ok(kept)
    }

    fn check_stop(&self) -> Result<(), OutputError> {
        match self.stop {
            Some(flag) if flag.load(Ordering::SeqCst) => Err(OutputError::Interrupted),
            _ => Ok(()),
        }
    }

    /// `.NAME.KIND.PID.`: the start of a staging or aside directory's name.
    fn prefix(&self, kind: &str) -> OsString {
        let mut p = OsString::from(".");
        p.push(&self.name);
        p.push(format!(".{kind}.{}.", std::process::id()));
        p
    }

    /// Swap the staged outputs in, replacing whatever run `out` held.
    pub fn commit(mut self) -> Result<PathBuf, OutputError> {
        self.check_stop()?;
        let staged = self.path().to_path_buf();
        sync_tree(&staged).map_err(|e| io(&staged, e))?;
        let dir = self.dir.take().expect("not yet committed").keep();
        let result = if self.out.is_dir() {
            swap(&dir, &self.out, || {
                tempfile::Builder::new()
                    .prefix(&self.prefix(ASIDE))
                    .rand_bytes(8)
                    .tempdir_in(&self.parent)
                    .map(|d| d.keep())
            })
        } else {
            fs::rename(&dir, &self.out)
        };
        if let Err(e) = result {
            let _ = fs::remove_dir_all(&dir);
            return Err(io(
                &self.out,
                format!("cannot put the outputs in place: {e}"),
            ));
        }
        let _ = File::open(&self.parent).and_then(|d| d.sync_all());
        self.created.clear();
        Ok(self.out.clone())
    }

    /// Remove the hidden directories of runs into `out` that were killed
    /// (their process is gone). If a kill came between moving the previous
    /// run aside and moving the new one in, the previous run is put back.
    fn clean_leftovers(&self) {
        let Ok(entries) = fs::read_dir(&self.parent) else {
            return;
        };
        let mut start = OsString::from(".");
        start.push(&self.name);
        start.push(".");
        let start = start.to_string_lossy().into_owned();
        let mut asides = Vec::new();
        for e in entries.flatten() {
            let file_name = e.file_name().to_string_lossy().into_owned();
            let Some(rest) = file_name.strip_prefix(&start) else {
                continue;
            };
            let mut parts = rest.splitn(3, '.');
            let (Some(kind), Some(pid)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(pid) = pid.parse::<u32>() else {
                continue;
            };
            if !(kind == STAGING || kind == ASIDE) || process_alive(pid) {
                continue;
            }
            let path = e.path();
            match (kind == ASIDE, e.file_type()) {
                (true, Ok(t)) if t.is_dir() => asides.push(path),
                // Never follows a symbolic link: remove_dir_all removes
                // the link itself.
                (_, Ok(t)) if t.is_dir() => {
                    let _ = fs::remove_dir_all(&path);
                }
                _ => {
                    let _ = fs::remove_file(&path);
                }
            }
        }
        for aside in asides {
            if !self.out.exists() && fs::rename(&aside, &self.out).is_ok() {
                continue;
            }
            let _ = fs::remove_dir_all(&aside);
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // Not committed: the TempDir removes the staging directory; remove
        // the ancestors made for it too, if they are still empty.
        drop(self.dir.take());
        for dir in self.created.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

/// A directory inside the staging directory that files are written to.
pub struct Dest<'a> {
    staging: &'a Staging,
    dir: PathBuf,
}

impl Dest<'_> {
    /// Create `name` (a plain file name) with `O_EXCL`, for writers that
    /// stream.
    pub fn create(&self, name: &str) -> Result<File, OutputError> {
        self.staging.check_stop()?;
        let path = self.dir.join(plain(name)?);
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => io(
                    &self.staging.out.join(name),
                    "two outputs of this run have this name",
                ),
                _ => io(&path, e),
            })
    }

    /// A scratch file beside the outputs, already unlinked: never part of
    /// the run's outputs, and gone whenever the run ends, even killed.
    pub fn scratch(&self) -> Result<File, OutputError> {
        self.staging.check_stop()?;
        tempfile::tempfile_in(&self.dir).map_err(|e| io(&self.dir, e))
    }

    /// Where `name` is written, for messages about it.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Write `bytes` as the new file `name`.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let mut f = self.create(name)?;
        let path = self.dir.join(name);
        f.write_all(bytes).map_err(|e| io(&path, e))
    }

    /// Write every `(name, bytes)`.
    pub fn write_all(&self, files: &[(String, Vec<u8>)]) -> Result<(), OutputError> {
        files.iter().try_for_each(|(n, b)| self.write(n, b))
    }

    /// Add an existing file under `name`: a hard link where possible (no
    /// copy, and `link` never replaces anything), else an `O_EXCL` copy.
    pub fn link(&self, name: &str, from: &Path) -> Result<(), OutputError> {
        self.staging.check_stop()?;
        let path = self.dir.join(plain(name)?);
        if fs::hard_link(from, &path).is_ok() {
            return Ok(());
        }
        let mut src = File::open(from).map_err(|e| io(from, e))?;
        let mut dst = self.create(name)?;
        std::io::copy(&mut src, &mut dst).map_err(|e| io(&path, e))?;
        Ok(())
    }
}

/// `name` when it is one plain path component.
fn plain(name: &str) -> Result<&str, OutputError> {
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) if !name.contains('/') => Ok(name),
        _ => Err(io(
            Path::new(name),
            "is not a plain file name (no directories, no ..)",
        )),
    }
}

/// Make the missing ancestors of `dir`, returning those made, outermost
/// first.
fn create_ancestors(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at {
        if d.as_os_str().is_empty() || fs::symlink_metadata(d).is_ok() {
            break;
        }
        missing.push(d.to_path_buf());
        at = d.parent();
    }
    missing.reverse();
    let mut made = Vec::new();
    for d in missing {
        match fs::create_dir(&d) {
            Ok(()) => made.push(d),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => {
                for m in made.iter().rev() {
                    let _ = fs::remove_dir(m);
                }
                return Err(e);
            }
        }
    }
    if !dir.is_dir() {
        return Err(std::io::Error::other(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    Ok(made)
}

/// The first entry of `dir` that oddsmith would not have written, if any:
/// a run replaces the whole directory, so it must hold nothing else (this
/// keeps `--out .` or `--out ~` from replacing a home or a project). Output
/// files, per-scenario subdirectories of `check --out`, and the temporary
/// files of older versions are oddsmith's; a non-empty directory must also
/// hold a `report.md` or `manifest.json`, so a folder of pictures is not
/// taken for charts.
fn foreign_entry(dir: &Path, nested: bool) -> std::io::Result<Option<PathBuf>> {
    let (mut files, mut marked) = (0usize, false);
    for e in fs::read_dir(dir)? {
        let e = e?;
        let kind = e.file_type()?;
        let name = e.file_name().to_string_lossy().into_owned();
        // A link with an output's name goes with the old run: it is
        // replaced, never followed.
        if (kind.is_file() || kind.is_symlink()) && is_output_name(&name) {
            files += 1;
            marked |= kind.is_file() && (name == "report.md" || name == "manifest.json");
        } else if kind.is_dir() && !nested && !name.starts_with('.') {
            if let Some(f) = foreign_entry(&e.path(), true)? {
                return Ok(Some(f));
            }
        } else {
            return Ok(Some(e.path()));
        }
    }
    Ok((files > 0 && !marked).then(|| dir.to_path_buf()))
}

fn is_output_name(name: &str) -> bool {
    DATA_FILES.contains(&name)
        || name.ends_with(".png")
        || name.ends_with(".svg")
        // Temporary files and write probes of older versions.
        || (name.starts_with('.') && name.ends_with(".tmp"))
        || name.starts_with(".oddsmith-probe-")
}

/// Put `new` where `out` is and remove the run `out` held.
fn swap(
    new: &Path,
    out: &Path,
    make_aside: impl FnOnce() -> std::io::Result<PathBuf>,
) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        // One atomic step: `out` is never missing, not even for an
        // instant. The old run is then where the staging directory was.
        if renameat_with(CWD, new, CWD, out, RenameFlags::EXCHANGE).is_ok() {
            let _ = fs::remove_dir_all(new);
            return Ok(());
        }
    }
    swap_by_renames(new, out, make_aside)
}

/// The portable swap: old aside, new in, old deleted. A kill between the
/// two renames is undone by the next run ([`Staging::clean_leftovers`]).
fn swap_by_renames(
    new: &Path,
    out: &Path,
    make_aside: impl FnOnce() -> std::io::Result<PathBuf>,
) -> std::io::Result<()> {
    // An empty directory with a fresh random name; renaming a directory
    // onto an empty one replaces it.
    let aside = make_aside()?;
    if let Err(e) = fs::rename(out, &aside) {
        let _ = fs::remove_dir(&aside);
        return Err(e);
    }
    if let Err(e) = fs::rename(new, out) {
        let _ = fs::rename(&aside, out);
        return Err(e);
    }
    let _ = fs::remove_dir_all(&aside);
    Ok(())
}

/// Flush every file and directory under `dir` to disk, so the swap never
/// exposes files whose data is not there yet.
fn sync_tree(dir: &Path) -> std::io::Result<()> {
    for e in fs::read_dir(dir)? {
        let e = e?;
        if e.file_type()?.is_dir() {
            sync_tree(&e.path())?;
        } else {
            File::open(e.path())?.sync_all()?;
        }
    }
    // Directories cannot be opened for syncing everywhere; where they
    // can, this makes the new names durable.
    let _ = File::open(dir).and_then(|d| d.sync_all());
    Ok(())
}

/// Whether process `pid` still runs (so its staging directory is live).
/// Where `/proc` cannot tell, a leftover counts as abandoned.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    proc.join("self").exists() && proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests;
