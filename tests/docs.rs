//! The tour in `docs/` quotes live numbers; this test keeps them live.
//!
//! * **Blocks.** A fenced block tagged `console` whose first line is
//!   `$ sudoku-lab ARGS` is a command and its output (standard output, then
//!   standard error). It is re-run: the exit code must be the documented one
//!   (`console exit=N`, default 0), the output must match with times masked,
//!   each time must be within ×3 of the re-run's (release builds), and every
//!   figure it draws under `docs/img/` must come out byte for byte the same.
//! * **Prose.** Every number in prose is bound to a block's output by an
//!   invisible comment right after it — `218<!--= AI Escargot/mrv/nodes-->`
//!   (exact), `sixteen hundred times<!--~ {a}/{b}-->` (within 10%),
//!   `more than half<!--< {x}/{y}-->` (a comparison) — or declared a
//!   constant of the rules (`<!-- docs: constants 81; 324 -->`). A binding
//!   to a puzzle's row must sit in a paragraph that names that puzzle.
//!   Code names in prose (`State::settle`, `COLS`, `src/strategy/fast.rs`,
//!   `--depth-histogram`) must exist in the lab; links must resolve.
//! * **Times** add up (`per node` = `time` ÷ `nodes`), the same measurement
//!   agrees across pages (×2), and every page that prints times states the
//!   machine and load (`<!-- docs: machine -->`, written by the update run).
//! * **Worked examples** after `<!-- docs: check KIND -->` are recomputed.
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
//! It rewrites every block, the prose numbers bound with `=`, the machine
//! statements, and fills `console-pending` blocks whose command runs now; it
//! fails, listing them, where prose claims (`~`, `<`, `>`) no longer hold.
//!
//! Plain `cargo test` (debug) checks the prose and re-runs the light blocks
//! (at most [`LIGHT_WORK`] documented nodes each); the heavy blocks are
//! ignored there, with the reason shown — a debug build is 10–50× slower —
//! and run by `cargo test --release` (CI). Blocks that read
//! `$SUDOKU_LAB_SHARED` (the public corpora) follow the project's rule:
//! skipped with a note when the variable and `CI` are both unset, a failure
//! when `CI` is set without them.

mod docs_support;

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

/// Re-runs the blocks of one weight and compares them with the pages.
fn reproduce(weight: Weight) {
    let runner = Runner::new(BIN, std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
    let docs = load_docs();
    let times_too = !cfg!(debug_assertions);
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
                    problems.extend(runner::compare(doc, block, &run, &figures, times_too));
                }
            }
        }
    }
    if skipped > 0 {
        eprintln!("skipped: {} not set ({skipped} block(s) read the public corpora)", runner::SHARED_VAR);
    }
    if pending > 0 {
        eprintln!("note: {pending} console-pending block(s) (commands that do not run yet); `SUDOKU_LAB_DOCS=update` fills them once they do");
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
    let mut runs = Vec::new();
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
    let note = runner::machine_note(load_start, runner::load_average());
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
    assert!(top.contains("docs/README.md"), "README.md must link the tour");
}
