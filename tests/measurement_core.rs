//! The one measurement core (issue #11), seen from the command line: every
//! command reads the same files, draws the same sample, takes the same flags,
//! and reports counters that are exactly those of a direct run.

mod compare_support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use compare_support::lab;
use sudoku_lab::io::DatasetReader;
use sudoku_lab::measure::columns;
use sudoku_lab::{Counts, Strategy};

/// 30 random 4×4 puzzles (some with several solutions) as CSV with a name
/// column: the format every command must accept.
fn csv_file(dir: &Path) -> PathBuf {
    let mut text = String::from("puzzle,solution,name\n");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let grid = "1234341221434321";
    for i in 0..30 {
        let line: String = grid
            .chars()
            .map(|c| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state.is_multiple_of(3) { c } else { '.' }
            })
            .collect();
        text += &format!("{line},,p{i}\n");
    }
    let path = dir.join("set.csv");
    fs::write(&path, text).unwrap();
    path
}

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn csv_column(text: &str, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let i = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    r.records().map(|rec| rec.unwrap()[i].to_string()).collect()
}

/// Every counter column of results.csv, for every strategy, equals the
/// counter of a direct counted run of that strategy on that puzzle.
#[test]
fn counter_columns_of_results_are_the_counters_of_a_direct_run() {
    let tmp = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    let files = [fixtures.join("mini-4x4.txt"), fixtures.join("mini-9x9.txt")];
    let out = tmp.path().join("r");
    let budget = 200_000;
    let mut cmd = lab();
    cmd.arg("compare");
    for f in &files {
        cmd.arg("--dataset").arg(f);
    }
    cmd.args(["--min-time", "0", "--budget", &budget.to_string(), "--out"])
        .arg(&out)
        .assert()
        .success();
    let text = fs::read_to_string(out.join("results.csv")).unwrap();
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, columns());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let boards: Vec<Vec<sudoku_lab::Board>> = files
        .iter()
        .map(|f| {
            DatasetReader::open(Some(f))
                .unwrap()
                .map(|e| e.unwrap().puzzle.board)
                .collect()
        })
        .collect();
    let mut checked = BTreeSet::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let set = usize::from(&rec[col("dataset")] == "mini-9x9");
        let index: usize = rec[col("index")].parse().unwrap();
        let s: Strategy = rec[col("strategy")].parse().unwrap();
        let board = &boards[set][index - 1];
        if !s.supports(board.size()) {
            assert_eq!(&rec[col("outcome")], "unsupported");
            for name in Counts::NAMES {
                assert_eq!(&rec[col(name)], "", "{s} {name}");
            }
            continue;
        }
        let run = s.solve(board, Some(budget)).unwrap();
        assert_eq!(&rec[col("outcome")], run.outcome.name(), "{s}");
        for name in Counts::NAMES {
            let want = run.counts.get(name).unwrap().to_string();
            assert_eq!(rec[col(name)], want, "{s} on {set}/{index}: column {name}");
        }
        checked.insert(s);
    }
    assert_eq!(
        checked.into_iter().collect::<Vec<_>>(),
        Strategy::ALL,
        "every strategy checked"
    );
}

/// One CSV file is read by compare, speed, ladder and rate, and the same
/// `--sample 7 --seed 3` picks the same puzzles in all of them.
#[test]
fn one_sample_in_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    let file = csv_file(tmp.path());
    let sample = ["--sample", "7", "--seed", "3"];
    let out = tmp.path().join("r");
    lab()
        .arg("compare")
        .arg("--dataset")
        .arg(&file)
        .args(sample)
        .args(["-s", "bitmask", "--min-time", "0", "--out"])
        .arg(&out)
        .assert()
        .success();
    let results = fs::read_to_string(out.join("results.csv")).unwrap();
    let from_compare = csv_column(&results, "name");
    assert_eq!(from_compare.len(), 7);
    let nodes: u64 = csv_column(&results, "nodes")
        .iter()
        .map(|n| n.parse::<u64>().unwrap())
        .sum();

    let rated = stdout_of(
        lab()
            .arg("rate")
            .arg(&file)
            .args(sample)
            .args(["--format", "csv"]),
    );
    assert_eq!(csv_column(&rated, "name"), from_compare, "rate");

    let table = stdout_of(
        lab()
            .arg("ladder")
            .args(["-s", "bitmask", "--min-time", "0"])
            .args(sample)
            .arg(&file),
    );
    let labels: Vec<String> = table
        .lines()
        .skip(2)
        .map(|l| l.split('|').nth(1).unwrap().trim().to_string())
        .collect();
    assert_eq!(labels, from_compare, "ladder");

    // speed reports sums: its puzzles are those whose nodes add up the same.
    let speed = stdout_of(lab().arg("speed").arg(&file).args(sample).args([
        "-s",
        "bitmask",
        "--min-time",
        "0",
        "--csv",
    ]));
    assert_eq!(csv_column(&speed, "puzzles"), ["7"]);
    let per: f64 = csv_column(&speed, "nodes_per_puzzle")[0].parse().unwrap();
    assert!(
        (per * 7.0 - nodes as f64).abs() < 1e-6,
        "speed {per} × 7 vs {nodes}"
    );

    // Another seed, another sample.
    let rated = stdout_of(
        lab()
            .arg("rate")
            .arg(&file)
            .args(["--sample", "7", "--seed", "4", "--format", "csv"]),
    );
    assert_ne!(csv_column(&rated, "name"), from_compare);
}

/// `--budget` and `--strategy` take the same values in every command that
/// has them: 0 is refused with one message, `unlimited` is accepted, and
/// strategies can be repeated or listed with commas.
#[test]
fn shared_flags_mean_the_same_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("p.txt");
    fs::write(&file, "1.3.3.1..1.3.3.1\n").unwrap();
    let out = tmp.path().join("r");
    let f = file.display().to_string();
    let o = out.display().to_string();
    let commands: Vec<Vec<&str>> = vec![
        vec!["solve", &f],
        vec!["count", &f],
        vec!["trace", "-s", "mrv", &f],
        vec!["rate", &f],
        vec!["ladder", "--min-time", "0", &f],
        vec!["speed", "--min-time", "0", &f],
        vec!["compare", "--min-time", "0", "--out", &o, "--dataset", &f],
    ];
    for args in &commands {
        lab()
            .args(args)
            .args(["--budget", "0"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "0 nodes would not even visit the root",
            ));
        lab()
            .args(args)
            .args(["--budget", "unlimited"])
            .assert()
            .success();
    }
    for args in &commands[4..] {
        for strategies in [
            &["-s", "mrv,bitmask"][..],
            &["--strategy", "mrv", "-s", "bitmask"],
        ] {
            lab().args(args).args(strategies).assert().success();
        }
    }
}

/// A file of 64 MiB of comment lines and one puzzle: every command reads it
/// in memory bounded by one puzzle, not by the file (measured by the kernel
/// for each child process).
#[cfg(target_os = "linux")]
#[test]
fn comment_lines_cost_no_memory() {
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("comments.txt");
    {
        let mut w = std::io::BufWriter::new(fs::File::create(&file).unwrap());
        let line = format!("# {}\n", "x".repeat(1022));
        for _ in 0..64 * 1024 {
            w.write_all(line.as_bytes()).unwrap();
        }
        w.write_all(b"1.3.3.1..1.3.3.1\n").unwrap();
    }
    let out = tmp.path().join("r");
    let commands: Vec<Vec<String>> = vec![
        vec!["solve".into()],
        vec!["count".into()],
        vec!["trace".into(), "-s".into(), "mrv".into()],
        vec!["rate".into()],
        vec![
            "ladder".into(),
            "-s".into(),
            "mrv".into(),
            "--min-time".into(),
            "0".into(),
        ],
        vec![
            "speed".into(),
            "-s".into(),
            "mrv".into(),
            "--min-time".into(),
            "0".into(),
        ],
        vec![
            "compare".into(),
            "-s".into(),
            "mrv".into(),
            "--min-time".into(),
            "0".into(),
            "--out".into(),
            out.display().to_string(),
            "--dataset".into(),
        ],
    ];
    for args in &commands {
        let mut cmd = std::process::Command::new(compare_support::bin());
        cmd.args(args)
            .arg(&file)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let (code, kib) = compare_support::exit_and_peak_kib(&mut cmd);
        assert_eq!(code, Some(0), "{args:?}");
        // The file is 64 MiB; a reader that kept the comments would peak above it.
        assert!(kib < 40 * 1024, "{}: peak {kib} KiB", args[0]);
        eprintln!("{}: peak {kib} KiB", args[0]);
    }
}

/// Every command judges the core's pace against the best this machine has
/// run the reference with this build: the first timed run writes that best
/// to a record in the cache folder, the next reads it, and `compare` says
/// the pace it measured in `meta.csv`.
#[test]
fn the_pace_reference_is_kept_per_machine_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = csv_file(dir.path());
    let cache = dir.path().join("cache");
    let records = || -> Vec<PathBuf> {
        match fs::read_dir(cache.join("sudoku-lab")) {
            Ok(d) => d.map(|e| e.unwrap().path()).collect(),
            Err(_) => Vec::new(),
        }
    };
    assert!(records().is_empty());
    lab()
        .env("XDG_CACHE_HOME", &cache)
        .args(["speed", "-s", "mrv"])
        .arg(&file)
        .assert()
        .success();
    let written = records();
    assert_eq!(written.len(), 1, "one record for the one executable");
    let name = written[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("pace-"), "{name}");
    let text = fs::read_to_string(&written[0]).unwrap();
    let search: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("search "))
        .unwrap_or_else(|| panic!("a search best in {text:?}"))
        .parse()
        .unwrap();
    assert!(search > 0);

    let out = dir.path().join("report");
    lab()
        .env("XDG_CACHE_HOME", &cache)
        .args(["compare", "--jobs", "1", "-s", "mrv", "--dataset"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(records(), written, "the same record, read again");
    let meta = fs::read_to_string(out.join("meta.csv")).unwrap();
    let line = meta
        .lines()
        .find(|l| l.starts_with("retaken,"))
        .unwrap_or_else(|| panic!("no retaken line in {meta}"));
    let pace: f64 = line
        .split("pace ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no pace in {line}"));
    assert!(pace >= 1.0, "{line}");
}
