//! The `speed` command: columns, exports, exact counter-derived figures and
//! error handling. Never asserts on times, only that they are present.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;
use sudoku_lab::Strategy;
use tempfile::TempDir;

/// Two 4×4 puzzles whose row-major search trees are known by hand:
/// * the empty grid: the first solution (1234/3412/2143/4321) comes without
///   a single backtrack, so 16 placements + the final node = 17 nodes; 7 of
///   the placements had more than one candidate (cells r1c1, r1c2, r1c3,
///   r2c1, r2c3, r3c1, r3c2);
/// * that solution with r1c1 blanked: root + final node = 2 nodes, 0 guesses.
///
/// So for the row-major rungs: 9.5 nodes/puzzle, 3.5 guesses/puzzle and 50%
/// solved without guessing.
const FIXTURE: &str = "................\n.234341221434321\n";

fn four() -> sudoku_lab::BoxSize {
    sudoku_lab::BoxSize::new(2).expect("4x4")
}

fn fixture(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write fixture");
    path
}

/// The command with short timing windows: these tests check behaviour.
fn speed() -> Command {
    let mut cmd = Command::cargo_bin("sudoku-lab").expect("binary");
    cmd.args(["speed", "--min-time", "0.05", "--min-samples", "2"]);
    cmd
}

fn csv_rows(stdout: &[u8]) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_reader(stdout);
    r.records().collect::<Result<_, _>>().expect("valid CSV")
}

fn csv_header(stdout: &[u8]) -> Vec<String> {
    let mut r = csv::Reader::from_reader(stdout);
    r.headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect()
}

fn column(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

#[test]
fn table_has_every_column_and_every_strategy() {
    let dir = TempDir::new().unwrap();
    let file = fixture(&dir, "tiny.txt", FIXTURE);
    let out = speed().arg(&file).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let header = text.lines().next().expect("a header line");
    for col in [
        "dataset",
        "strategy",
        "puzzles",
        "puzzles/s",
        "µs/puzzle",
        "µs q1–q3",
        "no-guess %",
        "guesses/puzzle",
        "nodes/puzzle",
        "note",
    ] {
        assert!(header.contains(col), "missing column {col}: {header}");
    }
    // Why its ratio between rungs need not be `compare`'s, where it is read.
    assert!(
        text.contains("puzzles/s is a ratio of sums")
            && text.contains("`compare` gives the geometric mean of per-puzzle ratios"),
        "{text}"
    );
    for s in Strategy::ALL {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(s.name()))
            .unwrap_or_else(|| panic!("no row for {s}:\n{text}"));
        assert!(line.starts_with("tiny "), "{line}");
        if s.supports(four()) {
            // Counters always; puzzles/s too, unless the passes read 0 ns
            // (two 4×4 puzzles on a coarse clock under load): then that one
            // cell is n/a and the time per puzzle reads zero.
            match line.matches("n/a").count() {
                0 => {}
                1 => assert!(
                    line.contains("n/a  0.000 [0.000, 0.000]"),
                    "measured: {line}"
                ),
                _ => panic!("measured: {line}"),
            }
        } else {
            assert!(line.contains("of a size it does not support"), "{line}");
        }
    }
}

#[test]
fn csv_header_and_exact_counter_columns() {
    let dir = TempDir::new().unwrap();
    let file = fixture(&dir, "tiny.txt", FIXTURE);
    let out = speed()
        .arg(&file)
        .args(["--csv", "-s", "naive", "-s", "bitmask"])
        .assert()
        .success();
    let stdout = &out.get_output().stdout;
    let header = csv_header(stdout);
    assert_eq!(
        header.join(","),
        "dataset,strategy,puzzles,solved,no_solution,budget_exceeded,unsupported,\
         wrong_answer,time_limit,crashed,bad_output,budget,limit,permuted,\
         puzzles_per_sec,us_per_puzzle,puzzles_per_sec_low,puzzles_per_sec_high,\
         us_per_puzzle_low,us_per_puzzle_high,us_median,us_min,us_q1,us_q3,us_max,\
         runs,passes,clock,pct_solved_without_guessing,guesses_per_puzzle,nodes_per_puzzle,\
         counters_exact,outliers_mild,outliers_severe,reason"
    );
    let rows = csv_rows(stdout);
    let names: Vec<&str> = rows.iter().map(|r| &r[1]).collect();
    assert_eq!(names, ["naive", "bitmask"]);
    for r in &rows {
        let get = |name: &str| r[column(&header, name)].to_string();
        assert_eq!(get("dataset"), "tiny");
        assert_eq!(get("puzzles"), "2");
        assert_eq!(get("solved"), "2");
        assert_eq!(get("budget_exceeded"), "0");
        assert_eq!(get("budget"), "5000000");
        assert_eq!(get("nodes_per_puzzle"), "9.5");
        assert_eq!(get("guesses_per_puzzle"), "3.5");
        assert_eq!(get("pct_solved_without_guessing"), "50.0");
        assert_eq!(get("counters_exact"), "true");
        // Outliers are counted over the samples (how many is the machine's).
        let runs: u64 = get("runs").parse().unwrap();
        let outliers: u64 = get("outliers_mild").parse::<u64>().unwrap()
            + get("outliers_severe").parse::<u64>().unwrap();
        assert!(outliers <= runs, "{outliers} outliers of {runs} runs");
        // Times are present and finite; their values are never asserted. A
        // single run may read 0 on a loaded machine (the thread's CPU clock
        // ticks coarser than a 4×4 solve), so only the set's figures must
        // be positive.
        // (puzzles_per_sec is checked below: it may be empty.)
        for col in ["us_per_puzzle", "us_min", "us_max"] {
            let v: f64 = get(col).parse().unwrap_or_else(|_| panic!("{col}"));
            assert!(v.is_finite() && v >= 0.0, "{col} = {v}");
        }
        // A set's passes may read 0 ns too (two 4×4 puzzles): then there
        // is no throughput (n/a, empty), never infinity.
        let us: f64 = get("us_per_puzzle").parse().unwrap();
        match get("puzzles_per_sec").as_str() {
            "" => {
                assert_eq!(us, 0.0);
                continue;
            }
            pps => {
                let pps: f64 = pps.parse().unwrap();
                assert!(pps.is_finite() && pps > 0.0 && us > 0.0, "{pps} {us}");
            }
        }
        // Each of the 2 puzzles: one check run and at least 2 samples.
        let runs: u64 = get("runs").parse().unwrap();
        assert!(runs >= 6, "{runs} timed runs");
        // puzzles/s is exactly puzzles over the summed per-puzzle times.
        let pps: f64 = get("puzzles_per_sec").parse().unwrap();
        let us: f64 = get("us_per_puzzle").parse().unwrap();
        assert!((pps * us / 1e6 - 1.0).abs() < 1e-9, "{pps} {us}");
        // Their 95% intervals: ordered, and each the other's reciprocal
        // (one interval of the set's time, over the 2 puzzles).
        let f = |c: &str| -> f64 { get(c).parse().unwrap_or_else(|_| panic!("{c}")) };
        let (pl, ph) = (f("puzzles_per_sec_low"), f("puzzles_per_sec_high"));
        let (ul, uh) = (f("us_per_puzzle_low"), f("us_per_puzzle_high"));
        assert!(
            0.0 < pl && pl <= ph && 0.0 < ul && ul <= uh,
            "{pl} {ph} {ul} {uh}"
        );
        assert!((pl * uh / 1e6 - 1.0).abs() < 1e-9 && (ph * ul / 1e6 - 1.0).abs() < 1e-9);
    }
}

#[test]
fn markdown_table_has_a_separator_and_one_line_per_row() {
    let dir = TempDir::new().unwrap();
    let file = fixture(&dir, "tiny.txt", FIXTURE);
    let out = speed()
        .arg(&file)
        .args(["--markdown", "-s", "used-tables"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("| dataset | strategy | puzzles | puzzles/s |"));
    assert!(lines[1].starts_with("|---|---|---:|"));
    assert!(lines[2].starts_with("| tiny | used-tables | 2 |"));
    assert!(lines[2].contains("| 50.0 | 3.5 | 9.5 |"), "{}", lines[2]);
}

#[test]
fn over_budget_gets_no_throughput_and_exit_1() {
    let dir = TempDir::new().unwrap();
    let file = fixture(&dir, "tiny.txt", FIXTURE);
    // The empty grid needs 17 nodes; 5 is not enough, the other puzzle needs 2.
    let out = speed()
        .arg(&file)
        .args(["--budget", "5", "-s", "naive", "--csv"])
        .assert()
        .code(1);
    let stdout = &out.get_output().stdout;
    let header = csv_header(stdout);
    let rows = csv_rows(stdout);
    let get = |name: &str| rows[0][column(&header, name)].to_string();
    assert_eq!(get("budget_exceeded"), "1");
    assert_eq!(get("solved"), "1");
    assert_eq!(get("puzzles_per_sec"), "");
    assert_eq!(get("us_per_puzzle"), "");
    assert_eq!(get("counters_exact"), "false");
    // Lower bound: 5 nodes spent on the cut puzzle + 2 on the other.
    assert_eq!(get("nodes_per_puzzle"), "3.5");

    speed()
        .arg(&file)
        .args(["--budget", "5", "-s", "naive"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("n/a"))
        .stdout(predicate::str::contains("1 over budget (5 nodes)"))
        .stdout(predicate::str::contains("≥3.5"));
}

#[test]
fn a_puzzle_without_solution_is_timed_but_reported() {
    let dir = TempDir::new().unwrap();
    // Top-right box already holds 3, so r1c3 and r1c4 would both need 4.
    let file = fixture(&dir, "nosol.txt", "12....3.........\n");
    speed()
        .arg(&file)
        .args(["-s", "bitmask"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("1 without solution"));
}

#[test]
fn sampling_is_deterministic_and_bounded() {
    let dir = TempDir::new().unwrap();
    let text = format!("{FIXTURE}{FIXTURE}{FIXTURE}");
    let file = fixture(&dir, "six.txt", &text);
    let run = |seed: &str| {
        let out = speed()
            .arg(&file)
            .args(["--csv", "-s", "naive", "--sample", "3", "--seed", seed])
            .assert()
            .success();
        let stdout = out.get_output().stdout.clone();
        let header = csv_header(&stdout);
        let rows = csv_rows(&stdout);
        (
            rows[0][column(&header, "puzzles")].to_string(),
            rows[0][column(&header, "nodes_per_puzzle")].to_string(),
        )
    };
    let a = run("42");
    assert_eq!(a.0, "3");
    assert_eq!(a, run("42"));
}

#[test]
fn bad_input_is_a_usage_error_naming_the_file() {
    let dir = TempDir::new().unwrap();
    let bad = fixture(&dir, "bad.txt", "12x.............\n");
    speed()
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.txt"));
    speed()
        .arg(dir.path().join("missing.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.txt"));
    speed().assert().code(2);
    let file = fixture(&dir, "tiny.txt", FIXTURE);
    speed()
        .arg(&file)
        .args(["--csv", "--markdown"])
        .assert()
        .code(2);
    speed().arg(&file).args(["--sample", "0"]).assert().code(2);
    speed()
        .arg(&file)
        .args(["--min-time", "-1"])
        .assert()
        .code(2);
    // A budget of 0 nodes is refused, the same in every command.
    speed()
        .arg(&file)
        .args(["--budget", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "0 nodes would not even visit the root",
        ));
}

#[test]
fn library_rows_match_the_counted_runs() {
    use sudoku_lab::base::format::parse_str;
    use sudoku_lab::measure::Method;
    use sudoku_lab::measure::{SpeedOptions, measure_speed};
    use sudoku_lab::{Budget, Outcome};
    let (_, puzzles) = parse_str(FIXTURE).unwrap();
    let boards: Vec<_> = puzzles.into_iter().map(|p| p.board).collect();
    let opts = SpeedOptions {
        budget: Budget::UNLIMITED,
        limit: 1,
        method: Method {
            min_time: std::time::Duration::ZERO,
            min_samples: 2,
            seed: 1,
            permute: false,
            tight: 0.0,
        },
        set_time: None,
    };
    for &s in Strategy::ALL {
        let ticks = std::cell::Cell::new(0);
        let mut conditions = sudoku_lab::measure::Conditions::new(1);
        let row = measure_speed("tiny", &boards, s, &opts, &mut conditions, &|| {
            ticks.set(ticks.get() + 1)
        })
        .unwrap();
        if !s.supports(four()) {
            assert_eq!(row.with(Outcome::Unsupported), 2, "{s}");
            assert!(row.timing.is_none());
            assert_eq!(conditions.samples, 0, "{s}: nothing timed");
            continue;
        }
        // Every kept sample is in the conditions: with no minimum time,
        // each puzzle keeps one run per pass, 2 passes.
        assert_eq!(conditions.samples, 2 * boards.len() as u64, "{s}");
        // One tick per puzzle for the counted pass, one for the timed pass.
        assert_eq!(ticks.get(), 4, "{s}");
        assert_eq!(row.with(Outcome::Solved), 2);
        let mut nodes = 0;
        let mut guesses = 0;
        for b in &boards {
            let run = s.solve(b, None).unwrap();
            nodes += run.counts.nodes;
            guesses += run.counts.guesses;
        }
        assert_eq!(row.total_nodes, nodes, "{s}");
        assert_eq!(row.total_guesses, guesses, "{s}");
        // --min-time 0, 2 samples: every puzzle runs once to check, then
        // once per pass; a run taken while the core ran slow is run again,
        // so the timed runs are the kept ones, the check runs and the
        // retaken ones, whatever the load (never a fixed count: a busy
        // machine retakes).
        let timing = row.timing.unwrap();
        assert_eq!(
            timing.runs,
            2 * (1 + 2) + conditions.retaken,
            "{s}: {timing:?} {conditions:?}"
        );
        if s.is_row_major() {
            assert_eq!((nodes, guesses), (19, 7), "{s}");
        }
    }
}

/// `--limit 2`, the field's "count to 2": the counters of `speed` and of
/// `compare` equal those of `count --limit 2` puzzle by puzzle (summed for
/// `speed`), on unique, multi-solution and no-solution puzzles, and the
/// limit is recorded in speed's CSV and compare's meta.csv.
#[test]
fn limit_two_counts_as_count_does() {
    let dir = TempDir::new().unwrap();
    let multi = std::fs::read_to_string("datasets/curated/multi-solution.txt").unwrap();
    let puzzles: Vec<&str> = multi
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(3)
        .chain([
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
        ])
        .collect();
    let file = fixture(&dir, "two.txt", &(puzzles.join("\n") + "\n"));
    for s in ["mrv", "propagate", "dlx", "fast"] {
        // count --limit 2 --stats: one `nodes=` per puzzle on stderr.
        let out = Command::cargo_bin("sudoku-lab")
            .unwrap()
            .args(["count", "--limit", "2", "--stats", "-s", s])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let nodes: Vec<u64> = stderr
            .lines()
            .filter_map(|l| l.split("nodes=").nth(1))
            .map(|v| v.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(nodes.len(), puzzles.len(), "{stderr}");
        let guesses: Vec<u64> = stderr
            .lines()
            .filter_map(|l| l.split("guesses=").nth(1))
            .map(|v| v.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        let solutions = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(solutions.lines().any(|l| l == ">=2"), "{solutions}");

        let out = speed()
            .arg(&file)
            .args(["--csv", "--limit", "2", "-s", s])
            .assert()
            .success();
        let stdout = &out.get_output().stdout;
        let header = csv_header(stdout);
        let row = &csv_rows(stdout)[0];
        let get = |name: &str| row[column(&header, name)].to_string();
        assert_eq!(get("limit"), "2");
        let n = puzzles.len() as f64;
        let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / n;
        let close = |a: &str, b: f64| (a.parse::<f64>().unwrap() - b).abs() < 0.051;
        assert!(close(&get("nodes_per_puzzle"), mean(&nodes)), "{s}");
        assert!(close(&get("guesses_per_puzzle"), mean(&guesses)), "{s}");

        let report = dir.path().join(format!("r-{s}"));
        Command::cargo_bin("sudoku-lab")
            .unwrap()
            .args([
                "compare",
                "--limit",
                "2",
                "--min-time",
                "0",
                "--min-samples",
                "1",
            ])
            .args(["--jobs", "1", "-s", s, "--dataset"])
            .arg(&file)
            .arg("--out")
            .arg(&report)
            .assert()
            .success();
        let results = std::fs::read(report.join("results.csv")).unwrap();
        let header = csv_header(&results);
        let got: Vec<u64> = csv_rows(&results)
            .iter()
            .map(|r| r[column(&header, "nodes")].parse().unwrap())
            .collect();
        assert_eq!(got, nodes, "{s}: compare --limit 2 against count --limit 2");
        let meta = std::fs::read_to_string(report.join("meta.csv")).unwrap();
        assert!(meta.lines().any(|l| l == "limit,2"), "{meta}");
    }
}
