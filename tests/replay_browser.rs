//! The replay page in a real browser: headless Chromium opens generated
//! pages at `#step=N` (and presses keys through the page's own handlers),
//! and the board it shows — every cell's value and how it was filled —, the
//! event's words and the counters so far must equal the tracer's after N
//! events ([`Position`], [`Event::describe`]), for several strategies, on
//! 4×4, 9×9 and 16×16 boards.
//!
//! Needs `chromium` (Debian's package; `.ci/run` installs it). Without it
//! the test fails when `CI` is set and says "skipped: no chromium" otherwise.
//! `SUDOKU_LAB_CHROMIUM` names another binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudoku_lab::board::Board;
use sudoku_lab::format::parse_one;
use sudoku_lab::replay;
use sudoku_lab::trace::{Event, EventKind, Fill, Position, Trace, trace};
use sudoku_lab::{BoxSize, Strategy};

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SUDOKU_LAB_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// The browser, or `None` (test skipped) when it is missing outside CI.
fn browser() -> Option<PathBuf> {
    match chromium() {
        Some(p) => Some(p),
        None if std::env::var_os("CI").is_some() => {
            panic!(
                "chromium is missing: .ci/run installs Debian's `chromium`; CI must run this test"
            )
        }
        None => {
            eprintln!(
                "skipped: no chromium (install Debian's `chromium` to run the replay page test)"
            );
            None
        }
    }
}

/// The page's DOM after loading `page#fragment`.
fn dump(browser: &Path, page: &Path, fragment: &str) -> String {
    let profile = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}#{fragment}", page.display());
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        dom.contains(r#"data-ready="1""#),
        "{url}: the page's script did not finish (status {:?})\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    dom
}

/// The attributes of an HTML start tag's text (`name="value"` pairs).
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].rsplit(char::is_whitespace).next().unwrap_or("");
        let after = &rest[eq + 2..];
        let end = after.find('"').expect("closing quote");
        out.push((name.to_string(), unescape(&after[..end])));
        rest = &after[end + 1..];
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The text between `open` and the next `</span>` or `</td>`.
fn text_after<'a>(html: &'a str, open: &str) -> Option<&'a str> {
    let start = html.find(open)? + open.len();
    let rest = &html[start..];
    let end = rest.find("</").unwrap_or(rest.len());
    Some(&rest[..end])
}

/// What one lane of the dumped page shows.
#[derive(Debug, PartialEq)]
struct Shown {
    step: usize,
    values: Vec<u8>,
    fills: Vec<&'static str>,
    what: String,
    counters: Vec<(String, u64)>,
}

const COUNTERS: [&str; 8] = [
    "nodes",
    "placements",
    "backtracks",
    "probes",
    "guesses",
    "dead_ends",
    "forced",
    "depth",
];

fn shown(dom: &str, lanes: usize) -> Vec<Shown> {
    let parts: Vec<&str> = dom.split(r#"<section class="lane""#).skip(1).collect();
    assert_eq!(parts.len(), lanes, "one section per strategy");
    parts
        .iter()
        .map(|html| {
            let head = &html[..html.find('>').expect("section tag")];
            let step = attributes(head)
                .into_iter()
                .find(|(k, _)| k == "data-step")
                .expect("data-step")
                .1
                .parse()
                .expect("step");
            let (mut values, mut fills) = (Vec::new(), Vec::new());
            for td in html.split("<td ").skip(1) {
                let tag = &td[..td.find('>').expect("td tag")];
                let attrs = attributes(tag);
                let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                if get("data-cell").is_none() {
                    continue;
                }
                values.push(get("data-v").expect("data-v").parse().expect("value"));
                fills.push(match get("data-fill").expect("data-fill").as_str() {
                    "empty" => "empty",
                    "given" => "given",
                    "placed" => "placed",
                    "forced" => "forced",
                    other => panic!("unknown fill {other}"),
                });
            }
            let what = unescape(text_after(html, r#"<span class="what">"#).expect("event text"));
            let counters = COUNTERS
                .iter()
                .map(|c| {
                    let row = &html[html
                        .find(&format!(r#"data-counter="{c}""#))
                        .expect("counter row")..];
                    let now = text_after(row, r#"<td class="now">"#).expect("so far");
                    (c.to_string(), now.replace(',', "").parse().expect("count"))
                })
                .collect();
            Shown {
                step,
                values,
                fills,
                what,
                counters,
            }
        })
        .collect()
}

/// What the tracer says after the first `n` events.
fn expected(puzzle: &Board, t: &Trace, n: usize) -> Shown {
    let events = t.tracer.events();
    let n = n.min(events.len());
    let p = Position::after(puzzle, events, n);
    let count = |f: fn(&Event) -> bool| events[..n].iter().filter(|e| f(e)).count() as u64;
    let placements = count(|e| matches!(e.kind, EventKind::Place { .. }));
    let backtracks = count(|e| matches!(e.kind, EventKind::Backtrack { .. }));
    let last = n.checked_sub(1).map(|i| &events[i]);
    let counters = vec![
        ("nodes", last.map_or(0, |e| e.nodes)),
        ("placements", placements),
        ("backtracks", backtracks),
        ("probes", last.map_or(0, |e| e.probes)),
        (
            "guesses",
            count(|e| matches!(e.kind, EventKind::Place { guess: true, .. })),
        ),
        (
            "dead_ends",
            count(|e| matches!(e.kind, EventKind::DeadEnd(_))),
        ),
        (
            "forced",
            count(|e| matches!(e.kind, EventKind::Forced { .. })),
        ),
        ("depth", placements - backtracks),
    ];
    Shown {
        step: n,
        values: p.values().to_vec(),
        fills: p
            .fills()
            .iter()
            .map(|f| match f {
                Fill::Empty => "empty",
                Fill::Given => "given",
                Fill::Placed => "placed",
                Fill::Forced => "forced",
            })
            .collect(),
        what: last.map_or("start".to_string(), |e| e.describe(puzzle.geometry())),
        counters: counters
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    }
}

struct Case {
    puzzle: Board,
    traces: Vec<Trace>,
    page: PathBuf,
    _dir: tempfile::TempDir,
}

fn case(line: &str, strategies: &[Strategy], budget: Option<u64>, steps: usize) -> Case {
    let puzzle = parse_one(line).expect("puzzle parses").1.board;
    let traces: Vec<Trace> = strategies
        .iter()
        .map(|&s| trace(s, &puzzle, budget, steps).expect("verified"))
        .collect();
    let page = replay::page("test", &puzzle, &traces, steps);
    let html = replay::html(&page);
    assert!(html.len() <= page.bound, "{} > {}", html.len(), page.bound);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("replay.html");
    std::fs::write(&path, html).expect("page written");
    Case {
        puzzle,
        traces,
        page: path,
        _dir: dir,
    }
}

/// Opens the page at `fragment` and compares every lane with the tracer
/// after `n` events.
fn check(browser: &Path, c: &Case, fragment: &str, n: usize) {
    let dom = dump(browser, &c.page, fragment);
    let lanes = shown(&dom, c.traces.len());
    for (t, got) in c.traces.iter().zip(lanes) {
        let want = expected(&c.puzzle, t, n);
        assert_eq!(got, want, "{} at #{fragment}", t.strategy);
    }
}

const TINY: &str = "1.....3..4.....2";
const ANTI: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
const ESCARGOT: &str =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

#[test]
fn four_by_four_every_step_kind() {
    let Some(b) = browser() else { return };
    let c = case(
        TINY,
        &[
            Strategy::Naive,
            Strategy::Mrv,
            Strategy::Propagate,
            Strategy::Dlx,
        ],
        None,
        100,
    );
    for n in [0, 3, 10, 21] {
        check(&b, &c, &format!("step={n}"), n);
    }
    // The keyboard, through the page's own handlers: 10 → 11 → 12 → 11.
    check(&b, &c, "step=10&keys=ArrowRight,ArrowRight,ArrowLeft", 11);
    // Past the end is the end; End then one back.
    check(&b, &c, "step=999", 21);
    check(&b, &c, "step=0&keys=End,ArrowLeft", 20);
}

#[test]
fn nine_by_nine_side_by_side_and_cut_searches() {
    let Some(b) = browser() else { return };
    // naive is cut by its budget and by --steps: the page keeps 3,000 events.
    let c = case(
        ANTI,
        &[
            Strategy::Naive,
            Strategy::Bitmask,
            Strategy::Mrv,
            Strategy::Propagate,
            Strategy::Dlx,
            Strategy::Fast,
        ],
        Some(100_000),
        3_000,
    );
    assert!(c.traces[0].tracer.truncated());
    for n in [1, 57, 1_234, 3_000] {
        check(&b, &c, &format!("step={n}"), n);
    }
    check(&b, &c, "step=1500&keys=PageUp,ArrowRight", 1_401);
}

#[test]
fn nine_by_nine_every_dead_end_and_forced_reason() {
    let Some(b) = browser() else { return };
    let strategies = [Strategy::Propagate, Strategy::Dlx, Strategy::Fast];
    let c = case(ESCARGOT, &strategies, None, 20_000);
    // For each lane, the first event of each kind and reason: the page must
    // word it exactly as the tracer does.
    let mut steps = std::collections::BTreeSet::new();
    for t in &c.traces {
        let mut seen = std::collections::HashSet::new();
        for e in t.tracer.events() {
            if seen.insert(reason(&e.kind)) {
                steps.insert(e.step as usize);
            }
        }
    }
    assert!(steps.len() >= 8, "{steps:?}");
    for n in steps.into_iter().take(16) {
        check(&b, &c, &format!("step={n}"), n);
    }
}

/// The kind of an event and of its reason (unit kinds apart).
fn reason(kind: &EventKind) -> String {
    use sudoku_lab::trace::{Branch, DeadEnd, Reason};
    match kind {
        EventKind::Place { branch, .. } => match branch {
            Branch::Cell { digits, rivals, .. } => format!(
                "place cell {} {:?}",
                digits.count_ones() > 1,
                rivals.map(|r| (r.ties > 0, r.next > 0))
            ),
            Branch::Digit { unit, places, .. } => {
                format!("place {} {}", unit.kind, places.count_ones() > 1)
            }
            Branch::Unstated => "place".into(),
        },
        EventKind::Forced { reason, .. } => match reason {
            Reason::HiddenSingle(u) => format!("hidden {}", u.kind),
            Reason::BandFilter { .. } => "band filter".into(),
            r => format!("{r:?}"),
        },
        EventKind::DeadEnd(why) => match why {
            DeadEnd::Digit { unit, .. } => format!("no place {}", unit.kind),
            DeadEnd::Clash { .. } => "clash".into(),
            DeadEnd::Cell(_) => "no candidate".into(),
            w => format!("{w:?}"),
        },
        k => format!("{k:?}")
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

#[test]
fn sixteen_by_sixteen() {
    let Some(b) = browser() else { return };
    // A patterned full grid with 40% of its cells blanked (as tests/trace.rs).
    let (bs, n) = (4, 16);
    let line: String = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            if (r * 7 + c * 3) % 5 < 2 {
                '.'
            } else {
                let v = (bs * (r % bs) + r / bs + c) % n + 1;
                char::from_digit(v as u32, 36).unwrap().to_ascii_uppercase()
            }
        })
        .collect();
    let c = case(&line, &[Strategy::Mrv, Strategy::Propagate], None, 500);
    assert_eq!(c.puzzle.size(), BoxSize::new(4).unwrap());
    for n in [5, 500] {
        check(&b, &c, &format!("step={n}"), n);
    }
}

/// The largest page `replay` writes: `--steps` at its maximum, a search
/// longer than that (the anti-backtracking puzzle under `bitmask`). The
/// first version built it with `Math.max(...events)` and overflowed the
/// call stack above about 130,000 events: empty boards, controls hidden.
#[test]
fn the_maximum_steps_renders() {
    let Some(b) = browser() else { return };
    let c = case(ANTI, &[Strategy::Bitmask], None, replay::MAX_STEPS);
    assert!(
        c.traces[0].tracer.truncated(),
        "the search must be longer than the page keeps"
    );
    assert_eq!(c.traces[0].tracer.events().len(), replay::MAX_STEPS);
    for n in [replay::MAX_STEPS, 150_000, 1] {
        check(&b, &c, &format!("step={n}"), n);
    }
}

/// The index (1-based step) of the first event at or after `from` + 1 that
/// `is` accepts, in any lane: what the page's jump buttons must reach.
fn next_event(c: &Case, from: usize, is: impl Fn(&EventKind) -> bool) -> usize {
    c.traces
        .iter()
        .filter_map(|t| {
            t.tracer
                .events()
                .iter()
                .skip(from)
                .position(|e| is(&e.kind))
                .map(|i| from + i + 1)
        })
        .min()
        .expect("such an event")
}

#[test]
fn jumps_to_the_next_guess_dead_end_and_solution() {
    let Some(b) = browser() else { return };
    let c = case(
        ESCARGOT,
        &[Strategy::Mrv, Strategy::Propagate],
        None,
        20_000,
    );
    let guess = |k: &EventKind| matches!(k, EventKind::Place { guess: true, .. });
    let dead = |k: &EventKind| matches!(k, EventKind::DeadEnd(_));
    let solution = |k: &EventKind| matches!(k, EventKind::Solution);
    let g1 = next_event(&c, 0, guess);
    let g2 = next_event(&c, g1, guess);
    check(&b, &c, "step=0&keys=g", g1);
    check(&b, &c, "step=0&keys=g,g", g2);
    check(&b, &c, "step=0&keys=d", next_event(&c, 0, dead));
    check(
        &b,
        &c,
        &format!("step={g2}&keys=d"),
        next_event(&c, g2, dead),
    );
    check(&b, &c, "step=0&keys=s", next_event(&c, 0, solution));
}
