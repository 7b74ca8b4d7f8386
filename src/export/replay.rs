//! A search as a self-contained web page: the `replay` command's library.
//!
//! Traced runs ([`crate::analysis::trace::Trace`]) become plain data ([`Page`]: the
//! puzzle, and per strategy its first events, totals and the summary of the
//! rest), and the data becomes one HTML file ([`html`]) with its style and
//! script inline (`assets/replay.css`, `assets/replay.js`) and nothing
//! fetched from anywhere: it opens from disk in any modern browser.
//!
//! The script replays the events onto the board exactly as
//! [`crate::analysis::trace::Position`] does (`tests/replay_browser.rs` opens pages in
//! a headless Chromium and compares the two after N events), and writes
//! every event in the words of [`crate::analysis::trace::Event::describe`]. All it
//! shows is computed in the page from the events, so the page's size stays
//! bounded by `--steps`:
//! * pencil marks: in each empty cell, the digits no filled peer holds at
//!   that step (the board's candidates, whatever the strategy keeps);
//! * the search tree of the events kept, as [`crate::analysis::trace::Tree`] builds
//!   it, chains of only children folded, branches opened on demand; a click
//!   on a node shows the board just after the placement that entered it;
//! * side by side, lanes aligned by node (`#nodes=N`: each search after the
//!   same number of nodes, the same work) or by event (`#step=N`);
//! * a guided mode that stops at teaching moments (per search the first
//!   choice of a cell with the fewest candidates, guess, dead end,
//!   backtrack, and the solution), with a sentence each.
//!
//! **Size.** A page is at most [`size_bound`] bytes: a fixed part, a part
//! per strategy (summary and board), and `BYTES_PER_EVENT` per event kept,
//! so its size (and the memory of the trace behind it) is bounded by
//! `--steps`. Events are encoded as short arrays of integers:
//!
//! | event | array |
//! |---|---|
//! | place | `[0, depth, +nodes, +probes, cell, digit, guess, branch...]`, branch = `[0]` unstated, `[1, digits]` a cell's candidates, `[3, digits, next, ties]` the cell with the fewest (the next best count among the other empty cells, 0 if none; how many others tie), `[2, unit kind, unit, places]` a digit's places in a unit |
//! | undo | `[1, depth, +nodes, +probes, cell, digit]` |
//! | forced | `[2, depth, +nodes, +probes, cell, digit, reason...]`, reason = `[0]` unstated, `[1]` naked single, `[2, unit kind, unit]` hidden single, `[3, band, unit kind, unit]` fast's band filter (locked candidates, then one place in the row) |
//! | dead end | `[3, depth, +nodes, +probes, why...]`, why = `[0]` unstated, `[1, cell]`, `[2, unit kind, unit, digit]`, `[3, unit kind, unit, cell, digits]`, `[4, stack?, index, digit]`, `[5, unit kind, unit, box, digits]` (four digits for three cells: `fast-triads`) |
//! | solution | `[4, depth, +nodes, +probes]` |
//! | way | `[5, depth, +nodes, +probes, stack?, index, digit, way, ways, guess]` (a guess of `fast-triads`: one of a digit's ways through a chute) |
//! | way undone | `[6, depth, +nodes, +probes, stack?, index, digit, way]` |
//!
//! A way writes no cell: the page outlines the cells it keeps the digit
//! to, enters a tree node for it, and its undo clears back what was forced
//! under it (as [`crate::analysis::trace::Position`] does).
//! `+nodes` and `+probes` are increases since the previous event; masks have
//! bit `d-1` for digit `d` (or bit `i` for the `i`-th cell of a unit); unit
//! kinds are 0 row, 1 column, 2 box.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::bail;
use serde::Serialize;

use crate::analysis::trace::{
    Branch, Chute, DeadEnd, Event, EventKind, Reason, Trace, check_sizes, trace,
};
use crate::base::board::{Board, BoxSize, Unit, UnitKind};
use crate::base::counters::Counts;
use crate::base::format::Puzzle;
use crate::base::strategy::{Outcome, Strategy};
use crate::export::present::{left_out_clause, thousands};

/// Most events a page keeps per strategy (`--steps`): about 16 MB per
/// strategy at the worst, which browsers still open and step through.
pub const MAX_STEPS: usize = 200_000;
/// Largest encoded event, in bytes (an array of at most 11 integers, two of
/// them 64-bit increases, the largest mask 25 bits), with its separator.
pub(crate) const BYTES_PER_EVENT: usize = 80;
/// Bytes per strategy besides its events: headings, totals, nodes per
/// depth, depth over time, solution, plus [`BYTES_PER_CELL`] per cell.
const BYTES_PER_LANE: usize = 24 * 1024;
/// Bytes per cell and strategy (the solution and the board).
const BYTES_PER_CELL: usize = 48;
/// The page itself: style, script, controls, notes.
const BYTES_FIXED: usize = 96 * 1024;

const SCRIPT: &str = include_str!("../../assets/replay.js");
const STYLE: &str = include_str!("../../assets/replay.css");

/// The largest page for `lanes` strategies on boards of `cells` cells
/// keeping `events` events in all.
pub fn size_bound(lanes: usize, cells: usize, events: usize) -> usize {
    BYTES_FIXED + lanes * (BYTES_PER_LANE + BYTES_PER_CELL * cells) + events * BYTES_PER_EVENT
}

/// Everything the page shows, as plain data (serialised into the page).
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    pub title: String,
    /// Side of the board (4, 9, 16, 25) and of its boxes (2..5).
    pub side: usize,
    pub box_size: usize,
    /// Givens, row-major, 0 for empty.
    pub givens: Vec<u8>,
    /// Events kept per strategy (`--steps`).
    pub steps: usize,
    /// The size bound of this page, in bytes.
    pub bound: usize,
    pub lanes: Vec<Lane>,
}

/// One strategy's search.
#[derive(Clone, Debug, Serialize)]
pub struct Lane {
    pub strategy: String,
    pub summary: String,
    /// `solved`, `no-solution`, `budget-exceeded`.
    pub outcome: String,
    /// Every counter of the whole search, by [`Counts::NAMES`].
    pub totals: Vec<(String, u64)>,
    /// Events of the whole search, kept or not.
    pub total_events: u64,
    /// Nodes per depth over the whole search.
    pub histogram: Vec<u64>,
    /// Depth over the whole search: events per bucket, and each bucket's
    /// shallowest and deepest depth.
    pub over_time_width: u64,
    pub over_time: Vec<(u32, u32)>,
    /// The first solution (verified), row-major.
    pub solution: Option<Vec<u8>>,
    /// The first events, encoded as in the module documentation.
    pub events: Vec<Vec<u64>>,
}

fn unit_code(u: Unit) -> [u64; 2] {
    let kind = match u.kind {
        UnitKind::Row => 0,
        UnitKind::Column => 1,
        UnitKind::Box => 2,
    };
    [kind, u.index as u64]
}

/// A chute as `[stack?, index]`: `[0, i]` band `i`, `[1, i]` stack `i`.
fn chute_code(chute: Chute) -> [u64; 2] {
    match chute {
        Chute::Band(i) => [0, i as u64],
        Chute::Stack(i) => [1, i as u64],
    }
}

/// One event as its array (see the module documentation).
pub fn encode(e: &Event, previous: Option<&Event>) -> Vec<u64> {
    let (nodes, probes) = previous.map_or((0, 0), |p| (p.nodes, p.probes));
    let mut v = vec![
        0,
        e.depth as u64,
        e.nodes.saturating_sub(nodes),
        e.probes.saturating_sub(probes),
    ];
    v[0] = match e.kind {
        EventKind::Place {
            cell,
            digit,
            branch,
            guess,
        } => {
            v.extend([cell.0 as u64, digit as u64, guess as u64]);
            branch_code(&mut v, branch);
            0
        }
        EventKind::Backtrack { cell, digit } => {
            v.extend([cell.0 as u64, digit as u64]);
            1
        }
        EventKind::Forced {
            cell,
            digit,
            reason,
        } => {
            v.extend([cell.0 as u64, digit as u64]);
            reason_code(&mut v, reason);
            2
        }
        EventKind::DeadEnd(why) => {
            dead_end_code(&mut v, why);
            3
        }
        EventKind::Solution => 4,
        EventKind::Way {
            chute,
            digit,
            way,
            ways,
            guess,
        } => {
            v.extend(chute_code(chute));
            v.extend([digit as u64, way as u64, ways as u64, guess as u64]);
            5
        }
        EventKind::WayBack { chute, digit, way } => {
            v.extend(chute_code(chute));
            v.extend([digit as u64, way as u64]);
            6
        }
    };
    v
}

/// A placement's branch: `[0]` unstated, `[1, digits]`, `[3, digits, next,
/// ties]` or `[2, unit kind, unit, places]`.
fn branch_code(v: &mut Vec<u64>, branch: Branch) {
    match branch {
        // A way writes no cell: no placement carries it.
        Branch::Ways { .. } | Branch::Unstated => v.push(0),
        Branch::Cell {
            digits,
            rivals: None,
            ..
        } => v.extend([1, digits as u64]),
        Branch::Cell {
            digits,
            rivals: Some(r),
            ..
        } => v.extend([3, digits as u64, r.next as u64, r.ties as u64]),
        Branch::Digit { unit, places, .. } => {
            v.push(2);
            v.extend(unit_code(unit));
            v.push(places as u64);
        }
    }
}

/// A forced cell's reason: `[0]`, `[1]`, `[2, unit kind, unit]` or `[3,
/// band, unit kind, unit]`.
fn reason_code(v: &mut Vec<u64>, reason: Reason) {
    match reason {
        Reason::Unstated => v.push(0),
        Reason::NakedSingle => v.push(1),
        Reason::HiddenSingle(unit) => {
            v.push(2);
            v.extend(unit_code(unit));
        }
        Reason::BandFilter { band, row } => {
            v.extend([3, band as u64]);
            v.extend(unit_code(row));
        }
    }
}

/// Why a dead end: `[0]` unstated, `[1, cell]`, `[2, unit kind, unit,
/// digit]`, `[3, unit kind, unit, cell, digits]`, `[4, stack?, index,
/// digit]`, `[5, unit kind, unit, box, digits]`.
fn dead_end_code(v: &mut Vec<u64>, why: DeadEnd) {
    let (code, unit, rest) = match why {
        DeadEnd::Unstated => (0, None, vec![]),
        DeadEnd::Cell(cell) => (1, None, vec![cell.0 as u64]),
        DeadEnd::Digit { unit, digit } => (2, Some(unit_code(unit)), vec![digit as u64]),
        DeadEnd::Clash { unit, cell, digits } => {
            (3, Some(unit_code(unit)), vec![cell.0 as u64, digits as u64])
        }
        DeadEnd::Chute { chute, digit } => (4, Some(chute_code(chute)), vec![digit as u64]),
        DeadEnd::Crowded {
            line,
            in_box,
            digits,
        } => (5, Some(unit_code(line)), vec![in_box as u64, digits as u64]),
    };
    v.push(code);
    v.extend(unit.into_iter().flatten());
    v.extend(rest);
}

/// The page data for traced runs of one puzzle (`title` names it).
pub fn page(title: &str, puzzle: &Board, traces: &[Trace], steps: usize) -> Page {
    let lanes: Vec<Lane> = traces
        .iter()
        .map(|t| {
            let events = t.tracer.events();
            Lane {
                strategy: t.strategy.name().to_string(),
                summary: t.strategy.summary().to_string(),
                outcome: t.outcome.name().to_string(),
                totals: totals(&t.counts),
                total_events: t.tracer.total(),
                histogram: t.tracer.histogram().to_vec(),
                over_time_width: t.tracer.over_time().width(),
                over_time: t.tracer.over_time().buckets().to_vec(),
                solution: t.solution.as_ref().map(|b| b.cells().to_vec()),
                events: events
                    .iter()
                    .enumerate()
                    .map(|(i, e)| encode(e, i.checked_sub(1).map(|p| &events[p])))
                    .collect(),
            }
        })
        .collect();
    let kept: usize = lanes.iter().map(|l| l.events.len()).sum();
    Page {
        title: title.to_string(),
        side: puzzle.size().side(),
        box_size: puzzle.size().box_size(),
        givens: puzzle.cells().to_vec(),
        steps,
        bound: size_bound(lanes.len(), puzzle.size().cells(), kept),
        lanes,
    }
}

/// A page made: its HTML and size bound, the searches on it and the
/// strategies left out.
pub struct Replay {
    pub html: String,
    pub bound: usize,
    pub traces: Vec<Trace>,
    pub skipped: Vec<String>,
    size: BoxSize,
}

/// The `replay` command's work: traces `strategies` on `puzzle` (number
/// `number` of `source`, for the title) and builds the page, refusing a
/// `steps` above [`MAX_STEPS`]. `named`: the user named the strategies, and
/// each must handle the puzzle's size; otherwise (every rung) those that do
/// not are left out, and said so.
pub fn replay(
    puzzle: &Puzzle,
    (source, number): (&str, usize),
    mut strategies: Vec<Strategy>,
    named: bool,
    budget: Option<u64>,
    steps: usize,
) -> anyhow::Result<Replay> {
    if steps > MAX_STEPS {
        bail!("--steps {steps} is too large for a page (at most {MAX_STEPS} events per strategy)");
    }
    let size = puzzle.board.size();
    let mut skipped = Vec::new();
    if named {
        check_sizes(&strategies, puzzle)?;
    } else {
        skipped = strategies
            .iter()
            .filter(|s| !s.supports(size))
            .map(|s| s.name().to_string())
            .collect();
        strategies.retain(|s| s.supports(size));
    }
    let traces = strategies
        .iter()
        .map(|&s| trace(s, &puzzle.board, budget, steps))
        .collect::<Result<Vec<_>, _>>()?;
    let title = match &puzzle.name {
        Some(name) => name.clone(),
        None => format!("{source}, puzzle {number}"),
    };
    let page = page(&title, &puzzle.board, &traces, steps);
    let html = html(&page);
    if html.len() > page.bound {
        bail!(
            "BUG: the page has {} bytes, more than its stated bound of {}",
            html.len(),
            page.bound
        );
    }
    Ok(Replay {
        html,
        bound: page.bound,
        traces,
        skipped,
        size,
    })
}

impl Replay {
    /// "replay written to FILE (bytes, bound): each lane's events kept of
    /// its total", and the strategies left out.
    pub fn note(&self, out: &Path) -> String {
        let lanes: Vec<String> = self
            .traces
            .iter()
            .map(|t| {
                format!(
                    "{} {} of {} events",
                    t.strategy,
                    thousands(t.tracer.events().len() as u64),
                    thousands(t.tracer.total())
                )
            })
            .collect();
        format!(
            "replay written to {} ({} bytes, bound {}): {}{}\n",
            out.display(),
            thousands(self.html.len() as u64),
            thousands(self.bound as u64),
            lanes.join(", "),
            left_out_clause(&format!(" ({} not supported)", self.size), &self.skipped)
        )
    }

    /// The searches that did not solve the puzzle, as "name: outcome"
    /// (`None` when every one did).
    pub fn unsolved(&self) -> Option<String> {
        let unsolved: Vec<String> = self
            .traces
            .iter()
            .filter(|t| t.outcome != Outcome::Solved)
            .map(|t| format!("{}: {}", t.strategy, t.outcome))
            .collect();
        (!unsolved.is_empty()).then(|| unsolved.join(", "))
    }
}

fn totals(c: &Counts) -> Vec<(String, u64)> {
    Counts::NAMES
        .iter()
        .zip(c.values())
        .map(|(n, v)| (n.to_string(), v))
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A sentence for the searches whose guesses are ways (event kind 5), or
/// nothing: their boards change in another way than the intro says.
fn ways_note(page: &Page) -> String {
    let by_ways: Vec<&str> = page
        .lanes
        .iter()
        .filter(|l| l.events.iter().any(|e| e.first() == Some(&5)))
        .map(|l| l.strategy.as_str())
        .collect();
    if by_ways.is_empty() {
        return String::new();
    }
    format!(
        "\n{} guess{} a way of a digit through a band or stack instead, which writes no cell: the \
         board outlines the cells the way keeps the digit to, the undo of a way clears what was \
         forced under it, and neither counts as a placement or a backtrack.",
        escape(&by_ways.join(", ")),
        if by_ways.len() == 1 { "es" } else { "" }
    )
}

/// The page: text that reads without the script (title, what is shown,
/// totals per strategy, the size bound), the controls and boards the script
/// brings to life, and the data.
pub fn html(page: &Page) -> String {
    let mut s = String::with_capacity(64 * 1024);
    let title = escape(&page.title);
    let names: Vec<&str> = page.lanes.iter().map(|l| l.strategy.as_str()).collect();
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sudoku-lab replay">
<title>Replay: {title} ({names})</title>
<style>
{STYLE}</style>
</head>
<body>
<header>
<h1>Replay: {title}</h1>
<p>{side}×{side}, {givens} givens. Strategies: {names}. Each search is replayed event by event:
a cell is chosen, a digit placed, forced cells follow, a dead end sends the search back up.{ways}</p>
"#,
        names = escape(&names.join(", ")),
        side = page.side,
        givens = page.givens.iter().filter(|&&v| v != 0).count(),
        ways = ways_note(page),
    );
    limits(&mut s, page);
    s.push_str(CONTROLS);
    for (i, lane) in page.lanes.iter().enumerate() {
        lane_html(&mut s, i, lane);
    }
    s.push_str(FOOTER);
    // `<` only occurs inside JSON strings, where `\u003c` means the same:
    // the data can never close its script element.
    let data = serde_json::to_string(page).unwrap_or_else(|_| "null".to_string());
    s.push_str(&data.replace('<', "\\u003c"));
    s.push_str("</script>\n<script>\n");
    s.push_str(SCRIPT);
    s.push_str("</script>\n</body>\n</html>\n");
    s
}

/// What the page keeps and leaves out, and its size bound.
fn limits(s: &mut String, page: &Page) {
    let truncated: Vec<&Lane> = page
        .lanes
        .iter()
        .filter(|l| l.total_events > l.events.len() as u64)
        .collect();
    let left_out = if truncated.is_empty() {
        String::from("every search here is shorter: nothing is left out")
    } else {
        truncated
            .iter()
            .map(|l| {
                format!(
                    "{} has {} events, the first {} are shown",
                    escape(&l.strategy),
                    thousands(l.total_events),
                    thousands(l.events.len() as u64)
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let _ = writeln!(
        s,
        r#"<p class="limits">This page keeps the first {} events of each search in full ({left_out}); the totals, nodes per depth and depth over time cover the whole search. Its size is at most {} bytes: at most {} bytes per event kept, plus a fixed part per page and per strategy.</p>"#,
        thousands(page.steps as u64),
        thousands(page.bound as u64),
        BYTES_PER_EVENT,
    );
}

/// The controls the script brings to life (hidden without it).
const CONTROLS: &str = r#"<noscript><p class="noscript">The step-by-step replay needs JavaScript; the totals of each search are below.</p></noscript>
</header>
<nav id="controls" aria-label="Replay controls" hidden>
<button type="button" id="first" title="Back to the start (Home)" aria-label="Back to the start">|◀</button>
<button type="button" id="back" title="One event back (←)" aria-label="One event back">◀</button>
<button type="button" id="play" title="Play or pause (space)" aria-label="Play">▶ Play</button>
<button type="button" id="forward" title="One event forward (→)" aria-label="One event forward">▶</button>
<button type="button" id="last" title="Each search to its last event kept (End)" aria-label="Each search to its last event kept">▶▶|</button>
<button type="button" id="next-guess" title="To the next guess of any search (g)" aria-label="To the next guess">next guess</button>
<button type="button" id="next-dead-end" title="To the next dead end of any search (d)" aria-label="To the next dead end">next dead end</button>
<button type="button" id="next-solution" title="To the next solution found (s)" aria-label="To the next solution">solution</button>
<label>Speed <select id="speed" title="Steps per second: events, or nodes when aligned by node (+ and −)">
<option value="1">1/s</option><option value="4">4/s</option><option value="10" selected>10/s</option><option value="50">50/s</option><option value="250">250/s</option><option value="1000">1000/s</option>
</select></label>
<button type="button" id="guide" aria-pressed="false" title="Guided: play and stop at each teaching moment with a sentence (t)">guided</button>
<button type="button" id="next-moment" title="To the next teaching moment (n)" aria-label="To the next teaching moment">next moment</button>
<label id="align-choice">Side by side <select id="align" title="How the searches step together">
<option value="nodes">by nodes (the same work)</option><option value="events">by events</option>
</select></label>
<label><input type="checkbox" id="pencil" checked> pencil marks (p)</label>
<label><span id="pos-name">Step</span> <input id="step" type="number" min="0" value="0" inputmode="numeric" aria-describedby="step-of"></label>
<span id="step-of"></span>
<input id="scrub" type="range" min="0" value="0" aria-label="Position">
<p class="keys">Keys: space play/pause · ← → one step · PgUp PgDn 100 steps · Home End · g next guess · d next dead end · s solution · t guided · n next teaching moment · p pencil marks · + − speed. Link to a position: add <code>#step=N</code> (event N) or <code>#nodes=N</code> (after N nodes) to the address.</p>
<p id="guide-note" aria-live="polite" hidden></p>
</nav>
<main id="lanes">
"#;

/// The legend and notes under the lanes, up to the data's script element.
const FOOTER: &str = r#"</main>
<footer>
<p class="legend"><span class="swatch pm-swatch">1 3<br>7</span> pencil marks: the digits no filled cell of its row, column or box holds (the board's own candidates, not a strategy's) · <span class="swatch given">5</span> given · <span class="swatch placed">5</span> placed by the search · <span class="swatch forced">5</span> forced (inferred) · <span class="swatch current">5</span> the current event's cell · <span class="swatch unit">&nbsp;</span> its unit · <span class="swatch failed">&nbsp;</span> what failed at a dead end</p>
<p>Search tree: one node per placement (the root is the givens), a row per chain of only children (long chains folded in the middle), branches where the search tried several options; ✗ dead end, ✓ solution, +k cells forced in the node, bold a guess. Click a node to see the board just after its placement. Side by side, "by nodes" shows each search after the same number of nodes: the same work, whatever each records per node.</p>
<p>Depth = placements minus undos: the placements on the path, whether the cell had one candidate or several (forced cells are not counted). Made by <code>sudoku-lab replay</code>; nothing on this page is fetched from the network.</p>
</footer>
<script type="application/json" id="replay-data">"#;

fn lane_html(s: &mut String, i: usize, lane: &Lane) {
    let name = escape(&lane.strategy);
    let outcome = match lane.outcome.as_str() {
        "solved" => "solved (first solution, verified)",
        "no-solution" => "no solution",
        "budget-exceeded" => "stopped: node budget exceeded",
        other => other,
    };
    let _ = writeln!(
        s,
        r#"<section class="lane" data-lane="{i}" aria-labelledby="lane{i}-name">
<h2 id="lane{i}-name">{name}</h2>
<p class="summary">{summary}</p>
<p class="outcome">Result: {outcome}; {events} events{kept}.</p>
<div class="board"></div>
<p class="event" aria-live="polite"></p>
<p class="options"></p>
<details class="tree-box" open><summary>Search tree of the events kept (click a node to see its position)</summary><div class="tree"></div></details>
<table class="counters"><caption>{name}: counters</caption>
<thead><tr><th scope="col">counter</th><th scope="col">so far</th><th scope="col">whole search</th></tr></thead>
<tbody>"#,
        summary = escape(&lane.summary),
        events = thousands(lane.total_events),
        kept = if lane.total_events > lane.events.len() as u64 {
            format!(", the first {} kept", thousands(lane.events.len() as u64))
        } else {
            String::new()
        },
    );
    for (counter, total) in lane
        .totals
        .iter()
        .map(|(n, v)| (n.as_str(), Some(*v)))
        .chain([("depth", None)])
    {
        let label = match counter {
            "depth" => "depth after it".to_string(),
            c => c.replace('_', " "),
        };
        let _ = writeln!(
            s,
            r#"<tr data-counter="{counter}"><th scope="row">{label}</th><td class="now">–</td><td>{}</td></tr>"#,
            total.map_or_else(
                || format!("deepest {}", lane.histogram.len().saturating_sub(1)),
                thousands
            ),
        );
    }
    let deepest = lane.histogram.len().saturating_sub(1);
    let widest = lane
        .histogram
        .iter()
        .enumerate()
        .max_by_key(|&(d, &n)| (n, std::cmp::Reverse(d)))
        .map_or(0, |(d, _)| d);
    let _ = writeln!(
        s,
        r#"</tbody></table>
<figure class="depth"><figcaption>Depth over time: the events kept (line) and the whole search (band, {width} events per step).</figcaption><div class="strip"></div></figure>
<figure class="histogram"><figcaption>Nodes per depth, whole search: deepest depth {deepest}, most nodes at depth {widest}.</figcaption><div class="bars"></div></figure>
</section>"#,
        width = thousands(lane.over_time_width),
    );
}
