//! Everything the lab writes, except report folders: standard output
//! ([`stdout`], [`print()`]), diagnostics on standard error ([`note`]) and
//! single files ([`write_file`]). Report folders, which are several files,
//! are staged as a whole by `compare::write`.
//!
//! Standard-output failures are tagged ([`StdoutError`]) so that the one
//! place that turns errors into exit codes (`cli::exit_code`) can end a
//! command quietly when the reader of a pipe has gone (`| head`), and report
//! any other failure (a full disk) as an I/O error. Nothing here panics.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, StdoutLock, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The cause of an [`io::Error`] from writing standard output: the error is
/// `io::Error::new(kind, StdoutError(original))`, so it keeps its kind and
/// travels through `?` and `anyhow` like any I/O error.
#[derive(Debug, thiserror::Error)]
#[error("cannot write to standard output")]
struct StdoutError(#[source] pub io::Error);

/// Marks `e`, from writing standard output, as a [`StdoutError`].
pub(crate) fn stdout_error(e: io::Error) -> io::Error {
    if e.get_ref().is_some_and(|inner| inner.is::<StdoutError>()) {
        return e;
    }
    io::Error::new(e.kind(), StdoutError(e))
}

/// If `err` (or an error it wraps) is a standard-output failure, its kind.
pub(crate) fn stdout_failure(err: &(dyn std::error::Error + 'static)) -> Option<io::ErrorKind> {
    let mut cur = Some(err);
    while let Some(e) = cur {
        if let Some(io) = e.downcast_ref::<io::Error>()
            && io.get_ref().is_some_and(|inner| inner.is::<StdoutError>())
        {
            return Some(io.kind());
        }
        cur = e.source();
    }
    None
}

/// Buffered, locked standard output whose errors are tagged as
/// [`StdoutError`]. Call `flush` at the end: dropping it flushes too but
/// cannot report a failure.
pub struct Stdout(BufWriter<StdoutLock<'static>>);

/// The standard output every command writes to.
pub fn stdout() -> Stdout {
    Stdout(BufWriter::new(io::stdout().lock()))
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        halt_if_interrupted();
        self.0.write(buf).map_err(stdout_error)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        halt_if_interrupted();
        self.0.write_all(buf).map_err(stdout_error)
    }
    fn flush(&mut self) -> io::Result<()> {
        halt_if_interrupted();
        self.0.flush().map_err(stdout_error)
    }
}

/// Set by the interrupt handler before it ends the outside programs: from
/// then on, no other thread writes anything (a result table after a
/// program was killed under it would report a crash that never happened).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// For the interrupt handler: stops every other thread at its next output
/// (it waits there for the handler's exit), then says `line` on standard
/// error.
pub(crate) fn interrupt(line: impl fmt::Display) {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// Waits for the process to end if an interrupt is being handled.
pub(crate) fn halt_if_interrupted() {
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = stdout();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes one diagnostic line to standard error. Failures are ignored:
/// standard error is the channel of last resort (`eprintln!` would panic).
pub fn note(line: impl fmt::Display) {
    halt_if_interrupted();
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// How [`write_file`] treats what is at the target path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    /// Nothing there yet, or a regular file: write a temporary file in the
    /// same folder and rename it over `path` (links already followed).
    Replace(PathBuf),
    /// A character device or a FIFO (`truncate: false`), or a regular
    /// file reached through a kernel link to an open file (`/dev/stdout`):
    /// open it and write, as a shell `>` would.
    Through { truncate: bool },
}

/// Most symbolic links followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// Decides how to write `path`, or refuses with the reason.
fn target(path: &Path) -> anyhow::Result<Target> {
    let shown = path.display();
    match fs::metadata(path) {
        Ok(meta) => {
            let ft = meta.file_type();
            if ft.is_dir() {
                bail!("cannot write {shown}: it is a folder");
            }
            if ft.is_char_device() || ft.is_fifo() {
                return Ok(Target::Through { truncate: false });
            }
            if !ft.is_file() {
                let what = if ft.is_block_device() {
                    "a block device"
                } else if ft.is_socket() {
                    "a socket"
                } else {
                    "not a regular file"
                };
                bail!(
                    "cannot write {shown}: it is {what}; sudoku-lab writes regular files, character devices (/dev/null) and FIFOs"
                );
            }
            if names_an_open_file(path) {
                return Ok(Target::Through { truncate: true });
            }
            let real = fs::canonicalize(path)
                .with_context(|| format!("cannot write {shown}: cannot resolve its links"))?;
            Ok(Target::Replace(real))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Nothing there, or a link to a file that does not exist yet:
            // create the file the link names (as `>` would), atomically.
            let end = follow_links(path)?;
            let parent = parent_of(&end);
            match fs::metadata(&parent) {
                Ok(m) if m.is_dir() => Ok(Target::Replace(end)),
                Ok(_) => bail!("cannot write {shown}: {} is not a folder", parent.display()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Err(e).with_context(|| {
                    format!(
                        "cannot write {shown}: the folder {} does not exist",
                        parent.display()
                    )
                }),
                Err(e) => Err(e).with_context(|| format!("cannot write {shown}")),
            }
        }
        Err(e) => Err(e).with_context(|| format!("cannot write {shown}")),
    }
}

/// `/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`: kernel links to files the
/// shell opened, which must not be replaced behind its back.
fn names_an_open_file(path: &Path) -> bool {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match std::env::current_dir() {
            Ok(cwd) => cwd.join(path),
            Err(_) => return false,
        }
    };
    abs.starts_with("/proc")
        || abs.starts_with("/dev/fd")
        || ["/dev/stdout", "/dev/stderr"]
            .iter()
            .any(|p| abs == Path::new(p))
}

/// Follows symbolic links at the end of `path` until something that is not
/// a link (or nothing) is named.
pub(crate) fn follow_links(path: &Path) -> anyhow::Result<PathBuf> {
    let mut cur = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&cur)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                cur = parent_of(&cur).join(link);
            }
            _ => return Ok(cur),
        }
    }
    bail!(
        "cannot write {}: more than {MAX_LINKS} symbolic links",
        path.display()
    )
}

/// The folder of `path` (`.` for a bare file name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes a whole output file (`generate --out`, `trace --chart`) so that
/// no reader ever sees half of it and nothing but a regular file is replaced:
///
/// * a new path or a regular file: a temporary file in the same folder,
///   synced, then renamed over it (keeping the old file's permissions);
///   symbolic links are followed, so the link stays and its target is replaced;
/// * a character device (`/dev/null`) or a FIFO: written through;
/// * a folder, block device or socket: refused.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    halt_if_interrupted();
    match target(path)? {
        Target::Through { truncate } => {
            let mut f = OpenOptions::new()
                .write(true)
                .truncate(truncate)
                .open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            f.write_all(bytes)
                .and_then(|()| f.flush())
                .with_context(|| format!("cannot write {}", path.display()))
        }
        Target::Replace(real) => replace(path, &real, bytes),
    }
}

/// Temp file beside `real`, then rename over it.
fn replace(shown: &Path, real: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = parent_of(real);
    let name = real
        .file_name()
        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned());
    // The cause is the folder, not the file: say which.
    let (tmp, mut file) = create_temp(&dir, &name).with_context(|| {
        format!(
            "cannot write {}: cannot create a temporary file in {}",
            shown.display(),
            dir.display()
        )
    })?;
    let result = (|| -> io::Result<()> {
        file.write_all(bytes)?;
        if let Ok(old) = fs::metadata(real) {
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, real)?;
        sync_dir(&dir);
        Ok(())
    })()
    .with_context(|| format!("cannot write {}", shown.display()));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// A new, hidden temporary file in `dir`: never an existing file or link.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut attempt = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{pid}-{attempt}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Makes renames in `dir` durable. Best effort: some file systems cannot
/// sync a folder, and the rename itself already happened.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdout_errors_are_recognised_through_anyhow_context() {
        let e = stdout_error(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(
            stdout_error(e).to_string(),
            "cannot write to standard output"
        );
        let e = stdout_error(io::Error::from(io::ErrorKind::BrokenPipe));
        let wrapped = anyhow::Error::from(e).context("printing the table");
        assert_eq!(
            stdout_failure(wrapped.as_ref()),
            Some(io::ErrorKind::BrokenPipe)
        );
        let plain = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(stdout_failure(plain.as_ref()), None);
    }

    #[test]
    fn targets() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("a.txt");
        assert_eq!(target(&file).unwrap(), Target::Replace(file.clone()));
        fs::write(&file, "x").unwrap();
        let real = fs::canonicalize(&file).unwrap();
        assert_eq!(target(&file).unwrap(), Target::Replace(real.clone()));
        let link = tmp.path().join("link.txt");
        std::os::unix::fs::symlink("a.txt", &link).unwrap();
        assert_eq!(target(&link).unwrap(), Target::Replace(real));
        let dangling = tmp.path().join("dangling.txt");
        std::os::unix::fs::symlink("new.txt", &dangling).unwrap();
        assert_eq!(
            target(&dangling).unwrap(),
            Target::Replace(tmp.path().join("new.txt"))
        );
        assert_eq!(
            target(Path::new("/dev/null")).unwrap(),
            Target::Through { truncate: false }
        );
        let err = format!("{:#}", target(tmp.path()).unwrap_err());
        assert!(err.ends_with("it is a folder"), "{err}");
        let err = format!("{:#}", target(&tmp.path().join("no/x.txt")).unwrap_err());
        assert!(
            err.contains("the folder") && err.contains("does not exist"),
            "{err}"
        );
    }
}
