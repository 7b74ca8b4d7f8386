//! The tour in `docs/` quotes live numbers; this test keeps them live.
//!
//! * **Blocks.** A fenced block tagged `console` whose first line is
//!   `$ sudoku-lab ARGS` is a command and its output (standard output, then
//!   standard error). It is re-run: the exit code must be the documented one
//!   (`console exit=N`, default 0), the output must match with times masked,
//!   and every figure it draws under `docs/img/` must come out byte for byte
//!   the same. With `SUDOKU_LAB_DOCS=times` (release, on a quiet machine)
//!   each time must also be within ×3 of the re-run's: never by default, so
//!   the test does not depend on how fast the machine is.
//! * **Prose.** Every number in prose is bound to a block's output by an
//!   invisible comment right after it — `218<!--= AI Escargot/mrv/nodes-->`
//!   (exact), `sixteen hundred times<!--~ {a}/{b}-->` (to the rounding the
//!   phrase uses: [1550, 1650)),
//!   `more than half<!--< {x}/{y}-->` (a comparison) — or declared a
//!   constant of the rules (`<!-- docs: constants 81; 324 -->`), which never
//!   stands for a count (`3 guesses`, `31 of the 50`) unless declared with
//!   its noun (`10⁵ calls`). Number words before what the lab counts (`one
//!   decade`, `three guesses`) and `yes`/`no` table cells are claims too. So
//!   are counts before `of` or before an adjective and a counted plural (`six
//!   of these puzzles`, `5 famous puzzles`): no constant covers them unless
//!   declared with those words (`eight of them`); and approximations (`about
//!   30`), which a constant covers only declared so (`about 30`). A list of
//!   names after a count (`on six of these puzzles (A, B, …)`, or after a
//!   colon) must have as many names as some count of its sentence, and
//!   after a count bound to a sum of comparisons (`gt(…) + gt(…)`) name
//!   exactly the puzzles where they hold. A
//!   binding to a puzzle's row must sit in a paragraph that names that puzzle.
//!   Code names in prose (`State::settle`, `COLS`, `src/base/strategy/fast/mod.rs`,
//!   `--depth-histogram`) must exist in the lab, be the kind of thing the
//!   sentence calls them (`the switch `COLS``), and on a rung's chapter
//!   belong to that rung's file; code names outside backticks are an error;
//!   links must resolve.
//! * **No pasted output**: only `console` blocks show output, except a dated
//!   record (`<!-- docs: record -->`) whose ratios are recomputed.
//! * **Times** add up (`per node` = `time` ÷ `nodes`), one measurement is
//!   quoted with one value on every page, and every page that prints times states the
//!   machine and load (`<!-- docs: machine -->`, written by the update run).
//! * **Worked examples** after `<!-- docs: check KIND -->` are recomputed.
//! * **Code quotes** after `<!-- docs: quote FILE -->` are the file's lines:
//!   runs of verbatim lines (a common indentation removed) between `// …`
//!   elisions, in file order, 10–25 lines (`docs_support::quote`).
//!
//! The rules live in `tests/docs_support/`; `drift_is_caught` below edits the
//! real pages the ways the tour has drifted before and shows each is caught.
//!
//! Regenerate after changing a strategy (release build: the times are real):
//!
//! ```text
//! SUDOKU_LAB_DOCS=update cargo test --release --test docs
//! ```
//!
//! It runs every timed block twice and keeps the faster run (re-running
//! blocks whose times still disagree between pages), then rewrites every
//! block, the prose numbers bound with `=`, plain figures bound with `~`
//! (`×16.4`, restated with as many decimals), the machine statements, and
//! fills `console-pending` blocks whose command runs now; it fails, listing
//! them, where worded claims (`~`, `<`, `>`) no longer hold.
//!
//! Plain `cargo test` (debug) checks the prose and re-runs the light blocks
//! (at most [`LIGHT_WORK`] documented nodes each); the heavy blocks are
//! ignored there, with the reason shown (a debug build is much slower)
//! and run by `cargo test --release` (CI). Blocks that read
//! `$SUDOKU_LAB_SHARED` (the public corpora) follow the project's rule:
//! skipped with a note when the variable and `CI` are both unset, a failure
//! when `CI` is set without them.

mod docs_support;
mod every_core;
mod example_build;

use std::sync::OnceLock;

use docs_support::names::Index;
use docs_support::runner::{self, LIGHT_WORK, Runner, Skip};
use docs_support::{Kind, Problem, check, load_docs, report, root};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lab");

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| Index::build(root(), BIN))
}

fn update_mode() -> bool {
    std::env::var("SUDOKU_LAB_DOCS").is_ok_and(|v| v == "update")
}

#[test]
fn prose_is_bound_to_the_blocks() {
    let docs = load_docs();
    assert!(docs.len() >= 5, "expected the tour's chapters in docs/");
    let problems = check::check_static(&docs, index());
    assert!(
        problems.is_empty(),
        "{} problem(s) in docs/:\n{}",
        problems.len(),
        report(&problems)
    );
}

#[derive(Clone, Copy, PartialEq)]
enum Weight {
    Light,
    Heavy,
}

/// Runs the blocks of one weight on every core at once, filling the
/// runner's cache, so the checks below find their runs there. Only when
/// times are not compared: side by side, runs slow each other down, which
/// changes no count and no figure. Each distinct command runs once (the
/// cache's key), so no two runs write the same figure file. The heavy blocks
/// take minutes one after another: this is most of the test's time in CI.
fn prewarm(runner: &Runner, docs: &[docs_support::Doc], weight: Weight) {
    let mut seen = std::collections::HashSet::new();
    let blocks: Vec<_> = docs
        .iter()
        .flat_map(|d| &d.blocks)
        .filter(|b| {
            !b.pending
                && (runner::work(b) > LIGHT_WORK) == (weight == Weight::Heavy)
                && seen.insert((b.example.clone(), b.command.clone()))
        })
        .collect();
    every_core::for_each(&blocks, |block| {
        // Errors are reported by the checks that follow, which run the
        // block again. (The time is shown for whoever keeps this test
        // fast; never asserted.)
        let started = std::time::Instant::now();
        let _ = runner.run(block, false);
        eprintln!(
            "{:.1} s: {}",
            started.elapsed().as_secs_f64(),
            block.command
        );
    });
}

/// Re-runs the blocks of one weight and compares them with the pages.
fn reproduce(weight: Weight) {
    let runner = Runner::new(BIN, std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
    let docs = load_docs();
    // Live times are compared only on request (`SUDOKU_LAB_DOCS=times`, on a
    // quiet machine): a test never depends on how fast the machine is. The
    // checks that hold on any machine (per node = time ÷ nodes, one
    // measurement quoted alike on every page, the machine stated) always run.
    let times_too = !cfg!(debug_assertions)
        && std::env::var("SUDOKU_LAB_DOCS").is_ok_and(|v| v.split(',').any(|w| w == "times"));
    if !times_too {
        prewarm(&runner, &docs, weight);
    }
    let (mut problems, mut checked, mut skipped, mut pending) = (Vec::<Problem>::new(), 0, 0, 0);
    for doc in &docs {
        for block in &doc.blocks {
            let heavy = runner::work(block) > LIGHT_WORK;
            if heavy != (weight == Weight::Heavy) {
                continue;
            }
            if block.pending {
                pending += 1;
                continue;
            }
            match runner.run(block, false) {
                Err(e) => problems.push(Problem {
                    file: doc.rel.clone(),
                    line: block.command_line() + 1,
                    kind: Kind::Output,
                    message: e,
                    fix: None,
                }),
                Ok(Err(Skip::NoShared)) => skipped += 1,
                Ok(Ok((run, figures))) => {
                    checked += 1;
                    let mut found = runner::compare(doc, block, &run, &figures, times_too);
                    // Other processes only ever add time: before calling a
                    // time stale, run the block again (twice at most) and
                    // judge the faster run.
                    for _ in 0..2 {
                        if !found.iter().any(|p| p.kind == Kind::StaleTime) {
                            break;
                        }
                        match runner.rerun_keep_faster(block, false) {
                            Ok(faster) => {
                                found = runner::compare(doc, block, &faster, &[], times_too);
                                found.retain(|p| p.kind != Kind::Figure);
                                found.extend(
                                    runner::compare(doc, block, &run, &figures, false)
                                        .into_iter()
                                        .filter(|p| p.kind == Kind::Figure),
                                );
                            }
                            Err(e) => found.push(Problem {
                                file: doc.rel.clone(),
                                line: block.command_line() + 1,
                                kind: Kind::Output,
                                message: e,
                                fix: None,
                            }),
                        }
                    }
                    problems.extend(found);
                }
            }
        }
    }
    if skipped > 0 {
        eprintln!(
            "skipped: {} not set ({skipped} block(s) read the public corpora)",
            runner::SHARED_VAR
        );
    }
    if pending > 0 {
        eprintln!(
            "note: {pending} console-pending block(s) (commands that do not run yet); `SUDOKU_LAB_DOCS=update` fills them once they do"
        );
    }
    assert!(checked + skipped > 0, "no blocks of this weight in docs/");
    assert!(
        problems.is_empty(),
        "{} problem(s) in docs/ (if the change is intended, regenerate with `SUDOKU_LAB_DOCS=update cargo test --release --test docs`):\n{}",
        problems.len(),
        report(&problems)
    );
}

#[test]
fn light_blocks_reproduce() {
    if update_mode() {
        eprintln!("update mode: heavy_blocks_reproduce regenerates every block");
        return;
    }
    reproduce(Weight::Light);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "heavy blocks (up to 10^8 nodes) need the release build: run `cargo test --release --test docs`"
)]
fn heavy_blocks_reproduce() {
    if update_mode() {
        regenerate();
    } else {
        reproduce(Weight::Heavy);
    }
}

/// `SUDOKU_LAB_DOCS=update`: every block re-run and rewritten, bound prose
/// updated, machine statements written; fails on what still needs a person.
fn regenerate() {
    let runner = Runner::new(BIN, std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
    let load_start = runner::load_average();
    let docs = load_docs();
    let mut runs: Vec<Vec<Option<runner::Run>>> = Vec::new();
    for doc in &docs {
        let mut mine = Vec::new();
        for block in &doc.blocks {
            mine.push(match runner.run(block, true) {
                Ok(Ok((run, _))) => Some(run),
                Ok(Err(Skip::NoShared)) => None,
                Err(e) => panic!("{}: {e}", doc.rel),
            });
        }
        runs.push(mine);
    }
    // Every timed block twice, keeping the faster run (other processes only
    // ever add time).
    for (d, doc) in docs.iter().enumerate() {
        for (b, block) in doc.blocks.iter().enumerate() {
            if runs[d][b]
                .as_ref()
                .is_some_and(|r| runner::total_time(&r.output) > 0.0)
            {
                runs[d][b] = Some(
                    runner
                        .rerun_keep_faster(block, true)
                        .unwrap_or_else(|e| panic!("{e}")),
                );
            }
        }
    }
    // Times that disagree between pages came from disturbed runs: run those
    // blocks again (keeping the faster run), a few rounds at most.
    for _ in 0..3 {
        let rewritten: Vec<docs_support::Doc> = docs
            .iter()
            .zip(&runs)
            .map(|(doc, runs)| {
                docs_support::Doc::parse(&doc.rel, &runner::update(doc, runs, "", index()).0)
            })
            .collect();
        let clashes = check::same_measurement(&rewritten);
        if clashes.is_empty() {
            break;
        }
        for p in &clashes {
            eprintln!("re-running (times disagree): {p}");
        }
        for (d, doc) in rewritten.iter().enumerate() {
            for (b, block) in doc.blocks.iter().enumerate() {
                let hit = clashes.iter().any(|p| {
                    (p.file == doc.rel && p.line == block.command_line() + 1)
                        || p.message
                            .contains(&format!("{}:{}", doc.rel, block.command_line() + 1))
                });
                if hit && runs[d][b].is_some() {
                    runs[d][b] = Some(
                        runner
                            .rerun_keep_faster(&docs[d].blocks[b], true)
                            .unwrap_or_else(|e| panic!("{e}")),
                    );
                }
            }
        }
        // Identical commands elsewhere take the kept run too.
        for (d, doc) in docs.iter().enumerate() {
            for (b, block) in doc.blocks.iter().enumerate() {
                if runs[d][b].is_some()
                    && let Ok(Ok((run, _))) = runner.run(block, true)
                {
                    runs[d][b] = Some(run);
                }
            }
        }
    }
    let note = runner::machine_note(load_start, runner::load_average());
    // One measurement, one value: a row an earlier page also prints takes
    // that page's times.
    let outputs: Vec<Vec<Option<String>>> = runs
        .iter()
        .map(|r| {
            r.iter()
                .map(|r| r.as_ref().map(|r| r.output.clone()))
                .collect()
        })
        .collect();
    let unified = runner::unify_times(&docs, &outputs);
    for (page, outs) in runs.iter_mut().zip(unified) {
        for (run, out) in page.iter_mut().zip(outs) {
            if let (Some(run), Some(out)) = (run.as_mut(), out) {
                run.output = out;
            }
        }
    }
    let mut left = Vec::new();
    for (doc, runs) in docs.iter().zip(&runs) {
        let (text, problems) = runner::update(doc, runs, &note, index());
        if text != doc.text {
            let path = root().join(&doc.rel);
            let tmp = path.with_extension("md.tmp");
            std::fs::write(&tmp, &text).expect("write docs");
            std::fs::rename(&tmp, &path).expect("replace docs");
            eprintln!("updated {}", doc.rel);
        }
        left.extend(problems);
    }
    left.extend(check::check_static(&load_docs(), index()));
    left.dedup();
    assert!(
        left.is_empty(),
        "regenerated; {} thing(s) still need a person:\n{}",
        left.len(),
        report(&left)
    );
}

/// `SUDOKU_LAB_DOCS=unify`: rewrites the pages so that every time an
/// earlier page also prints is quoted from that page's run (what the update
/// run does after measuring), without running any command: the committed
/// measurements are kept, only their copies are made to agree. Each page's
/// machine statement says so.
#[test]
fn unify_quoted_times() {
    if std::env::var("SUDOKU_LAB_DOCS").is_ok_and(|v| v == "unify") {
        let docs = load_docs();
        let outputs: Vec<Vec<Option<String>>> = docs
            .iter()
            .map(|d| {
                d.blocks
                    .iter()
                    .map(|b| (!b.pending).then(|| b.expected.clone()))
                    .collect()
            })
            .collect();
        let unified = runner::unify_times(&docs, &outputs);
        for (doc, outs) in docs.iter().zip(unified) {
            let runs: Vec<Option<runner::Run>> = doc
                .blocks
                .iter()
                .zip(outs)
                .map(|(b, out)| {
                    out.map(|output| runner::Run {
                        code: Some(b.exit),
                        output,
                    })
                })
                .collect();
            let lines: Vec<&str> = doc.text.lines().collect();
            let note = doc
                .directives
                .iter()
                .find(|d| d.word == check::MACHINE)
                .and_then(|m| lines.get(doc.line_of(m.offset) + 1))
                .filter(|l| l.starts_with(check::MACHINE_NOTE))
                .map(|l| {
                    if l.contains(runner::QUOTED) {
                        l.to_string()
                    } else {
                        format!("{} {}*", l.trim_end_matches('*'), runner::QUOTED)
                    }
                })
                .unwrap_or_default();
            let (text, _) = runner::update(doc, &runs, &note, index());
            if text != doc.text {
                let path = root().join(&doc.rel);
                let tmp = path.with_extension("md.tmp");
                std::fs::write(&tmp, &text).expect("write docs");
                std::fs::rename(&tmp, &path).expect("replace docs");
                eprintln!("unified {}", doc.rel);
            }
        }
    }
    // Always: the unification is idempotent on the committed pages.
    let docs = load_docs();
    let outputs: Vec<Vec<Option<String>>> = docs
        .iter()
        .map(|d| {
            d.blocks
                .iter()
                .map(|b| (!b.pending).then(|| b.expected.clone()))
                .collect()
        })
        .collect();
    let unified = runner::unify_times(&docs, &outputs);
    for ((doc, outs), mine) in docs.iter().zip(&unified).zip(&outputs) {
        for ((out, before), block) in outs.iter().zip(mine).zip(&doc.blocks) {
            assert_eq!(
                out.as_deref().map(runner::normalize_keep_times),
                before.as_deref().map(runner::normalize_keep_times),
                "{}:{}: a time that an earlier page prints differs (run `SUDOKU_LAB_DOCS=unify cargo test --release --test docs unify`)",
                doc.rel,
                block.command_line() + 1
            );
        }
    }
}

#[test]
fn every_chapter_is_reachable_from_the_entry_point() {
    let readme = std::fs::read_to_string(root().join("docs/README.md")).expect("docs/README.md");
    for doc in load_docs() {
        let name = doc.rel.trim_start_matches("docs/");
        if name != "README.md" {
            assert!(
                readme.contains(&format!("({name})")),
                "docs/README.md does not link {name}"
            );
        }
    }
    let top = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        top.contains("docs/README.md"),
        "README.md must link the tour"
    );
}

/// The test of the test: the real pages, edited the ways the tour has drifted
/// before, must each fail — with the rule that should catch the edit.
mod drift_is_caught {
    use super::*;
    use docs_support::Doc;
    use docs_support::runner::Run;

    /// The problems of the tour with one page's text edited (`from` → `to`,
    /// first occurrence), and the problems of the unedited tour.
    fn edited(file: &str, from: &str, to: &str) -> (Vec<Problem>, Vec<Problem>) {
        let docs = load_docs();
        let before = check::check_static(&docs, index());
        let docs: Vec<Doc> = docs
            .into_iter()
            .map(|d| {
                if d.rel == file {
                    assert!(
                        d.text.contains(from),
                        "{file} no longer contains {from:?}: update this test"
                    );
                    Doc::parse(&d.rel, &d.text.replacen(from, to, 1))
                } else {
                    d
                }
            })
            .collect();
        (before, check::check_static(&docs, index()))
    }

    fn assert_caught(file: &str, from: &str, to: &str, kind: Kind) {
        let (before, after) = edited(file, from, to);
        let mine = |ps: &[Problem]| -> Vec<Problem> {
            ps.iter()
                .filter(|p| p.file == file && p.kind == kind)
                .cloned()
                .collect()
        };
        assert!(
            mine(&before).is_empty(),
            "{file} already has {kind:?} problems:\n{}",
            report(&mine(&before))
        );
        assert!(
            !mine(&after).is_empty(),
            "editing {from:?} to {to:?} in {file} went unnoticed (expected a {kind:?} problem); got:\n{}",
            report(&after)
        );
    }

    /// The seeded edits of issue #33, one per kind of drift the second
    /// edition's checker missed: each must make the static check fail with
    /// the rule named. (`from` must occur in the page; its first occurrence
    /// is replaced.)
    const SEEDED: &[(&str, &str, &str, &str, Kind)] = &[
        (
            "a small number declared a page constant, put where a count was",
            "docs/ladder-at-a-glance.md",
            "of the 50<!--= 9x9-clues-26-29/fast/puzzles--> without",
            "of the 8 without",
            Kind::Unbound,
        ),
        (
            "a ratio moved within the old 10% tolerance (`about`)",
            "docs/lesson-heavy-tail.md",
            "about 180<!--~",
            "about 190<!--~",
            Kind::Claim,
        ),
        (
            "a number word changed (one decade → two decades)",
            "docs/lesson-orientation.md",
            "within one<!--~",
            "within two<!--~",
            Kind::Claim,
        ),
        (
            "a number word with its binding dropped",
            "docs/lesson-orientation.md",
            "stays within one<!--~ log10({anti-backtracking @flip-columns/mrv/nodes} / {anti-backtracking @bands-321/mrv/nodes})--> decade",
            "stays within two decades",
            Kind::Unbound,
        ),
        (
            "a yes/no flipped in a table",
            "docs/00-seeds.md",
            "| no<!--~ gt(100001, {#anti:",
            "| yes<!--~ gt(100001, {#anti:",
            Kind::Claim,
        ),
        (
            "a yes/no in a table without its binding",
            "docs/00-seeds.md",
            "| yes<!--~ gt(100001, {#t2580:boj12095 calls})--> |",
            "| yes |",
            Kind::Unbound,
        ),
        (
            "two real code names swapped (another rung's method)",
            "docs/03-used-tables.md",
            "`State::mark`",
            "`State::settle`",
            Kind::CodeName,
        ),
        (
            "a real code name of the wrong kind (a table called a switch)",
            "docs/08-fast.md",
            "compile-time switch `COLS`",
            "compile-time switch `SINGLE`",
            Kind::CodeName,
        ),
        (
            "a code name without backticks",
            "docs/03-used-tables.md",
            "`State::mark`",
            "State::mark",
            Kind::CodeName,
        ),
        (
            "a time edited in the dated record",
            "docs/race-your-program.md",
            "2.02 ms     ×1.26",
            "1.02 ms     ×1.26",
            Kind::Pasted,
        ),
        (
            "pasted output (times) outside a console block",
            "docs/04-bitmask.md",
            "Next: [",
            "```text\n| AI Escargot | bitmask | solved | 8,970 | 60.3 µs |\n```\n\nNext: [",
            Kind::Pasted,
        ),
        (
            "a record marker dropped",
            "docs/race-your-program.md",
            "<!-- docs: record -->",
            "",
            Kind::Pasted,
        ),
    ];

    /// The figure written right before `marker` in `file` (digits, `.` and
    /// `,`), so that a seeded edit of a measured figure follows the page
    /// when its times are regenerated.
    fn figure_before(file: &str, marker: &str) -> String {
        let text = std::fs::read_to_string(root().join(file)).expect("page");
        let at = text
            .find(marker)
            .unwrap_or_else(|| panic!("{file} no longer contains {marker:?}: update this test"));
        let figure: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        assert!(!figure.is_empty(), "no figure before {marker:?} in {file}");
        figure
    }

    /// `figure` × `factor`, written with as many decimals as `figure`.
    fn scaled(figure: &str, factor: f64) -> String {
        let decimals = figure.split_once('.').map_or(0, |(_, d)| d.len());
        let v: f64 = figure.replace(',', "").parse().expect("a figure");
        format!("{:.decimals$}", v * factor)
    }

    /// The seeded edits of measured figures, made from today's pages: a
    /// ratio moved within the old blanket tolerances, and one measurement
    /// quoted with a second value.
    fn seeded_from_figures() -> Vec<(&'static str, &'static str, String, String, Kind)> {
        let mut edits = Vec::new();
        for (what, file, marker, factor) in [
            (
                "a ratio moved within the old 30% tolerance",
                "docs/ladder-at-a-glance.md",
                "<!--~ {Easter Monster/blank-list/time} / {Easter Monster/used-tables/time}-->",
                0.95,
            ),
            (
                "a ratio in words moved within the old 50% tolerance",
                "docs/lesson-mrv.md",
                "<!--~ {Inkala 2012/mrv/time} / {Inkala 2012/bitmask/time}-->",
                0.7,
            ),
        ] {
            let figure = figure_before(file, marker);
            edits.push((
                what,
                file,
                format!("×{figure}{marker}"),
                format!("×{}{marker}", scaled(&figure, factor)),
                Kind::Claim,
            ));
        }
        // A time quoted twice (02-blank-list repeats naive's Platinum Blonde
        // row of the naive chapter): the second copy one unit off.
        let file = "docs/02-blank-list.md";
        let text = std::fs::read_to_string(root().join(file)).expect("page");
        let row = text
            .lines()
            .find(|l| l.starts_with("| Platinum Blonde | naive"))
            .expect("02-blank-list quotes naive's Platinum Blonde row");
        let cells: Vec<&str> = row.split('|').collect();
        let time = cells[cells.len() - 3];
        let (figure, rest) = time.trim().split_once(' ').expect("a time cell");
        let decimals = figure.split_once('.').map_or(0, |(_, d)| d.len());
        let v: f64 = figure.parse().expect("a time figure");
        let bumped = format!("{:.decimals$}", v + 10f64.powi(-(decimals as i32)));
        let edited = time.replacen(figure, &bumped, 1);
        assert_ne!(time, edited, "{rest}");
        edits.push((
            "one measurement quoted with two values, however close",
            file,
            row.to_string(),
            row.replacen(time, &edited, 1),
            Kind::Time,
        ));
        edits
    }

    #[test]
    fn every_seeded_edit_fails() {
        let mut missed = Vec::new();
        let dynamic = seeded_from_figures();
        let all = SEEDED
            .iter()
            .map(|(w, f, a, b, k)| (*w, *f, a.to_string(), b.to_string(), *k))
            .chain(dynamic);
        for (what, file, from, to, kind) in all {
            let (file, from, to, kind) = (&file, from.as_str(), to.as_str(), &kind);
            let (before, after) = edited(file, from, to);
            let mine = |ps: &[Problem]| {
                ps.iter()
                    .filter(|p| p.file == *file && p.kind == *kind)
                    .count()
            };
            assert_eq!(
                mine(&before),
                0,
                "{file} already has {kind:?} problems:\n{}",
                report(&before)
            );
            if mine(&after) == 0 {
                missed.push(format!(
                    "{what} ({file}: {from:?} → {to:?}, expected {kind:?}); got:\n{}",
                    report(&after)
                ));
            }
        }
        assert!(
            missed.is_empty(),
            "{} seeded edit(s) went unnoticed:\n{}",
            missed.len(),
            missed.join("\n")
        );
    }

    #[test]
    fn tolerances_come_from_the_rounding() {
        use docs_support::bind::{Binding, holds};
        use docs_support::numbers::phrases;
        let approx = Binding::Approx {
            expr: String::new(),
        };
        let check = |text: &str, value: f64| {
            let p = phrases(text)
                .into_iter()
                .find(|p| p.claim)
                .expect("a phrase");
            holds(p.said, p.unit, &approx, value)
        };
        // `about 4` is [3.5, 4.5).
        assert!(check("about 4 times", 3.5) && check("about 4 times", 4.49));
        assert!(!check("about 4 times", 4.5) && !check("about 4 times", 3.49));
        // `×14.5` is [14.45, 14.55).
        assert!(check("costs ×14.5 more", 14.46) && !check("costs ×14.5 more", 14.56));
        // `about 880` is rounded to tens; `sixteen hundred` to hundreds.
        assert!(check("about 880 calls", 884.0) && !check("about 880 calls", 886.0));
        assert!(
            check("sixteen hundred times", 1_600.4) && !check("sixteen hundred times", 1_660.0)
        );
        // `ten times` is [9.5, 10.5): 14.5 is not ten.
        assert!(!check("ten times cheaper", 14.5));
        // `a third` is within 1/24 of 1/3.
        assert!(check("a third of all reads", 0.30) && !check("a third of all reads", 0.40));
    }

    #[test]
    fn a_changed_count() {
        // "218 MRV nodes" → 281
        assert_caught(
            "docs/lesson-hard-for-whom.md",
            "218<!--= AI Escargot/mrv/nodes-->",
            "281<!--= AI Escargot/mrv/nodes-->",
            Kind::Mismatch,
        );
    }

    #[test]
    fn a_count_without_its_binding() {
        assert_caught(
            "docs/lesson-hard-for-whom.md",
            "218<!--= AI Escargot/mrv/nodes--> MRV nodes",
            "281 MRV nodes",
            Kind::Unbound,
        );
        assert_caught(
            "docs/05-mrv.md",
            "Why the cut is so large",
            "MRV needs 4,711 nodes here. Why the cut is so large",
            Kind::Unbound,
        );
    }

    #[test]
    fn a_changed_share() {
        // "(15 of them)" → 51
        assert_caught(
            "docs/lesson-heavy-tail.md",
            "(15<!--~",
            "(51<!--~",
            Kind::Claim,
        );
    }

    #[test]
    fn a_changed_ratio_in_words() {
        // "sixteen hundred times" → "sixteen times"
        assert_caught(
            "docs/lesson-orientation.md",
            "sixteen hundred times<!--~",
            "sixteen times<!--~",
            Kind::Claim,
        );
    }

    #[test]
    fn another_puzzles_numbers() {
        // The right number of the wrong puzzle, under the right key...
        assert_caught(
            "docs/lesson-hard-for-whom.md",
            "218<!--= AI Escargot/mrv/nodes-->",
            "12,809<!--= AI Escargot/mrv/nodes-->",
            Kind::Mismatch,
        );
        // ...or under the other puzzle's key, in a paragraph about AI Escargot.
        assert_caught(
            "docs/lesson-hard-for-whom.md",
            "218<!--= AI Escargot/mrv/nodes-->",
            "12,809<!--= Golden Nugget/mrv/nodes-->",
            Kind::Mention,
        );
    }

    /// A `ladder` table row with its time cell multiplied by `factor` (and its
    /// per-node cell too, when `both`).
    fn scale_line(line: &str, factor: f64, both: bool) -> String {
        let mut cells: Vec<String> = line.split('|').map(str::to_string).collect();
        let n = cells.len();
        // ... | time | per node |
        // A cell may carry its 95% interval after the figure (`26.2 ms [26.0,
        // 26.5]`): the figure is scaled, the interval kept as printed.
        let scale = |cell: &str, what: &str, fmt: &dyn Fn(f64) -> String| {
            let cell = cell.trim();
            let figure = docs_support::facts::without_interval(cell);
            let rest = &cell[figure.len()..];
            let v = docs_support::times::parse(figure).expect(what) * factor;
            format!(" {}{rest} ", fmt(v))
        };
        cells[n - 3] = scale(&cells[n - 3], "a time cell", &|ns| {
            docs_support::times::format(ns)
        });
        if both {
            cells[n - 2] = scale(&cells[n - 2], "a per-node cell", &|per| {
                format!("{per:.1} ns")
            });
        }
        cells.join("|")
    }

    /// A row of a page, and the same row with its time scaled.
    fn scaled_row(file: &str, row_start: &str, factor: f64, both: bool) -> (String, String) {
        let text = std::fs::read_to_string(root().join(file)).expect("page");
        let line = text
            .lines()
            .find(|l| l.starts_with(row_start))
            .unwrap_or_else(|| panic!("{file} has no row {row_start:?}"))
            .to_string();
        let to = scale_line(&line, factor, both);
        (line, to)
    }

    #[test]
    fn a_changed_table_time() {
        let file = "docs/04-bitmask.md";
        let (from, to) = scaled_row(file, "| anti-backtracking | bitmask ", 3.0, false);
        assert_caught(file, &from, &to, Kind::Time);
    }

    #[test]
    fn a_time_from_another_run() {
        // Time and per node edited together add up, but no longer agree with
        // the same measurement on another page (mrv on top1465: 2.06 s in one
        // chapter, 8.99 s in another, was the drift).
        let file = "docs/lesson-same-tree.md";
        let (from, to) = scaled_row(file, "| Platinum Blonde | naive ", 4.0, true);
        assert_caught(file, &from, &to, Kind::Time);
    }

    #[test]
    fn a_stale_time_exit_code_and_figure() {
        let docs = load_docs();
        let doc = docs
            .iter()
            .find(|d| d.rel == "docs/04-bitmask.md")
            .expect("page");
        let block = doc.blocks.last().expect("a block");
        let slow: String = block
            .expected
            .lines()
            .map(|l| {
                if l.starts_with("| anti-backtracking ") {
                    scale_line(l, 10.0, true)
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_ne!(
            slow, block.expected,
            "expected the anti-backtracking row in the last block of the bitmask chapter"
        );
        let same = Run {
            code: Some(block.exit),
            output: block.expected.clone(),
        };
        assert!(docs_support::runner::compare(doc, block, &same, &[], true).is_empty());
        let stale = Run {
            code: Some(block.exit),
            output: slow,
        };
        let found = docs_support::runner::compare(doc, block, &stale, &[], true);
        assert!(
            found.iter().any(|p| p.kind == Kind::StaleTime),
            "{}",
            report(&found)
        );
        let failed = Run {
            code: Some(70),
            output: block.expected.clone(),
        };
        let found = docs_support::runner::compare(doc, block, &failed, &[], true);
        assert!(
            found.iter().any(|p| p.kind == Kind::ExitCode),
            "{}",
            report(&found)
        );
        // A figure that differs from the committed one.
        let mrv = docs
            .iter()
            .find(|d| d.rel == "docs/05-mrv.md")
            .expect("page");
        let chart = mrv
            .blocks
            .iter()
            .find(|b| b.command.contains("--chart"))
            .expect("a chart block");
        let page_figure = chart
            .command
            .split_whitespace()
            .find(|a| a.starts_with("docs/img/"))
            .expect("a figure");
        let fresh = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("edited-figure.svg");
        let mut bytes = std::fs::read(root().join(page_figure)).expect("figure");
        bytes.extend_from_slice(b"<!-- edited -->");
        std::fs::write(&fresh, bytes).expect("write");
        let same = Run {
            code: Some(chart.exit),
            output: chart.expected.clone(),
        };
        let found = docs_support::runner::compare(
            mrv,
            chart,
            &same,
            &[(page_figure.to_string(), fresh)],
            false,
        );
        assert!(
            found.iter().any(|p| p.kind == Kind::Figure),
            "{}",
            report(&found)
        );
    }

    /// `from` through the end of the binding comment that follows it in
    /// `file` (so that an edit drops the binding whatever it says).
    fn with_binding(file: &str, from: &str) -> String {
        let text = std::fs::read_to_string(root().join(file)).expect("page");
        let at = text
            .find(from)
            .unwrap_or_else(|| panic!("{file} no longer contains {from:?}: update this test"));
        let end = text[at..].find("-->").expect("a binding") + 3;
        text[at..at + end].to_string()
    }

    /// A sentence put into the exercises page, as its own paragraph.
    fn inserted(sentence: &str) -> (&'static str, &'static str, String) {
        let before = "### 9. Fill the naked singles first";
        (
            "docs/exercises.md",
            before,
            format!("{sentence}\n\n{before}"),
        )
    }

    #[test]
    fn an_approximation_changed() {
        // "about 180" (×, bound) → "about 100", a constant of the page:
        // what is approximated was measured.
        let file = "docs/lesson-heavy-tail.md";
        let marker = "<!--~ {#sets:top1465/mrv/max} / {#sets:top1465/mrv/nodes p50}-->";
        let from = format!("about {}{marker}", figure_before(file, marker));
        assert_caught(file, &from, "about 100", Kind::Unbound);
        let (file, from, to) =
            inserted("The fewest-candidates rule cuts the nodes by a factor of about 16.");
        assert_caught(file, from, &to, Kind::Unbound);
    }

    #[test]
    fn a_number_word_changed() {
        assert_caught(
            "docs/write-your-own-rung.md",
            "the two Baekjoon samples",
            "the three Baekjoon samples",
            Kind::Unbound,
        );
        assert_caught(
            "docs/write-your-own-rung.md",
            "On the five famous puzzles",
            "On the six famous puzzles",
            Kind::Unbound,
        );
        let (file, from, to) =
            inserted("`mrv` needs fewer nodes than `bitmask` on six of these puzzles.");
        assert_caught(file, from, &to, Kind::Unbound);
    }

    #[test]
    fn a_small_integer_in_prose() {
        // "(15 of them)", bound → "(10 of them)": 10 is a constant of the
        // page, which never stands for a count.
        let file = "docs/lesson-heavy-tail.md";
        let from = format!("{} of them)", with_binding(file, "(15<!--~"));
        assert_caught(file, &from, "(10 of them)", Kind::Unbound);
        let (file, from, to) = inserted("`mrv` needs fewer nodes on 4 of these puzzles.");
        assert_caught(file, from, &to, Kind::Unbound);
    }

    #[test]
    fn a_named_list_longer_than_its_count() {
        // "wins on three (Easter Monster, Golden Nugget, Inkala 2012)": a
        // fourth name.
        assert_caught(
            "docs/write-your-own-rung.md",
            "(Easter Monster, Golden Nugget, Inkala 2012)",
            "(Easter Monster, Golden Nugget, Platinum Blonde, Inkala 2012)",
            Kind::Claim,
        );
        // The issue's form: a count, a colon, one name too many.
        let (file, from, to) = inserted(
            "`mrv` is faster than `bitmask` on four famous puzzles: Easter Monster, Golden \
             Nugget, Platinum Blonde, AI Escargot and Inkala 2012.",
        );
        assert_caught(file, from, &to, Kind::Claim);
    }

    /// The right count, a wrong name: a count bound to a sum of comparisons
    /// (`three<!--~ gt(…) + gt(…) + …-->`) lists the puzzles where they hold
    /// (the drift of issue #58: "on six", Platinum Blonde named, not faster).
    #[test]
    fn a_named_list_with_a_wrong_name() {
        assert_caught(
            "docs/write-your-own-rung.md",
            "(Easter Monster, Golden Nugget, Inkala 2012)",
            "(Easter Monster, Platinum Blonde, Inkala 2012)",
            Kind::Claim,
        );
    }

    /// A quote of `src/base/strategy/mrv.rs` made from the file as it reads now:
    /// eight lines from `fn candidates` (their indentation removed), an
    /// elision, `dfs_lines` from `fn dfs`; its runs as a list, to edit.
    fn mrv_runs(dfs_lines: usize) -> Vec<Vec<String>> {
        let source =
            std::fs::read_to_string(root().join("src/base/strategy/mrv.rs")).expect("mrv.rs");
        let lines: Vec<&str> = source.lines().collect();
        let from = |start: &str, n: usize| -> Vec<String> {
            let i = lines
                .iter()
                .position(|l| l.trim_start().starts_with(start))
                .unwrap_or_else(|| {
                    panic!("src/base/strategy/mrv.rs has no {start:?}: update this test")
                });
            lines[i..i + n].iter().map(|l| l.to_string()).collect()
        };
        let dedented = from("fn candidates", 8)
            .into_iter()
            .map(|l| l.strip_prefix("    ").unwrap_or(&l).to_string())
            .collect();
        vec![dedented, from("fn dfs", dfs_lines)]
    }

    /// The text of a quote of `file` holding `runs`.
    fn quote(file: &str, runs: &[Vec<String>]) -> String {
        let body: Vec<String> = runs.iter().map(|r| r.join("\n")).collect();
        format!(
            "<!-- docs: quote {file} -->\n```rust\n{}\n```\n\n## The cost per node",
            body.join("\n// …\n")
        )
    }

    #[test]
    fn code_quotes_are_checked() {
        let file = "docs/05-mrv.md";
        let at = "## The cost per node";
        let runs = mrv_runs(14);
        assert!(
            runs.concat().iter().any(|l| l.contains(" 0 ")),
            "the quote should hold a number, to show code is not prose"
        );
        // As copied: no problem at all on the page (its numbers are code,
        // not prose).
        let (before, after) = edited(file, at, &quote("src/base/strategy/mrv.rs", &runs));
        let mine = |ps: &[Problem]| ps.iter().filter(|p| p.file == file).count();
        assert_eq!(mine(&after), mine(&before), "{}", report(&after));
        // A quoted line edited.
        let mut changed = runs.clone();
        changed[0][0] = changed[0][0].replace("candidates", "candidate");
        assert_ne!(changed, runs);
        assert_caught(
            file,
            at,
            &quote("src/base/strategy/mrv.rs", &changed),
            Kind::Quote,
        );
        // A file that does not exist.
        assert_caught(
            file,
            at,
            &quote("src/base/strategy/mrv2.rs", &runs),
            Kind::Quote,
        );
        // Runs out of file order.
        let swapped: Vec<Vec<String>> = runs.iter().rev().cloned().collect();
        assert_caught(
            file,
            at,
            &quote("src/base/strategy/mrv.rs", &swapped),
            Kind::Quote,
        );
        // Too few lines to show a rung, and too many.
        assert_caught(
            file,
            at,
            &quote("src/base/strategy/mrv.rs", &runs[..1]),
            Kind::Quote,
        );
        assert_caught(
            file,
            at,
            &quote("src/base/strategy/mrv.rs", &mrv_runs(18)),
            Kind::Quote,
        );
        // Each for the reason it says.
        let why = |file: &str, runs: &[Vec<String>]| -> String {
            let content = runs.iter().map(|r| r.join("\n")).collect::<Vec<_>>();
            docs_support::quote::check(root(), file, &content.join("\n// …\n"))
                .into_iter()
                .map(|(_, why)| why)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let mrv = "src/base/strategy/mrv.rs";
        assert_eq!(why(mrv, &runs), "");
        assert!(why(mrv, &changed).contains("is not consecutive lines"));
        assert!(why("src/base/strategy/mrv2.rs", &runs).contains("does not exist"));
        assert!(why(mrv, &swapped).contains("quote runs in file order"));
        assert!(why(mrv, &runs[..1]).contains("holds 8 lines"));
        assert!(why(mrv, &mrv_runs(18)).contains("holds 26 lines"));
    }

    #[test]
    fn a_wrong_code_name_or_link() {
        // `UsedTables::set` was the drift: the function is `State::mark`.
        assert_caught(
            "docs/03-used-tables.md",
            "`State::mark`",
            "`UsedTables::set`",
            Kind::CodeName,
        );
        assert_caught(
            "docs/08-fast.md",
            "`PERMUTATION_CELLS`",
            "`PERMUTATION_CELL`",
            Kind::CodeName,
        );
        // A real name of another rung's `State`, on the chapter of a rung
        // that is a folder (`src/base/strategy/fast/`): its methods are
        // spread over the folder's files, and none of them has `mark`.
        assert_caught(
            "docs/08-fast.md",
            "`State::settle`",
            "`State::mark`",
            Kind::CodeName,
        );
        assert_caught(
            "docs/README.md",
            "`--depth-histogram`",
            "`--depth-histogramm`",
            Kind::CodeName,
        );
        assert_caught("docs/07-dlx.md", "(08-fast.md)", "(09-fast.md)", Kind::Link);
    }

    #[test]
    fn a_wrong_worked_example() {
        assert_caught(
            "docs/07-dlx.md",
            "r1c2 = 1  .X..",
            "r1c2 = 1  X...",
            Kind::Picture,
        );
        assert_caught(
            "docs/08-fast.md",
            "r3  . . . | . . . | . 5 .",
            "r3  5 . . | . . . | . 5 .",
            Kind::Picture,
        );
        assert_caught(
            "docs/08-fast.md",
            "table index (bit 3*row + box): 465",
            "table index (bit 3*row + box): 466",
            Kind::Picture,
        );
    }

    /// A ladder cell with its 95% interval offers the prose its figure
    /// alone (the update run once wrote `12.4 µs [12.4, 12.4 µs [12.4,
    /// 12.5]]` into a sentence).
    #[test]
    fn a_time_with_its_interval_offers_the_figure() {
        use docs_support::facts::without_interval;
        assert_eq!(without_interval("428 µs [412, 431]"), "428 µs");
        assert_eq!(without_interval("54.2 ms [n/a]"), "54.2 ms");
        assert_eq!(without_interval("×6.0 [5.6, 6.4]"), "×6.0");
        assert_eq!(without_interval("262,015"), "262,015");
        assert_eq!(without_interval("[n/a]"), "[n/a]");
    }

    #[test]
    fn a_page_of_times_without_its_machine() {
        assert_caught(
            "docs/04-bitmask.md",
            "<!-- docs: machine -->",
            "",
            Kind::Machine,
        );
    }

    /// Re-runs of a page's blocks that print what the page shows, except for
    /// one edit in the rows that start with `row` and contain `strategy`.
    fn rerun_with(doc: &Doc, row: &str, strategy: &str, from: &str, to: &str) -> Vec<Option<Run>> {
        doc.blocks
            .iter()
            .map(|b| {
                let out: Vec<String> = b
                    .expected
                    .lines()
                    .map(|l| {
                        if l.starts_with(row) && l.contains(strategy) {
                            l.replacen(from, to, 1)
                        } else {
                            l.to_string()
                        }
                    })
                    .collect();
                Some(Run {
                    code: Some(b.exit),
                    output: out.join("\n"),
                })
            })
            .collect()
    }

    #[test]
    fn update_leaves_no_stale_prose() {
        let docs = load_docs();
        let doc = docs
            .iter()
            .find(|d| d.rel == "docs/lesson-hard-for-whom.md")
            .expect("page");
        // A strategy changed: AI Escargot now takes MRV 219 nodes.
        let runs = rerun_with(
            doc,
            "| AI Escargot ",
            "| mrv ",
            "|        218 |",
            "|        219 |",
        );
        assert!(
            runs.iter()
                .flatten()
                .any(|r| r.output.contains("|        219 |")),
            "the AI Escargot mrv row moved: update this test"
        );
        let (text, left) = runner::update(doc, &runs, "*Times on this page: (test)*", index());
        assert!(
            text.contains("219<!--= AI Escargot/mrv/nodes-->"),
            "the bound prose number was not rewritten"
        );
        assert!(!text.contains("218<!--= AI Escargot/mrv/nodes-->"));
        assert!(
            left.iter().all(|p| p.kind != Kind::Mismatch),
            "{}",
            report(&left)
        );

        // A change that a sentence no longer supports is reported, not hidden.
        let doc = docs
            .iter()
            .find(|d| d.rel == "docs/lesson-orientation.md")
            .expect("page");
        let runs = rerun_with(
            doc,
            "| anti-backtracking @flip-columns ",
            "| bitmask ",
            "43,223 |",
            "4,322 |",
        );
        let (text, left) = runner::update(doc, &runs, "*Times on this page: (test)*", index());
        assert!(
            text.contains("4,322<!--="),
            "the bound prose number was not rewritten"
        );
        assert!(
            left.iter()
                .any(|p| p.kind == Kind::Claim && p.message.contains("sixteen hundred")),
            "a claim the new numbers contradict must be reported:\n{}",
            report(&left)
        );
    }
}
