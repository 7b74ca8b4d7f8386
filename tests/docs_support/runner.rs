//! Re-running the tour's blocks: check mode compares, update mode rewrites.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use super::check::{self, MACHINE, MACHINE_NOTE};
use super::facts;
use super::markdown::{Block, Doc};
use super::times;
use super::{Kind, Problem, root};

pub const SHARED_VAR: &str = "SUDOKU_LAB_SHARED";

/// A block with more documented work than this (nodes, summed over its
/// rows) is heavy: checked by the release-only test.
pub const LIGHT_WORK: u64 = 400_000;

/// What one command did.
#[derive(Clone, Debug)]
pub struct Run {
    pub code: Option<i32>,
    /// Standard output, then standard error, trimmed at the end.
    pub output: String,
}

/// Runs blocks, each distinct command once per process.
pub struct Runner {
    bin: String,
    shared: Result<Option<String>, String>,
    cache: Mutex<HashMap<String, Run>>,
    tmp: PathBuf,
}

/// Figures of a page and the files a run wrote them to.
pub type Figures = Vec<(String, PathBuf)>;
/// A block's run and the figures it wrote.
pub type Ran = (Run, Figures);

/// Why a block was not run.
#[derive(Debug)]
pub enum Skip {
    /// It reads the public corpora and `SUDOKU_LAB_SHARED` is not set (nor `CI`).
    NoShared,
}

impl Runner {
    pub fn new(bin: &str, tmp: &Path) -> Runner {
        let shared = match std::env::var(SHARED_VAR) {
            Ok(dir) => Ok(Some(dir)),
            Err(_) if std::env::var_os("CI").is_some() => Err(format!(
                "CI is set but {SHARED_VAR} is not: cannot check the blocks that read the public corpora"
            )),
            Err(_) => Ok(None),
        };
        Runner {
            bin: bin.to_string(),
            shared,
            cache: Mutex::new(HashMap::new()),
            tmp: tmp.to_path_buf(),
        }
    }

    /// The arguments of a block's command: the corpora's folder filled in
    /// and, in check mode, figures redirected from `docs/img/` to a scratch
    /// folder (pairs of page figure and file written come back too).
    fn args(
        &self,
        block: &Block,
        update: bool,
    ) -> Result<Result<(Vec<String>, Figures), Skip>, String> {
        let shared = match (&self.shared, block.command.contains(SHARED_VAR)) {
            (_, false) => None,
            (Ok(Some(d)), true) => Some(d.clone()),
            (Ok(None), true) => return Ok(Err(Skip::NoShared)),
            (Err(e), true) => return Err(e.clone()),
        };
        let mut figures = Vec::new();
        let args = split_args(&block.command)
            .into_iter()
            .map(|a| {
                let a = match &shared {
                    Some(dir) => a.replace(&format!("${SHARED_VAR}"), dir),
                    None => a,
                };
                if !update && a.starts_with("docs/img/") {
                    let path = self.tmp.join(a.replace('/', "_"));
                    figures.push((a, path.clone()));
                    path.to_string_lossy().into_owned()
                } else {
                    a
                }
            })
            .collect();
        Ok(Ok((args, figures)))
    }

    /// Runs a block's command from the project root (each distinct command
    /// once). In check mode, figures it would write under `docs/img/` go to
    /// a scratch folder instead, and come back for comparison.
    pub fn run(&self, block: &Block, update: bool) -> Result<Result<Ran, Skip>, String> {
        let (args, figures) = match self.args(block, update)? {
            Ok(a) => a,
            Err(skip) => return Ok(Err(skip)),
        };
        let key = format!("{:?}\u{0}{}", block.example, args.join("\u{0}"));
        let cached = self.cache.lock().expect("cache").get(&key).cloned();
        let run = match cached {
            Some(r) => r,
            None => {
                let r = self.execute(block, &args)?;
                self.cache.lock().expect("cache").insert(key, r.clone());
                r
            }
        };
        Ok(Ok((named(run, &figures), figures)))
    }

    /// Runs a block's command again and keeps, for every later use of the
    /// command, whichever of the two runs took less time in all:
    /// interference from other processes only ever adds time, so the faster
    /// run is the better estimate.
    pub fn rerun_keep_faster(&self, block: &Block, update: bool) -> Result<Run, String> {
        let (args, figures) = match self.args(block, update)? {
            Ok(a) => a,
            Err(Skip::NoShared) => return Err(format!("{SHARED_VAR} is not set")),
        };
        let key = format!("{:?}\u{0}{}", block.example, args.join("\u{0}"));
        let fresh = self.execute(block, &args)?;
        let mut cache = self.cache.lock().expect("cache");
        let keep = match cache.get(&key) {
            Some(old) if total_time(&old.output) <= total_time(&fresh.output) => old.clone(),
            _ => fresh,
        };
        cache.insert(key, keep.clone());
        Ok(named(keep, &figures))
    }

    /// Runs the lab (or the block's example program) from the project root:
    /// exit code, standard output then standard error (without
    /// [`sudoku_lab::BUSY_NOTE`] lines).
    fn execute(&self, block: &Block, args: &[String]) -> Result<Run, String> {
        let program = match &block.example {
            Some(name) => self.example_program(name)?,
            None => PathBuf::from(&self.bin),
        };
        let out = Command::new(&program)
            .args(args)
            .current_dir(root())
            .output()
            .map_err(|e| format!("cannot run {} {}: {e}", program.display(), block.command))?;
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        // The lab's note that a run's times may read high describes the
        // machine at that moment (load, the host's pace), not the command:
        // the pages show what the command prints on a quiet machine.
        for line in String::from_utf8_lossy(&out.stderr).split_inclusive('\n') {
            if !line.starts_with(sudoku_lab::BUSY_NOTE) {
                text.push_str(line);
            }
        }
        Ok(Run {
            code: out.status.code(),
            output: text.trim_end().to_string(),
        })
    }
}

impl Runner {
    /// The path of example `name`, built once per test process with this
    /// cargo and profile (cargo's own lines are not part of the output).
    fn example_program(&self, name: &str) -> Result<PathBuf, String> {
        static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if !built.iter().any(|b| b == name) {
            crate::example_build::build_example(root(), name)?;
            built.push(name.to_string());
        }
        // Examples sit in `examples/` beside the binary's folder.
        Ok(Path::new(&self.bin)
            .parent()
            .ok_or("the binary has no folder")?
            .join("examples")
            .join(name))
    }
}

/// A command names the file it wrote: name the page's figure instead.
fn named(mut run: Run, figures: &[(String, PathBuf)]) -> Run {
    for (page, written) in figures {
        run.output = run.output.replace(&*written.to_string_lossy(), page);
    }
    run
}

/// The sum of the times an output prints in its `time` and `total time` columns.
pub fn total_time(output: &str) -> f64 {
    facts::tables(output)
        .iter()
        .flat_map(|t| {
            ["time", "total time"]
                .iter()
                .filter_map(|c| t.column(c))
                .flat_map(move |c| {
                    t.rows
                        .iter()
                        .filter_map(move |r| r.get(c).and_then(|x| times::parse(x)))
                })
                .collect::<Vec<_>>()
        })
        .sum()
}

/// Nodes a block's documented output accounts for (its cost to re-run);
/// unbounded for blocks that read the public corpora.
pub fn work(block: &Block) -> u64 {
    if block.command.contains(SHARED_VAR) {
        return u64::MAX;
    }
    let mut total = 0u64;
    for t in facts::tables(&block.expected) {
        if let Some(n) = t.column("nodes") {
            for row in &t.rows {
                total += row.get(n).and_then(|c| facts::number(c)).unwrap_or(0.0) as u64;
            }
        }
        if let (Some(m), Some(p)) = (t.column("mean"), t.column("puzzles")) {
            for row in &t.rows {
                let mean = row.get(m).and_then(|c| facts::number(c)).unwrap_or(0.0);
                let n = row.get(p).and_then(|c| facts::number(c)).unwrap_or(0.0);
                total += (mean * n) as u64;
            }
        }
    }
    // `--budget N` with a budget-exceeded trace.
    total
}

/// Compares a block with a re-run: exit code, output (times masked),
/// times within a factor (when `times_too`), figures byte for byte.
pub fn compare(
    doc: &Doc,
    block: &Block,
    run: &Run,
    figures: &[(String, PathBuf)],
    times_too: bool,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let problem = |kind, message| Problem {
        file: doc.rel.clone(),
        line: block.command_line() + 1,
        kind,
        message,
        fix: None,
    };
    if run.code != Some(block.exit) {
        out.push(problem(
            Kind::ExitCode,
            format!(
                "`sudoku-lab {}` exits with {:?}, the page says {} (mark other codes with `console exit=N`)",
                block.command, run.code, block.exit
            ),
        ));
    }
    let (e, a) = (normalize(&block.expected), normalize(&run.output));
    if e != a {
        let first = e
            .lines()
            .zip(a.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(e.lines().count().min(a.lines().count()));
        out.push(problem(
            Kind::Output,
            format!(
                "`sudoku-lab {}` now prints something else (first difference at output line {}):\n  docs: {}\n  now:  {}",
                block.command,
                first + 1,
                e.lines().nth(first).unwrap_or("<end>"),
                a.lines().nth(first).unwrap_or("<end>")
            ),
        ));
    } else if times_too {
        let now = facts::of(&Block {
            expected: run.output.clone(),
            ..block.clone()
        });
        for (key, documented) in &facts::of(block).map {
            if !documented.time {
                continue;
            }
            if let Some(f) = now.map.get(key)
                && let Some(why) = times::live_mismatch(documented, f)
            {
                out.push(problem(Kind::StaleTime, format!("`{key}`: {why}")));
            }
        }
    }
    for (page, written) in figures {
        let committed = std::fs::read(root().join(page));
        let fresh = std::fs::read(written);
        match (committed, fresh) {
            (Ok(c), Ok(f)) if c == f => {}
            (Err(e), _) => out.push(problem(
                Kind::Figure,
                format!("{page}: cannot read the committed figure: {e}"),
            )),
            (_, Err(e)) => out.push(problem(
                Kind::Figure,
                format!("{page}: the command wrote no figure: {e}"),
            )),
            _ => out.push(problem(
                Kind::Figure,
                format!(
                    "{page} differs from what `sudoku-lab {}` draws now",
                    block.command
                ),
            )),
        }
    }
    out
}

/// Rewrites a page from re-runs: the blocks' outputs and exit codes, pending
/// blocks that run now, the machine statement, and every prose number bound
/// with `=` to a value that changed. Returns the new text and what still
/// needs a person (claims the new numbers no longer support, ...).
pub fn update(
    doc: &Doc,
    runs: &[Option<Run>],
    machine: &str,
    index: &super::names::Index,
) -> (String, Vec<Problem>) {
    let lines: Vec<String> = doc.text.lines().map(str::to_string).collect();
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    for (block, run) in doc.blocks.iter().zip(runs) {
        let Some(run) = run else { continue };
        if block.pending && !matches!(run.code, Some(0 | 1)) {
            continue;
        }
        out.extend(lines[next..block.open_line].iter().cloned());
        let indent: String = lines[block.open_line]
            .chars()
            .take_while(|c| *c == ' ')
            .collect();
        let mut info = vec!["console".to_string()];
        if let Some(id) = &block.id {
            info.push(format!("id={id}"));
        }
        if let Some(code) = run.code
            && code != 0
        {
            info.push(format!("exit={code}"));
        }
        out.push(format!("{indent}```{}", info.join(" ")));
        out.push(lines[block.command_line()].clone());
        out.extend(run.output.lines().map(str::to_string));
        next = block.close_line;
    }
    out.extend(lines[next..].iter().cloned());
    // The machine statement.
    if let Some(m) = doc.directives.iter().find(|d| d.word == MACHINE) {
        let marker_text = &doc.text[m.offset..];
        let marker_line = marker_text.lines().next().unwrap_or("").to_string();
        if let Some(i) = out.iter().position(|l| *l == marker_line) {
            if out.get(i + 1).is_some_and(|l| l.starts_with(MACHINE_NOTE)) {
                out[i + 1] = machine.to_string();
            } else {
                out.insert(i + 1, machine.to_string());
            }
        }
    }
    let mut text = out.join("\n") + "\n";
    // Prose bound with `=`: take the new values (twice at most: a fix can
    // only shorten or lengthen a number, never create a new binding).
    for _ in 0..2 {
        let new = Doc::parse(&doc.rel, &text);
        let facts = check::block_facts(&new);
        let mut fixes: Vec<(std::ops::Range<usize>, String)> =
            check::check_doc(&new, &facts, index, &Default::default())
                .into_iter()
                .filter_map(|p| p.fix)
                .collect();
        if fixes.is_empty() {
            break;
        }
        fixes.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        for (r, s) in fixes {
            text.replace_range(r, &s);
        }
    }
    let new = Doc::parse(&doc.rel, &text);
    let facts = check::block_facts(&new);
    let left = check::check_doc(&new, &facts, index, &Default::default())
        .into_iter()
        .filter(|p| p.kind != Kind::Link)
        .collect();
    (text, left)
}

/// What every machine statement adds about times that several pages print
/// ([`unify_times`]).
pub const QUOTED: &str =
    "A time that an earlier page of the tour also prints is quoted from that page's run.";

/// The statement of the machine that regenerated the times.
pub fn machine_note(load_start: Option<f64>, load_end: Option<f64>) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "an unknown CPU".into());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.2}"));
    format!(
        "{MACHINE_NOTE} the median per-thread CPU time of single uncounted runs taken in cold passes (a fresh shuffle of the tasks each pass: the lab's one timing method, see MEASURING.md), release build, measured on {cpu} with {threads} hardware threads, load average {} at the start and {} at the end of the regeneration ({}). Counts are exact on any machine; times are this machine's. {QUOTED}*",
        load(load_start),
        load(load_end),
        today()
    )
}

/// The 1-minute load average.
pub fn load_average() -> Option<f64> {
    sudoku_lab::measure::load_average()
}

/// Today's UTC date, `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    sudoku_lab::export::utc_string(secs)
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Whitespace-separated words; `'...'` and `"..."` group words.
pub fn split_args(command: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut started = false;
    for ch in command.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !cur.is_empty() {
                    args.push(std::mem::take(&mut cur));
                }
                started = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if started || !cur.is_empty() {
        args.push(cur);
    }
    args
}

/// Masks machine-dependent times and layout-only whitespace.
pub fn normalize(text: &str) -> String {
    text.lines()
        .map(|l| collapse(&mask_times(l)))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lines with their runs of spaces collapsed, times kept.
pub fn normalize_keep_times(text: &str) -> String {
    text.lines()
        .map(collapse)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replaces every time (a number followed by `ns`, `µs`, `us`, `ms` or `s`) by `<time>`.
pub fn mask_times(line: &str) -> String {
    const UNITS: [&str; 5] = ["ns", "µs", "us", "ms", "s"];
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_token =
            i == 0 || !(chars[i - 1].is_alphanumeric() || ".,".contains(chars[i - 1]));
        if chars[i].is_ascii_digit() && starts_token {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || ".,".contains(chars[j])) {
                j += 1;
            }
            let mut k = j;
            if k < chars.len() && chars[k] == ' ' {
                k += 1;
            }
            let rest: String = chars[k..].iter().collect();
            if let Some(unit) = UNITS.iter().find(|u| {
                rest.starts_with(**u)
                    && !rest[u.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphanumeric())
            }) {
                out.push_str("<time>");
                i = k + unit.chars().count();
                // The time's 95% interval, when one follows (`706 µs [702,
                // 712]`, `[n/a]`), is part of the figure: masked with it.
                if let Some(len) = interval_len(&chars[i..]) {
                    i += len;
                }
                continue;
            }
            out.extend(&chars[i..j]);
            i = j;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The length of an interval ` [low, high]` or ` [n/a]` at the start of
/// `rest` (numbers, units, commas and spaces inside), if there is one.
fn interval_len(rest: &[char]) -> Option<usize> {
    let start = usize::from(rest.first() == Some(&' '));
    if rest.get(start) != Some(&'[') {
        return None;
    }
    let close = rest[start..].iter().position(|&c| c == ']')? + start;
    let inside: String = rest[start + 1..close].iter().collect();
    let ok = inside == "n/a"
        || inside.chars().any(|c| c.is_ascii_digit())
            && inside
                .chars()
                .all(|c| c.is_ascii_digit() || ".,  µnsmu".contains(c));
    ok.then_some(close + 1)
}

fn collapse(line: &str) -> String {
    let mut out = String::new();
    let mut prev = ' ';
    for ch in line.trim().chars() {
        if (ch == ' ' && prev == ' ') || (ch == '-' && prev == '-') {
            continue;
        }
        out.push(ch);
        prev = ch;
    }
    out
}

/// One measurement, one value: every time of a row that an earlier block of
/// the tour also prints (same puzzle or set, strategy, node count and timing
/// flags) is replaced by the earlier block's figure, so a time quoted on
/// several pages is quoted from one run. `outputs[d][b]` is the output of
/// block `b` of page `d` (pages in tour order); returns them rewritten.
/// Time and per node are taken together from the same row, so they still
/// add up.
pub fn unify_times(docs: &[Doc], outputs: &[Vec<Option<String>>]) -> Vec<Vec<Option<String>>> {
    use std::collections::BTreeMap;
    let mut seen: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut result = Vec::new();
    for (doc, outs) in docs.iter().zip(outputs) {
        let mut mine = Vec::new();
        for (block, out) in doc.blocks.iter().zip(outs) {
            let Some(out) = out else {
                mine.push(None);
                continue;
            };
            let min_time_0 = block.command.contains("--min-time 0");
            let lines: Vec<&str> = out.lines().collect();
            let mut new_lines: Vec<String> = Vec::new();
            let mut header: Option<(Vec<String>, Vec<bool>)> = None;
            for (i, line) in lines.iter().enumerate() {
                let is_row = line.trim_start().starts_with('|');
                if !is_row {
                    header = None;
                    new_lines.push(line.to_string());
                    continue;
                }
                if header.is_none() {
                    if lines.get(i + 1).is_some_and(|l| facts::is_rule(l)) {
                        let left = facts::cells(lines[i + 1])
                            .iter()
                            .map(|c| c.starts_with(':') && !c.ends_with(':'))
                            .collect();
                        header = Some((facts::cells(line), left));
                    }
                    new_lines.push(line.to_string());
                    continue;
                }
                if facts::is_rule(line) {
                    new_lines.push(line.to_string());
                    continue;
                }
                let (headers, left) = header.as_ref().expect("a table header");
                let table = facts::Table {
                    headers: headers.clone(),
                    left: left.clone(),
                    rows: Vec::new(),
                };
                let row = facts::cells(line);
                let Some(nodes) = table.column("nodes").or(table.column("mean")) else {
                    new_lines.push(line.to_string());
                    continue;
                };
                let count = match table.column("puzzles") {
                    Some(p) => format!("{}×{}", row[nodes], row[p]),
                    None => row[nodes].clone(),
                };
                let labels = table.labels(&row).join("/");
                let key = (labels, format!("{count} {min_time_0}"));
                let time_cols: Vec<usize> = facts::TIME_COLUMNS
                    .iter()
                    .filter_map(|c| table.column(c))
                    .collect();
                if time_cols.is_empty() {
                    new_lines.push(line.to_string());
                    continue;
                }
                match seen.get(&key) {
                    None => {
                        seen.insert(key, line.to_string());
                        new_lines.push(line.to_string());
                    }
                    Some(first) => {
                        let first_cells = facts::cells(first);
                        // Rewrite the time cells in place, right-aligned in
                        // their old width where they fit.
                        let mut parts: Vec<String> = line.split('|').map(str::to_string).collect();
                        for &c in &time_cols {
                            let (Some(part), Some(value)) =
                                (parts.get_mut(c + 1), first_cells.get(c))
                            else {
                                continue;
                            };
                            let width = part.chars().count().saturating_sub(2);
                            *part = format!(" {value:>width$} ");
                        }
                        new_lines.push(parts.join("|"));
                    }
                }
            }
            let mut text = new_lines.join("\n");
            if out.ends_with('\n') {
                text.push('\n');
            }
            mine.push(Some(text));
        }
        result.push(mine);
    }
    result
}
