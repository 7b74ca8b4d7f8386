//! Command-line hygiene: every usage or input error exits with code 2, prints
//! nothing on stdout, and says what is wrong on its first stderr line (our
//! own errors are exactly one line). Unknown strategy names list the valid
//! ones, taken from the registry. `compare`, `report` and the other
//! subcommands (including an unusable output directory) are covered in
//! `tests/compare_robustness.rs`.

use std::io::Write;
use std::process::{Command, Stdio};

use assert_cmd::Command as Cmd;
use sudoku_lab::Strategy;

fn lab() -> Cmd {
    Cmd::cargo_bin("sudoku-lab").expect("binary built")
}

const SUBCOMMANDS: [&str; 3] = ["solve", "count", "strategies"];
const PUZZLE: &str = "................\n";

/// Runs `args` with `stdin`; asserts exit 2, empty stdout, and a first stderr
/// line starting with `error: ` and containing `first_line`. Returns stderr.
fn usage_error(args: &[&str], stdin: &str, first_line: &str) -> String {
    let out = lab().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", out.stdout);
    let first = stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("error: "), "{args:?}: {stderr}");
    assert!(first.contains(first_line), "{args:?}: {stderr}");
    stderr
}

/// Like [`usage_error`], for the lab's own errors: exactly one line.
fn one_line_error(args: &[&str], stdin: &str, contains: &str) -> String {
    let stderr = usage_error(args, stdin, contains);
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

#[test]
fn unknown_flags_exit_2_for_every_subcommand() {
    for sub in SUBCOMMANDS {
        usage_error(
            &[sub, "--frobnicate"],
            PUZZLE,
            "unexpected argument '--frobnicate'",
        );
        usage_error(&[sub, "-z"], PUZZLE, "unexpected argument '-z'");
    }
    usage_error(&["--frobnicate"], "", "unexpected argument '--frobnicate'");
    usage_error(&["strategies", "extra"], "", "unexpected argument 'extra'");
    usage_error(
        &["solve", "a.txt", "b.txt"],
        "",
        "unexpected argument 'b.txt'",
    );
}

#[test]
fn missing_or_unknown_subcommands_exit_2() {
    let out = lab().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: sudoku-lab <COMMAND>"));
    usage_error(&["solv"], "", "unrecognized subcommand 'solv'");
}

#[test]
fn bad_flag_values_exit_2() {
    for sub in ["solve", "count"] {
        usage_error(
            &[sub, "--budget"],
            PUZZLE,
            "a value is required for '--budget <NODES>'",
        );
        usage_error(
            &[sub, "--budget", "lots"],
            PUZZLE,
            "invalid value 'lots' for '--budget <NODES>'",
        );
        usage_error(&[sub, "--budget", "-5"], PUZZLE, "unexpected argument '-5'");
        usage_error(&[sub, "--budget", "1e9"], PUZZLE, "invalid value '1e9'");
        usage_error(
            &[sub, "--budget", "99999999999999999999999"],
            PUZZLE,
            "invalid value",
        );
        usage_error(
            &[sub, "--strategy"],
            PUZZLE,
            "a value is required for '--strategy <STRATEGY>'",
        );
    }
    usage_error(
        &["count", "--limit", "many"],
        PUZZLE,
        "invalid value 'many' for '--limit <LIMIT>'",
    );
    // A limit of 0 would be answered as if it were 1 (">=1"): rejected instead.
    usage_error(
        &["count", "--limit", "0"],
        PUZZLE,
        "invalid value '0' for '--limit <LIMIT>'",
    );
    lab()
        .args(["count", "--limit", "1"])
        .write_stdin(PUZZLE)
        .assert()
        .success()
        .stdout(">=1\n");
}

#[test]
fn unknown_strategy_names_list_every_valid_one() {
    for sub in ["solve", "count"] {
        for bad in ["quantum", "MRV", "blank_list", ""] {
            let stderr = usage_error(&[sub, "--strategy", bad], PUZZLE, "'--strategy <STRATEGY>'");
            for s in Strategy::ALL {
                assert!(
                    stderr.contains(s.name()),
                    "{sub} {bad:?}: {s} not listed in {stderr}"
                );
            }
        }
    }
    // And every listed name is accepted.
    for s in Strategy::ALL {
        lab()
            .args(["count", "--strategy", s.name(), "--budget", "1000000"])
            .write_stdin(
                "174385962293467158586192734451923876928674315367851249719548623635219487842736591\n",
            )
            .assert()
            .success()
            .stdout("1\n");
    }
}

#[test]
fn missing_files_and_directories_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such.txt");
    let missing = missing.to_str().unwrap();
    for sub in ["solve", "count"] {
        let err = one_line_error(&[sub, missing], "", &format!("cannot open {missing}"));
        assert!(err.contains("No such file or directory"), "{err}");
        let d = dir.path().to_str().unwrap();
        one_line_error(&[sub, d], "", &format!("{d}:1:1: read error:"));
    }
}

#[test]
fn empty_and_comment_only_files_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, at) in [
        ("empty.txt", "", ":1:1: "),
        ("comments.txt", "# a\n\n# b\n", ":3:1: "),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let p = path.to_str().unwrap();
        for sub in ["solve", "count"] {
            one_line_error(&[sub, p], "", &format!("{p}{at}no puzzle found"));
        }
    }
}

/// Running as root (as in some containers) every file is readable, so the
/// check is skipped there with a note.
#[test]
fn unreadable_files_are_one_line_errors() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.txt");
    std::fs::write(&path, PUZZLE).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&path).is_ok() {
        eprintln!("skipped: running with permission to read a mode-000 file (root)");
        return;
    }
    let p = path.to_str().unwrap();
    let err = one_line_error(&["solve", p], "", &format!("cannot open {p}"));
    assert!(err.contains("Permission denied"), "{err}");
}

/// Puzzles before a bad one are answered (the input is streamed); the bad
/// one stops the run with exit 2 and one line naming its position.
#[test]
fn a_bad_puzzle_mid_stream_stops_with_its_position() {
    let input = "1234341221434321\n12343412214343\n";
    let out = lab().arg("count").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: <stdin>:2:1: wrong length: 14 characters"),
        "{stderr}"
    );
}

/// A 1 GiB line on stdin: the binary stops after reading about 64 KiB and
/// exits 2 while the writer still has almost all of the gigabyte to send.
#[test]
fn a_one_gigabyte_stdin_line_ends_promptly() {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("sudoku-lab"))
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'1'; 64 * 1024];
        let mut written: u64 = 0;
        while written < 1 << 30 {
            match stdin.write(&chunk) {
                Ok(n) => written += n as u64,
                Err(_) => break, // the reader is gone: broken pipe
            }
        }
        written
    });
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: <stdin>:1:1: line longer than 65536 bytes"
    );
    assert!(
        written < 64 << 20,
        "the writer got {written} bytes in before the exit"
    );
}
