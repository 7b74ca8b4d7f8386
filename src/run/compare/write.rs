//! The one place that writes report folders.
//!
//! Every file is written into a hidden staging folder *inside* the output
//! folder, so that the final renames never cross a file system (the output
//! folder may be a mount point, a Docker volume, or a link to another disk).
//! Only when every file is complete does `Staging::commit` sync them and
//! move them into place, one `rename` per file, `README.md` last. Until then
//! an earlier report stays untouched; an error drops the staging folder.
//!
//! Concurrent writers take turns through an advisory lock on the output
//! folder (`FolderLock`, `flock` through `std::fs::File::lock`): `compare`
//! holds it while it creates its staging folder and while it commits;
//! `report` holds it from reading `results.csv` to its commit. So two runs
//! into one folder leave the complete report of whichever committed last,
//! never files of both. Each staging folder is itself locked by its writer:
//! a staging folder nobody holds is a killed run's leftover, and the next
//! writer removes it.

use std::fs::{self, File, TryLockError};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, bail};

use crate::io::output::{note, sync_dir};

/// Staging folders of this process that are not committed yet, with the
/// output folder when this process created it. Commits hold the mutex while
/// renaming, so an interrupt either waits for a commit to end or removes the
/// folders before any rename starts.
static ACTIVE: Mutex<Vec<(PathBuf, Option<PathBuf>)>> = Mutex::new(Vec::new());

fn active() -> MutexGuard<'static, Vec<(PathBuf, Option<PathBuf>)>> {
    ACTIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// For an interrupt handler: removes every uncommitted staging folder (and
/// an output folder this run created, if it is empty) and ends the process
/// with `code`. Earlier reports are left as they were.
pub(crate) fn abandon_and_exit(code: i32) -> ! {
    let guard = active();
    for (dir, created) in guard.iter() {
        let _ = fs::remove_dir_all(dir);
        if let Some(out) = created {
            let _ = fs::remove_dir(out);
        }
    }
    std::process::exit(code)
}

/// The report's main page: moved into place last so that it never links to
/// files that are not there yet.
const LAST: &str = "README.md";

/// Names of staging folders inside a report folder: hidden, and recognisable
/// as ours (`.sudoku-lab.partial-PID-N`).
pub const STAGING_PREFIX: &str = ".sudoku-lab.partial-";

/// An exclusive advisory lock on a report folder, released when dropped (or
/// when the process ends, however it ends).
#[derive(Debug)]
pub(crate) struct FolderLock {
    dir: PathBuf,
    /// `None` where the file system cannot lock (a warning was printed).
    _file: Option<File>,
}

impl FolderLock {
    /// Locks the folder `dir`, which must exist, waiting (with a note on
    /// standard error) while another process holds it.
    pub fn acquire(dir: &Path) -> anyhow::Result<FolderLock> {
        let file = File::open(dir).with_context(|| format!("cannot open {}", dir.display()))?;
        let file = match file.try_lock() {
            Ok(()) => Some(file),
            Err(TryLockError::WouldBlock) => {
                note(format_args!(
                    "waiting for another sudoku-lab writing to {} ...",
                    dir.display()
                ));
                file.lock()
                    .with_context(|| format!("cannot lock {}", dir.display()))?;
                Some(file)
            }
            Err(TryLockError::Error(e)) => {
                note(format_args!(
                    "warning: cannot lock {} ({e}); runs writing to it at the same time may mix their files",
                    dir.display()
                ));
                None
            }
        };
        Ok(FolderLock {
            dir: dir.to_path_buf(),
            _file: file,
        })
    }
}

/// Creates `out` (and the folders above it) and locks it: what every writer
/// of a report folder does first.
fn lock_folder(out: &Path) -> anyhow::Result<(FolderLock, bool)> {
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
    let created = !out.exists();
    // A symbolic link to a folder that does not exist yet (`--out link`):
    // create the folder it names, as a file is written through a link.
    let real = crate::io::output::follow_links(out)?;
    fs::create_dir_all(&real).with_context(|| {
        format!(
            "cannot write the report to {}: cannot create the folder",
            out.display()
        )
    })?;
    Ok((FolderLock::acquire(out)?, created))
}

/// The hidden list of the files a report consists of, written with them:
/// the next report into the folder removes those it does not write itself,
/// so a folder never mixes two runs' files (and never loses a file the lab
/// did not write).
const MANIFEST: &str = ".sudoku-lab-files";

/// Whether `name` in a report folder is the lab's own bookkeeping (a
/// staging folder or the manifest), not a file of a report or of a user.
fn bookkeeping(name: &str) -> bool {
    name.starts_with(STAGING_PREFIX) || name == MANIFEST
}

/// Keys every `meta.csv` the lab ever wrote has: a folder without
/// [`MANIFEST`] whose `meta.csv` has them all is a report from before the
/// lab kept its list of files (a `key,value` file of a user's has not).
const LAB_KEYS: [&str; 7] = [
    "command",
    "commit",
    "version",
    "cpu",
    "date",
    "strategies",
    "budget",
];

/// Whether `out` holds a report written before [`MANIFEST`] existed: no
/// manifest, and a `meta.csv` with the lab's own keys. Its files are
/// recognised by name ([`Staging::known_names`]).
pub(crate) fn old_report(out: &Path) -> bool {
    !out.join(MANIFEST).exists()
        && fs::read(out.join(super::META))
            .ok()
            .and_then(|b| crate::io::meta::Meta::from_csv(&b).ok())
            .is_some_and(|m| LAB_KEYS.iter().all(|k| m.get(k).is_some()))
}

/// The one guard of every writer of a report folder (`compare --out`,
/// `report DIR`, `report merge --out`): refuses a folder the lab did not
/// make, that is one holding files but neither the list of files the lab
/// writes into each report folder ([`MANIFEST`]) nor, from before that
/// list, a `meta.csv` of the lab's keys ([`old_report`]). Files named in
/// `reads` (what the writer reads and keeps) do not count. `force` writes
/// anyway: files of the report's names are replaced, and no other file is
/// removed (the stale files of a previous report are only removed where
/// the manifest or an old report names them). A missing or empty folder is
/// fine. Checked before anything is measured.
pub(crate) fn check_out(out: &Path, force: bool, reads: &[&str]) -> anyhow::Result<()> {
    if force || !out.is_dir() || out.join(MANIFEST).exists() || old_report(out) {
        return Ok(());
    }
    let entries =
        fs::read_dir(out).with_context(|| format!("cannot read the folder {}", out.display()))?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !bookkeeping(n) && !reads.contains(&n.as_str()))
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    names.sort();
    let shown = if names.len() > 3 {
        format!("{}, … ({} entries)", names[..3].join(", "), names.len())
    } else {
        names.join(", ")
    };
    bail!(
        "refusing to write the report into {}: the folder holds files ({shown}) and no {MANIFEST} (the list of its files the lab writes into every report folder it makes), so the lab did not make it; choose another folder, or add --force to write the report into it (files of the report's names are replaced, no other file is removed)",
        out.display()
    )
}

/// A folder of files being written, to be swapped into `out` as a whole.
#[derive(Debug)]
pub(crate) struct Staging {
    dir: PathBuf,
    out: PathBuf,
    /// `out` when this run created it: removed again (if empty) on failure.
    created: Option<PathBuf>,
    files: Vec<String>,
    /// Files of the report already in `out` that this run keeps as they
    /// are (`report` redraws from `results.csv` without rewriting it).
    kept: Vec<String>,
    /// When `out` holds no manifest (a report from before manifests), the
    /// names a report may have: those the new one does not write are
    /// removed. Set only for a folder recognised as a report.
    known: Vec<String>,
    committed: bool,
    /// Held while the staging folder exists: tells other runs it is alive.
    _alive: Option<File>,
}

impl Staging {
    /// Creates the staging folder inside `out` (creating `out` if needed)
    /// and removes leftovers of killed runs. Fails at once, naming `out`,
    /// when `out` or a folder above it is a file: otherwise the run would
    /// only find out at [`Staging::commit`].
    pub fn new(out: &Path) -> anyhow::Result<Staging> {
        let (lock, created) = lock_folder(out)?;
        Staging::open(&lock, created.then(|| out.to_path_buf()))
    }

    /// [`Staging::new`] for a caller that already holds the folder's lock.
    pub fn with_lock(lock: &FolderLock) -> anyhow::Result<Staging> {
        Staging::open(lock, None)
    }

    fn open(lock: &FolderLock, created: Option<PathBuf>) -> anyhow::Result<Staging> {
        let out = &lock.dir;
        remove_stale(out);
        let pid = std::process::id();
        let mut attempt = 0u32;
        loop {
            let dir = out.join(format!("{STAGING_PREFIX}{pid}-{attempt}"));
            match fs::create_dir(&dir) {
                Ok(()) => {
                    let alive = File::open(&dir).ok().filter(|f| f.try_lock().is_ok());
                    active().push((dir.clone(), created.clone()));
                    return Ok(Staging {
                        dir,
                        out: out.clone(),
                        created,
                        files: Vec::new(),
                        kept: Vec::new(),
                        known: Vec::new(),
                        committed: false,
                        _alive: alive,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1;
                }
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!("cannot create a staging folder in {}", out.display())
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
        if !valid_name(name) {
            bail!("BUG: bad report file name {name:?}");
        }
        if !self.files.iter().any(|f| f == name) {
            self.files.push(name.to_string());
        }
        Ok(self.path(name))
    }

    /// Counts `name`, already in the output folder, as a file of the new
    /// report (not staged, not removed).
    pub fn keep(&mut self, name: &str) {
        if !self.kept.iter().any(|f| f == name) {
            self.kept.push(name.to_string());
        }
    }

    /// The names a report of the lab may have, for a folder whose report
    /// predates manifests (see [`MANIFEST`]).
    pub fn known_names(&mut self, names: Vec<String>) {
        self.known = names;
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

    /// Syncs every staged file, then moves them into `out`, `README.md`
    /// last, and removes the staging folder. `lock` must be the lock of
    /// `out`. Files of the previous report (its [`MANIFEST`]) that this one
    /// does not produce are removed; any other file in `out` is left alone.
    pub fn commit(mut self, lock: &FolderLock) -> anyhow::Result<()> {
        if lock.dir != self.out {
            bail!(
                "BUG: committing {} under the lock of {}",
                self.out.display(),
                lock.dir.display()
            );
        }
        let mut order = self.files.clone();
        order.sort_by_key(|f| f == LAST);
        // A folder in the way would stop the swap halfway: refuse up front.
        if let Some(name) = order.iter().find(|n| self.out.join(n).is_dir()) {
            bail!(
                "cannot write {}: a folder of that name is in the way",
                self.out.join(name).display()
            );
        }
        // The new manifest, staged with the files; the old one says what
        // the previous report consisted of.
        let mut listed: Vec<String> = self.files.iter().chain(&self.kept).cloned().collect();
        listed.sort();
        listed.dedup();
        let manifest: String = listed.iter().map(|n| format!("{n}\n")).collect();
        let manifest_path = self.dir.join(MANIFEST);
        fs::write(&manifest_path, manifest)
            .with_context(|| format!("cannot write {}", manifest_path.display()))?;
        let previous: Vec<String> = match fs::read_to_string(self.out.join(MANIFEST)) {
            Ok(text) => text.lines().map(str::to_string).collect(),
            Err(_) => self.known.clone(),
        };
        let stale: Vec<String> = previous
            .into_iter()
            .filter(|n| valid_name(n) && !listed.contains(n))
            .collect();
        // Data first on disk, then the names: a crash never leaves a
        // renamed but empty file.
        order.insert(
            order.len() - usize::from(order.last().is_some_and(|n| n == LAST)),
            MANIFEST.to_string(),
        );
        for name in &order {
            let path = self.dir.join(name);
            File::open(&path)
                .and_then(|f| f.sync_all())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let mut guard = active();
        for name in &order {
            let from = self.dir.join(name);
            let to = self.out.join(name);
            fs::rename(&from, &to)
                .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))?;
        }
        self.committed = true;
        guard.retain(|(d, _)| *d != self.dir);
        drop(guard);
        for name in &stale {
            let path = self.out.join(name);
            // Only a regular file of that name: never a folder or a link.
            if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file()) {
                fs::remove_file(&path).with_context(|| {
                    format!("cannot remove {} (of the previous report)", path.display())
                })?;
            }
        }
        sync_dir(&self.out);
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
            if let Some(out) = &self.created {
                let _ = fs::remove_dir(out);
            }
            guard.retain(|(d, _)| *d != self.dir);
        }
    }
}

/// A report file's name: plain, in the folder itself, not hidden.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\']) && !name.starts_with('.')
}

/// Removes staging folders left by killed runs: those no process holds
/// locked. Called with the folder's lock held, so no writer is between
/// creating its staging folder and locking it.
fn remove_stale(out: &Path) {
    let Ok(entries) = fs::read_dir(out) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
        {
            continue;
        }
        let path = entry.path();
        let unheld = File::open(&path).is_ok_and(|f| f.try_lock().is_ok());
        if unheld {
            let _ = fs::remove_dir_all(&path);
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
        s.commit(&FolderLock::acquire(&out).unwrap()).unwrap();
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
    fn unheld_staging_folders_are_removed_held_ones_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("reports");
        fs::create_dir(&out).unwrap();
        // A killed run's leftover: nobody holds its lock.
        let stale = out.join(format!("{STAGING_PREFIX}0-0"));
        fs::create_dir(&stale).unwrap();
        fs::write(stale.join("results.csv"), "x").unwrap();
        let live = Staging::new(&out).unwrap();
        assert!(!stale.exists());
        // A running writer's staging folder survives the next writer.
        let other = Staging::new(&out).unwrap();
        assert!(live.dir().is_dir() && other.dir().is_dir());
        assert_ne!(live.dir(), other.dir());
        drop(live);
        drop(other);
        assert_eq!(listing(&out), Vec::<String>::new());
    }

    #[test]
    fn a_folder_made_for_a_failed_report_is_removed_again() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("a/reports");
        let mut s = Staging::new(&out).unwrap();
        assert!(s.dir().starts_with(&out));
        s.write("README.md", b"half").unwrap();
        drop(s);
        assert!(!out.exists());
    }

    #[test]
    fn a_second_lock_waits_for_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let first = FolderLock::acquire(tmp.path()).unwrap();
        let dir = File::open(tmp.path()).unwrap();
        assert!(matches!(dir.try_lock(), Err(TryLockError::WouldBlock)));
        drop(first);
        assert!(dir.try_lock().is_ok());
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
