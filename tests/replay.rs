//! `sudoku-lab replay` as a command: every docs puzzle with every strategy,
//! a page that fetches nothing and keeps to its stated size bound, at most
//! `--steps` events per strategy, and clear errors. (What the page shows in
//! a browser is tests/replay_browser.rs.)

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use sudoku_lab::Strategy;
use sudoku_lab::analysis::trace;
use sudoku_lab::io::Dataset;

fn lab() -> Command {
    Command::cargo_bin("sudoku-lab").expect("binary built")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The page's data (the JSON in `script#replay-data`).
fn data(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="replay-data">"#;
    let start = html.find(open).expect("data script") + open.len();
    let end = start + html[start..].find("</script>").expect("end of data");
    serde_json::from_str(&html[start..end]).expect("data is JSON")
}

/// Nothing on the page comes from elsewhere: no links, sources, imports or
/// URLs but the SVG namespace the script names.
fn assert_self_contained(html: &str, what: &str) {
    for bad in [
        "<link", " src=", "url(", "@import", "https:", "<iframe", "fetch(",
    ] {
        assert!(!html.contains(bad), "{what}: page contains {bad:?}");
    }
    assert_eq!(
        html.matches("http:").count(),
        html.matches("http://www.w3.org/2000/svg").count(),
        "{what}: only the SVG namespace"
    );
}

/// The bound the page states about itself.
fn stated_bound(html: &str) -> usize {
    let at = html.find("Its size is at most ").expect("bound stated") + 20;
    html[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .expect("bound")
}

#[test]
fn every_docs_puzzle_with_every_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(root().join("docs/puzzles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let set = Dataset::load(&file).expect("docs puzzle file loads");
        for (i, p) in set.puzzles.iter().enumerate() {
            let out = dir.path().join("page.html");
            let run = lab()
                .args(["replay", "--steps", "2000", "--puzzle"])
                .arg((i + 1).to_string())
                .arg("--out")
                .arg(&out)
                .arg(&file)
                .output()
                .unwrap();
            let what = format!("{} puzzle {}", file.display(), i + 1);
            let code = run.status.code();
            assert!(
                code == Some(0) || code == Some(1),
                "{what}: {code:?} {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let html = std::fs::read_to_string(&out).unwrap();
            assert_self_contained(&html, &what);
            assert!(html.len() <= stated_bound(&html), "{what}");
            let d = data(&html);
            let lanes = d["lanes"].as_array().unwrap();
            let supported: Vec<Strategy> = Strategy::ALL
                .iter()
                .copied()
                .filter(|s| s.supports(p.board.size()))
                .collect();
            assert_eq!(lanes.len(), supported.len(), "{what}: every strategy");
            for (lane, s) in lanes.iter().zip(&supported) {
                assert_eq!(lane["strategy"], s.name(), "{what}");
                let kept = lane["events"].as_array().unwrap().len() as u64;
                let total = lane["total_events"].as_u64().unwrap();
                assert_eq!(kept, total.min(2000), "{what} {s}");
                // Solved exactly when the command says so.
                let solved = lane["outcome"] == "solved";
                assert!(solved || code == Some(1), "{what} {s}");
            }
            sizes.push(format!("{what}: {} bytes", html.len()));
        }
    }
    // 7 files, 11 puzzles.
    assert_eq!(sizes.len(), 11, "{sizes:?}");
    eprintln!("{}", sizes.join("\n"));
}

#[test]
fn the_page_holds_the_tracer_events_and_totals() {
    let file = root().join("docs/puzzles/anti-backtracking.txt");
    let html = lab()
        .args(["replay", "-s", "mrv,propagate", "-k", "300", "--out", "-"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(html.status.success());
    let html = String::from_utf8(html.stdout).unwrap();
    let d = data(&html);
    let board = Dataset::load(&file).unwrap().puzzles[0].board.clone();
    assert_eq!(d["side"], 9);
    assert_eq!(
        d["givens"].as_array().unwrap().len(),
        81,
        "the givens, row-major"
    );
    for (lane, s) in d["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .zip([Strategy::Mrv, Strategy::Propagate])
    {
        let t = trace(s, &board, Some(5_000_000), 300).unwrap();
        let events: Vec<Vec<u64>> = serde_json::from_value(lane["events"].clone()).unwrap();
        assert_eq!(events.len(), t.tracer.events().len());
        let mut previous = None;
        for (got, e) in events.iter().zip(t.tracer.events()) {
            assert_eq!(got, &sudoku_lab::export::encode(e, previous));
            previous = Some(e);
        }
        assert_eq!(lane["total_events"], t.tracer.total());
        let totals: Vec<(String, u64)> = serde_json::from_value(lane["totals"].clone()).unwrap();
        assert_eq!(
            totals.iter().map(|t| t.1).collect::<Vec<_>>(),
            t.counts.values().to_vec(),
            "{s}"
        );
        assert_eq!(
            lane["histogram"].as_array().unwrap().len(),
            t.tracer.histogram().len()
        );
    }
    // mrv's 96,516 events do not fit in 300: the page says so.
    assert!(html.contains("mrv has 96,516 events, the first 300 are shown"));
}

#[test]
fn the_page_grows_with_steps_and_stays_under_its_bound() {
    let file = root().join("docs/puzzles/anti-backtracking.txt");
    let mut last = 0;
    for k in [0, 100, 1_000, 10_000] {
        let out = lab()
            .args(["replay", "-s", "mrv", "--out", "-", "-k"])
            .arg(k.to_string())
            .arg(&file)
            .output()
            .unwrap();
        let html = String::from_utf8(out.stdout).unwrap();
        let bound = stated_bound(&html);
        assert_eq!(
            bound,
            sudoku_lab::export::size_bound(1, 81, k),
            "the bound is the formula's"
        );
        assert!(html.len() <= bound && html.len() > last, "k={k}");
        last = html.len();
    }
}

#[test]
fn budget_exceeded_still_writes_the_page_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("naive.html");
    lab()
        .args(["replay", "-s", "naive", "--budget", "1000", "--out"])
        .arg(&out)
        .arg(root().join("docs/puzzles/anti-backtracking.txt"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("replay written to"));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("stopped: node budget exceeded"));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );
}

#[test]
fn errors_are_clear() {
    lab()
        .args(["replay", "-k", "200001", "--out", "-"])
        .write_stdin("1.....3..4.....2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 200000"));
    lab()
        .args(["replay", "-s", "fast", "--out", "-"])
        .write_stdin("1.....3..4.....2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fast"));
    lab()
        .args(["replay", "--out", "-"])
        .write_stdin("1.x...3..4.....2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:1:3"));
    lab()
        .args(["replay", "--puzzle", "3", "--out", "-"])
        .write_stdin("1.....3..4.....2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds 1 puzzle"));
    lab()
        .args(["replay", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("bytes per event kept"));
}

/// A rung whose guesses write no cell (`fast-triads`: one way of a digit
/// through a band) is replayed like the others: its page holds its ways
/// (event kind 5) and their undos (6), and the command names it.
#[test]
fn a_rung_whose_guesses_write_no_cell_is_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page.html");
    let run = lab()
        .args(["replay", "-s", "mrv,fast-triads", "--out"])
        .arg(&out)
        .arg(root().join("docs/puzzles/famous.txt"))
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.contains("fast-triads"), "{said}");
    let html = std::fs::read_to_string(&out).unwrap();
    let d = data(&html);
    let lanes = d["lanes"].as_array().unwrap();
    assert_eq!(lanes[1]["strategy"], "fast-triads");
    let kinds: Vec<u64> = lanes[1]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[0].as_u64().unwrap())
        .collect();
    assert!(
        kinds.contains(&5) && kinds.contains(&6),
        "ways and their undos: {kinds:?}"
    );
    // The page's opening says how such a guess shows, for that rung only.
    assert!(html.contains("fast-triads guesses a way of a digit through a band or stack instead"));
    assert!(!html.contains("mrv guesses a way"));
}

/// The tour links committed replays (small pages under docs/replays/); each
/// must be what its documented command writes today.
#[test]
fn the_committed_replays_are_current() {
    // (page, the command's arguments after `replay`, the chapter quoting it)
    let pages = [
        (
            "tiny-4x4.html",
            "-s naive,mrv,propagate --out docs/replays/tiny-4x4.html docs/puzzles/tiny-4x4.txt",
            "docs/01-naive.md",
        ),
        (
            "platinum-blonde-ways.html",
            "-s fast,fast-triads --puzzle 3 --out docs/replays/platinum-blonde-ways.html docs/puzzles/famous.txt",
            "docs/08-fast.md",
        ),
    ];
    for (page, args, chapter) in pages {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join(page);
        let mut args: Vec<String> = args.split(' ').map(String::from).collect();
        let at = args.iter().position(|a| a == "--out").unwrap() + 1;
        let command = format!("sudoku-lab replay {}", args.join(" "));
        args[at] = out.display().to_string();
        lab()
            .current_dir(root())
            .arg("replay")
            .args(&args)
            .assert()
            .success();
        let fresh = std::fs::read_to_string(&out).unwrap();
        let committed = std::fs::read_to_string(root().join("docs/replays").join(page)).unwrap();
        assert!(
            fresh == committed,
            "docs/replays/{page} is stale: regenerate it with `{command}`"
        );
        let docs = std::fs::read_to_string(root().join(chapter)).unwrap();
        assert!(docs.contains(&command), "{chapter} quotes `{command}`");
    }
}
