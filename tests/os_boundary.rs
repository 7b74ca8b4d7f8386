//! The lab at the operating-system boundary (issue #13): output files never
//! replace what is not a regular file; a closed pipe or a full disk on
//! standard output never panics; report folders work on mount points and
//! through links to other file systems; concurrent writers of one report
//! folder leave one consistent report; `report .` works; `report` stays
//! linear in rows per puzzle; errors say why, and exit codes say what kind
//! of failure it was (docs/reference.md, *Exit codes*).
//!
//! Unix only (devices, FIFOs, `flock`). Tests that need root (mknod, mount)
//! fall back or skip with a message saying so.
#![cfg(unix)]

mod compare_support;

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write as _};
use std::os::unix::fs::{FileTypeExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use compare_support::{bin, lab, listing, snapshot, staging_folders};
use sudoku_lab::Strategy;
use sudoku_lab::export::{fmt_count, fmt_ratio};
use sudoku_lab::{EXIT_IO, EXIT_USAGE};

/// A 4×4 puzzle every strategy that supports 4×4 solves in a few nodes.
const PUZZLE_4X4: &str = "1.3.3.1.2.4.4.2.\n";

fn write(path: &Path, text: &str) -> PathBuf {
    fs::write(path, text).unwrap();
    path.to_path_buf()
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap()
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `cmd` and asserts it succeeded.
fn ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(out.status.success(), "{:?}: {}", cmd, stderr_of(&out));
    out
}

fn assert_link(path: &Path) {
    let ft = fs::symlink_metadata(path).unwrap().file_type();
    assert!(ft.is_symlink(), "{} is no longer a link", path.display());
}

/// Waits for `child` at most `limit`; kills it and fails the test after that.
fn wait_within(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

// ---------------------------------------------------------------------------
// 1. generate --out and trace --chart: devices, FIFOs, links, folders.
// ---------------------------------------------------------------------------

/// A character device to write to: a private copy of /dev/null made with
/// `mknod` where we may (root), else /dev/null itself (which a user who is
/// not root could not replace anyway).
fn null_device(dir: &Path) -> PathBuf {
    let own = dir.join("null");
    if mknod(&own, "c", "1", "3") && fs::OpenOptions::new().write(true).open(&own).is_ok() {
        own
    } else {
        let _ = fs::remove_file(&own);
        eprintln!("note: cannot make a private character device here; using /dev/null");
        PathBuf::from("/dev/null")
    }
}

/// `mknod PATH KIND MAJOR MINOR`; false where not allowed (not root).
fn mknod(path: &Path, kind: &str, major: &str, minor: &str) -> bool {
    Command::new("mknod")
        .arg(path)
        .args([kind, major, minor])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

fn is_char_device(path: &Path) -> bool {
    fs::metadata(path).unwrap().file_type().is_char_device()
}

/// Runs `sudoku-lab ARGS... TARGET` while `cat` reads the FIFO `target`;
/// returns the bytes that went through it.
fn through_fifo(args: &[&str], target: &Path, extra: &[&str]) -> Vec<u8> {
    let reader = Command::new("cat")
        .arg(target)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let id = reader.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(reader.wait_with_output());
    });
    ok(Command::new(bin()).args(args).arg(target).args(extra));
    // `cat` ends when the writer closes the FIFO; kill it if it never opened.
    let Ok(read) = rx.recv_timeout(Duration::from_secs(120)) else {
        let _ = Command::new("kill").arg(id.to_string()).status();
        panic!("nothing was written to the FIFO {}", target.display());
    };
    let read = read.unwrap();
    assert!(read.status.success());
    let bytes = read.stdout;
    assert!(
        fs::symlink_metadata(target).unwrap().file_type().is_fifo(),
        "the FIFO was replaced"
    );
    bytes
}

#[test]
fn generate_out_writes_through_devices_and_fifos_and_follows_links() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let gen_args = ["generate", "-n", "3", "--size", "4", "--out"];
    let expected = run(Command::new(bin()).args(&gen_args[..5])).stdout;
    assert!(expected.starts_with(b"#"));

    // A character device stays a character device.
    let null = null_device(dir);
    ok(Command::new(bin()).args(gen_args).arg(&null));
    assert!(is_char_device(&null), "{} was replaced", null.display());

    // A FIFO gets the bytes and stays a FIFO.
    let fifo = dir.join("puzzles.fifo");
    mkfifo(&fifo);
    assert_eq!(through_fifo(&gen_args, &fifo, &[]), expected);

    // A link to a regular file: the link stays, its target is replaced with
    // the new bytes and keeps its permissions.
    let target = write(&dir.join("target.txt"), "old\n");
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.txt");
    symlink("target.txt", &link).unwrap();
    ok(Command::new(bin()).args(gen_args).arg(&link));
    assert_link(&link);
    assert_eq!(fs::read(&target).unwrap(), expected);
    assert_eq!(
        fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o640
    );

    // A link to a device: both stay.
    let dev_link = dir.join("dev-link.txt");
    symlink(&null, &dev_link).unwrap();
    ok(Command::new(bin()).args(gen_args).arg(&dev_link));
    assert_link(&dev_link);
    assert!(is_char_device(&null));

    // A link to a file that does not exist yet: the file is created.
    let dangling = dir.join("dangling.txt");
    symlink("created.txt", &dangling).unwrap();
    ok(Command::new(bin()).args(gen_args).arg(&dangling));
    assert_eq!(fs::read(dir.join("created.txt")).unwrap(), expected);

    // No temporary files left behind.
    assert!(
        listing(dir).iter().all(|n| !n.ends_with(".tmp")),
        "{:?}",
        listing(dir)
    );
}

#[test]
fn trace_chart_writes_through_devices_and_fifos_and_follows_links() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let puzzle = write(&dir.join("p.txt"), PUZZLE_4X4);
    let p = puzzle.to_str().unwrap();
    let args = ["trace", "-s", "mrv", p, "--chart"];

    let regular = dir.join("tree.svg");
    ok(Command::new(bin()).args(args).arg(&regular));
    let svg = fs::read(&regular).unwrap();
    assert!(svg.starts_with(b"<svg"));

    let null = null_device(dir);
    let null_link = dir.join("null.svg");
    symlink(&null, &null_link).unwrap();
    ok(Command::new(bin()).args(args).arg(&null_link));
    assert!(is_char_device(&null));
    assert_link(&null_link);

    let fifo = dir.join("chart.svg");
    mkfifo(&fifo);
    assert_eq!(through_fifo(&args, &fifo, &[]), svg);

    let target = write(&dir.join("real.svg"), "old");
    let link = dir.join("link.svg");
    symlink("real.svg", &link).unwrap();
    ok(Command::new(bin()).args(args).arg(&link));
    assert_link(&link);
    assert_eq!(fs::read(&target).unwrap(), svg);
}

/// What cannot be written is refused before anything is touched, saying why.
#[test]
fn output_files_that_cannot_be_written_say_why() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cases: Vec<(PathBuf, String)> = vec![
        (dir.to_path_buf(), "it is a folder".into()),
        (
            dir.join("missing/puzzles.txt"),
            format!(
                "the folder {} does not exist",
                dir.join("missing").display()
            ),
        ),
    ];
    for (path, why) in cases {
        let out = run(Command::new(bin())
            .args(["generate", "-n", "1", "--size", "4", "--out"])
            .arg(&path));
        assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
        let err = stderr_of(&out);
        assert!(
            err.starts_with(&format!("error: cannot write {}", path.display())),
            "{err}"
        );
        assert!(err.contains(&why), "{why:?} not in {err}");
    }
    // A block device is refused, never opened (root only: mknod).
    let block = dir.join("block");
    if mknod(&block, "b", "7", "250") {
        let out = run(Command::new(bin())
            .args(["generate", "-n", "1", "--size", "4", "--out"])
            .arg(&block));
        assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
        assert!(stderr_of(&out).contains("it is a block device"));
        assert!(fs::metadata(&block).unwrap().file_type().is_block_device());
    } else {
        eprintln!("skipped the block-device case: mknod needs root");
    }
}

// ---------------------------------------------------------------------------
// 2. Standard output: a closed pipe and a full disk, for every subcommand.
// ---------------------------------------------------------------------------

/// How standard output (and maybe standard error) fails.
#[derive(Clone, Copy, Debug)]
enum Broken {
    /// A pipe whose reader has gone.
    ClosedPipe,
    /// `/dev/full`: every write fails with "No space left on device".
    Full,
    /// Both standard output and standard error on `/dev/full`.
    FullAndFullStderr,
}

#[test]
fn closed_pipe_and_full_disk_on_stdout_for_every_subcommand() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(&dir.join("p.txt"), PUZZLE_4X4);
    ok(Command::new(bin())
        .current_dir(dir)
        .args(compare_args("p.txt", "report")));
    let speed = [
        "speed",
        "p.txt",
        "-s",
        "mrv",
        "--min-time",
        "0",
        "--min-samples",
        "1",
    ];
    // Every subcommand, each with a tiny input that succeeds.
    let table: Vec<(&str, Vec<&str>)> = vec![
        ("solve", vec!["solve", "p.txt"]),
        ("count", vec!["count", "p.txt"]),
        ("strategies", vec!["strategies"]),
        ("trace", vec!["trace", "-s", "mrv", "p.txt"]),
        ("ladder", vec!["ladder", "-s", "mrv", "p.txt"]),
        (
            "compare",
            vec![
                "compare",
                "--dataset",
                "p.txt",
                "--strategy",
                "mrv",
                "--jobs",
                "1",
            ],
        ),
        ("report", vec!["report", "report"]),
        ("diff", vec!["diff", "report", "report"]),
        ("speed", speed.to_vec()),
        ("generate", vec!["generate", "-n", "1", "--size", "4"]),
        ("rate", vec!["rate", "p.txt"]),
        (
            "estimate",
            vec!["estimate", "-s", "mrv", "--budget", "3", "p.txt"],
        ),
        ("replay", vec!["replay", "-s", "mrv", "--out", "-", "p.txt"]),
        ("datasets", vec!["datasets", "list"]),
    ];
    // The table covers every subcommand clap knows (help aside).
    let help = String::from_utf8(run(Command::new(bin()).arg("--help")).stdout).unwrap();
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    let mut names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    names.sort_unstable();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort_unstable();
    assert_eq!(names, listed_sorted, "every subcommand is in the table");

    for (name, args) in &table {
        for (k, mode) in [Broken::ClosedPipe, Broken::Full, Broken::FullAndFullStderr]
            .into_iter()
            .enumerate()
        {
            let mut cmd = Command::new(bin());
            cmd.current_dir(dir).args(args);
            if *name == "compare" {
                cmd.args(["--out", &format!("compare-{k}")]);
            }
            let full = || File::options().write(true).open("/dev/full").unwrap();
            match mode {
                Broken::ClosedPipe => {
                    let (reader, writer) = std::io::pipe().unwrap();
                    drop(reader);
                    cmd.stdout(writer);
                }
                Broken::Full => {
                    cmd.stdout(full());
                }
                Broken::FullAndFullStderr => {
                    cmd.stdout(full()).stderr(full());
                }
            }
            let out = cmd.output().unwrap();
            let err = stderr_of(&out);
            let code = out.status.code();
            assert!(!err.contains("panicked"), "{name} {mode:?}: {err}");
            match mode {
                Broken::ClosedPipe => {
                    assert_eq!(code, Some(0), "{name} {mode:?}: {err}");
                    assert!(
                        !err.lines().any(|l| l.starts_with("error:")),
                        "{name}: a closed pipe ends quietly: {err}"
                    );
                }
                Broken::Full => {
                    assert_eq!(code, Some(i32::from(EXIT_IO)), "{name} {mode:?}: {err}");
                    assert_eq!(
                        err.lines().last(),
                        Some(
                            "error: cannot write to standard output: No space left on device (os error 28)"
                        ),
                        "{name}"
                    );
                }
                Broken::FullAndFullStderr => {
                    assert_eq!(code, Some(i32::from(EXIT_IO)), "{name} {mode:?}");
                }
            }
        }
    }
    // compare wrote its report before its summary failed to print.
    for k in 0..3 {
        assert!(dir.join(format!("compare-{k}/README.md")).is_file());
    }
}

/// The first line through `| head -1`: the rest of a long output hits a
/// closed pipe; the command ends quietly with success.
#[test]
fn long_output_into_head_ends_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/anti-backtracking.txt");
    let line = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/generated/4x4.txt");
    let cases: Vec<Vec<String>> = vec![
        vec![
            "trace".into(),
            "--steps".into(),
            "100000".into(),
            "-s".into(),
            "naive".into(),
            "--budget".into(),
            "200000".into(),
            puzzle.display().to_string(),
        ],
        vec![
            "ladder".into(),
            "-s".into(),
            "mrv".into(),
            line.display().to_string(),
        ],
        vec!["solve".into(), line.display().to_string()],
    ];
    for args in cases {
        let mut child = Command::new(bin())
            .current_dir(tmp.path())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        let status = wait_within(&mut child, Duration::from_secs(60), &args[0]);
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(
            status.code() == Some(0) || status.code() == Some(1),
            "{args:?}: {status:?} {err}"
        );
        // Quietly: nothing on stderr but, from a timing command, the lab's
        // note that the machine was busy or slow while it measured (it
        // comes before the output, and is about the machine, not the pipe).
        assert!(
            err.lines().all(|l| l.starts_with(sudoku_lab::BUSY_NOTE)),
            "{args:?}: {err}"
        );
    }
}

// ---------------------------------------------------------------------------
// 3. --out on another file system: a mount point, a link to another disk.
// ---------------------------------------------------------------------------

/// A folder on another file system than the temporary folder: a tmpfs
/// mounted for the test (root), or else a folder in /dev/shm when that is
/// another file system. Unmounted when dropped.
struct OtherFs {
    dir: PathBuf,
    mounted: bool,
    _shm: Option<tempfile::TempDir>,
}

impl OtherFs {
    fn new(at: &Path, options: &str) -> Option<OtherFs> {
        fs::create_dir_all(at).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if mounted {
            return Some(OtherFs {
                dir: at.to_path_buf(),
                mounted: true,
                _shm: None,
            });
        }
        None
    }

    fn shm(than: &Path) -> Option<OtherFs> {
        use std::os::unix::fs::MetadataExt;
        let shm = Path::new("/dev/shm");
        let dev = |p: &Path| fs::metadata(p).ok().map(|m| m.dev());
        if dev(shm).is_some() && dev(shm) != dev(than) {
            let t = tempfile::tempdir_in(shm).ok()?;
            return Some(OtherFs {
                dir: t.path().to_path_buf(),
                mounted: false,
                _shm: Some(t),
            });
        }
        None
    }
}

impl Drop for OtherFs {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(&self.dir).status();
        }
    }
}

/// A small `compare` of the dataset file `data` into `out`.
fn compare_args<'a>(data: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "compare",
        "--dataset",
        data,
        "--strategy",
        "mrv",
        "--jobs",
        "1",
        "--out",
        out,
    ]
}

fn compare_into(dir: &Path, data: &Path, out: &Path) -> Output {
    let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
    run(Command::new(bin())
        .current_dir(dir)
        .args(compare_args(data, out)))
}

#[test]
fn out_on_a_mount_point_or_through_a_link_to_another_file_system() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let mount = OtherFs::new(&dir.join("volume"), "rw");
    let other = match mount {
        Some(m) => {
            // The mount point itself as the report folder (a Docker volume).
            let out = compare_into(dir, &data, &m.dir);
            assert!(out.status.success(), "{}", stderr_of(&out));
            assert!(m.dir.join("README.md").is_file());
            ok(Command::new(bin()).arg("report").arg(&m.dir));
            assert_eq!(staging_folders(&m.dir), Vec::<String>::new());
            Some(m)
        }
        None => {
            eprintln!("cannot mount a tmpfs here (not root?); trying /dev/shm");
            OtherFs::shm(dir)
        }
    };
    let Some(other) = other else {
        eprintln!("skipped: no second file system (no mount, /dev/shm is the same)");
        return;
    };
    // A link to a folder on the other file system.
    let target = other.dir.join("reports");
    fs::create_dir(&target).unwrap();
    let link = dir.join("reports");
    symlink(&target, &link).unwrap();
    let out = compare_into(dir, &data, Path::new("reports"));
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(target.join("results.csv").is_file());
    ok(Command::new(bin())
        .current_dir(dir)
        .args(["report", "reports"]));
    assert_link(&link);
    // Nothing was staged beside the link.
    assert!(
        listing(dir).iter().all(|n| !n.starts_with('.')),
        "{:?}",
        listing(dir)
    );
    assert_eq!(staging_folders(&target), Vec::<String>::new());
}

/// A read-only file system is an I/O failure (exit 74), said as such.
#[test]
fn a_read_only_file_system_exits_with_the_io_code() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let Some(ro) = OtherFs::new(&dir.join("ro"), "ro") else {
        eprintln!("skipped: cannot mount a read-only tmpfs here (not root?)");
        return;
    };
    let out = run(Command::new(bin())
        .args(["generate", "-n", "1", "--size", "4", "--out"])
        .arg(ro.dir.join("p.txt")));
    assert_eq!(out.status.code(), Some(i32::from(EXIT_IO)));
    assert!(
        stderr_of(&out).contains("Read-only file system"),
        "{}",
        stderr_of(&out)
    );
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let out = compare_into(dir, &data, &ro.dir);
    assert_eq!(
        out.status.code(),
        Some(i32::from(EXIT_IO)),
        "{}",
        stderr_of(&out)
    );
    assert!(stderr_of(&out).contains("Read-only file system"));
}

// ---------------------------------------------------------------------------
// 4. Concurrent writers of one report folder.
// ---------------------------------------------------------------------------

/// `n` copies of the 4×4 puzzle: datasets of different sizes, so every file
/// of a report tells which run wrote it.
fn dataset(dir: &Path, name: &str, n: usize) -> PathBuf {
    write(&dir.join(format!("{name}.txt")), &PUZZLE_4X4.repeat(n))
}

/// (dataset, rows) as results.csv, summary.csv and README.md each tell it.
/// A consistent report tells one story.
fn report_story(out: &Path) -> [Vec<(String, u64)>; 3] {
    let mut results: Vec<(String, u64)> = Vec::new();
    let mut r = csv::Reader::from_path(out.join("results.csv")).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        match results.last_mut() {
            Some((d, n)) if *d == rec[0] => *n += 1,
            _ => results.push((rec[0].to_string(), 1)),
        }
    }
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let summary: Vec<(String, u64)> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[0].to_string(), rec[2].parse().unwrap())
        })
        .collect();
    // README: "### `name`" then the table row "| `mrv` | puzzles | ...".
    let readme = fs::read_to_string(out.join("README.md")).unwrap();
    let mut told = Vec::new();
    let mut current = None;
    for l in readme.lines() {
        if let Some(name) = l.strip_prefix("### `").and_then(|l| l.strip_suffix('`')) {
            current = Some(name.to_string());
        } else if let (Some(name), Some(rest)) = (&current, l.strip_prefix("| `mrv` | ")) {
            let n = rest.split(" |").next().unwrap().parse().unwrap();
            told.push((name.clone(), n));
            current = None;
        }
    }
    [results, summary, told]
}

fn assert_consistent(out: &Path, context: &str) {
    let [results, summary, readme] = report_story(out);
    assert!(!results.is_empty(), "{context}");
    assert_eq!(results, summary, "{context}: results.csv vs summary.csv");
    assert_eq!(results, readme, "{context}: results.csv vs README.md");
}

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(bin())
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(mut child: Child, what: &str) {
    let status = wait_within(&mut child, Duration::from_secs(60), what);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{what}: {err}");
}

const ROUNDS: usize = 8;

/// A folder with the datasets `alpha` (3 puzzles) and `beta` (5).
fn alpha_and_beta() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    dataset(tmp.path(), "alpha", 3);
    dataset(tmp.path(), "beta", 5);
    tmp
}

#[test]
fn two_compares_into_one_folder_leave_one_consistent_report() {
    let tmp = alpha_and_beta();
    let dir = tmp.path();
    for round in 0..ROUNDS {
        let a = spawn(dir, &compare_args("alpha.txt", "r"));
        let b = spawn(dir, &compare_args("beta.txt", "r"));
        finish(a, "compare alpha");
        finish(b, "compare beta");
        assert_consistent(&dir.join("r"), &format!("round {round}"));
        assert_eq!(staging_folders(&dir.join("r")), Vec::<String>::new());
    }
}

#[test]
fn compare_and_report_on_one_folder_leave_one_consistent_report() {
    let tmp = alpha_and_beta();
    let dir = tmp.path();
    for round in 0..ROUNDS {
        let name = if round % 2 == 0 {
            "alpha.txt"
        } else {
            "beta.txt"
        };
        let c = spawn(dir, &compare_args(name, "r"));
        if round == 0 {
            finish(c, "first compare");
            continue;
        }
        let r = spawn(dir, &["report", "r"]);
        finish(c, "compare");
        finish(r, "report");
        assert_consistent(&dir.join("r"), &format!("round {round}"));
    }
}

/// Reads the first line `child` writes to standard error: the note that it
/// waits for the folder's lock.
fn assert_says_it_waits(child: &mut Child) {
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.starts_with("waiting for another sudoku-lab writing to"),
        "{line}"
    );
}

/// The lock itself: while another process holds the folder's lock, a
/// `compare` that has finished solving waits before moving any file, and a
/// `report` waits before it reads `results.csv` (so it redraws what is there
/// when it gets the lock).
#[test]
fn writers_wait_for_the_folder_lock() {
    let tmp = alpha_and_beta();
    let dir = tmp.path();
    let out = dir.join("r");
    let first = compare_into(dir, Path::new("alpha.txt"), Path::new("r"));
    assert!(first.status.success());
    let before = snapshot(&out);

    // Wait until `compare` has staged (it holds the lock only briefly
    // then), take the lock, and check it waits at its commit.
    let mut child = spawn(dir, &compare_args("beta.txt", "r"));
    let start = Instant::now();
    while staging_folders(&out).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no staging folder"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let lock = File::open(&out).unwrap();
    lock.lock().unwrap();
    if snapshot(&out) != before {
        // It committed between our look and our lock: too fast to show.
        drop(lock);
        finish(child, "compare");
        eprintln!("note: compare committed before the test could take the lock");
    } else {
        assert_says_it_waits(&mut child);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            snapshot(&out),
            before,
            "files moved while the lock was held"
        );
        drop(lock);
        let status = wait_within(&mut child, Duration::from_secs(120), "compare");
        assert!(status.success());
    }
    assert_consistent(&out, "compare after the lock");
    assert_eq!(report_story(&out)[0], vec![("beta".to_string(), 5)]);

    // `report` waits before reading: results.csv changed while it waits is
    // what it redraws.
    let alpha = dir.join("alpha-report");
    assert!(
        compare_into(dir, Path::new("alpha.txt"), &alpha)
            .status
            .success()
    );
    let lock = File::open(&out).unwrap();
    lock.lock().unwrap();
    let mut child = spawn(dir, &["report", "r"]);
    assert_says_it_waits(&mut child);
    fs::copy(alpha.join("results.csv"), out.join("results.csv")).unwrap();
    drop(lock);
    let status = wait_within(&mut child, Duration::from_secs(120), "report");
    assert!(status.success());
    assert_consistent(&out, "report after the lock");
    assert_eq!(report_story(&out)[0], vec![("alpha".to_string(), 3)]);
}

// ---------------------------------------------------------------------------
// 5. report . / compare --out . / ./ / ..
// ---------------------------------------------------------------------------

#[test]
fn report_and_compare_on_dot_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let out = dir.join("r");
    fs::create_dir(&out).unwrap();
    let sub = out.join("sub");
    for (cwd, path) in [(&out, "."), (&out, "./"), (&sub, "..")] {
        // Made once `r` is a report folder: a folder holding anything but
        // a report is refused (no meta.csv), an empty subfolder included.
        fs::create_dir_all(cwd).unwrap();
        let o = compare_into(cwd, &data, Path::new(path));
        assert!(
            o.status.success(),
            "compare --out {path}: {}",
            stderr_of(&o)
        );
        assert!(out.join("README.md").is_file());
        let o = run(Command::new(bin()).current_dir(cwd).args(["report", path]));
        assert!(o.status.success(), "report {path}: {}", stderr_of(&o));
        let said = String::from_utf8(o.stdout).unwrap();
        assert!(said.contains("1 runs; report: "), "{said}");
        assert_consistent(&out, path);
    }
    assert_eq!(staging_folders(&out), Vec::<String>::new());
    assert!(listing(dir).iter().all(|n| !n.starts_with('.')));
}

// ---------------------------------------------------------------------------
// 6. report is linear in rows.
// ---------------------------------------------------------------------------

/// 160,000 rows, 20,000 puzzles of one row per strategy. They were once all
/// rows of one puzzle, and pairing every row with every other took over
/// 300 s; since issue 59 a second row of one puzzle and strategy is refused,
/// so each round of rows is a puzzle of its own. The time limit only guards
/// against a quadratic step (it is not a benchmark); the counts are checked
/// exactly.
#[test]
fn report_on_160k_rows_is_linear() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    fs::create_dir(&out).unwrap();
    let mut w = std::io::BufWriter::new(File::create(out.join("results.csv")).unwrap());
    writeln!(w, "{}", sudoku_lab::measure::measured_columns().join(",")).unwrap();
    let per = 20_000;
    for i in 0..per {
        for (k, s) in Strategy::ALL.iter().enumerate() {
            // Each rung visits half the nodes of the one before, at the same cost per node.
            let nodes = 1u64 << (20 - k);
            let t = nodes * 10 + i % 2;
            writeln!(
                w,
                "d,{},{},,9,25,{},solved,{nodes},1,1,1,1,1,1,{t},{t},{t},{t},1",
                i + 1,
                i + 1,
                s.name()
            )
            .unwrap();
        }
    }
    w.flush().unwrap();
    drop(w);
    let mut child = Command::new(bin())
        .arg("report")
        .arg(&out)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let status = wait_within(&mut child, Duration::from_secs(120), "report on 160k rows");
    assert!(status.success());
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let puzzles: Vec<String> = r.records().map(|x| x.unwrap()[2].to_string()).collect();
    assert_eq!(puzzles, vec![per.to_string(); Strategy::ALL.len()]);
    // The ladder table: every rung compared on the 20,000 rounds (each
    // round of rows is a puzzle of its own), 2^k fewer nodes, each node as dear.
    let readme = fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains(&format!(
        "Ladder set: **{per} of {per}** puzzles of size 9×9."
    )));
    for (k, s) in Strategy::ALL.iter().enumerate().skip(1) {
        let start = format!(
            "| `{}` | {} |",
            s.name(),
            fmt_count((1u64 << (20 - k)) as f64)
        );
        // Each ratio may carry its 95% interval (`×2.00 [2.00, 2.00]`).
        let step = format!("| {}", fmt_ratio((1u64 << k) as f64));
        let per_node = "| ×1.00";
        let ratios = format!("{step} … {per_node}");
        assert!(
            readme.lines().any(|l| l.starts_with(&start)
                && l.split_once(&step)
                    .is_some_and(|(_, rest)| rest.contains(per_node))),
            "{start} … {ratios} not in the ladder table"
        );
    }
}

// ---------------------------------------------------------------------------
// 7. Error messages.
// ---------------------------------------------------------------------------

#[test]
fn grid_layout_errors_say_digits_as_numbers() {
    let n = 25;
    let grid = |cells: &[(usize, usize, &str)]| {
        let mut rows = vec![vec!["0"; n]; n];
        for &(r, c, v) in cells {
            rows[r][c] = v;
        }
        rows.iter().map(|r| r.join(" ") + "\n").collect::<String>()
    };
    let out = lab()
        .arg("solve")
        .write_stdin(grid(&[(0, 0, "25"), (0, 5, "25")]))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
    assert_eq!(
        stderr_of(&out),
        "error: <stdin>:1:12: conflicting givens: digit 25 appears twice in row 1: r1c1 (line 1, column 1) and r1c6 (line 1, column 12)\n"
    );
    let out = lab()
        .arg("solve")
        .write_stdin(grid(&[(3, 4, "26")]))
        .output()
        .unwrap();
    assert_eq!(
        stderr_of(&out),
        "error: <stdin>:4:9: digit 26 is out of range for 25x25 (allowed 1-25, 0 for a blank)\n"
    );
    // Line layout keeps its symbols.
    let mut line = vec!['.'; 625];
    line[0] = 'P';
    line[5] = 'P';
    let out = lab()
        .arg("solve")
        .write_stdin(line.into_iter().collect::<String>() + "\n")
        .output()
        .unwrap();
    assert!(stderr_of(&out).contains("digit P appears twice in row 1"));
}

#[test]
fn a_byte_order_mark_is_skipped_and_utf16_is_named() {
    let plain =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    let expected = lab().arg("solve").write_stdin(plain).output().unwrap();
    assert!(expected.status.success());
    for text in [
        format!("\u{feff}{plain}"),
        format!("\u{feff}# comment\r\n{plain}"),
    ] {
        let out = lab().arg("solve").write_stdin(text).output().unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        assert_eq!(out.stdout, expected.stdout);
    }
    // Errors after a mark count columns as the user sees them.
    let out = lab()
        .arg("solve")
        .write_stdin(format!("\u{feff}{}", plain.replacen('3', "x", 1)))
        .output()
        .unwrap();
    assert!(stderr_of(&out).starts_with("error: <stdin>:1:3: unknown character 'x'"));
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(plain.bytes().flat_map(|b| [b, 0]))
        .collect();
    let out = lab().arg("solve").write_stdin(utf16).output().unwrap();
    assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
    assert_eq!(
        stderr_of(&out),
        "error: <stdin>:1:1: the file is UTF-16 text; save it as UTF-8 or plain ASCII\n"
    );
}

#[test]
fn generate_counts_puzzles_from_one_in_errors() {
    let out = lab()
        .args([
            "generate",
            "-n",
            "2",
            "--clues",
            "17",
            "--max-attempts",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
    let err = stderr_of(&out);
    assert!(
        err.starts_with("error: puzzle 1: no 9x9 puzzle with 17 clues")
            || err.starts_with("error: puzzle 2: no 9x9 puzzle with 17 clues"),
        "{err}"
    );
    assert!(!err.contains("puzzle 0"));
}

/// Dataset names and a command line with Markdown and HTML in them come out
/// as the same text in the rendered report: no table is split, no HTML
/// passes through.
#[test]
fn names_with_markdown_in_them_do_not_break_the_report() {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    fs::create_dir(&out).unwrap();
    let names = [
        "a|b <b>bold</b>",
        "tick`s and ``two``",
        "x_y *z* [l](u) &amp;",
    ];
    let mut csv = csv::Writer::from_path(out.join("results.csv")).unwrap();
    csv.write_record(sudoku_lab::measure::measured_columns())
        .unwrap();
    for (d, name) in names.iter().enumerate() {
        for (k, s) in [Strategy::ALL[0], Strategy::ALL[3]].iter().enumerate() {
            let nodes = (100 * (d + 1) / (k + 1)).to_string();
            csv.write_record([
                name,
                "1",
                "1",
                "",
                "9",
                "25",
                s.name(),
                "solved",
                &nodes,
                "1",
                "1",
                "1",
                "1",
                "1",
                "1",
                "1000",
                "1000",
                "1000",
                "1000",
                "1",
            ])
            .unwrap();
        }
    }
    csv.flush().unwrap();
    drop(csv);
    let command = "sudoku-lab compare --dataset 'a|b <b>bold</b>'";
    let datasets = names.join("; ");
    let mut meta = csv::Writer::from_path(out.join("meta.csv")).unwrap();
    meta.write_record(["key", "value"]).unwrap();
    meta.write_record(["command", command]).unwrap();
    meta.write_record(["datasets", &datasets]).unwrap();
    meta.flush().unwrap();
    drop(meta);
    ok(Command::new(bin()).arg("report").arg(&out));
    let md = fs::read_to_string(out.join("README.md")).unwrap();

    let mut code_spans: Vec<String> = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    let mut cell: Option<String> = None;
    for event in Parser::new_ext(&md, Options::ENABLE_TABLES) {
        match event {
            Event::Html(h) | Event::InlineHtml(h) => panic!("HTML passed through: {h}"),
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => cells.extend(cell.take()),
            Event::Code(c) => {
                if let Some(t) = cell.as_mut() {
                    t.push_str(&c);
                }
                code_spans.push(c.to_string());
            }
            Event::Text(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            _ => {}
        }
    }
    for name in names {
        // Whole in a code span: the heading of its summary table, and the
        // ladder's across-datasets table where it is a step's lowest or
        // highest set; never cut in pieces.
        let n = code_spans.iter().filter(|c| *c == name).count();
        assert!(n >= 1, "{name:?} in code spans {code_spans:?}");
        assert!(
            !code_spans
                .iter()
                .any(|c| c != name && name.starts_with(c.as_str()) && !c.is_empty()),
            "{name:?} cut in code spans {code_spans:?}"
        );
    }
    // The run's table comes last (the ladder's across-datasets table also
    // has a `datasets` column).
    let after = |label: &str| {
        let i = cells.iter().rposition(|c| c == label).unwrap();
        cells[i + 1].clone()
    };
    assert_eq!(after("command"), command);
    assert_eq!(after("datasets"), datasets);
}

/// Every failure kind has its own exit code; 2 stays "usage or bad input",
/// also for a named file that does not exist.
#[test]
fn exit_codes_by_kind_of_failure() {
    lab()
        .args(["solve", "/no/such/file.txt"])
        .assert()
        .code(i32::from(EXIT_USAGE));
    lab()
        .args(["report", "/no/such/folder"])
        .assert()
        .code(i32::from(EXIT_USAGE));
    if Path::new("/dev/full").exists() {
        let out = run(Command::new(bin())
            .arg("strategies")
            .stdout(File::options().write(true).open("/dev/full").unwrap()));
        assert_eq!(out.status.code(), Some(i32::from(EXIT_IO)));
        let out = run(Command::new(bin())
            .arg("--help")
            .stdout(File::options().write(true).open("/dev/full").unwrap()));
        assert_eq!(out.status.code(), Some(i32::from(EXIT_IO)));
    }
}

/// `--dataset` arguments that are not puzzle files say what they are; a
/// broken or huge file among the shipped datasets does not stop a name from
/// resolving (names are looked up without reading files); one file named two
/// ways is one dataset; a file that cannot be opened says why.
#[test]
fn dataset_arguments_say_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let compare = |spec: &Path| {
        let o = lab()
            .current_dir(tmp.path())
            .args(["compare", "--min-time", "0", "-s", "mrv", "--out"])
            .arg(&out)
            .arg("--dataset")
            .arg(spec)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // A folder and a FIFO.
    let (code, err) = compare(tmp.path());
    assert_eq!(code, Some(EXIT_USAGE as i32), "{err}");
    assert!(err.contains("is a folder, not a puzzle file"), "{err}");
    let fifo = tmp.path().join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, err) = compare(&fifo);
    assert_eq!(code, Some(EXIT_USAGE as i32), "{err}");
    assert!(err.contains("is a FIFO, not a puzzle file"), "{err}");
    // Shipped names resolve although another shipped file is broken.
    let shipped = tmp.path().join("shipped");
    fs::create_dir_all(shipped.join("sub")).unwrap();
    fs::write(shipped.join("sub/good.txt"), "1.3.3.1..1.3.3.1\n").unwrap();
    fs::write(shipped.join("broken.txt"), "not a puzzle\n").unwrap();
    lab()
        .current_dir(tmp.path())
        .env("SUDOKU_LAB_DATASETS", &shipped)
        .args([
            "compare",
            "--min-time",
            "0",
            "-s",
            "mrv",
            "--dataset",
            "sub/good",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let err = lab()
        .current_dir(tmp.path())
        .env("SUDOKU_LAB_DATASETS", &shipped)
        .args(["compare", "--dataset", "nope", "--out"])
        .arg(&out)
        .assert()
        .code(EXIT_USAGE as i32)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&err);
    assert!(
        err.contains("(shipped: broken, sub/good; public corpora, after `sudoku-lab datasets fetch NAME`: 17-clue, top1465, forum-hardest-1106)"),
        "{err}"
    );
    // `in/x.txt` and `./in/x.txt`: one dataset.
    fs::create_dir(tmp.path().join("in")).unwrap();
    fs::write(tmp.path().join("in/x.txt"), "1.3.3.1..1.3.3.1\n").unwrap();
    lab()
        .current_dir(tmp.path())
        .args(["compare", "--min-time", "0", "-s", "mrv"])
        .args(["--dataset", "in/x.txt", "--dataset", "./in/x.txt", "--out"])
        .arg(&out)
        .assert()
        .success();
    let results = fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(results.lines().count(), 2, "{results}");
    // A file that cannot be read says why (root reads anything: skip then).
    let locked = tmp.path().join("locked.txt");
    fs::write(&locked, "1.3.3.1..1.3.3.1\n").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    if File::open(&locked).is_err() {
        let (code, err) = compare(&locked);
        assert_eq!(code, Some(EXIT_IO as i32), "{err}");
        assert!(err.contains("ermission denied"), "{err}");
    } else {
        eprintln!("skipped the permission case: this user can read a mode-000 file (root)");
    }
}

// ---------------------------------------------------------------------------
// Issue 30: a report folder is recognised (issue 59: by the lab's list of its files).
// ---------------------------------------------------------------------------

/// A folder of someone's files (no list of the lab's) is refused before anything is
/// measured, and left exactly as it was; `--force` writes into it, leaving
/// the files the report does not write. An empty folder is fine.
#[test]
fn compare_refuses_a_folder_that_is_not_a_report_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let mine = dir.join("mine");
    fs::create_dir(&mine).unwrap();
    write(&mine.join("README.md"), "my notes\n");
    write(&mine.join("results.csv"), "my,results\n");
    write(&mine.join("todo.txt"), "keep me\n");
    let before = snapshot(&mine);
    let out = compare_into(dir, &data, &mine);
    assert_eq!(out.status.code(), Some(i32::from(EXIT_USAGE)));
    assert_eq!(
        stderr_of(&out).trim_end(),
        format!(
            "error: refusing to write the report into {}: the folder holds files (README.md, results.csv, todo.txt) and no .sudoku-lab-files (the list of its files the lab writes into every report folder it makes), so the lab did not make it; choose another folder, or add --force to write the report into it (files of the report's names are replaced, no other file is removed)",
            mine.display()
        )
    );
    assert_eq!(snapshot(&mine), before, "the user's files are untouched");
    assert_eq!(listing(&mine), ["README.md", "results.csv", "todo.txt"]);

    let forced = run(Command::new(bin())
        .current_dir(dir)
        .args(compare_args(data.to_str().unwrap(), mine.to_str().unwrap()))
        .arg("--force"));
    assert!(forced.status.success(), "{}", stderr_of(&forced));
    assert!(
        fs::read_to_string(mine.join("README.md"))
            .unwrap()
            .starts_with("# ")
    );
    assert_eq!(
        fs::read_to_string(mine.join("todo.txt")).unwrap(),
        "keep me\n"
    );

    // Now it is a report folder: a second run needs no --force.
    let again = compare_into(dir, &data, &mine);
    assert!(again.status.success(), "{}", stderr_of(&again));
    assert_eq!(
        fs::read_to_string(mine.join("todo.txt")).unwrap(),
        "keep me\n"
    );

    let empty = dir.join("empty");
    fs::create_dir(&empty).unwrap();
    let out = compare_into(dir, &data, &empty);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(empty.join("meta.csv").is_file());
}

/// Publishing a report removes the files of the previous report that the
/// new one does not write (a run with a program wrote programs.csv and its
/// chart; a run without must not leave them), and nothing else. Reports
/// made before the lab kept a list of its files are recognised by name.
#[test]
fn a_new_report_removes_the_previous_reports_other_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let program = write(
        &dir.join("right.sh"),
        "#!/bin/sh\ncat >/dev/null\necho 1234341221434321\n",
    );
    fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.join("report");
    let with_program = |out: &Path| {
        run(Command::new(bin())
            .current_dir(dir)
            .args(compare_args(data.to_str().unwrap(), out.to_str().unwrap()))
            .arg("--program")
            .arg(format!("right={}", program.display())))
    };
    let first = with_program(&out);
    assert!(first.status.success(), "{}", stderr_of(&first));
    for f in ["programs.csv", "programs.svg", "programs.png"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    write(&out.join("notes.txt"), "mine\n");
    let second = compare_into(dir, &data, &out);
    assert!(second.status.success(), "{}", stderr_of(&second));
    for f in ["programs.csv", "programs.svg", "programs.png"] {
        assert!(!out.join(f).exists(), "{f} of the previous run is left");
    }
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine\n");
    // `report` keeps what it reads (results.csv, programs.csv).
    let first = with_program(&out);
    assert!(first.status.success(), "{}", stderr_of(&first));
    ok(Command::new(bin()).arg("report").arg(&out));
    for f in [
        "results.csv",
        "programs.csv",
        "programs.svg",
        "programs.png",
    ] {
        assert!(out.join(f).is_file(), "{f} after report");
    }
    // A report from before the list of files: recognised by its names.
    fs::remove_file(out.join(".sudoku-lab-files")).unwrap();
    let third = compare_into(dir, &data, &out);
    assert!(third.status.success(), "{}", stderr_of(&third));
    assert!(!out.join("programs.csv").exists());
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine\n");
}

/// `--out` through a symbolic link to a folder that does not exist yet
/// creates that folder (it failed with "File exists").
#[test]
fn compare_out_through_a_dangling_link_creates_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let data = write(&dir.join("p.txt"), PUZZLE_4X4);
    let link = dir.join("reports");
    symlink("elsewhere/reports", &link).unwrap();
    let out = compare_into(dir, &data, &link);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_link(&link);
    assert!(dir.join("elsewhere/reports/README.md").is_file());
}
