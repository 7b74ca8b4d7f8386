//! Outside programs (`--program`): every outcome, from fixture programs
//! written here as Python scripts (a correct backtracker, and programs that
//! print a wrong grid, loop forever, crash, print garbage). Without python3
//! the tests say so and pass, except under CI (`CI` set), where they fail:
//! `.ci/run` installs python3.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use sudoku_lab::io::program::{Feed, Mode, Program, Reference, Session};
use sudoku_lab::{Board, Format, Outcome};
use tempfile::TempDir;

/// A row-major backtracker for 4×4 and 9×9 in any of the three layouts:
/// `right.py FORMAT [up|down] [stream]`. Digits `up` find the
/// lexicographically first solution; `down` another one (when there is
/// one). Prints nothing for a puzzle without solution. `stream` answers
/// puzzle after puzzle, flushing each answer.
const RIGHT: &str = r#"
import sys
fmt = sys.argv[1]
order = sys.argv[2] if len(sys.argv) > 2 else "up"
stream = "stream" in sys.argv[3:]

def solve(cells):
    n = int(round(len(cells) ** 0.5)); b = int(round(n ** 0.5))
    g = cells[:]
    digits = list(range(1, n + 1))
    if order == "down":
        digits.reverse()
    def ok(i, d):
        r, c = divmod(i, n)
        for k in range(n):
            if g[r * n + k] == d or g[k * n + c] == d:
                return False
        br, bc = r // b * b, c // b * b
        for rr in range(br, br + b):
            for cc in range(bc, bc + b):
                if g[rr * n + cc] == d:
                    return False
        return True
    def rec(i):
        while i < n * n and g[i]:
            i += 1
        if i == n * n:
            return True
        for d in digits:
            if ok(i, d):
                g[i] = d
                if rec(i + 1):
                    return True
        g[i] = 0
        return False
    return g if rec(0) else None

def cells_of(lines):
    if fmt == "grid":
        return [int(t) for l in lines for t in l.split()]
    return [0 if ch == "." else int(ch, 36) for l in lines for ch in l.strip()]

def show(g):
    n = int(round(len(g) ** 0.5))
    sym = lambda v: "0123456789ABCDEFGHIJKLMNOP"[v]
    if fmt == "line":
        return "".join(sym(v) for v in g)
    rows = [g[r * n:(r + 1) * n] for r in range(n)]
    if fmt == "grid":
        return "\n".join(" ".join(str(v) for v in row) for row in rows)
    return "\n".join("".join(sym(v) for v in row) for row in rows)

def answer(lines):
    g = solve(cells_of(lines))
    if g is not None:
        print(show(g), flush=True)

if not stream:
    answer([l for l in sys.stdin.read().splitlines() if l.strip()])
else:
    while True:
        first = sys.stdin.readline()
        if not first:
            break
        if not first.strip():
            continue
        lines = [first]
        if fmt != "line":
            n = len(first.split()) if fmt == "grid" else len(first.strip())
            while len(lines) < n:
                lines.append(sys.stdin.readline())
        answer(lines)
"#;

/// The right shape, the wrong grid: every row 1 2 3 4 (4×4 line layout).
const WRONG: &str = "print('1234' * 4)\n";
/// Never answers.
const LOOP: &str = "while True:\n    pass\n";
/// Exits with status 1 and a traceback.
const CRASH: &str = "import sys\nsys.stdin.read()\n1 / 0\n";
/// Killed by a signal (SIGSEGV, as a C program with a bad pointer).
const SEGFAULT: &str = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n";
/// Not a grid at all.
const GARBAGE: &str = "print('the answer is 42')\n";
/// Starts a child that would outlive it (writing its pid), then loops.
const FORKS: &str = r#"
import subprocess, sys
child = subprocess.Popen(["python3", "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(str(child.pid))
while True:
    pass
"#;

/// 4×4 puzzles in line layout: one with two solutions (12../34.. on top),
/// one with a unique solution, one without (r1c3 and r1c4 would both need 4).
const TWO_SOLUTIONS: &str = "12343412........";
const UNIQUE: &str = ".234341221434321";
const NO_SOLUTION: &str = "12....3.........";

/// python3, or `None` with a message (a failure under CI).
fn python() -> Option<&'static str> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("python3");
    }
    if std::env::var_os("CI").is_some() {
        panic!("python3 is required under CI (.ci/run installs it)");
    }
    eprintln!("SKIPPED: python3 not found; the outside-program tests need it");
    None
}

struct Fixtures {
    dir: TempDir,
}

impl Fixtures {
    fn new() -> Fixtures {
        let dir = TempDir::new().expect("temp dir");
        for (name, text) in [
            ("right.py", RIGHT),
            ("wrong.py", WRONG),
            ("loop.py", LOOP),
            ("crash.py", CRASH),
            ("segfault.py", SEGFAULT),
            ("garbage.py", GARBAGE),
            ("forks.py", FORKS),
        ] {
            std::fs::write(dir.path().join(name), text).expect("write fixture");
        }
        Fixtures { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `NAME=python3 'DIR/SCRIPT' ARGS` (the temp dir quoted as a user would).
    fn spec(&self, name: &str, script: &str, args: &str) -> String {
        format!(
            "{name}=python3 '{}' {args}",
            self.path(script).to_str().expect("UTF-8 temp path")
        )
    }

    fn program(&self, name: &str, script: &str, args: &str) -> Program {
        let mut p = Program::parse(&self.spec(name, script, args)).expect("valid spec");
        p.time_limit = Duration::from_secs(20);
        p
    }
}

fn board(line: &str) -> Board {
    sudoku_lab::base::format::parse_one(line)
        .expect("fixture puzzle")
        .1
        .board
}

fn run(program: &Program, puzzle: &str) -> (Outcome, String) {
    let b = board(puzzle);
    let r = Session::new(program)
        .run(&b, &Reference::new(&b))
        .expect("program starts");
    (r.outcome, r.reason)
}

#[test]
fn every_outcome_from_the_fixture_programs() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    let right = f.program("right", "right.py", "line");
    assert_eq!(run(&right, UNIQUE), (Outcome::Solved, String::new()));
    // Printing nothing is right exactly when there is no solution.
    assert_eq!(
        run(&right, NO_SOLUTION),
        (Outcome::NoSolution, String::new())
    );

    let (o, why) = run(&f.program("wrong", "wrong.py", ""), UNIQUE);
    assert_eq!(o, Outcome::WrongAnswer);
    assert!(why.contains("changes the given"), "{why}");
    let (o, why) = run(&f.program("wrong", "wrong.py", ""), NO_SOLUTION);
    assert_eq!(o, Outcome::WrongAnswer, "{why}");
    let (o, why) = run(&f.program("silent", "garbage.py", ""), NO_SOLUTION);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::BadOutput, "unexpected character 't'")
    );

    let mut looping = f.program("loop", "loop.py", "");
    looping.time_limit = Duration::from_millis(300);
    let (o, why) = run(&looping, UNIQUE);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::TimeLimit, "killed after 0.3 s")
    );

    let (o, why) = run(&f.program("crash", "crash.py", ""), UNIQUE);
    assert_eq!(o, Outcome::Crashed);
    assert_eq!(why, "exit status 1: ZeroDivisionError: division by zero");
    let (o, why) = run(&f.program("segv", "segfault.py", ""), UNIQUE);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Crashed, "killed by signal 11 (SIGSEGV)")
    );

    let (o, why) = run(&f.program("garbage", "garbage.py", ""), UNIQUE);
    assert_eq!(o, Outcome::BadOutput);
    assert_eq!(why, "unexpected character 't'");
    let mut grid = f.program("garbage", "garbage.py", "");
    grid.format = Format::Grid;
    let (o, why) = run(&grid, UNIQUE);
    assert_eq!(
        (o, why.as_str()),
        (
            Outcome::BadOutput,
            "1 non-blank lines, expected 4 (grid layout)"
        )
    );

    // A 16×16 board cannot be written in the compact layout: not run.
    let mut compact = f.program("right", "right.py", "compact");
    compact.format = Format::Compact;
    let big = Board::empty(sudoku_lab::BoxSize::new(4).expect("16x16"));
    let r = Session::new(&compact)
        .run(&big, &Reference::new(&big))
        .expect("no process needed");
    assert_eq!(r.outcome, Outcome::Unsupported);
}

#[test]
fn every_layout_and_lex_first() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    for format in [Format::Line, Format::Grid, Format::Compact] {
        for (order, mode, want) in [
            ("up", Mode::LexFirst, Outcome::Solved),
            ("down", Mode::Any, Outcome::Solved),
            ("down", Mode::LexFirst, Outcome::WrongAnswer),
        ] {
            let mut p = f.program("p", "right.py", &format!("{format} {order}"));
            p.format = format;
            p.mode = mode;
            let (o, why) = run(&p, TWO_SOLUTIONS);
            assert_eq!(o, want, "{format} {order} {mode}: {why}");
            if want == Outcome::WrongAnswer {
                assert_eq!(
                    why,
                    "valid, but not the lexicographically first solution: r3c1 is 4, the first has 2"
                );
            }
        }
    }
}

/// True while a process with this pid exists (and is not a zombie).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

#[test]
fn the_time_limit_kills_the_process_group() {
    if python().is_none() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let f = Fixtures::new();
    let pid_file = f.path("child.pid");
    let mut p = f.program("forks", "forks.py", pid_file.to_str().expect("UTF-8"));
    // Long enough for Python to start and fork on a machine loaded many
    // times over (the program never answers: the limit always ends it).
    p.time_limit = Duration::from_secs(15);
    let (o, _) = run(&p, UNIQUE);
    assert_eq!(o, Outcome::TimeLimit);
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .expect("the program started its child before the limit")
        .trim()
        .parse()
        .expect("a pid");
    // The kill is sent before the run returns; the child's exit is reaped by
    // init, which may take a moment.
    let gone = (0..3000).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        !alive(pid)
    });
    assert!(gone, "the program's child {pid} outlived the time limit");
}

#[test]
fn stream_mode_answers_puzzle_after_puzzle_and_restarts_after_a_failure() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    for format in [Format::Line, Format::Grid] {
        let mut p = f.program("s", "right.py", &format!("{format} up stream"));
        p.format = format;
        p.feed = Feed::Stream;
        p.mode = Mode::LexFirst;
        let mut session = Session::new(&p);
        for puzzle in [UNIQUE, TWO_SOLUTIONS, UNIQUE] {
            let b = board(puzzle);
            let r = session.run(&b, &Reference::new(&b)).expect("starts");
            assert_eq!(r.outcome, Outcome::Solved, "{format}: {}", r.reason);
            assert_eq!(r.cpu_ns, None, "stream mode has wall time only");
        }
    }
    // A puzzle without solution gets no answer line: the time limit ends the
    // wait, and the next puzzle is answered by a fresh process.
    let mut p = f.program("s", "right.py", "line up stream");
    p.feed = Feed::Stream;
    // The fresh process must start and answer within the limit on a
    // loaded machine too (the first puzzle always takes the whole limit).
    p.time_limit = Duration::from_secs(8);
    let mut session = Session::new(&p);
    let mut outcomes = Vec::new();
    for puzzle in [NO_SOLUTION, UNIQUE] {
        let b = board(puzzle);
        outcomes.push(
            session
                .run(&b, &Reference::new(&b))
                .expect("starts")
                .outcome,
        );
    }
    assert_eq!(outcomes, [Outcome::TimeLimit, Outcome::Solved]);
    // A streaming program that dies on its first puzzle.
    let mut p = f.program("c", "segfault.py", "");
    p.feed = Feed::Stream;
    let (o, why) = run(&p, UNIQUE);
    assert_eq!(
        (o, why.as_str()),
        (Outcome::Crashed, "killed by signal 11 (SIGSEGV)")
    );
}

fn lab() -> Command {
    Command::cargo_bin("sudoku-lab").expect("binary")
}

fn csv_rows(stdout: &[u8]) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(stdout);
    let header: Vec<String> = r
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.expect("record");
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn speed_runs_programs_beside_rungs_and_exits_1_when_one_fails() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    let set = f.path("set.txt");
    std::fs::write(&set, format!("{UNIQUE}\n{TWO_SOLUTIONS}\n")).expect("write set");
    let out = lab()
        .args([
            "speed",
            "--csv",
            "--min-time",
            "0",
            "--min-samples",
            "1",
            "-s",
            "bitmask",
        ])
        .arg(&set)
        .arg("--program")
        .arg(f.spec("right", "right.py", "grid"))
        .arg("--program")
        .arg(f.spec("wrong", "wrong.py", ""))
        .args([
            "--program-format",
            "right=grid",
            "--program-mode",
            "lex-first",
        ])
        .assert()
        .code(1);
    let rows = csv_rows(&out.get_output().stdout);
    let names: Vec<&str> = rows.iter().map(|r| r["strategy"].as_str()).collect();
    assert_eq!(names, ["bitmask", "right", "wrong"]);
    let right = &rows[1];
    assert_eq!(right["solved"], "2");
    assert_eq!(right["clock"], "child-cpu");
    assert_eq!(right["reason"], "");
    assert!(right["us_per_puzzle"].parse::<f64>().expect("timed") > 0.0);
    for col in [
        "nodes_per_puzzle",
        "guesses_per_puzzle",
        "budget",
        "counters_exact",
    ] {
        assert_eq!(right[col], "", "{col}: a program has no counters");
    }
    let wrong = &rows[2];
    assert_eq!(wrong["wrong_answer"], "2");
    assert_eq!(
        wrong["us_per_puzzle"], "",
        "no throughput over a failed set"
    );
    assert!(
        wrong["reason"].starts_with("puzzle 1: wrong-answer: solution changes the given"),
        "{}",
        wrong["reason"]
    );

    // Only the right program: every puzzle solved, exit 0; the table says
    // what its time is.
    lab()
        .args([
            "speed",
            "--min-time",
            "0",
            "--min-samples",
            "1",
            "-s",
            "bitmask",
        ])
        .arg(&set)
        .arg("--program")
        .arg(f.spec("right", "right.py", "compact"))
        .args(["--program-format", "compact"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "program: child CPU time, start-up included",
        ));
}

#[test]
fn bad_program_flags_are_usage_errors() {
    let dir = TempDir::new().expect("temp dir");
    let set = dir.path().join("set.txt");
    std::fs::write(&set, format!("{UNIQUE}\n")).expect("write set");
    let speed = |args: &[&str]| {
        let mut c = lab();
        c.args(["speed", "-s", "bitmask"]).arg(&set).args(args);
        c.assert().code(2)
    };
    for (args, says) in [
        (&["--program", "bitmask=./x"][..], "is a strategy's name"),
        (&["--program", "./solver"], "expected NAME=COMMAND"),
        (&["--program", "a=x 'y"], "unterminated ' quote"),
        (
            &["--program", "a=x", "--program", "a=y"],
            "two programs are named \"a\"",
        ),
        (
            &["--program", "a=x", "--program-mode", "b=any"],
            "no --program is named \"b\"",
        ),
        (
            &["--program", "a=x", "--program-format", "csv"],
            "unknown format \"csv\"",
        ),
        (
            &["--program", "a=x", "--time-limit", "0"],
            "expected seconds above 0",
        ),
        (&["--program-mode", "any"], "--program"),
        (
            &["--program", "a=/no/such/solver --fast"],
            "cannot start program a (/no/such/solver --fast)",
        ),
    ] {
        speed(args).stderr(predicates::str::contains(says));
    }
}

#[test]
fn compare_reports_programs_beside_the_rungs() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    let set = f.path("set.txt");
    std::fs::write(&set, format!("{UNIQUE}\n{TWO_SOLUTIONS}\n{NO_SOLUTION}\n")).expect("write set");
    let out = f.path("report");
    let compare = |programs: &[String]| {
        let mut c = lab();
        c.args([
            "compare",
            "--min-time",
            "0",
            "--min-samples",
            "1",
            "-s",
            "bitmask,mrv",
        ])
        .arg("--dataset")
        .arg(&set)
        .arg("--out")
        .arg(&out);
        for p in programs {
            c.arg("--program").arg(p);
        }
        c.args(["--program-mode", "lex-first"]);
        c
    };
    let right = f.spec("right", "right.py", "line");
    let wrong = f.spec("wrong", "wrong.py", "");
    let done = compare(&[right.clone(), wrong]).assert().code(1);
    let console = String::from_utf8_lossy(&done.get_output().stdout).to_string();
    assert!(console.contains("program runs failed"), "{console}");

    let csv = std::fs::read(out.join("programs.csv")).expect("programs.csv");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 6, "3 puzzles × 2 programs");
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["strategy"].as_str(), r["outcome"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("right", "solved"),
            ("wrong", "wrong-answer"),
            ("right", "solved"),
            ("wrong", "wrong-answer"),
            ("right", "no-solution"),
            ("wrong", "wrong-answer"),
        ]
    );
    for r in &rows {
        assert_eq!(r["nodes"], "", "node columns are empty for programs");
        assert_eq!(r["clock"], "child-cpu");
        assert!(r["time_ns"].parse::<f64>().expect("a time") > 0.0);
        assert_eq!(r["reason"].is_empty(), r["strategy"] == "right", "{r:?}");
    }
    let readme = std::fs::read_to_string(out.join("README.md")).expect("README.md");
    assert!(readme.contains("## Outside programs"), "{readme}");
    // The chart of programs among the rungs, both ways, linked from the report.
    let svg = std::fs::read_to_string(out.join("programs.svg")).expect("programs.svg");
    for bar in ["bitmask", "mrv", "right (whole)", "right beyond start-up"] {
        assert!(svg.contains(bar), "programs.svg lacks {bar}");
    }
    assert!(
        std::fs::metadata(out.join("programs.png"))
            .expect("programs.png")
            .len()
            > 0
    );
    assert!(readme.contains("](programs.svg)"), "{readme}");
    // Placed on 4×4 against both rungs, over the 3 puzzles all finished.
    let sentence = readme
        .lines()
        .find(|l| l.starts_with("- `right`"))
        .expect("a placement of `right`");
    assert!(sentence.contains("on 4×4"), "{sentence}");
    assert!(
        sentence.contains("`bitmask`") || sentence.contains("`mrv`"),
        "{sentence}"
    );
    assert!(
        readme.contains("`wrong` on set puzzle 1 (line 1): wrong-answer:"),
        "{readme}"
    );

    // `report` redraws the same section from the folder.
    lab().arg("report").arg(&out).assert().code(1);
    let again = std::fs::read_to_string(out.join("README.md")).expect("README.md");
    assert!(again.contains(sentence), "{again}");

    // Only the right program: exit 0.
    compare(&[right]).assert().success();
}

/// A program that tries every way to outlive the lab: a child in its group,
/// a daemon in a session of its own (`setsid`) with a child of its own, then
/// a busy loop. Every process carries `argv[1]` (a token) in its command
/// line, so the test finds survivors whoever their parent is.
const ESCAPES: &str = r#"
import subprocess, sys
tok = sys.argv[1]
sleeper = "import time\nwhile True: time.sleep(1)"
daemon = ("import subprocess, sys, time\n"
          "subprocess.Popen([sys.executable, '-c', %r, sys.argv[1]])\n"
          "while True: time.sleep(1)" % sleeper)
subprocess.Popen([sys.executable, "-c", sleeper, tok])
subprocess.Popen([sys.executable, "-c", daemon, tok], start_new_session=True)
while True:
    pass
"#;

/// Live (not zombie) processes whose command line holds `token`.
fn holding(token: &str) -> Vec<i32> {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|p| p.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.windows(token.len()).any(|w| w == token.as_bytes()))
                && alive(pid)
        })
        .collect()
}

/// Issue 30: a lab interrupted at 20 seeded random moments, by SIGINT,
/// SIGTERM, SIGHUP and SIGKILL in turn, while `speed` or `compare` runs a
/// program that starts a child and a `setsid` daemon, never leaves one of
/// them running. What is asserted does not depend on the moment: the lab
/// ends (130 from its handler, or the signal itself when it arrived before
/// the handler was installed or was SIGKILL), no process of the program
/// survives, and an interrupted `compare` leaves no staging folder. Only the
/// waits depend on the machine's speed, and they are bounded.
#[test]
fn interrupted_runs_leave_no_program_behind() {
    use rand::{Rng, SeedableRng};
    use std::os::unix::process::ExitStatusExt;
    use std::time::Instant;
    if python().is_none() || !Path::new("/proc/self/stat").exists() {
        return;
    }
    let f = Fixtures::new();
    std::fs::write(f.path("escapes.py"), ESCAPES).expect("write fixture");
    let set = f.path("set.txt");
    std::fs::write(&set, format!("{UNIQUE}\n")).expect("write set");
    let bin = assert_cmd::cargo::cargo_bin("sudoku-lab");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(30);
    let signals = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGKILL];
    for round in 0..20 {
        let token = format!("sudoku-lab-issue-30-{}-{round}", std::process::id());
        let sig = signals[round % signals.len()];
        let out = f.path(&format!("report-{round}"));
        let mut cmd = std::process::Command::new(&bin);
        if round % 2 == 0 {
            cmd.args([
                "speed",
                "--min-time",
                "0",
                "--min-samples",
                "1",
                "-s",
                "bitmask",
            ])
            .arg(&set);
        } else {
            cmd.args([
                "compare",
                "--min-time",
                "0",
                "--min-samples",
                "1",
                "-s",
                "bitmask",
            ])
            .arg("--dataset")
            .arg(&set)
            .arg("--out")
            .arg(&out);
        }
        cmd.arg("--program")
            .arg(f.spec("esc", "escapes.py", &token))
            .args(["--time-limit", "60"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut lab = cmd.spawn().expect("start the lab");
        let moment = Duration::from_millis(rng.random_range(0..1500));
        std::thread::sleep(moment);
        // SAFETY: kill has no memory effects; the child is not reaped yet.
        unsafe {
            libc::kill(lab.id() as i32, sig);
        }
        let start = Instant::now();
        let status = loop {
            if let Some(s) = lab.try_wait().expect("wait for the lab") {
                break s;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = lab.kill();
                panic!("round {round}: the lab did not end within 60 s of signal {sig}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let by_handler = sig != libc::SIGKILL && status.code() == Some(130);
        assert!(
            by_handler || status.signal() == Some(sig),
            "round {round} ({moment:?}, signal {sig}): {status:?}"
        );
        // Killed processes are reaped by whoever inherits them (and after a
        // SIGKILL the watchdog needs a moment): wait, boundedly, for none.
        let start = Instant::now();
        let mut left = holding(&token);
        while !left.is_empty() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
            left = holding(&token);
        }
        for &pid in &left {
            // SAFETY: as above; ends the survivor before the test fails.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        assert!(
            left.is_empty(),
            "round {round} ({moment:?}, signal {sig}): survivors {left:?}"
        );
        if sig != libc::SIGKILL && out.is_dir() {
            let staging: Vec<_> = std::fs::read_dir(&out)
                .expect("list the report folder")
                .flatten()
                .filter(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with(".sudoku-lab.partial-")
                })
                .collect();
            assert!(staging.is_empty(), "round {round}: {staging:?}");
        }
    }
}

/// The solution of [`UNIQUE`].
const UNIQUE_SOLVED: &str = "1234341221434321";

/// Prints `argv[2]` as fast as it can, forever, without reading its input,
/// and keeps in the file `argv[1]` how many bytes it has written so far.
const FLOOD: &str = r#"
import sys
line = (sys.argv[2] + "\n").encode()
chunk = line * 1000
out = sys.stdout.buffer
n = 0
while True:
    out.write(chunk)
    out.flush()
    n += len(chunk)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(n))
    import os
    os.replace(sys.argv[1] + ".tmp", sys.argv[1])
"#;

/// Issue 30, point 2: a streaming program that prints without end cannot
/// grow the lab. The lab reads a bounded number of lines ahead, so the
/// program is soon blocked by its full pipe: how much it managed to write
/// stops growing, far below what an unbounded reader takes in (it grew the
/// lab by 525 MB in 6 s). The wait ends when the count has not moved for a
/// second, or at once when the bound is passed.
#[test]
fn a_streaming_program_that_prints_forever_is_held_by_its_pipe() {
    use std::time::Instant;
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    std::fs::write(f.path("flood.py"), FLOOD).expect("write fixture");
    let count = f.path("written");
    let args = format!("'{}' {UNIQUE_SOLVED}", count.to_str().expect("UTF-8"));
    let mut p = f.program("flood", "flood.py", &args);
    p.feed = Feed::Stream;
    let mut session = Session::new(&p);
    let b = board(UNIQUE);
    let r = session.run(&b, &Reference::new(&b)).expect("starts");
    assert_eq!(r.outcome, Outcome::Solved, "{}", r.reason);
    let written = || -> u64 {
        std::fs::read_to_string(&count)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    };
    const BOUND: u64 = 8 << 20;
    let start = Instant::now();
    let (mut last, mut since) = (written(), Instant::now());
    while start.elapsed() < Duration::from_secs(60) && last <= BOUND {
        std::thread::sleep(Duration::from_millis(100));
        let now = written();
        if now != last {
            (last, since) = (now, Instant::now());
        } else if last > 0 && since.elapsed() > Duration::from_secs(1) {
            break;
        }
    }
    assert!(
        last > 0 && last <= BOUND,
        "the program wrote {last} bytes while the lab held its session"
    );
    // The session still answers from the lines it held.
    let r = session.run(&b, &Reference::new(&b)).expect("runs");
    assert_eq!(r.outcome, Outcome::Solved, "{}", r.reason);
}

/// Issue 30, point 3: a streaming program that answers without reading its
/// input fills its input pipe. The lab's write gives up at the time limit
/// (`time-limit`, with the reason), and the next puzzle gets a fresh
/// process. Before, the write blocked forever: the run happens on a thread
/// so that a hang fails the test instead of stalling it.
#[test]
fn a_streaming_program_that_never_reads_cannot_block_the_lab() {
    if python().is_none() {
        return;
    }
    let f = Fixtures::new();
    std::fs::write(f.path("flood.py"), FLOOD).expect("write fixture");
    let count = f.path("written");
    let args = format!("'{}' {UNIQUE_SOLVED}", count.to_str().expect("UTF-8"));
    let mut p = f.program("deaf", "flood.py", &args);
    p.feed = Feed::Stream;
    // Room for the interpreter to start on a busy machine.
    p.time_limit = Duration::from_secs(10);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let b = board(UNIQUE);
        let reference = Reference::new(&b);
        let mut session = Session::new(&p);
        // 17 bytes a puzzle: far more than a pipe holds (64 KiB on Linux).
        let mut outcomes = Vec::new();
        for _ in 0..20_000 {
            let r = session.run(&b, &reference).expect("runs");
            let limit = r.outcome == Outcome::TimeLimit;
            outcomes.push((r.outcome, r.reason));
            if limit {
                // One more: a fresh process answers it.
                let r = session.run(&b, &reference).expect("runs");
                outcomes.push((r.outcome, r.reason));
                break;
            }
        }
        let _ = tx.send(outcomes);
    });
    let outcomes = rx
        .recv_timeout(Duration::from_secs(180))
        .expect("the lab blocked writing to a program that does not read");
    let n = outcomes.len();
    assert!(n >= 3, "{outcomes:?}");
    assert!(
        outcomes[..n - 2].iter().all(|(o, _)| *o == Outcome::Solved),
        "every puzzle before the full pipe is answered"
    );
    assert_eq!(
        outcomes[n - 2],
        (
            Outcome::TimeLimit,
            "the program read none of the puzzle within 10 s (its input is full)".to_string()
        )
    );
    assert_eq!(outcomes[n - 1].0, Outcome::Solved, "{:?}", outcomes[n - 1]);
}
