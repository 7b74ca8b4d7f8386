//! Every command line of the README runs as written on a fresh clone, or says
//! what it needs (issue #31, point 4); so does every line of the reference
//! the README's command sections moved to (issue #58).
//!
//! The test reads the ```` ```sh ```` blocks of `README.md`,
//! `docs/reference.md` and `MEASURING.md` (the tour's `console` blocks have
//! their own drift test, `tests/docs.rs`), joins
//! `\` continuations, and handles every command line in one of four ways:
//!
//! * **run**: `sudoku-lab …`, `./target/release/sudoku-lab …`, `cargo run
//!   [--example NAME] -- …` and pipelines of them run through `bash -o
//!   pipefail` exactly as written, in a copy of the repository (so the files
//!   they write land there), with `sudoku-lab` on `PATH` and a `cargo` that
//!   runs the already built binary; each must exit 0.
//! * **cargo's own** (`cargo test`, `cargo bench`, `cargo build`): not run
//!   from inside the test suite (CI runs `cargo test --release` and `cargo
//!   bench --no-run` itself); every target they name must exist.
//! * **`needs: …`** in the line's comment: the line cannot run as written here,
//!   and the mark says why. Each kind of need is checked as far as it can be:
//!   `network` (`datasets fetch`) must fail cleanly offline with exit 74;
//!   `datasets fetch NAME` must exit 2 naming that command when the corpus is
//!   missing, and runs as written when `SUDOKU_LAB_SHARED` holds it (on a
//!   one-puzzle sample if the line is also marked `minutes`);
//!   `minutes` runs the command on a one-puzzle sample, and a script so
//!   marked must say what it needs; `../shared` scripts of the repository
//!   must say what they need and exit non-zero; `GNU parallel` runs where
//!   `parallel` is installed; `Slurm` and `your program` lines are checked for
//!   what they name. An unknown need fails the test.
//! * anything else fails the test: no line is skipped silently.
//!
//! No assertion depends on time or load: only exit codes and messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

mod example_build;

/// The pages whose command lines are checked.
const PAGES: &[&str] = &["README.md", "docs/reference.md", "MEASURING.md"];

/// Appended to a `needs: minutes` lab command: the same command on a sample
/// small enough for a test (its figures are not looked at).
const SMALL: &str = " --sample 1 --budget 10000 --min-samples 1 --min-time 0";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One command line of a page.
#[derive(Debug)]
struct Line {
    page: &'static str,
    /// 1-based line of the page where the command starts.
    at: usize,
    command: String,
    comment: String,
}

impl Line {
    fn place(&self) -> String {
        format!("{}:{}: {}", self.page, self.at, self.command)
    }

    /// The text after `needs:` in the line's comment, if any.
    fn needs(&self) -> Option<&str> {
        self.comment
            .find("needs:")
            .map(|i| self.comment[i + "needs:".len()..].trim())
    }

    /// The exit code the line's comment documents (`exits N`), else 0.
    fn exit_code(&self) -> i32 {
        self.exit_codes()[0]
    }

    /// The exit codes the line's comment documents: `exits N`, or `exits N
    /// or M` for a line whose outcome is a measurement (a CI gate on times
    /// exits 1 when the machine made the new run slower), else 0.
    fn exit_codes(&self) -> Vec<i32> {
        let Some((_, rest)) = self.comment.split_once("exits ") else {
            return vec![0];
        };
        let number = |t: &str| -> Option<i32> {
            let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        };
        let Some(first) = number(rest) else {
            return vec![0];
        };
        let mut codes = vec![first];
        let after = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        if let Some(more) = after.strip_prefix(" or ").and_then(number) {
            codes.push(more);
        }
        codes
    }

    /// The command's words after leading `NAME=value` assignments.
    fn words(&self) -> Vec<&str> {
        self.command
            .split_whitespace()
            .skip_while(|w| {
                w.split_once('=').is_some_and(|(n, _)| {
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                })
            })
            .collect()
    }
}

/// Splits a shell line into command and comment: `#` starts a comment at the
/// start of a word, outside quotes (as in bash: `shards/{#}` is no comment).
fn split_comment(line: &str) -> (&str, &str) {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
        prev = c;
    }
    (line.trim_end(), "")
}

/// The command lines of a page's `sh` blocks.
fn command_lines(page: &'static str, text: &str) -> Vec<Line> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut lines = Vec::new();
    let mut block: Option<(usize, String)> = None;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang))) if &*lang == "sh" => {
                // The block's first line is the one after the fence.
                block = Some((line_of(range.start) + 1, String::new()));
            }
            Event::Text(t) => {
                if let Some((_, body)) = block.as_mut() {
                    body.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((first, body)) = block.take() {
                    let mut pending: Option<(usize, String)> = None;
                    for (k, raw) in body.lines().enumerate() {
                        let (code, comment) = split_comment(raw);
                        let (start, mut command) = match pending.take() {
                            Some((s, c)) => (s, c + " "),
                            None if code.trim().is_empty() => continue,
                            None => (first + k, String::new()),
                        };
                        if let Some(head) = code.strip_suffix('\\') {
                            command.push_str(head.trim());
                            pending = Some((start, command));
                            continue;
                        }
                        command.push_str(code.trim());
                        lines.push(Line {
                            page,
                            at: start,
                            command,
                            comment: comment.to_string(),
                        });
                    }
                    assert!(pending.is_none(), "{page}: a sh block ends with `\\`");
                }
            }
            _ => {}
        }
    }
    lines
}

/// A copy of the repository to run commands in, with `sudoku-lab` and a
/// `cargo` stand-in on `PATH`.
struct Sandbox {
    _tmp: tempfile::TempDir,
    lab: PathBuf,
    bin: PathBuf,
    data: PathBuf,
    home: PathBuf,
}

/// Copies the repository's files, leaving out build output, reports of
/// earlier runs and hidden folders (`.git`).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" || name == "my-reports" {
            continue;
        }
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&entry.path(), &to.join(&*name));
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&*name)).unwrap();
        }
    }
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .parent()
        .unwrap()
        .join("examples")
}

impl Sandbox {
    fn new() -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let lab = tmp.path().join("sudoku-lab");
        copy_tree(root(), &lab);
        let exe = Path::new(env!("CARGO_BIN_EXE_sudoku-lab"));
        // `./target/release/sudoku-lab` as after `cargo build --release`.
        std::fs::create_dir_all(lab.join("target/release")).unwrap();
        std::os::unix::fs::symlink(exe, lab.join("target/release/sudoku-lab")).unwrap();
        let bin = tmp.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(exe, bin.join("sudoku-lab")).unwrap();
        let shim = format!(
            r#"#!/bin/sh
# The README test's cargo: `cargo run [--release] [--example NAME] -- ARGS`
# runs the binary (or example) this test was built with; nothing else.
[ "$1" = run ] || {{ echo "readme test: only cargo run lines are run (got: cargo $*)" >&2; exit 97; }}
shift
example=
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; break ;;
    --example) example=$2; shift 2 ;;
    --release|--quiet|-q) shift ;;
    *) echo "readme test: unexpected cargo run flag $1" >&2; exit 97 ;;
  esac
done
if [ -n "$example" ]; then exec '{}'/"$example" "$@"; fi
exec '{}' "$@"
"#,
            examples_dir().display(),
            exe.display()
        );
        let cargo = bin.join("cargo");
        std::fs::write(&cargo, shim).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
        let data = tmp.path().join("data");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        Sandbox {
            _tmp: tmp,
            lab,
            bin,
            data,
            home,
        }
    }

    /// `bash -o pipefail -c COMMAND` in the copy: no public corpus fetched,
    /// no network for `datasets fetch` (a closed port on loopback), no
    /// developers' folders.
    fn run(&self, command: &str) -> Output {
        let path = format!(
            "{}:{}",
            self.bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .args(["-o", "pipefail", "-c", command])
            .current_dir(&self.lab)
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", &self.data)
            .env("SUDOKU_LAB_DATASETS", self.lab.join("datasets"))
            .env("SUDOKU_LAB_FETCH_BASE", "http://127.0.0.1:1")
            .env_remove("SUDOKU_LAB_SHARED")
            .env_remove("SUDOKU_LAB_SEEDS")
            .output()
            .unwrap_or_else(|e| panic!("cannot run bash: {e}"))
    }

    /// Makes the public corpus NAME "fetched" from the developers' copy.
    fn provide_corpus(&self, shared: &Path, name: &str) -> bool {
        let from = shared.join(format!("{name}.txt"));
        if !from.is_file() {
            return false;
        }
        let dir = self.data.join("sudoku-lab/datasets");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(from, dir.join(format!("{name}.txt"))).unwrap();
        true
    }

    fn forget_corpus(&self, name: &str) {
        let _ = std::fs::remove_file(self.data.join(format!("sudoku-lab/datasets/{name}.txt")));
    }
}

fn shown(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout (end)\n{}\n--- stderr\n{}",
        out.status.code(),
        tail(&String::from_utf8_lossy(&out.stdout)),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// Does the line run the lab (directly or through `cargo run`)?
fn runs_the_lab(line: &Line) -> bool {
    line.command.contains("cargo run")
        || line
            .words()
            .iter()
            .any(|w| *w == "sudoku-lab" || w.ends_with("target/release/sudoku-lab"))
}

/// `cargo test|bench|build …`: every named target exists.
fn check_cargo_own(line: &Line) {
    let words = line.words();
    assert_eq!(words.first(), Some(&"cargo"), "{}", line.place());
    assert!(
        matches!(words.get(1), Some(&("test" | "bench" | "build"))),
        "{}: only cargo test, bench and build lines are left to cargo",
        line.place()
    );
    for (flag, dir) in [
        ("--example", "examples"),
        ("--bench", "benches"),
        ("--test", "tests"),
    ] {
        if let Some(i) = words.iter().position(|w| *w == flag) {
            let name = words.get(i + 1).unwrap_or(&"");
            assert!(
                root().join(dir).join(format!("{name}.rs")).is_file(),
                "{}: no target {flag} {name} ({dir}/{name}.rs)",
                line.place()
            );
        }
    }
}

/// Builds the examples that `cargo run --example NAME` lines use, with this
/// test's cargo and profile.
fn build_examples(lines: &[Line]) {
    let mut names: Vec<&str> = Vec::new();
    for line in lines {
        let words = line.words();
        if line.command.contains("cargo run")
            && let Some(i) = words.iter().position(|w| *w == "--example")
        {
            let name = words[i + 1];
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    for name in names {
        if let Err(e) = example_build::build_example(root(), name) {
            panic!("{e}");
        }
    }
}

fn on_path(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What the test did with one line, for the summary.
fn check_line(sandbox: &Sandbox, line: &Line) -> String {
    let words = line.words();
    let first = *words.first().expect("a command line has a word");
    let Some(needs) = line.needs() else {
        if first == "cargo" && words.get(1) != Some(&"run") {
            check_cargo_own(line);
            return "left to cargo (targets exist)".into();
        }
        assert!(
            runs_the_lab(line),
            "{}: neither a lab command nor cargo's, and no `needs:` mark says why it is not run",
            line.place()
        );
        let expected = line.exit_codes();
        let out = sandbox.run(&line.command);
        assert!(
            out.status.code().is_some_and(|c| expected.contains(&c)),
            "{}: fails as written on a fresh clone (its comment documents exit {expected:?})\n{}",
            line.place(),
            shown(&out)
        );
        return format!("ran as written: exit {expected:?}");
    };
    if needs.contains("network") {
        assert!(
            line.command.contains("datasets fetch"),
            "{}: only `datasets fetch` needs the network",
            line.place()
        );
        let out = sandbox.run(&line.command);
        assert_eq!(
            out.status.code(),
            Some(74),
            "{}: offline, a fetch must fail with exit 74\n{}",
            line.place(),
            shown(&out)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error:"), "{}: {err}", line.place());
        return "offline: exit 74 with an error line".into();
    }
    if let Some(rest) = needs.strip_prefix("datasets fetch ") {
        let name = rest.split_whitespace().next().unwrap_or("");
        assert!(
            line.command.contains(name),
            "{}: needs corpus {name} but does not name it",
            line.place()
        );
        sandbox.forget_corpus(name);
        let out = sandbox.run(&line.command);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}: without {name} fetched, exit 2\n{}",
            line.place(),
            shown(&out)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("sudoku-lab datasets fetch {name}")),
            "{}: the error must say how to fetch {name}: {err}",
            line.place()
        );
        let shared = std::env::var_os("SUDOKU_LAB_SHARED").map(PathBuf::from);
        match shared {
            Some(dir) if sandbox.provide_corpus(&dir, name) => {
                // A line also marked `minutes` (a whole corpus) runs on the
                // one-puzzle sample, as `needs: minutes` lines do.
                let minutes = needs.contains("minutes") && runs_the_lab(line);
                let command = if minutes {
                    format!("{}{SMALL}", line.command)
                } else {
                    line.command.clone()
                };
                let out = sandbox.run(&command);
                sandbox.forget_corpus(name);
                assert!(
                    out.status.success(),
                    "{}: with {name} fetched, fails\n{}",
                    line.place(),
                    shown(&out)
                );
                let with = if minutes {
                    "on a one-puzzle sample"
                } else {
                    "as written"
                };
                return format!("without {name}: exit 2 naming the fetch; with it, {with}: exit 0");
            }
            _ if std::env::var_os("CI").is_some() => {
                panic!(
                    "{}: under CI, SUDOKU_LAB_SHARED must hold {name}.txt",
                    line.place()
                )
            }
            _ => {
                return format!(
                    "without {name}: exit 2 naming the fetch (skipped with it: no SUDOKU_LAB_SHARED)"
                );
            }
        }
    }
    if needs.contains("minutes") {
        if runs_the_lab(line) {
            let out = sandbox.run(&format!("{}{SMALL}", line.command));
            assert!(
                out.status.success(),
                "{}: fails on a one-puzzle sample\n{}",
                line.place(),
                shown(&out)
            );
            return "ran on a one-puzzle sample: exit 0".into();
        }
        return check_script_says_what_it_needs(sandbox, line);
    }
    if needs.contains("your program") {
        assert!(
            line.command.contains("--program"),
            "{}: `needs: your program` on a line without --program",
            line.place()
        );
        return "needs the reader's program (--program)".into();
    }
    if needs.contains("../shared") {
        if !first.starts_with("..") && root().join(first).is_file() {
            if first.ends_with(".py") && !on_path("python3") && std::env::var_os("CI").is_none() {
                return "skipped: no python3".into();
            }
            return check_script_says_what_it_needs(sandbox, line);
        }
        assert!(
            line.command.contains("../shared"),
            "{}: `needs: ../shared` on a line that does not use it",
            line.place()
        );
        return "developers' tool in ../shared".into();
    }
    if needs.contains("Slurm") {
        assert_eq!(first, "sbatch", "{}", line.place());
        assert!(
            root().join(words[2]).is_file(),
            "{}: no script",
            line.place()
        );
        return "needs Slurm (tests/scale_out.rs runs it on a real one)".into();
    }
    if needs.contains("GNU parallel") {
        assert_eq!(first, "seq", "{}", line.place());
        if !on_path("parallel") {
            assert!(
                std::env::var_os("SUDOKU_LAB_REQUIRE_SCHEDULERS").is_none(),
                "{}: parallel is required here",
                line.place()
            );
            return "skipped: no GNU parallel".into();
        }
        let out = sandbox.run(&line.command);
        assert!(out.status.success(), "{}\n{}", line.place(), shown(&out));
        return "ran as written (GNU parallel): exit 0".into();
    }
    panic!("{}: unknown need `{needs}`", line.place());
}

/// A repository script that cannot run here must say what it needs and exit
/// non-zero, before building or running anything.
fn check_script_says_what_it_needs(sandbox: &Sandbox, line: &Line) -> String {
    let first = line.words()[0];
    assert!(
        !first.starts_with("..") && root().join(first).is_file(),
        "{}: a marked script must be one of the repository's",
        line.place()
    );
    let out = sandbox.run(&line.command);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && out.status.code().is_some(),
        "{}: must fail here, saying what it needs\n{}",
        line.place(),
        shown(&out)
    );
    assert!(
        err.contains("needs"),
        "{}: must say what it needs (stderr: {err:?})",
        line.place()
    );
    format!(
        "says what it needs, exit {}",
        out.status.code().unwrap_or(-1)
    )
}

#[test]
fn the_parser_reads_comments_continuations_and_marks() {
    let page = "text\n\n```sh\n# a comment line\nsudoku-lab a \\\n  --b 'x # y'   # what; needs: network\nseq 4 | parallel x {#}\n```\n\n```rust\nfn main() {}\n```\n";
    let lines = command_lines("page.md", page);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0].at, 5);
    assert_eq!(lines[0].command, "sudoku-lab a --b 'x # y'");
    assert_eq!(lines[0].needs(), Some("network"));
    assert_eq!(lines[1].command, "seq 4 | parallel x {#}");
    assert_eq!(lines[1].needs(), None);
    assert_eq!(lines[0].exit_code(), 0);
    let documented = command_lines(
        "p.md",
        "```sh\nsudoku-lab x   # side by side; exits 1: why\n```\n",
    );
    assert_eq!(documented[0].exit_code(), 1);
    let either = command_lines(
        "README.md",
        "```sh\nsudoku-lab diff a b --fail-if-slower 10   # exits 0 or 1: slower\n```\n",
    );
    assert_eq!(either[0].exit_codes(), vec![0, 1]);
    let env = Line {
        page: "p",
        at: 1,
        command: "A_B=../x cargo bench --bench race".into(),
        comment: String::new(),
    };
    assert_eq!(env.words()[..2], ["cargo", "bench"]);
}

#[test]
fn every_readme_command_line_runs_or_says_what_it_needs() {
    let mut lines = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(root().join(page)).unwrap();
        lines.extend(command_lines(page, &text));
    }
    for page in PAGES {
        assert!(
            lines.iter().any(|l| l.page == *page),
            "{page}: no sh block was found"
        );
    }
    assert!(
        lines.iter().filter(|l| l.page != "MEASURING.md").count() >= 40,
        "the sh blocks of the README and the reference were not all found"
    );
    build_examples(&lines);
    let sandbox = Sandbox::new();
    let (mut ran, mut lab_lines) = (0, 0);
    for line in &lines {
        lab_lines += usize::from(runs_the_lab(line));
        let started = std::time::Instant::now();
        let what = check_line(&sandbox, line);
        // (The time is shown for whoever keeps this test fast; never asserted.)
        let what = format!("{what} ({:.1} s)", started.elapsed().as_secs_f64());
        if what.starts_with("ran as written") {
            ran += 1;
        }
        eprintln!("{}\n    {what}", line.place());
    }
    // Most of the lab's command lines run as written: a guard against
    // marking lines away.
    assert!(
        ran * 2 > lab_lines,
        "only {ran} of {lab_lines} command lines of the lab run as written"
    );
}
