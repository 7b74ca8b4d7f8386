//! The one place that writes report files.
//!
//! Everything goes into a hidden staging folder next to the output folder
//! (same file system, so renames are atomic). Only when every file is
//! complete does [`Staging::commit`] move them into place, one `rename` per
//! file, `README.md` last. Until then an earlier report stays untouched; an
//! error drops the staging folder; a killed process leaves a staging folder
//! that the next run removes (its process id is no longer alive).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, bail};

/// Staging folders of this process that are not committed yet. Commits hold
/// the lock while renaming, so an interrupt either waits for a commit to end
/// or removes the folders before any rename starts.
static ACTIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn active() -> MutexGuard<'static, Vec<PathBuf>> {
    ACTIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// For an interrupt handler: removes every uncommitted staging folder and
/// ends the process with `code`. Earlier reports are left as they were.
pub fn abandon_and_exit(code: i32) -> ! {
    let guard = active();
    for dir in guard.iter() {
        let _ = fs::remove_dir_all(dir);
    }
    std::process::exit(code)
}

/// The report's main page: moved into place last so that it never links to
/// files that are not there yet.
const LAST: &str = "README.md";

/// A folder of files being written, to be swapped into `out` as a whole.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    out: PathBuf,
    files: Vec<String>,
    committed: bool,
}

impl Staging {
    /// Creates the staging folder next to `out` (which need not exist yet).
    /// Fails at once, naming `out`, when `out` or a folder above it is a
    /// file: otherwise the run would only find out at [`Staging::commit`].
    pub fn new(out: &Path) -> anyhow::Result<Staging> {
        if let Some(file) = out
            .ancestors()
            .find(|a| !a.as_os_str().is_empty() && a.exists() && !a.is_dir())
        {
            bail!(
                "cannot write the report to {}: {} is a file, not a folder",
                out.display(),
                file.display()
            );
        }
        let parent = parent_of(out);
        fs::create_dir_all(&parent).with_context(|| {
            format!(
                "cannot write the report to {}: cannot create {}",
                out.display(),
                parent.display()
            )
        })?;
        let prefix = staging_prefix(out)?;
        remove_stale(&parent, &prefix);
        let pid = std::process::id();
        let mut attempt = 0u32;
        loop {
            let dir = parent.join(format!("{prefix}{pid}-{attempt}"));
            match fs::create_dir(&dir) {
                Ok(()) => {
                    active().push(dir.clone());
                    return Ok(Staging {
                        dir,
                        out: out.to_path_buf(),
                        files: Vec::new(),
                        committed: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1;
                }
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!("cannot create a folder in {}", parent.display())
                    });
                }
            }
        }
    }

    /// The staging folder (for tests and for reading back a staged file).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where a staged file lives until [`Staging::commit`].
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn register(&mut self, name: &str) -> anyhow::Result<PathBuf> {
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            bail!("internal error: bad report file name {name:?}");
        }
        if !self.files.iter().any(|f| f == name) {
            self.files.push(name.to_string());
        }
        Ok(self.path(name))
    }

    /// Opens a staged file for streaming (e.g. `results.csv`).
    pub fn create(&mut self, name: &str) -> anyhow::Result<BufWriter<File>> {
        let path = self.register(name)?;
        let file =
            File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(BufWriter::new(file))
    }

    /// Writes a whole staged file.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let mut w = self.create(name)?;
        w.write_all(bytes)
            .and_then(|()| w.flush())
            .with_context(|| format!("cannot write {}", self.path(name).display()))
    }

    /// Moves every staged file into `out` (created if needed), `README.md`
    /// last, then removes the staging folder. Files in `out` that this report
    /// does not produce are left alone.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let mut guard = active();
        fs::create_dir_all(&self.out)
            .with_context(|| format!("cannot create {}", self.out.display()))?;
        let mut order = self.files.clone();
        order.sort_by_key(|f| f == LAST);
        // A folder in the way would stop the swap halfway: refuse up front.
        if let Some(name) = order.iter().find(|n| self.out.join(n).is_dir()) {
            bail!(
                "cannot write {}: a folder of that name is in the way",
                self.out.join(name).display()
            );
        }
        for name in &order {
            let from = self.dir.join(name);
            let to = self.out.join(name);
            fs::rename(&from, &to)
                .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))?;
        }
        self.committed = true;
        guard.retain(|d| *d != self.dir);
        drop(guard);
        fs::remove_dir(&self.dir)
            .with_context(|| format!("cannot remove {}", self.dir.display()))?;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let mut guard = active();
            let _ = fs::remove_dir_all(&self.dir);
            guard.retain(|d| *d != self.dir);
        }
    }
}

fn parent_of(out: &Path) -> PathBuf {
    match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `.NAME.partial-`: hidden, and recognisable as ours.
fn staging_prefix(out: &Path) -> anyhow::Result<String> {
    let Some(name) = out.file_name() else {
        bail!("output folder {} has no name", out.display());
    };
    Ok(format!(".{}.partial-", name.to_string_lossy()))
}

/// Removes staging folders left by killed runs: those whose process id is
/// not running any more. Only where `/proc` tells us (Linux); elsewhere they stay.
fn remove_stale(parent: &Path, prefix: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn commit_replaces_files_and_leaves_no_staging() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("reports");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("README.md"), "old").unwrap();
        fs::write(out.join("keep.txt"), "mine").unwrap();
        let mut s = Staging::new(&out).unwrap();
        s.write("README.md", b"new").unwrap();
        s.write("a.csv", b"1").unwrap();
        // Nothing visible before commit.
        assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "old");
        assert!(!out.join("a.csv").exists());
        s.commit().unwrap();
        assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "new");
        assert_eq!(fs::read_to_string(out.join("a.csv")).unwrap(), "1");
        assert_eq!(fs::read_to_string(out.join("keep.txt")).unwrap(), "mine");
        assert_eq!(listing(tmp.path()), vec!["reports"]);
    }

    #[test]
    fn failure_before_commit_keeps_the_old_report() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("reports");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("README.md"), "old").unwrap();
        let result: anyhow::Result<()> = (|| {
            let mut s = Staging::new(&out)?;
            s.write("README.md", b"half")?;
            let mut w = s.create("results.csv")?;
            w.write_all(b"dataset,index\n")?;
            bail!("solver failed midway");
        })();
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "old");
        assert_eq!(listing(&out), vec!["README.md"]);
        assert_eq!(listing(tmp.path()), vec!["reports"]);
    }

    #[test]
    fn stale_staging_of_a_dead_process_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("reports");
        // pid 0 is never a user process: /proc/0 does not exist.
        let stale = tmp.path().join(".reports.partial-0-0");
        fs::create_dir(&stale).unwrap();
        fs::write(stale.join("results.csv"), "x").unwrap();
        let s = Staging::new(&out).unwrap();
        if Path::new("/proc/self").exists() {
            assert!(!stale.exists());
        }
        drop(s);
    }

    #[test]
    fn an_output_path_through_a_file_is_refused_up_front() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("somefile.txt");
        fs::write(&file, "x").unwrap();
        for out in [file.clone(), file.join("reports"), file.join("a/b")] {
            let err = format!("{:#}", Staging::new(&out).unwrap_err());
            assert_eq!(
                err,
                format!(
                    "cannot write the report to {}: {} is a file, not a folder",
                    out.display(),
                    file.display()
                )
            );
        }
        assert_eq!(listing(tmp.path()), vec!["somefile.txt"]);
    }

    #[test]
    fn rejects_names_that_escape_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = Staging::new(&tmp.path().join("r")).unwrap();
        assert!(s.write("../x", b"").is_err());
        assert!(s.write(".hidden", b"").is_err());
    }
}
