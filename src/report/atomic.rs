//! The output directory, written all-or-nothing.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Failure to produce or write an output.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("cannot encode {what}: {message}")]
    Encode { what: String, message: String },
}

fn io(path: &Path, e: std::io::Error) -> OutputError {
    OutputError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// An output directory, made (if needed) before the run starts so a bad
/// path fails fast, and removed again if the run writes nothing into it.
#[derive(Debug)]
pub struct OutDir {
    path: PathBuf,
    created: bool,
}

impl OutDir {
    /// Make sure `path` is a directory we can write into.
    pub fn prepare(path: &Path) -> Result<OutDir, OutputError> {
        if path.exists() && !path.is_dir() {
            return Err(OutputError::Io {
                path: path.to_path_buf(),
                message: "exists and is not a directory; choose another --out".into(),
            });
        }
        let created = !path.exists();
        fs::create_dir_all(path).map_err(|e| OutputError::Io {
            path: path.to_path_buf(),
            message: format!("cannot create the output directory: {e}"),
        })?;
        let dir = OutDir {
            path: path.to_path_buf(),
            created,
        };
        // A probe file: permissions, read-only mounts and full disks show up
        // here rather than after a long run.
        let probe = path.join(format!(".oddsmith-probe-{}", std::process::id()));
        match fs::File::create(&probe).and_then(|mut f| f.write_all(b"ok")) {
            Ok(()) => {
                let _ = fs::remove_file(&probe);
                Ok(dir)
            }
            Err(e) => {
                let _ = fs::remove_file(&probe);
                dir.abandon();
                Err(OutputError::Io {
                    path: path.to_path_buf(),
                    message: format!("cannot write into the output directory: {e}"),
                })
            }
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Remove the directory again if this run created it and it is empty.
    pub fn abandon(&self) {
        if self.created {
            let _ = fs::remove_dir(&self.path);
        }
    }

    /// Write every `(name, bytes)` to a temporary file, then rename them all
    /// into place. On any failure the temporary files are removed and no
    /// final file is touched.
    pub fn write(&self, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>, OutputError> {
        let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
        let cleanup = |temps: &[(PathBuf, PathBuf)]| {
            for (tmp, _) in temps {
                let _ = fs::remove_file(tmp);
            }
        };
        for (name, bytes) in files {
            let tmp = self
                .path
                .join(format!(".{name}.{}.tmp", std::process::id()));
            let result = fs::File::create(&tmp).and_then(|mut f| {
                f.write_all(bytes)?;
                f.sync_all()
            });
            temps.push((tmp.clone(), self.path.join(name)));
            if let Err(e) = result {
                cleanup(&temps);
                self.abandon();
                return Err(io(&tmp, e));
            }
        }
        for (i, (tmp, fin)) in temps.iter().enumerate() {
            if let Err(e) = fs::rename(tmp, fin) {
                cleanup(&temps[i..]);
                return Err(io(fin, e));
            }
        }
        Ok(temps.into_iter().map(|(_, fin)| fin).collect())
    }
}
