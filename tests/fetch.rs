//! `datasets fetch`: the public corpora downloaded from a server on
//! loopback (never the network), checked, kept in the user's data folder,
//! and then found by `--dataset NAME`. The server is a few lines over
//! `std::net::TcpListener` that can cut a response short or refuse ranges,
//! so an interrupted download, its resumption and a corrupt archive are
//! tested as they happen. The real lists come from `$SUDOKU_LAB_SHARED`
//! (their hashes are the catalogue's); tests that need them say `skipped`
//! without it (and fail under CI).

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use assert_cmd::Command;

mod core_support;

/// How the server answers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Whole file, or the asked range (206).
    Normal,
    /// The first response promises the whole file and stops after this
    /// many bytes (the connection dropped); later ones are normal.
    DropFirstAfter(usize),
    /// Never a range: always the whole file (200).
    NoRange,
}

/// A server of one file at `/data.zip`; `requests` holds each request's
/// `Range` header (empty when none).
struct Server {
    base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

fn serve(body: Vec<u8>, mode: Mode) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut first = String::new();
            if reader.read_line(&mut first).is_err() {
                continue;
            }
            let mut range = String::new();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some((k, v)) = line.split_once(':')
                    && k.eq_ignore_ascii_case("range")
                {
                    range = v.trim().to_string();
                }
            }
            let n = {
                let mut r = seen.lock().unwrap();
                r.push(range.clone());
                r.len()
            };
            if !first.starts_with("GET /data.zip ") {
                let _ = stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                );
                continue;
            }
            let from: usize = range
                .strip_prefix("bytes=")
                .and_then(|r| r.strip_suffix('-'))
                .and_then(|r| r.parse().ok())
                .filter(|_| mode != Mode::NoRange)
                .unwrap_or(0);
            let head = if from > 0 {
                format!(
                    "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\nContent-Range: bytes {from}-{}/{}\r\nConnection: close\r\n\r\n",
                    body.len() - from,
                    body.len() - 1,
                    body.len()
                )
            } else {
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                )
            };
            let _ = stream.write_all(head.as_bytes());
            let end = match mode {
                Mode::DropFirstAfter(k) if n == 1 => k,
                _ => body.len(),
            };
            let _ = stream.write_all(&body[from..end]);
            let _ = stream.flush();
            let _ = stream.shutdown(Shutdown::Both);
        }
    });
    Server { base, requests }
}

/// A zip archive of `(entry, bytes)`, compressed.
fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The real lists, as tdoku's archive lays them out.
fn real_archive(shared: &Path) -> Vec<u8> {
    let hardest = std::fs::read(shared.join("forum-hardest-1106.txt")).unwrap();
    let top = std::fs::read(shared.join("top1465.txt")).unwrap();
    archive(&[
        ("data/puzzles3_magictour_top1465", &top),
        ("data/puzzles6_forum_hardest_1106", &hardest),
    ])
}

/// The lab with its data folder in `home` (nothing of the user's touched).
fn lab(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("sudoku-lab").unwrap();
    cmd.env("XDG_DATA_HOME", home.join("data"))
        .env("HOME", home)
        .env_remove("SUDOKU_LAB_FETCH_BASE")
        .env_remove("SUDOKU_LAB_DATASETS");
    cmd
}

fn datasets_dir(home: &Path) -> PathBuf {
    home.join("data/sudoku-lab/datasets")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every catalogue hash is the hash of the list the lab is measured on.
#[test]
fn the_catalogue_hashes_are_those_of_the_shared_lists() {
    let Some(shared) = core_support::shared_dir() else {
        return;
    };
    for (name, file) in [
        ("17-clue", "17-clue.txt"),
        ("top1465", "top1465.txt"),
        ("forum-hardest-1106", "forum-hardest-1106.txt"),
    ] {
        let c = sudoku_lab::io::corpus(name).unwrap();
        let bytes = std::fs::read(shared.join(file)).unwrap();
        let (hash, n) = sudoku_lab::io::list_hash(&bytes, file).unwrap();
        assert_eq!((hash.as_str(), n), (c.sha256, c.puzzles), "{name}");
    }
}

/// Fetched from the server, checked, kept, then found by name; fetching
/// another list from the same archive does not download it again.
#[test]
fn a_fetched_corpus_is_checked_kept_and_found_by_name() {
    let Some(shared) = core_support::shared_dir() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let server = serve(real_archive(&shared), Mode::Normal);
    let out = lab(home.path())
        .args([
            "datasets",
            "fetch",
            "forum-hardest-1106",
            "--from",
            &server.base,
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let kept = datasets_dir(home.path()).join("forum-hardest-1106.txt");
    assert!(
        text(&out.stdout).contains(&format!(
            "forum-hardest-1106: 375 puzzles, fetched and checked: {}",
            kept.display()
        )),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        std::fs::read(shared.join("forum-hardest-1106.txt")).unwrap()
    );
    // The base URL from the environment; the archive is not downloaded again.
    lab(home.path())
        .env("SUDOKU_LAB_FETCH_BASE", &server.base)
        .args(["datasets", "fetch", "top1465", "forum-hardest-1106"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "forum-hardest-1106: 375 puzzles, already fetched, checked:",
        ))
        .stdout(predicates::str::contains(
            "top1465: 1465 puzzles, fetched and checked:",
        ));
    assert_eq!(server.requests.lock().unwrap().len(), 1);
    lab(home.path())
        .args(["datasets", "list"])
        .assert()
        .success()
        .stdout(predicates::str::contains(format!(
            "fetched: {}",
            kept.display()
        )));
    // `--dataset NAME` and `speed NAME` read the fetched copy.
    let report = home.path().join("report");
    lab(home.path())
        .args([
            "compare",
            "--dataset",
            "forum-hardest-1106",
            "--strategy",
            "fast",
        ])
        .args(["--sample", "3", "--min-time", "0", "--out"])
        .arg(&report)
        .assert()
        .success();
    let results = std::fs::read_to_string(report.join("results.csv")).unwrap();
    assert_eq!(
        results
            .lines()
            .filter(|l| l.starts_with("forum-hardest-1106,"))
            .count(),
        3,
        "{results}"
    );
    lab(home.path())
        .args(["speed", "top1465", "--strategy", "fast", "--sample", "2"])
        .args(["--min-time", "0", "--csv"])
        .assert()
        .success()
        .stdout(predicates::str::contains("top1465,"));
}

/// A connection dropped halfway leaves the partial file and says how to go
/// on; the same command again asks for the rest (`Range`) and finishes. A
/// server that will not resume sends the whole file again, which is taken
/// from the start.
#[test]
fn an_interrupted_download_resumes() {
    let Some(shared) = core_support::shared_dir() else {
        return;
    };
    let zip = real_archive(&shared);
    let half = zip.len() / 2;
    for mode in [Mode::DropFirstAfter(half), Mode::NoRange] {
        let home = tempfile::tempdir().unwrap();
        let dir = datasets_dir(home.path());
        let server = serve(zip.clone(), mode);
        if mode == Mode::NoRange {
            // A partial download from before, of the first half.
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("data.zip.partial"), &zip[..half]).unwrap();
        } else {
            let out = lab(home.path())
                .args(["datasets", "fetch", "top1465", "--from", &server.base])
                .assert()
                .code(sudoku_lab::EXIT_IO as i32)
                .get_output()
                .clone();
            let err = text(&out.stderr);
            assert!(
                err.contains(&format!(
                    "the download stopped after {half} of {} bytes",
                    zip.len()
                )) && err.contains("run the same command again to resume it"),
                "{err}"
            );
            assert_eq!(
                std::fs::metadata(dir.join("data.zip.partial"))
                    .unwrap()
                    .len(),
                half as u64
            );
            assert!(!dir.join("top1465.txt").exists());
        }
        lab(home.path())
            .args(["datasets", "fetch", "top1465", "--from", &server.base])
            .assert()
            .success()
            .stdout(predicates::str::contains(
                "top1465: 1465 puzzles, fetched and checked:",
            ));
        assert!(!dir.join("data.zip.partial").exists());
        assert_eq!(std::fs::read(dir.join("data.zip")).unwrap(), zip);
        let asked = server.requests.lock().unwrap().clone();
        match mode {
            Mode::DropFirstAfter(_) => {
                assert_eq!(asked, ["".to_string(), format!("bytes={half}-")])
            }
            _ => assert_eq!(asked, [format!("bytes={half}-")]),
        }
    }
}

/// An archive whose list is not the catalogue's (a puzzle changed), one that
/// is not a zip, and one whose bytes were damaged (CRC): each refused with
/// exit code 74 and a message naming it, nothing kept, the archive removed
/// so that the next fetch downloads it afresh. Needs no shared corpus.
#[test]
fn a_corrupt_download_is_refused() {
    let puzzles = b"# not the forum's list\n\
        ........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3\n";
    let stored = {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        zip.start_file("data/puzzles6_forum_hardest_1106", options)
            .unwrap();
        zip.write_all(puzzles).unwrap();
        zip.finish().unwrap().into_inner()
    };
    // The same archive with one byte of the list changed, CRC left as it was.
    let mut damaged = stored.clone();
    let at = damaged.windows(8).position(|w| w == b"........").unwrap();
    damaged[at] = b'1';
    let cases: [(Vec<u8>, &str); 3] = [
        (
            archive(&[("data/puzzles6_forum_hardest_1106", puzzles)]),
            "1 puzzles with SHA-256",
        ),
        (b"<html>not found</html>".to_vec(), "not a zip archive"),
        (
            damaged,
            "cannot read entry data/puzzles6_forum_hardest_1106",
        ),
    ];
    for (body, says) in cases {
        let home = tempfile::tempdir().unwrap();
        let server = serve(body, Mode::Normal);
        let out = lab(home.path())
            .args([
                "datasets",
                "fetch",
                "forum-hardest-1106",
                "--from",
                &server.base,
            ])
            .assert()
            .code(sudoku_lab::EXIT_IO as i32)
            .get_output()
            .clone();
        let err = text(&out.stderr);
        assert!(err.contains(says), "{says}: {err}");
        assert!(
            err.contains("run the command again to download it afresh"),
            "{err}"
        );
        let dir = datasets_dir(home.path());
        assert!(!dir.join("forum-hardest-1106.txt").exists());
        assert!(!dir.join("data.zip").exists());
    }
}

/// Before fetching, `--dataset NAME` says how to fetch; an unknown name and
/// a server error are refused plainly.
#[test]
fn names_not_fetched_and_servers_that_fail_are_explained() {
    let home = tempfile::tempdir().unwrap();
    let out = lab(home.path())
        .args(["compare", "--dataset", "17-clue", "--out"])
        .arg(home.path().join("r"))
        .assert()
        .code(sudoku_lab::EXIT_USAGE as i32)
        .get_output()
        .clone();
    let err = text(&out.stderr);
    assert!(
        err.contains("--dataset 17-clue: not fetched yet")
            && err.contains("`sudoku-lab datasets fetch 17-clue` downloads it"),
        "{err}"
    );
    lab(home.path())
        .args(["speed", "top1465"])
        .assert()
        .code(sudoku_lab::EXIT_USAGE as i32)
        .stderr(predicates::str::contains("top1465: not fetched yet"));
    lab(home.path())
        .args(["datasets", "fetch", "kaggle"])
        .assert()
        .code(sudoku_lab::EXIT_USAGE as i32)
        .stderr(predicates::str::contains(
            "no public corpus named \"kaggle\" (known: 17-clue, top1465, forum-hardest-1106, or all)",
        ));
    // A server without the archive: 404, said as such.
    let server = serve(Vec::new(), Mode::Normal);
    lab(home.path())
        .args(["datasets", "fetch", "top1465", "--from"])
        .arg(format!("{}/elsewhere", server.base))
        .assert()
        .code(sudoku_lab::EXIT_IO as i32)
        .stderr(predicates::str::contains(
            "cannot download: HTTP 404 Not Found",
        ));
    // Nothing listens here any more: the connection is refused.
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    lab(home.path())
        .args(["datasets", "fetch", "top1465", "--from", &closed])
        .assert()
        .code(sudoku_lab::EXIT_IO as i32)
        .stderr(predicates::str::contains("cannot download"));
}
