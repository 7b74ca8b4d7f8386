//! The tour in `docs/` quotes live numbers. This test re-runs every command
//! shown in the docs and fails if a deterministic number drifted.
//!
//! A checked block is a fenced block tagged `console` whose first line is
//! `$ sudoku-lab ARGS`; the rest of the block is the command's output
//! (standard output, then standard error). Before comparing, times (a number
//! followed by `ns`, `µs`, `us`, `ms` or `s`) are masked — they depend on the
//! machine — and runs of spaces and table-rule dashes are collapsed, so only
//! the deterministic content (node counts, placements, decisions, ...) must
//! match exactly.
//!
//! Prose may quote a number with thousands separators (`69,175,317`) only if
//! the same number appears in a command's output in the same file.
//!
//! Regenerate every block after changing a strategy (e.g. after a merge):
//!
//! ```text
//! SUDOKU_LAB_DOCS=update cargo test --release --test docs
//! ```
//!
//! A block tagged `console-pending` names a command that cannot run yet (a
//! strategy still to be merged). It is not checked; the update run above
//! fills it in and turns it into a checked `console` block as soon as the
//! command runs (exit code 0 or 1).
//!
//! A block may also run an example program, as a reader would:
//! `$ cargo run --release --example NAME -- ARGS` (e.g. the outside rung of
//! `docs/write-your-own-rung.md`). The test builds the example once with
//! the same cargo, then runs it with ARGS; cargo's own lines are not part
//! of the output.
//!
//! Blocks that read `$SUDOKU_LAB_SHARED/...` (the public corpora) follow the
//! project's rule: skipped with a message when the variable and `CI` are both
//! unset, a failure when `CI` is set and the files cannot be read.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-lab");
const SHARED_VAR: &str = "SUDOKU_LAB_SHARED";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One checked block of one file.
struct Block {
    /// 0-based line index of the `$ sudoku-lab` line.
    command_line: usize,
    /// 0-based line index of the closing fence.
    end_line: usize,
    command: String,
    /// The example program the block runs (`None`: sudoku-lab itself).
    example: Option<String>,
    expected: String,
    /// Tagged `console-pending`: filled in by the update run once it runs.
    pending: bool,
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The checked blocks of a Markdown text, and the prose lines (outside any fence).
fn parse(text: &str) -> (Vec<Block>, Vec<(usize, &str)>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(tag) = line.strip_prefix("```") {
            let start = i;
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                i += 1;
            }
            let end = i.min(lines.len());
            let first = lines.get(start + 1).copied().unwrap_or("");
            let pending = tag.trim() == "console-pending";
            if (tag.trim() == "console" || pending)
                && let Some((example, cmd)) = program_and_args(first)
                && start + 1 < end
            {
                blocks.push(Block {
                    command_line: start + 1,
                    end_line: end,
                    command: cmd.trim().to_string(),
                    example,
                    expected: lines[start + 2..end].join("\n"),
                    pending,
                });
            }
        } else {
            prose.push((i, lines[i]));
        }
        i += 1;
    }
    (blocks, prose)
}

/// The program of a `$ ...` line (`None` for sudoku-lab itself, or an
/// example's name) and its arguments.
fn program_and_args(line: &str) -> Option<(Option<String>, &str)> {
    if let Some(args) = line.strip_prefix("$ sudoku-lab") {
        return Some((None, args));
    }
    let rest = line.strip_prefix("$ cargo run --release --example ")?;
    let (name, args) = rest.split_once(" --")?;
    Some((Some(name.trim().to_string()), args))
}

/// The path of example `name`, built once per test run with this cargo
/// and profile.
fn example_program(name: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if !built.iter().any(|b| b == name) {
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "--quiet", "--example", name]);
        if !cfg!(debug_assertions) {
            cargo.arg("--release");
        }
        let status = cargo
            .current_dir(root())
            .status()
            .unwrap_or_else(|e| panic!("cannot run cargo to build example {name}: {e}"));
        assert!(status.success(), "cargo could not build example {name}");
        built.push(name.to_string());
    }
    // Examples sit in `examples/` beside the binary's folder.
    Path::new(BIN)
        .parent()
        .expect("the binary has a folder")
        .join("examples")
        .join(name)
}

/// Whitespace-separated words; `'...'` and `"..."` group words.
fn split_args(command: &str) -> Vec<String> {
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

enum Shared {
    Available(String),
    Skip,
}

fn shared() -> Result<Shared, String> {
    match std::env::var(SHARED_VAR) {
        Ok(dir) => Ok(Shared::Available(dir)),
        Err(_) if std::env::var_os("CI").is_some() => Err(format!(
            "CI is set but {SHARED_VAR} is not: cannot check the docs blocks that read the public corpora"
        )),
        Err(_) => Ok(Shared::Skip),
    }
}

/// Runs a docs command from the project root: its exit code and its output
/// (standard output, then standard error).
fn run(block: &Block, shared_dir: Option<&str>) -> (Option<i32>, String) {
    let command = &block.command;
    let args: Vec<String> = split_args(command)
        .into_iter()
        .map(|a| match shared_dir {
            Some(dir) => a.replace(&format!("${SHARED_VAR}"), dir),
            None => a,
        })
        .collect();
    let program = match &block.example {
        Some(name) => example_program(name),
        None => PathBuf::from(BIN),
    };
    let out = Command::new(&program)
        .args(&args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("cannot run sudoku-lab {command}: {e}"));
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text.trim_end().to_string())
}

/// Masks machine-dependent times and layout-only whitespace.
fn normalize(text: &str) -> String {
    text.lines()
        .map(|l| collapse(&mask_times(l)))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn mask_times(line: &str) -> String {
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

/// Comma-grouped numbers such as `1,234` or `69,175,317` in a line.
fn grouped_numbers(line: &str) -> Vec<String> {
    let b = line.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b','))
        {
            let mut j = i;
            while j < b.len()
                && (b[j].is_ascii_digit()
                    || (b[j] == b',' && j + 1 < b.len() && b[j + 1].is_ascii_digit()))
            {
                j += 1;
            }
            let s = &line[i..j];
            if s.contains(',') {
                found.push(s.to_string());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "re-runs search-heavy commands; checked by `cargo test --release --test docs`"
)]
fn docs_numbers_match_the_lab() {
    let update = std::env::var("SUDOKU_LAB_DOCS").is_ok_and(|v| v == "update");
    let shared = shared();
    let mut files = Vec::new();
    markdown_files(&root().join("docs"), &mut files);
    assert!(files.len() >= 5, "expected the tour's chapters in docs/");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut skipped = 0;
    let mut pending = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable docs file");
        let (blocks, prose) = parse(&text);
        let rel = path
            .strip_prefix(root())
            .unwrap_or(path)
            .display()
            .to_string();
        let mut outputs = Vec::new();
        let mut replacements: Vec<(usize, usize, String)> = Vec::new();
        // Fence lines to retag from `console-pending` to `console`.
        let mut promoted: Vec<usize> = Vec::new();
        for block in &blocks {
            let shared_dir = if block.command.contains(SHARED_VAR) {
                match &shared {
                    Ok(Shared::Available(dir)) => Some(dir.as_str()),
                    Ok(Shared::Skip) => {
                        skipped += 1;
                        outputs.push(block.expected.clone());
                        continue;
                    }
                    Err(msg) => {
                        failures.push(format!("{rel}:{}: {msg}", block.command_line + 1));
                        continue;
                    }
                }
            } else {
                None
            };
            if block.pending {
                if !update {
                    pending += 1;
                    continue;
                }
                let (code, actual) = run(block, shared_dir);
                if matches!(code, Some(0 | 1)) {
                    promoted.push(block.command_line - 1);
                    replacements.push((block.command_line + 1, block.end_line, actual.clone()));
                    outputs.push(actual);
                } else {
                    pending += 1;
                }
                continue;
            }
            let (_, actual) = run(block, shared_dir);
            checked += 1;
            if normalize(&actual) != normalize(&block.expected) {
                if update {
                    replacements.push((block.command_line + 1, block.end_line, actual.clone()));
                } else {
                    let (e, a) = (normalize(&block.expected), normalize(&actual));
                    let first = e
                        .lines()
                        .zip(a.lines())
                        .position(|(x, y)| x != y)
                        .unwrap_or(e.lines().count().min(a.lines().count()));
                    failures.push(format!(
                        "{rel}:{}: `{} {}` now prints something else (first difference at output line {}):\n  docs: {}\n  now:  {}",
                        block.command_line + 1,
                        block.example.as_deref().unwrap_or("sudoku-lab"),
                        block.command,
                        first + 1,
                        e.lines().nth(first).unwrap_or("<end>"),
                        a.lines().nth(first).unwrap_or("<end>")
                    ));
                }
            }
            outputs.push(actual);
        }
        for (line_no, line) in prose {
            for number in grouped_numbers(line) {
                if !outputs.iter().any(|o| grouped_numbers(o).contains(&number)) {
                    failures.push(format!(
                        "{rel}:{}: the number {number} is not printed by any command in this file",
                        line_no + 1
                    ));
                }
            }
        }
        if update && !replacements.is_empty() {
            let retagged: Vec<String> = text
                .lines()
                .enumerate()
                .map(|(i, l)| {
                    if promoted.contains(&i) {
                        l.replacen("console-pending", "console", 1)
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            let lines: Vec<&str> = retagged.iter().map(String::as_str).collect();
            let mut out: Vec<String> = Vec::new();
            let mut next = 0;
            for (from, to, actual) in &replacements {
                out.extend(lines[next..*from].iter().map(|s| s.to_string()));
                out.extend(actual.lines().map(|s| s.to_string()));
                next = *to;
            }
            out.extend(lines[next..].iter().map(|s| s.to_string()));
            let tmp = path.with_extension("md.tmp");
            std::fs::write(&tmp, out.join("\n") + "\n").expect("write docs");
            std::fs::rename(&tmp, path).expect("replace docs");
            eprintln!("updated {} block(s) in {rel}", replacements.len());
        }
    }
    if skipped > 0 {
        eprintln!(
            "skipped: SUDOKU_LAB_SHARED not set ({skipped} docs block(s) read the public corpora)"
        );
    }
    if pending > 0 {
        eprintln!(
            "note: {pending} docs block(s) are console-pending (strategies not merged yet); fill them with SUDOKU_LAB_DOCS=update"
        );
    }
    assert!(checked > 0, "no checked command blocks found in docs/");
    assert!(
        failures.is_empty(),
        "{} problem(s) in docs/ (regenerate with `SUDOKU_LAB_DOCS=update cargo test --release --test docs` if the change is intended):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_chapter_is_reachable_from_the_entry_point() {
    let readme = std::fs::read_to_string(root().join("docs/README.md")).expect("docs/README.md");
    let mut files = Vec::new();
    markdown_files(&root().join("docs"), &mut files);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
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

#[test]
fn masking_keeps_counts_and_hides_times() {
    assert_eq!(
        normalize("| 45,268 |  36.7 ms |  12.3 ns | 2 solutions | time=41.12s"),
        "| 45,268 | <time> | <time> | 2 solutions | time=<time>"
    );
    assert_eq!(normalize("|---:|:------|"), "|-:|:-|");
    assert_eq!(
        program_and_args("$ cargo run --release --example lcv -- ladder -s lcv x"),
        Some((Some("lcv".to_string()), " ladder -s lcv x"))
    );
    assert_eq!(
        program_and_args("$ sudoku-lab strategies"),
        Some((None, " strategies"))
    );
    assert_eq!(program_and_args("$ ls"), None);
    assert_eq!(
        split_args("trace -s mrv 'a b' x"),
        ["trace", "-s", "mrv", "a b", "x"]
    );
    assert_eq!(
        grouped_numbers("about 69,175,317 nodes, r1c2, 2580"),
        ["69,175,317"]
    );
}
