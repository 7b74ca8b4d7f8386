//! The public corpora (`sudoku-lab datasets fetch NAME`): the benchmark
//! lists every solver author measures on, fetched from where they are
//! published (tdoku's repository carries them in its `data.zip`), checked,
//! and kept in the user's data folder, so that `--dataset 17-clue` works on
//! any machine without copies of them in this repository.
//!
//! A fetched list is trusted by what it holds, not by its bytes: the
//! SHA-256 of its puzzles as the lab parses them (each in line layout, one
//! per line) must equal the catalogue's. So a list that differs from the
//! one the lab was measured on (a puzzle changed, added or lost, a corrupt
//! download) is refused, while a change of line endings or header comments
//! is not a change. The download is resumable: an interrupted one leaves its
//! partial file, and the next `fetch` asks the server for the rest (an HTTP
//! `Range` request), starting over if the server will not resume.

use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::base::progress::Progress;
use crate::io::dataset::{DatasetReader, Source};

/// One public corpus: its name in the lab, where it is in the archive, and
/// what the lab expects to find there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corpus {
    /// The name `--dataset` and `datasets fetch` take.
    pub name: &'static str,
    /// Its path inside the archive.
    pub entry: &'static str,
    /// Puzzles in the list.
    pub puzzles: u64,
    /// SHA-256 (hex) of the parsed list: [`list_hash`].
    pub sha256: &'static str,
    /// What it is, in a line.
    pub about: &'static str,
}

/// The archive the corpora come in, below the base URL
/// ([`crate::base::defaults::FETCH_BASE`], or `--from`).
const ARCHIVE: &str = "data.zip";

/// Environment variable that replaces the base URL (a mirror; the tests'
/// local server).
pub(crate) const BASE_ENV: &str = "SUDOKU_LAB_FETCH_BASE";

/// The corpora the lab can fetch. The hashes were computed from the lists
/// the lab's developers measure on; a list published differently is refused.
pub const CORPORA: [Corpus; 3] = [
    Corpus {
        name: "17-clue",
        entry: "data/puzzles2_17_clue",
        puzzles: 49_158,
        sha256: "0041377124d2982cbfdabfbf3f9ceab7649c975ade3ff731cdeaf799b7ad1b87",
        about: "every known 17-clue puzzle (Royle's list, completed by the Enjoy Sudoku forum): easy for a good solver",
    },
    Corpus {
        name: "top1465",
        entry: "data/puzzles3_magictour_top1465",
        puzzles: 1_465,
        sha256: "21d82f285082dc0db051f407cf23103af76bf077b368b04bd9e619f2bf6d2c1b",
        about: "magictour's top 1465: a classic list of hard puzzles",
    },
    Corpus {
        name: "forum-hardest-1106",
        entry: "data/puzzles6_forum_hardest_1106",
        puzzles: 375,
        sha256: "fb88ac7cfcc462154a41c62262192ccd40255c39db9bd827e5199f1e1660cd17",
        about: "the Enjoy Sudoku forum's hardest list of 2011: the most backtracking known",
    },
];

/// The corpus of that name.
pub fn corpus(name: &str) -> Option<&'static Corpus> {
    CORPORA.iter().find(|c| c.name == name)
}

/// The names, for messages.
pub fn names() -> String {
    let names: Vec<&str> = CORPORA.iter().map(|c| c.name).collect();
    names.join(", ")
}

/// Where fetched corpora are kept: `$XDG_DATA_HOME/sudoku-lab/datasets`, or
/// `~/.local/share/sudoku-lab/datasets`.
pub(crate) fn data_dir() -> anyhow::Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/share"))
        })
        .ok_or_else(|| {
            anyhow::anyhow!("no data folder: set XDG_DATA_HOME or HOME to keep fetched datasets")
        })?;
    Ok(base.join("sudoku-lab").join("datasets"))
}

/// The file a corpus is kept in once fetched.
pub(crate) fn path_of(corpus: &Corpus) -> anyhow::Result<PathBuf> {
    Ok(data_dir()?.join(format!("{}.txt", corpus.name)))
}

/// The fetched copy of a corpus, or an error that says how to fetch it.
pub fn fetched(corpus: &Corpus) -> anyhow::Result<PathBuf> {
    let path = path_of(corpus)?;
    if !path.is_file() {
        bail!(
            "{}: not fetched yet (looked for {}); `sudoku-lab datasets fetch {}` downloads it",
            corpus.name,
            path.display(),
            corpus.name
        );
    }
    Ok(path)
}

/// `--dataset NAME` for a corpus: its fetched copy ([`fetched`]). `None`
/// when `name` is no corpus.
pub fn resolve(name: &str) -> Option<anyhow::Result<Source>> {
    let corpus = corpus(name)?;
    Some(
        fetched(corpus)
            .map(|path| Source {
                name: name.to_string(),
                path,
            })
            .map_err(|e| anyhow::anyhow!("--dataset {e:#}")),
    )
}

/// A puzzle file named on the command line: itself when it exists, else the
/// fetched copy of the public corpus of that name (or the error that says
/// how to fetch it); any other missing file is left for its reader to
/// report.
pub(crate) fn file_or_corpus(path: &Path) -> anyhow::Result<PathBuf> {
    if path.exists() {
        return Ok(path.to_path_buf());
    }
    match path.to_str().and_then(corpus) {
        Some(c) => fetched(c),
        None => Ok(path.to_path_buf()),
    }
}

/// SHA-256 (hex) and number of the puzzles of a list, as the lab parses it:
/// each puzzle in line layout followed by `\n`. `file` names the list in
/// errors (line and column of a puzzle that does not parse).
pub fn list_hash(bytes: &[u8], file: &str) -> anyhow::Result<(String, u64)> {
    let reader = DatasetReader::new(Box::new(Cursor::new(bytes.to_vec())), file.to_string());
    let mut hasher = Sha256::new();
    let mut n = 0u64;
    for entry in reader {
        let entry = entry?;
        hasher.update(crate::base::format::to_line(&entry.puzzle.board).as_bytes());
        hasher.update(b"\n");
        n += 1;
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((hex, n))
}

/// What `fetch` did for one corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    pub name: &'static str,
    pub path: PathBuf,
    pub puzzles: u64,
    /// It was there already (and still checks).
    pub already: bool,
}

/// What `datasets list` shows: each corpus with its file where it is
/// fetched, and the folder `fetch` keeps them in (or why there is none).
pub(crate) fn listing() -> (
    Vec<(&'static Corpus, Option<PathBuf>)>,
    anyhow::Result<PathBuf>,
) {
    let corpora = CORPORA
        .iter()
        .map(|c| (c, path_of(c).ok().filter(|p| p.is_file())))
        .collect();
    (corpora, data_dir())
}

/// The corpora `datasets fetch NAME...` names (`all`: every one), in name
/// order, once each.
pub(crate) fn choose(names: &[String]) -> anyhow::Result<Vec<&'static Corpus>> {
    let mut chosen: Vec<&'static Corpus> = Vec::new();
    for name in names {
        if name == "all" {
            chosen.extend(CORPORA.iter());
            continue;
        }
        match corpus(name) {
            Some(c) => chosen.push(c),
            None => anyhow::bail!(
                "datasets fetch: no public corpus named {name:?} (known: {}, or all)",
                self::names()
            ),
        }
    }
    chosen.sort_by_key(|c| c.name);
    chosen.dedup();
    Ok(chosen)
}

/// Where the archive comes from: `--from`, else `$SUDOKU_LAB_FETCH_BASE`,
/// else [`crate::base::defaults::FETCH_BASE`].
pub(crate) fn base_url(from: Option<&str>) -> String {
    match from {
        Some(b) => b.to_string(),
        None => std::env::var(BASE_ENV)
            .ok()
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| crate::base::defaults::FETCH_BASE.to_string()),
    }
}

/// A download or a downloaded file that failed: an I/O failure to the exit
/// code (74), not bad usage.
fn failed(msg: String) -> anyhow::Error {
    anyhow::Error::new(std::io::Error::other(msg))
}

/// Fetches the corpora into `data_dir`: each one already there is checked
/// again; for the others the archive is downloaded from `base` (resuming a
/// partial download), each list is taken from it, checked against the
/// catalogue and written (temporary file, then rename). `progress` hears of
/// the bytes downloaded.
pub fn fetch(
    corpora: &[&'static Corpus],
    base: &str,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Fetched>> {
    let dir = data_dir()?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for &c in corpora {
        let path = path_of(c)?;
        match std::fs::read(&path) {
            Ok(bytes) => {
                check(c, &bytes, &path.display().to_string()).with_context(|| {
                    format!(
                        "{} is not the {} list the lab knows: remove it and fetch again",
                        path.display(),
                        c.name
                    )
                })?;
                out.push(Fetched {
                    name: c.name,
                    path,
                    puzzles: c.puzzles,
                    already: true,
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing.push(c),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }
    if missing.is_empty() {
        return Ok(out);
    }
    let archive = dir.join(ARCHIVE);
    let url = format!("{}/{ARCHIVE}", base.trim_end_matches('/'));
    if !archive.is_file() {
        download(&url, &archive, progress)?;
    }
    for c in missing {
        let bytes = match extract(&archive, c) {
            Ok(bytes) => bytes,
            Err(e) => {
                // A bad archive is not kept: the next fetch downloads afresh.
                let _ = std::fs::remove_file(&archive);
                return Err(e.context(format!(
                    "{url}: the downloaded archive is damaged or not the expected one (removed; run the command again to download it afresh)"
                )));
            }
        };
        let shown = format!("{url}:{}", c.entry);
        if let Err(e) = check(c, &bytes, &shown) {
            let _ = std::fs::remove_file(&archive);
            return Err(e.context(format!(
                "{shown}: not the {} list the lab knows (the archive was removed; run the command again to download it afresh)",
                c.name
            )));
        }
        let path = path_of(c)?;
        crate::io::output::write_file(&path, &bytes)?;
        out.push(Fetched {
            name: c.name,
            path,
            puzzles: c.puzzles,
            already: false,
        });
    }
    Ok(out)
}

/// The list is the catalogue's: same number of puzzles, same hash.
fn check(c: &Corpus, bytes: &[u8], file: &str) -> anyhow::Result<()> {
    let (hash, n) = list_hash(bytes, file)?;
    if n != c.puzzles || hash != c.sha256 {
        return Err(failed(format!(
            "{file}: {n} puzzles with SHA-256 {hash}; expected {} puzzles with SHA-256 {}",
            c.puzzles, c.sha256
        )));
    }
    Ok(())
}

/// The bytes of a corpus's entry in the archive (the zip reader checks
/// the entry's CRC).
fn extract(archive: &Path, c: &Corpus) -> anyhow::Result<Vec<u8>> {
    let file = std::fs::File::open(archive)
        .with_context(|| format!("cannot open {}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
        .map_err(|e| failed(format!("{}: not a zip archive: {e}", archive.display())))?;
    let mut entry = zip
        .by_name(c.entry)
        .map_err(|e| failed(format!("{}: no entry {} ({e})", archive.display(), c.entry)))?;
    // Lists are a few megabytes; a larger entry is not one of them.
    const MAX: u64 = 64 << 20;
    if entry.size() > MAX {
        return Err(failed(format!(
            "{}: entry {} is {} bytes, more than any list the lab knows",
            archive.display(),
            c.entry,
            entry.size()
        )));
    }
    let mut bytes = Vec::with_capacity(entry.size() as usize);
    entry.read_to_end(&mut bytes).map_err(|e| {
        failed(format!(
            "{}: cannot read entry {}: {e}",
            archive.display(),
            c.entry
        ))
    })?;
    Ok(bytes)
}

/// The partial file of a download into `to`.
fn partial_path(to: &Path) -> PathBuf {
    let mut name = to.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    to.with_file_name(name)
}

/// Downloads `url` into `to`: into `to.partial` first, resumed from its
/// length when it exists, renamed to `to` once whole.
pub fn download(url: &str, to: &Path, progress: &dyn Progress) -> anyhow::Result<()> {
    let partial = partial_path(to);
    let have = match std::fs::metadata(&partial) {
        Ok(m) if m.is_file() => m.len(),
        Ok(_) => bail!(
            "{} is not a regular file: remove it to download",
            partial.display()
        ),
        Err(_) => 0,
    };
    let response = get(url, have)?;
    let start = resumed_from(url, &response, have, &partial)?;
    receive(url, response, &partial, start, progress)?;
    std::fs::rename(&partial, to)
        .with_context(|| format!("cannot rename {} to {}", partial.display(), to.display()))?;
    Ok(())
}

/// A GET of `url`, asking for the bytes from `have` on when a partial
/// download holds that many.
fn get(url: &str, have: u64) -> anyhow::Result<ureq::http::Response<ureq::Body>> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(std::time::Duration::from_secs(30)))
        .timeout_recv_response(Some(std::time::Duration::from_secs(60)))
        .build()
        .into();
    let mut request = agent.get(url);
    if have > 0 {
        request = request.header("Range", format!("bytes={have}-"));
    }
    request
        .call()
        .map_err(|e| failed(format!("{url}: cannot download: {e}")))
}

/// Where the response's body goes in the partial file: 206 with our start,
/// the rest comes (at `have`); 200, the whole file (the server will not
/// resume; at 0). 416, or 206 from another start: the partial file is not a
/// start of it, and is removed.
fn resumed_from<B>(
    url: &str,
    response: &ureq::http::Response<B>,
    have: u64,
    partial: &Path,
) -> anyhow::Result<u64> {
    let status = response.status().as_u16();
    match status {
        206 if content_range_start(response) == Some(have) => Ok(have),
        200 => Ok(0),
        206 | 416 => {
            let _ = std::fs::remove_file(partial);
            bail!(failed(format!(
                "{url}: the server would not resume the partial download (HTTP {status}); it was removed: run the command again to download from the start"
            )));
        }
        _ => Err(failed(format!(
            "{url}: cannot download: HTTP {status}{}",
            response
                .status()
                .canonical_reason()
                .map_or(String::new(), |r| format!(" {r}"))
        ))),
    }
}

/// The response's body written into the partial file from byte `start`
/// (after what it holds, or over it from 0), flushed to disk; an error
/// that says how to resume when it stops short.
fn receive(
    url: &str,
    response: ureq::http::Response<ureq::Body>,
    partial: &Path,
    start: u64,
    progress: &dyn Progress,
) -> anyhow::Result<()> {
    let total = response.body().content_length().map(|l| start + l);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(start > 0)
        .write(true)
        .truncate(start == 0)
        .open(partial)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    progress.start(total.unwrap_or(0));
    progress.at(start);
    let mut body = response.into_body().into_reader();
    let mut buf = vec![0u8; 64 * 1024];
    let mut done = start;
    let interrupted = |done: u64, why: &dyn std::fmt::Display| {
        failed(format!(
            "{url}: the download stopped after {done}{} bytes ({why}); run the same command again to resume it",
            total.map_or(String::new(), |t| format!(" of {t}"))
        ))
    };
    loop {
        let n = match body.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = file.flush();
                return Err(interrupted(done, &e));
            }
        };
        file.write_all(&buf[..n])
            .with_context(|| format!("cannot write {}", partial.display()))?;
        done += n as u64;
        progress.at(done);
    }
    file.flush()
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", partial.display()))?;
    if let Some(t) = total
        && done != t
    {
        return Err(interrupted(done, &"the connection closed early"));
    }
    Ok(())
}

/// The first byte of a 206 response's `Content-Range: bytes A-B/N`.
fn content_range_start<B>(response: &ureq::http::Response<B>) -> Option<u64> {
    let v = response.headers().get("content-range")?.to_str().ok()?;
    let range = v.trim().strip_prefix("bytes")?.trim_start();
    range.split('-').next()?.trim().parse().ok()
}
