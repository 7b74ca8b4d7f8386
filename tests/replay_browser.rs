//! The replay page in a real browser: headless Chromium opens generated
//! pages at `#step=N` or `#nodes=N` (and presses keys, clicks tree nodes,
//! through the page's own handlers), and the board it shows — every cell's
//! value, how it was filled, its pencil marks —, the event's words, the
//! counters so far and the tree node it marks must equal the tracer's after
//! N events ([`Position`], [`Event::describe`], [`Tree`]), for several
//! strategies, on 4×4, 9×9 and 16×16 boards. Screenshots are checked by
//! size and by a few pixels (pencil marks drawn, the current cell and tree
//! node highlighted).
//!
//! Needs `chromium` (Debian's package; `.ci/run` installs it). Without it
//! the test fails when `CI` is set and says "skipped: no chromium" otherwise.
//! `SUDOKU_LAB_CHROMIUM` names another binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use sudoku_lab::analysis::{Event, EventKind, Fill, Position, Trace, Tree, trace};
use sudoku_lab::base::Board;
use sudoku_lab::base::format::parse_one;
use sudoku_lab::export as replay;
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

/// Flags for every headless run: nothing fetched, nothing synced.
const HEADLESS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// The page's DOM after loading `page#fragment`. The page's script runs
/// while the page loads (no timers): the DOM is final when Chromium dumps
/// it at the load event.
fn dump(browser: &Path, page: &Path, fragment: &str) -> String {
    let profile = tempfile::tempdir().expect("temp dir");
    let url = format!("file://{}#{fragment}", page.display());
    let out = Command::new(browser)
        .args(HEADLESS)
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

/// A live page, driven over the DevTools protocol on a pipe (Chromium's
/// `--remote-debugging-pipe`: fd 3 in, fd 4 out, messages ended by NUL), for
/// what a single dump cannot show: the page while it plays (polled until
/// it pauses, never timed) and screenshots.
struct Live {
    child: std::process::Child,
    to: std::fs::File,
    from: std::io::BufReader<std::fs::File>,
    session: String,
    id: u64,
    _dir: tempfile::TempDir,
}

/// Viewport of the screenshots, in CSS pixels (one device pixel each).
const VIEW: (u32, u32) = (1400, 1800);

impl Live {
    fn open(browser: &Path, page: &Path, fragment: &str) -> Live {
        let dir = tempfile::tempdir().expect("temp dir");
        let (fin, fout) = (dir.path().join("in"), dir.path().join("out"));
        for f in [&fin, &fout] {
            let ok = Command::new("mkfifo").arg(f).status().expect("mkfifo runs");
            assert!(ok.success(), "mkfifo {}", f.display());
        }
        let url = format!("file://{}#{fragment}", page.display());
        // The shell opens fd 3 (reading `in`), then fd 4 (writing `out`),
        // each blocking until this side opens the other end, in that order.
        let child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$@" 3<"$IN" 4>"$OUT""#)
            .arg("sh")
            .arg(browser)
            .args(HEADLESS)
            .arg("--remote-debugging-pipe")
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .arg(format!("--window-size={},{}", VIEW.0, VIEW.1))
            .arg("--force-device-scale-factor=1")
            .arg(&url)
            .env("IN", &fin)
            .env("OUT", &fout)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromium starts");
        let to = std::fs::OpenOptions::new()
            .write(true)
            .open(&fin)
            .expect("pipe in");
        let from = std::io::BufReader::new(std::fs::File::open(&fout).expect("pipe out"));
        let mut live = Live {
            child,
            to,
            from,
            session: String::new(),
            id: 0,
            _dir: dir,
        };
        // The page target the URL opened (it may take a moment to appear).
        let target = live.poll("the page target", |l| {
            let r = l.call("Target.getTargets", serde_json::json!({}));
            r["targetInfos"]
                .as_array()
                .and_then(|ts| ts.iter().find(|t| t["type"] == "page"))
                .and_then(|t| t["targetId"].as_str().map(String::from))
        });
        let r = live.call(
            "Target.attachToTarget",
            serde_json::json!({ "targetId": target, "flatten": true }),
        );
        live.session = r["sessionId"].as_str().expect("a session").to_string();
        live.call(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": VIEW.0, "height": VIEW.1, "deviceScaleFactor": 1, "mobile": false }),
        );
        live.poll("the page's script", |l| {
            (l.eval("document.body && document.body.dataset.ready") == "1").then_some(())
        });
        live
    }

    /// One protocol call (to the page once attached); its result.
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        use std::io::{BufRead as _, Write as _};
        self.id += 1;
        let mut msg = serde_json::json!({ "id": self.id, "method": method, "params": params });
        if !self.session.is_empty() {
            msg["sessionId"] = self.session.clone().into();
        }
        let mut bytes = serde_json::to_vec(&msg).expect("json");
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to chromium");
        loop {
            let mut buf = Vec::new();
            let n = self
                .from
                .read_until(0, &mut buf)
                .expect("read from chromium");
            assert!(n > 0, "chromium closed the pipe during {method}");
            buf.pop();
            let reply: serde_json::Value = serde_json::from_slice(&buf).expect("a JSON message");
            // Events have no id; replies to this call carry its id.
            if reply["id"] == self.id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// A script's value, as a JSON value.
    fn eval(&mut self, js: &str) -> serde_json::Value {
        let r = self.call(
            "Runtime.evaluate",
            serde_json::json!({ "expression": js, "returnByValue": true }),
        );
        assert!(r.get("exceptionDetails").is_none(), "{js}: {r}");
        r["result"]["value"].clone()
    }

    /// Asks `ready` again until it answers (every 50 ms; gives up after a
    /// minute, a bound for a broken page, not a time measured).
    fn poll<T>(&mut self, what: &str, mut ready: impl FnMut(&mut Live) -> Option<T>) -> T {
        for _ in 0..1200 {
            if let Some(v) = ready(self) {
                return v;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("waited a minute for {what}");
    }

    /// The viewport as RGB pixels: (width, height, bytes).
    fn screenshot(&mut self) -> (u32, u32, Vec<u8>) {
        let r = self.call(
            "Page.captureScreenshot",
            serde_json::json!({ "format": "png" }),
        );
        let png = base64(r["data"].as_str().expect("screenshot data"));
        assert!(
            png.len() > 10_000,
            "a screenshot of a page, {} bytes",
            png.len()
        );
        let mut decoder = png::Decoder::new(png.as_slice());
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let samples = info.color_type.samples();
        let rgb = buf[..info.buffer_size()]
            .chunks(samples)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        (info.width, info.height, rgb)
    }

    /// An element's box in CSS pixels: (x, y, width, height).
    fn rect(&mut self, selector: &str) -> (u32, u32, u32, u32) {
        let js = format!(
            "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); \
             return [r.left, r.top, r.width, r.height].map(Math.round); }})()",
            serde_json::to_string(selector).expect("json")
        );
        let v = self.eval(&js);
        let n = |i: usize| v[i].as_u64().unwrap_or_else(|| panic!("{selector}: {v}")) as u32;
        (n(0), n(1), n(2), n(3))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|q| {
            let n = q.iter().fold(0u32, |n, &d| n << 6 | d as u32) << (6 * (4 - q.len()));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(q.len() - 1)
        })
        .collect()
}

/// Pixels of a box (inset by `inset`) that `is` accepts, as a fraction.
fn share(
    shot: &(u32, u32, Vec<u8>),
    r: (u32, u32, u32, u32),
    inset: u32,
    is: impl Fn([u8; 3]) -> bool,
) -> f64 {
    let (w, _, px) = shot;
    let (mut yes, mut all) = (0, 0);
    for y in r.1 + inset..r.1 + r.3 - inset {
        for x in r.0 + inset..r.0 + r.2 - inset {
            let i = 3 * (y * w + x) as usize;
            all += 1;
            if is([px[i], px[i + 1], px[i + 2]]) {
                yes += 1;
            }
        }
    }
    yes as f64 / all.max(1) as f64
}

const fn dark(p: [u8; 3]) -> bool {
    (p[0] as u32 + p[1] as u32 + p[2] as u32) < 3 * 140
}

/// The highlight of the current cell and tree node (`--current: #ffd84d`).
const fn yellow(p: [u8; 3]) -> bool {
    p[0] > 230 && p[1] > 190 && p[2] < 140
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
    /// The tree node the lane is in (0 the root; one per placement, in order).
    node: usize,
    values: Vec<u8>,
    fills: Vec<&'static str>,
    /// Pencil marks: per cell the digits no filled peer holds (0 if filled).
    cands: Vec<u32>,
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
            let attr = |name: &str| -> usize {
                attributes(head)
                    .into_iter()
                    .find(|(k, _)| k == name)
                    .unwrap_or_else(|| panic!("{name}"))
                    .1
                    .parse()
                    .expect("a number")
            };
            let (step, node) = (attr("data-step"), attr("data-node"));
            let (mut values, mut fills, mut cands) = (Vec::new(), Vec::new(), Vec::new());
            for td in html.split("<td ").skip(1) {
                let tag = &td[..td.find('>').expect("td tag")];
                let attrs = attributes(tag);
                let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
                if get("data-cell").is_none() {
                    continue;
                }
                values.push(get("data-v").expect("data-v").parse().expect("value"));
                cands.push(
                    get("data-cands")
                        .expect("data-cands")
                        .parse()
                        .expect("mask"),
                );
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
                node,
                values,
                fills,
                cands,
                what,
                counters,
            }
        })
        .collect()
}

/// A guess: a placement made with other options, or a way chosen among
/// others (`fast-triads`).
fn is_guess(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Place { guess: true, .. } | EventKind::Way { guess: true, .. }
    )
}

/// What the tracer says after the first `n` events.
fn expected(puzzle: &Board, t: &Trace, n: usize) -> Shown {
    let events = t.tracer.events();
    let n = n.min(events.len());
    let p = Position::after(puzzle, events, n);
    let count = |f: fn(&Event) -> bool| events[..n].iter().filter(|e| f(e)).count() as u64;
    let placements = count(|e| matches!(e.kind, EventKind::Place { .. }));
    let backtracks = count(|e| matches!(e.kind, EventKind::Backtrack { .. }));
    // A way is a level of depth and no placement (`fast-triads`).
    let ways = count(|e| matches!(e.kind, EventKind::Way { .. }))
        - count(|e| matches!(e.kind, EventKind::WayBack { .. }));
    let last = n.checked_sub(1).map(|i| &events[i]);
    let counters = vec![
        ("nodes", last.map_or(0, |e| e.nodes)),
        ("placements", placements),
        ("backtracks", backtracks),
        ("probes", last.map_or(0, |e| e.probes)),
        ("guesses", count(|e| is_guess(&e.kind))),
        (
            "dead_ends",
            count(|e| matches!(e.kind, EventKind::DeadEnd(_))),
        ),
        (
            "forced",
            count(|e| matches!(e.kind, EventKind::Forced { .. })),
        ),
        ("depth", placements - backtracks + ways),
    ];
    Shown {
        step: n,
        node: node_after(&events[..n]),
        cands: candidates(puzzle, p.values()),
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

/// The tree node a search is in after `events`: as [`Tree::build`] numbers
/// them (the root 0, then one per placement or way in order), the top of
/// the path.
fn node_after(events: &[Event]) -> usize {
    let mut path = vec![0];
    let mut made = 0;
    for e in events {
        match e.kind {
            EventKind::Place { .. } | EventKind::Way { .. } => {
                made += 1;
                path.push(made);
            }
            EventKind::Backtrack { .. } | EventKind::WayBack { .. } if path.len() > 1 => {
                path.pop();
            }
            _ => {}
        }
    }
    let tree = Tree::build(events);
    assert_eq!(tree.nodes.len(), made + 1, "one node per placement or way");
    *path.last().expect("the root")
}

/// Pencil marks of a board: for each empty cell, the digits (bit d-1) that
/// no filled cell of its row, column or box holds; 0 for a filled cell.
fn candidates(puzzle: &Board, values: &[u8]) -> Vec<u32> {
    let n = puzzle.size().side();
    let b = puzzle.size().box_size();
    let peers = |i: usize, j: usize| {
        let (r1, c1, r2, c2) = (i / n, i % n, j / n, j % n);
        r1 == r2 || c1 == c2 || (r1 / b == r2 / b && c1 / b == c2 / b)
    };
    (0..n * n)
        .map(|i| {
            if values[i] != 0 {
                return 0;
            }
            let used = (0..n * n)
                .filter(|&j| values[j] != 0 && peers(i, j))
                .fold(0u32, |m, j| m | 1 << (values[j] - 1));
            !used & ((1u32 << n) - 1)
        })
        .collect()
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
    check_each(browser, c, fragment, &vec![n; c.traces.len()]);
}

/// Opens the page at `fragment` and compares lane `i` with its tracer after
/// `steps[i]` events; the DOM, for more checks.
fn check_each(browser: &Path, c: &Case, fragment: &str, steps: &[usize]) -> String {
    let dom = dump(browser, &c.page, fragment);
    let lanes = shown(&dom, c.traces.len());
    for ((t, got), &n) in c.traces.iter().zip(lanes).zip(steps) {
        let want = expected(&c.puzzle, t, n);
        assert_eq!(got, want, "{} at #{fragment}", t.strategy);
    }
    dom
}

/// The events of a lane whose nodes so far are at most `nodes`: where a
/// lane stands when lanes are aligned by node.
fn step_at_nodes(t: &Trace, nodes: u64) -> usize {
    t.tracer
        .events()
        .iter()
        .take_while(|e| e.nodes <= nodes)
        .count()
}

/// A selector in a URL fragment (`"`, spaces and brackets percent-encoded).
fn encoded(selector: &str) -> String {
    selector
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

const TINY: &str = "1.....3..4.....2";
const ANTI: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
const PLATINUM: &str =
    ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...";
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

/// `fast-triads` guesses by keeping one way of a digit through a band or
/// stack: no cell is written, a tree node is entered, and the way's undo
/// clears what was forced under it. The page must replay and word every
/// kind of its events as the tracer does, jump to a way that is a guess,
/// and stop at its teaching moments.
#[test]
fn ways_of_fast_triads() {
    use sudoku_lab::analysis::DeadEnd;
    let Some(b) = browser() else { return };
    // Platinum Blonde: ways undone, and a dead end of four digits crowding
    // three cells.
    let c = case(
        PLATINUM,
        &[Strategy::FastTriads, Strategy::Fast],
        None,
        20_000,
    );
    let events = c.traces[0].tracer.events();
    let mut steps = std::collections::BTreeSet::new();
    let mut seen = std::collections::HashSet::new();
    for e in events {
        if seen.insert(reason(&e.kind)) {
            steps.insert(e.step as usize);
        }
    }
    let first =
        |is: fn(&EventKind) -> bool| events.iter().find(|e| is(&e.kind)).map(|e| e.step as usize);
    let way = first(|k| matches!(k, EventKind::Way { guess: true, .. })).expect("a way guessed");
    let crowded = first(|k| matches!(k, EventKind::DeadEnd(DeadEnd::Crowded { .. })))
        .expect("four digits crowding three cells");
    let back = first(|k| matches!(k, EventKind::WayBack { .. })).expect("a way undone");
    // The first undo of a way that clears cells forced under it.
    let clears = events
        .iter()
        .enumerate()
        .find(|(i, e)| {
            matches!(e.kind, EventKind::WayBack { .. })
                && matches!(events[i - 1].kind, EventKind::DeadEnd(_))
                && events[..*i]
                    .iter()
                    .rev()
                    .take_while(|p| !matches!(p.kind, EventKind::Way { .. }))
                    .any(|p| matches!(p.kind, EventKind::Forced { .. }))
        })
        .map(|(i, _)| i + 1)
        .expect("a way undone with cells forced under it");
    steps.extend([way, back, crowded, clears, clears - 1, events.len()]);
    for n in steps {
        check_each(&b, &c, &format!("step={n}"), &[n, n]);
    }
    // The jump to the next guess stops at the earlier of the two lanes'
    // first guesses (a way for fast-triads, a cell for fast).
    let g1 = next_event(&c, 0, is_guess);
    check_each(&b, &c, "step=0&keys=g", &[g1, g1]);
    // Guided: the way's moments are in the list, in order.
    let all = moments(&c, false);
    for k in 1..=all.len().min(4) {
        let keys = vec!["n"; k].join(",");
        let (_, _, step, _) = &all[k - 1];
        check_each(&b, &c, &format!("step=0&keys={keys}"), &[*step, *step]);
    }
}

/// The kind of an event and of its reason (unit kinds apart; never the
/// digits or cells, so each kind is one class).
fn reason(kind: &EventKind) -> String {
    use sudoku_lab::analysis::{Branch, DeadEnd, Reason};
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
            Branch::Ways { .. } | Branch::Unstated => "place".into(),
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
            DeadEnd::Chute { .. } => "no way through a chute".into(),
            DeadEnd::Crowded { .. } => "crowded".into(),
            DeadEnd::Unstated => "unstated".into(),
        },
        EventKind::Way { guess, .. } => format!("way {guess}"),
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

/// Side by side, lanes are aligned by node: at `#nodes=N` each search shows
/// its events up to N nodes entered (the same work), however many events
/// each records per node; the default for several lanes.
#[test]
fn lanes_align_by_node() {
    let Some(b) = browser() else { return };
    let c = case(
        ESCARGOT,
        &[Strategy::Mrv, Strategy::Propagate],
        None,
        20_000,
    );
    let steps = |n: u64| -> Vec<usize> { c.traces.iter().map(|t| step_at_nodes(t, n)).collect() };
    // mrv records about 1.8 events per node here, propagate about 11: by
    // event index the two would be at very different depths of work.
    for n in [0, 1, 7, 16, 100] {
        let at = steps(n);
        let dom = check_each(&b, &c, &format!("nodes={n}"), &at);
        assert!(dom.contains(r#"data-align="nodes""#), "nodes={n}");
    }
    assert_ne!(
        steps(16)[0],
        steps(16)[1],
        "the alignment differs from event order"
    );
    // By node, g shows the earliest guess (by nodes; the first lane on a
    // tie) at its exact event, the other lane after as many nodes.
    let firsts: Vec<(u64, usize)> = c
        .traces
        .iter()
        .map(|t| {
            let i = t
                .tracer
                .events()
                .iter()
                .position(|e| matches!(e.kind, EventKind::Place { guess: true, .. }))
                .expect("a guess");
            (t.tracer.events()[i].nodes, i + 1)
        })
        .collect();
    let lane = if firsts[1].0 < firsts[0].0 { 1 } else { 0 };
    let mut at = steps(firsts[lane].0);
    at[lane] = firsts[lane].1;
    check_each(&b, &c, "nodes=0&keys=g", &at);
    // Keys move by one node; with no position given, two lanes align by node.
    check_each(&b, &c, "nodes=5&keys=ArrowRight,ArrowRight", &steps(7));
    let dom = check_each(&b, &c, "", &steps(0));
    assert!(dom.contains(r#"data-align="nodes""#));
}

/// The tree view is linked to the board: clicking a node shows the board
/// just after the placement that entered it (in every lane by event; in its
/// own lane exactly, the others aligned by node), and marks it.
#[test]
fn a_tree_node_click_shows_its_position() {
    let Some(b) = browser() else { return };
    let c = case(
        ESCARGOT,
        &[Strategy::Mrv, Strategy::Propagate],
        None,
        20_000,
    );
    let t = &c.traces[1];
    let tree = Tree::build(t.tracer.events());
    // The second option of propagate's first branching node: open at first.
    let branch = tree
        .nodes
        .iter()
        .position(|n| n.children.len() >= 2)
        .expect("a branching node");
    let node = tree.nodes[branch].children[1];
    let step = tree.nodes[node].placed.expect("a placement").step as usize;
    assert!(step > 1);
    let selector = format!(r#".lane[data-lane="1"] .tree button.node[data-node="{node}"]"#);
    let click = encoded(&selector);
    let dom = check_each(&b, &c, &format!("step=0&click={click}"), &[step, step]);
    assert!(
        dom.contains(r#"data-clicked="1""#),
        "the node is in the tree"
    );
    let lane = dom
        .split(r#"<section class="lane""#)
        .nth(2)
        .expect("lane 1");
    let button = lane
        .split("<button ")
        .skip(1)
        .find(|b| b.contains(&format!(r#"data-node="{node}""#)))
        .expect("the node's button");
    assert!(
        button[..button.find('>').unwrap()].contains("here"),
        "marked: {button}"
    );
    // Aligned by node: the clicked lane exactly at its step, the other
    // after as many nodes.
    let nodes = t.tracer.events()[step - 1].nodes;
    check_each(
        &b,
        &c,
        &format!("nodes=0&click={click}"),
        &[step_at_nodes(&c.traces[0], nodes), step],
    );
}

/// The teaching moments of the page, in order: per lane the first event
/// choosing the cell with the fewest candidates (why this cell), the first
/// guess, dead end, undo and solution (one moment when one event is
/// several); sorted by position, then lane. (lane, step, kinds)
fn moments(c: &Case, by_nodes: bool) -> Vec<(u64, usize, usize, Vec<&'static str>)> {
    let mut out = Vec::new();
    for (li, t) in c.traces.iter().enumerate() {
        let mut seen = Vec::new();
        for (i, e) in t.tracer.events().iter().enumerate() {
            use sudoku_lab::analysis::Branch;
            let tests: [(&str, bool); 5] = [
                (
                    "why",
                    matches!(
                        e.kind,
                        EventKind::Place {
                            branch: Branch::Cell {
                                rivals: Some(_),
                                ..
                            },
                            ..
                        }
                    ),
                ),
                ("guess", is_guess(&e.kind)),
                ("dead", matches!(e.kind, EventKind::DeadEnd(_))),
                (
                    "undo",
                    matches!(
                        e.kind,
                        EventKind::Backtrack { .. } | EventKind::WayBack { .. }
                    ),
                ),
                ("solution", matches!(e.kind, EventKind::Solution)),
            ];
            let kinds: Vec<&str> = tests
                .iter()
                .filter(|(k, yes)| *yes && !seen.contains(k))
                .map(|(k, _)| *k)
                .collect();
            seen.extend(kinds.iter().copied());
            if !kinds.is_empty() {
                let pos = if by_nodes { e.nodes } else { i as u64 + 1 };
                out.push((pos, li, i + 1, kinds));
            }
        }
    }
    out.sort();
    out
}

/// `n` (next teaching moment) stops at each moment in turn, each with its
/// sentence: by event, every lane at the moment's step.
#[test]
fn guided_moments_in_order() {
    let Some(b) = browser() else { return };
    let c = case(
        ESCARGOT,
        &[Strategy::Mrv, Strategy::Propagate],
        None,
        20_000,
    );
    let all = moments(&c, false);
    // mrv and propagate: why, guess, dead end, undo, solution each.
    assert!(all.len() >= 8, "{all:?}");
    for k in [1, 2, 3, all.len()] {
        let keys = vec!["n"; k].join(",");
        let (_, lane, step, kinds) = &all[k - 1];
        let dom = check_each(&b, &c, &format!("step=0&keys={keys}"), &[*step, *step]);
        let note = &dom[dom.find(r#"id="guide-note""#).expect("the note")..];
        let tag = &note[..note.find('>').unwrap()];
        assert!(
            tag.contains(&format!(r#"data-kinds="{}""#, kinds.join(" "))),
            "{k}: {tag}"
        );
        assert!(
            tag.contains(&format!(r#"data-lane="{lane}""#)),
            "{k}: {tag}"
        );
        let text = &note[note.find('>').unwrap() + 1..note.find("</p>").unwrap()];
        let who = c.traces[*lane].strategy.name();
        let label = if kinds.contains(&"guess") {
            "first guess"
        } else {
            match kinds[0] {
                "why" => "why this cell",
                "dead" => "first dead end",
                "undo" => "first backtrack",
                _ => "solution",
            }
        };
        assert!(text.starts_with(&format!("{who}, {label}: ")), "{text}");
        assert!(
            text.ends_with('.') && !text.contains(". "),
            "one sentence: {text}"
        );
    }
}

/// Guided play pauses at each teaching moment: polled in a live page (never
/// timed), it stops at the first, then, played on, at the second; by node,
/// the moment's lane at its exact event and the other aligned.
#[test]
fn guided_play_pauses_at_moments() {
    let Some(b) = browser() else { return };
    let c = case(
        ESCARGOT,
        &[Strategy::Mrv, Strategy::Propagate],
        None,
        20_000,
    );
    let all = moments(&c, true);
    let mut live = Live::open(&b, &c.page, "nodes=0");
    live.eval(r#"document.getElementById("speed").value = "250"; 0"#);
    // t: guided on, and play.
    live.eval(r#"document.dispatchEvent(new KeyboardEvent("keydown", { key: "t" })); 0"#);
    for (k, (nodes, lane, step, kinds)) in all.iter().take(3).enumerate() {
        live.poll("a teaching moment", |l| {
            let v = l.eval(
                r#"[document.body.dataset.moment, document.getElementById("play").getAttribute("aria-label")]"#,
            );
            (v[0].as_str() == Some(k.to_string().as_str()) && v[1] == "Play").then_some(())
        });
        let v = live.eval(
            r#"[...document.querySelectorAll(".lane")].map((s) => Number(s.dataset.step)).concat([Number(document.body.dataset.pos)], [document.getElementById("guide-note").dataset.kinds])"#,
        );
        let other = 1 - lane;
        assert_eq!(v[*lane], *step as u64, "moment {k}: {kinds:?}");
        assert_eq!(
            v[other],
            step_at_nodes(&c.traces[other], *nodes) as u64,
            "moment {k}: the other lane aligned"
        );
        assert_eq!(v[2], *nodes, "moment {k}");
        assert_eq!(v[3], kinds.join(" "), "moment {k}");
        // Paused: still there a moment later (a poll, not a timing).
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(live.eval("document.body.dataset.pos"), nodes.to_string());
        // Play on.
        live.eval(r#"document.getElementById("play").click(); 0"#);
    }
}

/// Screenshots: the viewport's size, pencil marks drawn in an empty cell
/// (dark pixels inside it, none once hidden), the current cell and the
/// current tree node highlighted.
#[test]
fn screenshots_show_pencil_marks_and_highlights() {
    let Some(b) = browser() else { return };
    let c = case(ESCARGOT, &[Strategy::Mrv], None, 20_000);
    let n = 40;
    let mut live = Live::open(&b, &c.page, &format!("step={n}"));
    let shot = live.screenshot();
    assert_eq!((shot.0, shot.1), VIEW, "the viewport");
    let p = Position::after(&c.puzzle, c.traces[0].tracer.events(), n);
    let cands = candidates(&c.puzzle, p.values());
    let empty = (0..81)
        .find(|&i| cands[i].count_ones() >= 2 && i < 45)
        .expect("an empty cell with two candidates in the top rows");
    let cell = live.rect(&format!(r#"td[data-cell="{empty}"]"#));
    let marks = share(&shot, cell, 3, dark);
    assert!(marks > 0.02, "pencil marks drawn in cell {empty}: {marks}");
    let current = live.rect("td.current");
    let lit = share(&shot, current, 3, yellow);
    assert!(lit > 0.3, "the current cell is highlighted: {lit}");
    let node = live.rect(".tree .here");
    let lit = share(&shot, node, 2, yellow);
    assert!(lit > 0.2, "the current tree node is highlighted: {lit}");
    // p hides the pencil marks: the empty cell is blank inside.
    live.eval(r#"document.dispatchEvent(new KeyboardEvent("keydown", { key: "p" })); 0"#);
    let hidden = live.screenshot();
    let marks = share(&hidden, cell, 3, dark);
    assert_eq!(marks, 0.0, "no pencil marks once hidden");
    let same = share(&hidden, current, 3, yellow);
    assert!(same > 0.3);
}
