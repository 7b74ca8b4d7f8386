//! The `solve`, `count` and `strategies` commands through the binary:
//! Baekjoon samples, layouts, markers, exit codes and every bad-input message.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

const P2580: &str = "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n";
const S2580: &str = "1 3 5 4 6 9 2 7 8\n7 8 2 1 3 5 6 4 9\n4 6 9 2 7 8 1 3 5\n3 2 1 5 4 6 8 9 7\n8 7 4 9 1 3 5 2 6\n5 9 6 8 2 7 4 1 3\n9 1 7 6 5 2 3 8 4\n6 4 3 7 8 1 9 5 2\n2 5 8 3 9 4 7 6 1\n";
const P2239: &str = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
const S2239: &str = "143628579\n572139468\n986754231\n391542786\n468917352\n725863914\n237481695\n619275843\n854396127\n";

fn lab() -> Command {
    Command::cargo_bin("sudoku-lab").expect("binary built")
}

fn names() -> Vec<&'static str> {
    sudoku_lab::Strategy::ALL.iter().map(|s| s.name()).collect()
}

#[test]
fn baekjoon_2580_sample_solves_in_grid_layout_with_every_strategy() {
    for s in names() {
        lab()
            .args(["solve", "--strategy", s])
            .write_stdin(P2580)
            .assert()
            .success()
            .stdout(S2580);
    }
}

#[test]
fn baekjoon_2239_sample_solves_in_compact_layout_with_every_strategy() {
    for s in names() {
        lab()
            .args(["solve", "-s", s])
            .write_stdin(P2239)
            .assert()
            .success()
            .stdout(S2239);
    }
}

#[test]
fn crlf_comments_and_blank_lines_are_accepted() {
    let input = "# two puzzles\r\n\r\n  1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1  # Easter Monster\r\n12345678.........9...............................................................\r\n";
    lab()
        .args(["solve", "--strategy", "mrv"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            "174385962293467158586192734451923876928674315367851249719548623635219487842736591\nno solution\n",
        );
}

#[test]
fn budget_exceeded_is_its_own_marker_and_exit_code() {
    lab()
        .args(["solve", "--strategy", "naive", "--budget", "1000"])
        .write_stdin(
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\n",
        )
        .assert()
        .code(1)
        .stdout("budget exceeded\n");
    lab()
        .args(["solve", "-s", "used-tables", "--budget", "10"])
        .write_stdin(P2239)
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("budget exceeded after 10 nodes"));
}

#[test]
fn stats_go_to_stderr_with_every_counter() {
    let assert = lab()
        .args(["solve", "--stats", "-s", "used-tables"])
        .write_stdin(P2239)
        .assert()
        .success()
        .stdout(S2239);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    for key in sudoku_lab::Counts::NAMES {
        assert!(err.contains(&format!(" {key}=")), "missing {key} in {err}");
    }
    // The 2239 sample's tree under row-major search, exactly.
    assert!(
        err.contains("nodes=188 placements=187 backtracks=136"),
        "{err}"
    );
    // The one time format of the lab: three significant digits and a unit (`1.16 ms`).
    let time = err
        .split("time=")
        .nth(1)
        .expect("a time=")
        .lines()
        .next()
        .unwrap_or("");
    let (value, unit) = time.split_once(' ').expect("value and unit");
    assert!(["ns", "µs", "ms", "s"].contains(&unit), "{time}");
    let digits = value.chars().filter(char::is_ascii_digit).count();
    assert!(value.parse::<f64>().is_ok() && digits <= 3, "{time}");
}

#[test]
fn sixteen_by_sixteen_line_puzzles_use_the_letter_alphabet() {
    // A full 16x16 grid from the pattern, with the first row's cells blanked.
    let n = 16;
    let grid: String = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let v = (4 * (r % 4) + r / 4 + c) % n + 1;
            sudoku_lab::base::format::symbol(v as u8)
        })
        .collect();
    let puzzle: String = grid
        .chars()
        .enumerate()
        .map(|(i, ch)| if i < 12 { '.' } else { ch })
        .collect();
    let sixteen = sudoku_lab::BoxSize::from_side(16).unwrap();
    for s in sudoku_lab::Strategy::ALL {
        let cmd = lab()
            .args(["solve", "--budget", "1000000", "-s", s.name()])
            .write_stdin(format!("{puzzle}\n"))
            .assert();
        if s.supports(sixteen) {
            cmd.success().stdout(format!("{grid}\n"));
        } else {
            cmd.code(2).stderr(contains(format!(
                "strategy {s} does not support 16x16 boards"
            )));
        }
    }
    // Without --strategy the default for the size is used.
    lab()
        .arg("solve")
        .write_stdin(format!("{puzzle}\n"))
        .assert()
        .success()
        .stdout(format!("{grid}\n"));
    assert!(grid.contains('G') && !grid.contains('H'));
}

#[test]
fn count_reports_exact_capped_and_budget_cases() {
    lab()
        .args(["count", "--limit", "1000"])
        .write_stdin("................\n")
        .assert()
        .success()
        .stdout("288\n");
    lab()
        .args(["count"])
        .write_stdin("................\n1...\n")
        .assert()
        .failure();
    lab()
        .args(["count"])
        .write_stdin("................\n")
        .assert()
        .success()
        .stdout(">=2\n");
    lab()
        .args(["count", "--budget", "5", "-s", "naive"])
        .write_stdin("................\n")
        .assert()
        .code(1)
        .stdout("budget exceeded (>=0)\n");
}

#[test]
fn strategies_lists_every_rung_in_ladder_order() {
    let out = lab().arg("strategies").assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let listed: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    // The ladder, then the variants (run only when named).
    let variants = sudoku_lab::Strategy::VARIANTS.iter().map(|s| s.name());
    assert_eq!(
        listed,
        names().into_iter().chain(variants).collect::<Vec<_>>()
    );
}

/// Each bad input: the exact position and problem, and exit code 2.
#[test]
fn bad_input_names_file_line_column_and_problem() {
    let cases: &[(&str, &str)] = &[
        (
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2....x1\n",
            "<stdin>:1:80: unknown character 'x'",
        ),
        (
            "# header\n1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\n1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2....\n",
            "<stdin>:3:1: wrong length: 79 characters, expected 81 for a 9x9 puzzle (the size set by line 2)",
        ),
        (
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1.\n",
            "<stdin>:1:1: wrong length: 82 characters",
        ),
        ("..........\n", "<stdin>:1:1: wrong length: 10 characters"),
        (
            "123456789\n000000000\n000000000\n00000000\n",
            "<stdin>:4:1: wrong length: row has 8 characters, expected 9",
        ),
        (
            "1 0 0 0\n0 0 0 0\n0 0 0 0\n",
            "<stdin>:3:1: wrong row count: the puzzle starting at line 1 has 3 rows, expected 4",
        ),
        ("1 2 3 4 5 6\n", "<stdin>:1:1: unsupported size 6x6"),
        (
            "....................................\n",
            "<stdin>:1:1: unsupported size 6x6",
        ),
        (
            "0 0 0 0\n0 0 5 0\n0 0 0 0\n0 0 0 0\n",
            "<stdin>:2:5: digit 5 is out of range for 4x4",
        ),
        (
            "A...............\n",
            "<stdin>:1:1: digit 'A' is out of range for 4x4",
        ),
        (
            "5.......5........................................................................\n",
            "<stdin>:1:9: conflicting givens: digit 5 appears twice in row 1: r1c1 (line 1, column 1) and r1c9 (line 1, column 9)",
        ),
        (
            "0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 7 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 7 0 0 0 0 0 0 0\n",
            "<stdin>:9:3: conflicting givens: digit 7 appears twice in column 2: r3c2 (line 3, column 3) and r9c2 (line 9, column 3)",
        ),
        (
            "1...\n.1..\n....\n....\n",
            "<stdin>:2:2: conflicting givens: digit 1 appears twice in box 1: r1c1 (line 1, column 1) and r2c2 (line 2, column 2)",
        ),
        ("# only a comment\n\n", "<stdin>:2:1: no puzzle found"),
        ("", "<stdin>:1:1: no puzzle found"),
    ];
    for (input, message) in cases {
        lab()
            .arg("solve")
            .write_stdin(*input)
            .assert()
            .code(2)
            .stderr(contains(*message).and(predicate::str::starts_with("error: ")));
    }
}

#[test]
fn errors_in_files_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "# header\n\n1 2 3 x\n").unwrap();
    lab()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{}:3:7: unknown character 'x'",
            path.display()
        )));
    lab()
        .args(["solve", "/no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot open /no/such/file.txt"));
}

#[test]
fn non_utf8_and_overlong_lines_are_rejected_cleanly() {
    lab()
        .arg("solve")
        .write_stdin(&b"1...\xff...........\n"[..])
        .assert()
        .code(2)
        .stderr(contains("<stdin>:1:5: unknown character (byte 0xFF)"));
    let long = ".".repeat(200_000);
    lab()
        .arg("solve")
        .write_stdin(long)
        .assert()
        .code(2)
        .stderr(contains("<stdin>:1:1: line longer than 65536 bytes"));
}

#[test]
fn usage_errors_exit_2_and_list_valid_strategies() {
    lab()
        .args(["solve", "--strategy", "quantum"])
        .assert()
        .code(2)
        .stderr(contains("naive").and(contains("mrv")));
    lab().args(["solve", "--frobnicate"]).assert().code(2);
}

#[test]
fn a_strategy_is_never_run_on_a_size_it_does_not_support() {
    for sub in [&["solve"][..], &["count"], &["trace"]] {
        lab()
            .args(sub)
            .args(["--strategy", "fast"])
            .write_stdin("1234341221434321\n")
            .assert()
            .code(2)
            .stderr(contains("strategy fast does not support 4x4 boards"));
    }
}

/// The file that holds the exit-code table, and the marker the table
/// follows: moving the table to another file is changing this path.
const EXIT_CODE_DOC: &str = "docs/reference.md";
const EXIT_CODE_MARKER: &str = "<!-- exit codes: tests/cli_core.rs drives every row -->";

/// The codes of the exit-code table (the first column of the table after
/// [`EXIT_CODE_MARKER`] in [`EXIT_CODE_DOC`]).
fn documented_exit_codes() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXIT_CODE_DOC);
    let text = std::fs::read_to_string(&path).expect("the exit-code table's file");
    let after = text
        .split_once(EXIT_CODE_MARKER)
        .unwrap_or_else(|| panic!("{EXIT_CODE_DOC} has no {EXIT_CODE_MARKER}"))
        .1;
    after
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1))
        .filter_map(|c| c.trim().trim_matches('`').parse().ok())
        .collect()
}

/// Issue 30: the exit-code table (docs/reference.md), row by row, each failure with
/// its `error:` line. Row 1 per command on one puzzle without solution
/// (and one over budget), so `solve` and `count` agree. Issue 59: the
/// table is read, and its rows are the codes driven here.
#[test]
fn exit_code_table_every_row() {
    assert_eq!(documented_exit_codes(), [0, 1, 2, 70, 74, 130]);
    let dir = tempfile::tempdir().expect("temp dir");
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "12....3.........\n").expect("write");
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "1.3.3.1.2.4.4.2.\n").expect("write");
    let p = |f: &std::path::Path| f.to_str().expect("UTF-8").to_string();
    let report = dir.path().join("report");
    let quick = ["--min-time", "0", "--min-samples", "1"];
    // 0
    lab().args(["solve"]).arg(&one).assert().code(0).stderr("");
    // 1: every command that solves, on a puzzle without solution.
    let rows: Vec<Vec<String>> = vec![
        vec!["solve".into(), p(&none)],
        vec!["count".into(), p(&none)],
        vec!["rate".into(), p(&none)],
        vec!["trace".into(), p(&none), "-s".into(), "bitmask".into()],
        vec![
            "replay".into(),
            p(&none),
            "-s".into(),
            "bitmask".into(),
            "--out".into(),
            p(&dir.path().join("r.html")),
        ],
        vec!["ladder".into(), p(&none), "-s".into(), "bitmask".into()],
        [
            vec!["speed".into(), p(&none), "-s".into(), "bitmask".into()],
            quick.map(String::from).to_vec(),
        ]
        .concat(),
    ];
    for args in &rows {
        lab()
            .args(args)
            .assert()
            .code(1)
            .stderr(contains("error: "));
    }
    // compare and report: a puzzle without solution is a measured result.
    lab()
        .args(["compare", "-s", "bitmask", "--dataset"])
        .arg(&none)
        .arg("--out")
        .arg(&report)
        .args(quick)
        .assert()
        .code(0);
    lab().arg("report").arg(&report).assert().code(0);
    // 1 on a budget, except in compare (a measured result there).
    lab()
        .args(["solve", "-s", "naive", "--budget", "1"])
        .arg(&one)
        .assert()
        .code(1);
    lab()
        .args(["count", "-s", "naive", "--budget", "1"])
        .arg(&one)
        .assert()
        .code(1);
    lab()
        .args(["compare", "-s", "naive", "--budget", "1", "--dataset"])
        .arg(&one)
        .arg("--out")
        .arg(dir.path().join("budget"))
        .args(quick)
        .assert()
        .code(0);
    // The rating of a puzzle without solution says so.
    lab()
        .arg("rate")
        .arg(&none)
        .assert()
        .code(1)
        .stdout(contains("no-solution").and(contains("easy").not()));
    // 2
    lab().args(["solve", "--budget", "x"]).assert().code(2);
    lab()
        .arg("solve")
        .arg(dir.path().join("missing.txt"))
        .assert()
        .code(2);
    // 70: a rung that cannot join the ladder is a bug of the program embedding the lab.
    let bad: sudoku_lab::AddRung = || Err(sudoku_lab::base::strategy::AddError::Taken("mrv"));
    assert_eq!(
        sudoku_lab::run_with(&[bad], ["sudoku-lab", "strategies"]),
        std::process::ExitCode::from(70)
    );
    // 74
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-lab"))
            .arg("solve")
            .arg(&one)
            .stdout(full)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(74));
        assert!(String::from_utf8_lossy(&out.stderr).contains("error: "));
    }
    // 74 for a read that fails, whatever the command: a symbolic link loop
    // (on main, 2 from compare) and a results.csv that cannot be read (on
    // main, 2 from report and diff).
    let report_dir = |name: &str, results: &std::path::Path| {
        let d = dir.path().join(name);
        std::fs::create_dir(&d).expect("mkdir");
        std::fs::copy(report.join("meta.csv"), d.join("meta.csv")).expect("copy");
        std::os::unix::fs::symlink(results, d.join("results.csv")).expect("symlink");
        d
    };
    let loop_file = dir.path().join("loop");
    std::os::unix::fs::symlink(&loop_file, &loop_file).expect("symlink");
    let looped = report_dir("looped", &dir.path().join("looped/results.csv"));
    let mut reads: Vec<Vec<std::ffi::OsString>> = ["solve", "count", "rate", "ladder"]
        .iter()
        .map(|c| vec![c.into(), loop_file.clone().into()])
        .collect();
    reads.push(vec!["compare".into(), "--dataset".into(), loop_file.into()]);
    reads.push(vec!["report".into(), looped.clone().into()]);
    reads.push(vec!["diff".into(), report.clone().into(), looped.into()]);
    // /proc/self/mem reads fail (EIO) at offset 0, even for root.
    if std::fs::read(std::path::Path::new("/proc/self/mem")).is_err() {
        let eio = report_dir("eio", std::path::Path::new("/proc/self/mem"));
        reads.push(vec!["report".into(), eio.clone().into()]);
        reads.push(vec!["diff".into(), report.clone().into(), eio.into()]);
    }
    for args in &reads {
        let out = lab().args(args).output().expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    // 130: see tests/program.rs (interrupted_runs_leave_no_program_behind)
    // for runs with programs; here a `solve` waiting on its input.
    let mut waiting = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-lab"))
        .arg("solve")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start");
    // Give it time to install its handler; a signal before that kills it
    // by SIGINT instead, which the loop below then sees and retries.
    let status = loop {
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: kill has no memory effects; the child is not reaped.
        unsafe {
            libc::kill(waiting.id() as i32, libc::SIGINT);
        }
        if let Some(s) = waiting.try_wait().expect("wait") {
            break s;
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        if let Some(s) = waiting.try_wait().expect("wait") {
            break s;
        }
    };
    use std::os::unix::process::ExitStatusExt;
    assert!(
        status.code() == Some(130) || status.signal() == Some(libc::SIGINT),
        "{status:?}"
    );
}

/// Issue 59, case 7: a line puzzle followed by a grid says the layout
/// changed, at the file, line and column of the grid row's first space.
#[test]
fn a_grid_after_a_line_puzzle_says_the_layout_changed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mixed = dir.path().join("mixed.txt");
    std::fs::write(
        &mixed,
        "1.3.3.1.2.4.4.2.\n1 0 3 0\n3 0 1 0\n2 0 4 0\n4 0 2 0\n",
    )
    .expect("write");
    lab().arg("solve").arg(&mixed).assert().code(2).stderr(format!(
        "error: {}:2:2: the layout changed: a space, as in a grid row of numbers, where the file's puzzles are in the line layout (set by its first puzzle, line 1); a file holds puzzles of one layout\n",
        mixed.display()
    ));
}

/// Issue 30, point 6: the smaller defects, each as found.
#[test]
fn small_defects_of_issue_30() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = dir.path().join("one.txt");
    std::fs::write(&one, "1.3.3.1.2.4.4.2.\n").expect("write");
    // `generate --budget 0` is refused as every other --budget 0 is.
    lab()
        .args(["generate", "-n", "1", "--size", "4", "--budget", "0"])
        .assert()
        .code(2)
        .stderr(contains("a budget of 0 nodes"));
    // `--limit` reads numbers as `--budget` does.
    lab()
        .args(["count", "--limit", "5_000"])
        .arg(&one)
        .assert()
        .code(0)
        .stdout("4\n");
    // A program that is missing and one that is not executable: both usage
    // errors, each cause said once.
    let noexec = dir.path().join("noexec");
    std::fs::write(&noexec, "").expect("write");
    for (program, cause) in [
        (
            dir.path().join("missing"),
            "No such file or directory (os error 2)",
        ),
        (noexec, "Permission denied (os error 13)"),
    ] {
        let out = lab()
            .args(["speed", "-s", "bitmask"])
            .arg(&one)
            .arg("--program")
            .arg(format!("a={}", program.display()))
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        assert_eq!(err.matches(cause).count(), 1, "{err}");
    }
    // `report` with results.csv through a link to /dev/zero, or a FIFO:
    // refused at once (it allocated 2 GiB, or blocked forever).
    let report = dir.path().join("r");
    lab()
        .args([
            "compare",
            "-s",
            "bitmask",
            "--min-time",
            "0",
            "--min-samples",
            "1",
            "--dataset",
        ])
        .arg(&one)
        .arg("--out")
        .arg(&report)
        .assert()
        .code(0);
    let results = report.join("results.csv");
    std::fs::remove_file(&results).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &results).expect("link");
    lab()
        .arg("report")
        .arg(&report)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("it is not a regular file"));
    std::fs::remove_file(&results).expect("remove");
    let made = std::process::Command::new("mkfifo").arg(&results).status();
    if made.is_ok_and(|s| s.success()) {
        lab()
            .arg("report")
            .arg(&report)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(contains("it is not a regular file"));
    }
}

/// Issue 30, point 6: bytes no layout holds are named as such, not read as
/// a size: 100 NUL bytes, CR-only line ends, a wrong `# solutions:` line.
#[test]
fn binary_data_cr_line_ends_and_wrong_solution_counts_are_said() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nul = dir.path().join("nul.txt");
    std::fs::write(&nul, [0u8; 100]).expect("write");
    lab()
        .arg("solve")
        .arg(&nul)
        .assert()
        .code(2)
        .stderr(contains(":1:1: binary data (a NUL byte)"));
    let cr = dir.path().join("cr.txt");
    let puzzle = ".234341221434321"; // one solution
    std::fs::write(&cr, format!("{puzzle}\r{puzzle}\r")).expect("write");
    lab()
        .arg("solve")
        .arg(&cr)
        .assert()
        .code(2)
        .stderr(contains(":1:17: a carriage return (CR) inside a line"));
    let odd = dir.path().join("odd.txt");
    std::fs::write(&odd, "1.3.\t3.1.\x01\n").expect("write");
    lab()
        .arg("solve")
        .arg(&odd)
        .assert()
        .code(2)
        .stderr(contains(":1:10: unknown character (byte 0x01)"));
    // A `# solutions: 5` line over a puzzle with one solution.
    let wrong = dir.path().join("wrong.txt");
    std::fs::write(&wrong, format!("# solutions: 5\n{puzzle}\n")).expect("write");
    lab()
        .args(["count", "--limit", "10"])
        .arg(&wrong)
        .assert()
        .code(0)
        .stdout("1\n")
        .stderr(contains(
            "puzzle 1 (line 2): the file says `# solutions: 5`, but it has 1",
        ));
    let right = dir.path().join("right.txt");
    std::fs::write(&right, format!("# solutions: 1\n{puzzle}\n")).expect("write");
    lab().arg("count").arg(&right).assert().code(0).stderr("");
}
