//! The public checks have teeth: a rung written outside the crate passes
//! them, and each classic way of getting a rung wrong fails exactly the
//! check whose rule it breaks.

use std::hint::black_box;

use sudoku_lab::analysis::check::{self, Check, Checked, Checks, CountingAllocator};
use sudoku_lab::base::{Ctx, Flow};
use sudoku_lab::{Board, BoxSize, Counter, Rung, Strategy};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const CORRECT: u8 = 0;
const CLAIMS_ROW_MAJOR: u8 = 1;
const WRONG_ANSWER: u8 = 2;
const GIVES_UP: u8 = 3;
const COUNTING_CHANGES_SEARCH: u8 = 4;
const IGNORES_BUDGET: u8 = 5;
const ALLOCATES: u8 = 6;
const NINE_BY_NINE_ARRAYS: u8 = 7;
const DOUBLE_BACKTRACKS: u8 = 8;

const NAMES: [&str; 9] = [
    "downward",
    "downward-claims-row-major",
    "downward-wrong-answer",
    "downward-gives-up",
    "downward-counting-changes-search",
    "downward-ignores-budget",
    "downward-allocates",
    "downward-nine-by-nine-arrays",
    "downward-double-backtracks",
];

/// Row-major cell order, digits tried from N down to 1, one bit per digit
/// and unit; with `DEFECT`, one classic mistake.
struct Downward<const DEFECT: u8>;

impl<const DEFECT: u8> Rung for Downward<DEFECT> {
    const NAME: &'static str = NAMES[DEFECT as usize];
    const SUMMARY: &'static str = "row-major, digits from N down to 1 (a test rung)";
    const ROW_MAJOR: bool = DEFECT == CLAIMS_ROW_MAJOR;
    type Scratch = Vec<u8>;

    fn scratch(size: BoxSize) -> Vec<u8> {
        vec![0; size.cells()]
    }

    fn search<C: Counter>(grid: &mut Vec<u8>, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        if DEFECT == NINE_BY_NINE_ARRAYS {
            let mut fixed = [0u8; 81];
            fixed.copy_from_slice(puzzle.cells()); // panics on other sizes
            black_box(&fixed);
        }
        grid.copy_from_slice(puzzle.cells());
        let g = puzzle.geometry();
        let mut used = [0u32; 75];
        for (cell, &v) in grid.iter().enumerate() {
            if v != 0 {
                for unit in units(g, cell) {
                    used[unit] |= 1 << (v - 1);
                }
            }
        }
        dfs::<C, DEFECT>(grid, g, &mut used, 0, ctx)
    }
}

fn units(g: &sudoku_lab::base::Geometry, cell: usize) -> [usize; 3] {
    [
        g.row[cell] as usize,
        g.n + g.col[cell] as usize,
        2 * g.n + g.boxi[cell] as usize,
    ]
}

fn dfs<C: Counter, const DEFECT: u8>(
    grid: &mut [u8],
    g: &sudoku_lab::base::Geometry,
    used: &mut [u32; 75],
    depth: usize,
    ctx: &mut Ctx<C>,
) -> Flow {
    if DEFECT == IGNORES_BUDGET && depth % 2 == 1 {
        // Heeds the budget only at even depths. (A rung that never heeds
        // it cannot be stopped by the lab at all.)
        let _ = ctx.enter();
    } else {
        ctx.enter()?;
    }
    if DEFECT == COUNTING_CHANGES_SEARCH && C::ENABLED && ctx.nodes() == 1 {
        ctx.enter()?;
    }
    if DEFECT == ALLOCATES {
        black_box(Vec::<u8>::with_capacity(8));
    }
    if DEFECT == GIVES_UP && ctx.nodes() > 2_000 {
        return Ok(());
    }
    let Some(cell) = grid.iter().position(|&v| v == 0) else {
        if DEFECT == WRONG_ANSWER {
            let mut wrong = [0u8; 625];
            wrong[..grid.len()].copy_from_slice(grid);
            wrong.swap(0, 1);
            return ctx.solution(&wrong[..grid.len()]);
        }
        return ctx.solution(grid);
    };
    let [r, c, b] = units(g, cell);
    let free = !(used[r] | used[c] | used[b]) & g.full;
    ctx.counter.probes(cell as u64 + 4);
    if free == 0 {
        ctx.counter.dead_end();
        return Ok(());
    }
    for d in (1..=g.n as u8).rev() {
        let bit = 1u32 << (d - 1);
        if free & bit == 0 {
            continue;
        }
        grid[cell] = d;
        for u in [r, c, b] {
            used[u] |= bit;
        }
        ctx.counter.placement(cell, d);
        if free.count_ones() > 1 {
            ctx.guess();
        }
        dfs::<C, DEFECT>(grid, g, used, depth + 1, ctx)?;
        grid[cell] = 0;
        for u in [r, c, b] {
            used[u] &= !bit;
        }
        ctx.counter.backtrack(cell, d);
        if DEFECT == DOUBLE_BACKTRACKS {
            ctx.counter.backtrack(cell, d);
        }
    }
    Ok(())
}

/// Fewer random puzzles than the default, to keep the nine runs quick.
fn checks() -> Checks {
    Checks {
        puzzles: 12,
        ..Checks::default()
    }
}

fn run<R: Rung>() -> Checked {
    let s = Strategy::add::<R>().expect("a valid, free name");
    match checks().run(s) {
        Ok(checked) | Err(check::Failed(checked)) => checked,
    }
}

fn failing(checked: &Checked) -> Vec<Check> {
    checked
        .results
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.check)
        .collect()
}

/// The failures of `check`, as one text.
fn failures(checked: &Checked, check: Check) -> String {
    checked.get(check).unwrap().failures.join("\n")
}

#[test]
fn a_rung_written_outside_the_crate_passes_every_check() {
    let checked = run::<Downward<CORRECT>>();
    assert!(checked.passed(), "{checked}");
    assert!(checked.ran() > 500, "{checked}");
    // The allocation check ran: the allocator is installed here.
    assert!(checked.get(Check::Allocation).unwrap().notes.is_empty());
    assert!(checked.get(Check::Allocation).unwrap().runs > 0);
    // And the default checks accept it too.
    check::rung::<Downward<CORRECT>>().unwrap();
}

#[test]
fn claiming_naive_order_without_keeping_it_fails_the_order_checks() {
    let checked = run::<Downward<CLAIMS_ROW_MAJOR>>();
    assert_eq!(
        failing(&checked),
        [Check::Fixtures, Check::NaiveTree],
        "{checked}"
    );
    assert!(failures(&checked, Check::Fixtures).contains("finds the smallest first"));
}

#[test]
fn a_wrong_answer_is_caught_by_verification() {
    let checked = run::<Downward<WRONG_ANSWER>>();
    let failed = failing(&checked);
    for c in [Check::Fixtures, Check::Answers, Check::Counts, Check::Sizes] {
        assert!(failed.contains(&c), "{c} should fail:\n{checked}");
    }
    assert!(failures(&checked, Check::Answers).contains("returned a wrong solution"));
}

#[test]
fn giving_up_silently_is_a_false_no_solution() {
    let checked = run::<Downward<GIVES_UP>>();
    let failed = failing(&checked);
    assert!(failed.contains(&Check::Fixtures), "{checked}");
    assert!(failed.contains(&Check::Counts), "{checked}");
    assert!(failures(&checked, Check::Fixtures).contains("no-solution"));
}

#[test]
fn a_search_that_changes_when_counted_fails_same_runs() {
    let checked = run::<Downward<COUNTING_CHANGES_SEARCH>>();
    assert_eq!(failing(&checked), [Check::SameRuns], "{checked}");
}

#[test]
fn ignoring_the_budget_fails_the_budget_check() {
    let checked = run::<Downward<IGNORES_BUDGET>>();
    assert!(failing(&checked).contains(&Check::Budget), "{checked}");
}

#[test]
fn allocating_per_node_fails_the_allocation_check() {
    let checked = run::<Downward<ALLOCATES>>();
    assert_eq!(failing(&checked), [Check::Allocation], "{checked}");
}

#[test]
fn a_size_claimed_but_not_handled_is_reported_as_a_panic() {
    let checked = run::<Downward<NINE_BY_NINE_ARRAYS>>();
    assert!(failing(&checked).contains(&Check::Sizes), "{checked}");
    assert!(failures(&checked, Check::Sizes).contains("panicked"));
}

#[test]
fn counters_that_do_not_add_up_fail_the_answers_check_and_the_report_says_why() {
    let checked = run::<Downward<DOUBLE_BACKTRACKS>>();
    assert_eq!(failing(&checked), [Check::Answers], "{checked}");
    let answers = failures(&checked, Check::Answers);
    assert!(answers.contains("placements - backtracks"), "{answers}");
    // The report names the rule, and each failure quotes its puzzle as a
    // line, to re-run it.
    let text = check::Failed(checked).to_string();
    eprint!("{text}");
    assert!(text.contains("answers     FAILED"), "{text}");
    assert!(text.contains(Check::Answers.rule()), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("- ") && l.contains(" on ")),
        "{text}"
    );
}

#[test]
fn an_invalid_name_is_refused_before_any_check() {
    struct Bad;
    impl Rung for Bad {
        const NAME: &'static str = "Not A Name";
        const SUMMARY: &'static str = "";
        type Scratch = ();
        fn scratch(_: BoxSize) {}
        fn search<C: Counter>(_: &mut (), _: &Board, ctx: &mut Ctx<C>) -> Flow {
            ctx.enter()
        }
    }
    let panic = std::panic::catch_unwind(check::rung::<Bad>).unwrap_err();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("is not valid"), "{message}");
}

/// Colours are keyed by rung name: every built-in rung and variant has its
/// own, the same whatever else is on the ladder, and rungs added from
/// outside get colours none of the others has, distinct among themselves.
#[test]
fn every_rung_the_ladder_can_hold_has_its_own_colour() {
    use sudoku_lab::export::rung_color;
    let before: Vec<_> = Strategy::every().iter().map(|&s| rung_color(s)).collect();
    macro_rules! outside {
        ($($t:ident $name:literal),*) => {$(
            struct $t;
            impl Rung for $t {
                const NAME: &'static str = $name;
                const SUMMARY: &'static str = "a rung from outside, for its colour";
                type Scratch = ();
                fn scratch(_: BoxSize) {}
                fn search<C: Counter>(_: &mut (), _: &Board, ctx: &mut Ctx<C>) -> Flow {
                    ctx.enter()
                }
            }
            Strategy::add::<$t>().unwrap();
        )*};
    }
    outside!(A "colour-a", B "colour-b", C "colour-c", D "colour-d");
    let every = Strategy::every();
    assert!(every.len() >= Strategy::ALL.len() + Strategy::VARIANTS.len() + 4);
    let colours: std::collections::HashSet<_> = every
        .iter()
        .map(|&s| {
            let c = rung_color(s);
            (c.0, c.1, c.2)
        })
        .collect();
    assert_eq!(colours.len(), every.len(), "two rungs share a colour");
    // The built-in rungs kept theirs when the outside ones arrived.
    let after: Vec<_> = every.iter().map(|&s| rung_color(s)).collect();
    assert_eq!(after[..Strategy::ALL.len()], before[..Strategy::ALL.len()]);
    let variants_after: Vec<_> = Strategy::VARIANTS.iter().map(|&s| rung_color(s)).collect();
    let variants_before: Vec<_> = before[before.len() - Strategy::VARIANTS.len()..].to_vec();
    assert_eq!(variants_after, variants_before);
}
