//! Running one program on puzzle after puzzle: a process per puzzle, or one
//! process fed puzzle by puzzle ([`super::Feed`]).

use std::io::{self, BufRead, BufReader, Read as _};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::base::board::Board;
use crate::base::format::{Format, render};
use crate::base::strategy::{Outcome, WrongSolution};

use super::{Feed, MAX_OUTPUT, Program, Reference, judge};
use crate::io::program::process::{
    Ended, Exit, PIPE_GRACE, Proc, capture, last_line, signal_name, write_until,
};

/// One program on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramRun {
    pub outcome: Outcome,
    /// Why, in a few words; empty when the puzzle was solved (or rightly
    /// found to have no solution).
    pub reason: String,
    /// Wall-clock time: from starting the process to its exit (per puzzle),
    /// or from writing the puzzle to reading the answer (stream).
    pub wall_ns: u64,
    /// CPU time of the child process, user + system, start-up included
    /// (per puzzle only: `None` in stream mode and for puzzles not run).
    pub cpu_ns: Option<u64>,
}

impl ProgramRun {
    /// The time of the run: the child's CPU time when known, else wall time.
    pub fn ns(&self) -> u64 {
        self.cpu_ns.unwrap_or(self.wall_ns)
    }

    fn not_run(outcome: Outcome, reason: String) -> ProgramRun {
        ProgramRun {
            outcome,
            reason,
            wall_ns: 0,
            cpu_ns: None,
        }
    }
}

/// A program could not be run at all, or the lab found a bug in itself.
/// Either stops the command (a failed *puzzle* never does).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    // The cause follows from `source` (`{:#}` prints it once).
    #[error("cannot start program {name} ({command})")]
    Spawn {
        name: String,
        command: String,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Bug(#[from] WrongSolution),
}

/// Extensions of the scripts an interpreter is handed (`python3 x.py`).
const SCRIPTS: [&str; 12] = [
    "py", "rb", "pl", "js", "mjs", "php", "lua", "jar", "sh", "bash", "r", "jl",
];

/// The first argument after the command that names a script (by its
/// extension, not an option) which does not exist.
fn missing_script(argv: &[String]) -> Option<&str> {
    argv.iter().skip(1).map(String::as_str).find(|a| {
        !a.starts_with('-')
            && std::path::Path::new(a)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SCRIPTS.contains(&e.to_ascii_lowercase().as_str()))
            && !std::path::Path::new(a).exists()
    })
}

/// Runs one program on puzzles, one at a time, in the program's
/// [`Feed`]. In stream mode the process lives across calls (and is
/// restarted after a failed puzzle); dropping the session ends it.
///
/// ```
/// # #[cfg(unix)] {
/// use sudoku_lab::io::program::{Program, Reference, Session};
/// use sudoku_lab::{Outcome, base::format::parse_one};
///
/// let puzzle = parse_one(".234341221434321").unwrap().1.board; // 4×4, r1c1 blank
/// let reference = Reference::new(&puzzle);
/// // A "solver" that prints a fixed answer: right for this puzzle...
/// let right = Program::parse("right=printf 1234341221434321").unwrap();
/// let run = Session::new(&right).run(&puzzle, &reference).unwrap();
/// assert_eq!(run.outcome, Outcome::Solved);
/// assert!(run.cpu_ns.is_some()); // the child's CPU time, from wait4
/// // ...wrong when it changes a given...
/// let wrong = Program::parse("wrong=printf 1334341221434321").unwrap();
/// let run = Session::new(&wrong).run(&puzzle, &reference).unwrap();
/// assert_eq!(run.outcome, Outcome::WrongAnswer);
/// assert_eq!(run.reason, "solution changes the given at r1c2 from 2 to 3");
/// // ...and a crash is a crash.
/// let crash = Program::parse("crash=sh -c 'exit 3'").unwrap();
/// let run = Session::new(&crash).run(&puzzle, &reference).unwrap();
/// assert_eq!((run.outcome, run.reason.as_str()), (Outcome::Crashed, "exit status 3"));
/// # }
/// ```
#[derive(Debug)]
pub struct Session<'p> {
    program: &'p Program,
    stream: Option<Stream>,
}

/// A streaming process and the lines it has printed.
#[derive(Debug)]
struct Stream {
    proc: Proc,
    lines: Receiver<Line>,
}

#[derive(Debug)]
enum Line {
    Text(String),
    TooLong,
    End,
}

impl<'p> Session<'p> {
    pub fn new(program: &'p Program) -> Session<'p> {
        Session {
            program,
            stream: None,
        }
    }

    pub fn program(&self) -> &Program {
        self.program
    }

    /// Runs the program on `puzzle` and judges its answer against
    /// `reference` (made from the same puzzle).
    pub fn run(&mut self, puzzle: &Board, reference: &Reference) -> Result<ProgramRun, StartError> {
        let p = self.program;
        if p.format == Format::Compact && puzzle.size().side() > 9 {
            return Ok(ProgramRun::not_run(
                Outcome::Unsupported,
                "the compact layout holds 4×4 and 9×9 boards only".to_string(),
            ));
        }
        let mut input = render(puzzle, p.format);
        if p.format == Format::Line {
            input.push('\n');
        }
        match p.feed {
            Feed::PerPuzzle => self.once(&input, reference),
            Feed::Stream => self.streamed(&input, puzzle, reference),
        }
    }

    fn spawn(&self) -> Result<Proc, StartError> {
        let start_error = |source| StartError::Spawn {
            name: self.program.name.to_string(),
            command: self.program.command.clone(),
            source,
        };
        // `python3 missing.py` starts the interpreter, which then fails on
        // every puzzle: the same program that cannot start as `./missing`,
        // so the same error (and exit code), before any puzzle.
        if let Some(script) = missing_script(&self.program.argv) {
            return Err(start_error(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{script}: no such file (the program's script)"),
            )));
        }
        Proc::spawn(&self.program.argv).map_err(start_error)
    }

    /// A fresh process for one puzzle.
    fn once(&self, input: &str, reference: &Reference) -> Result<ProgramRun, StartError> {
        let p = self.program;
        let mut proc = self.spawn()?;
        let deadline = Instant::now() + p.time_limit;
        let stdout = proc.stdout.take().map(|o| capture(o, MAX_OUTPUT, false));
        if let Some(stdin) = proc.stdin.as_mut() {
            // A program that does not read its input is judged by its output
            // (and a full pipe waits no longer than the time limit).
            let _ = write_until(stdin, input.as_bytes(), deadline);
        }
        let exit = proc.finish(deadline);
        let out = stdout.map(|rx| rx.recv_timeout(PIPE_GRACE));
        let bad = |why: &str| (Outcome::BadOutput, why.to_string());
        let (outcome, reason) = match (failed(&exit, p.time_limit, &mut proc), out) {
            (Some(failure), _) => failure,
            (None, Some(Ok(got))) if got.overflow => {
                bad(&format!("more than {} MiB of output", MAX_OUTPUT >> 20))
            }
            (None, Some(Ok(got))) => match String::from_utf8(got.bytes) {
                Ok(text) => judge(&text, p.format, p.mode, reference)?,
                Err(_) => bad("output is not UTF-8 text"),
            },
            (None, Some(Err(_))) => bad(
                "standard output still open after the exit (held by a process outside the group)",
            ),
            (None, None) => bad("no standard output"),
        };
        let wall_ns = exit.wall.as_nanos() as u64;
        let cpu_ns = exit.cpu.map(|c| c.as_nanos() as u64);
        Ok(ProgramRun {
            outcome,
            reason,
            wall_ns,
            cpu_ns,
        })
    }

    /// One puzzle through the streaming process (started if needed).
    fn streamed(
        &mut self,
        input: &str,
        puzzle: &Board,
        reference: &Reference,
    ) -> Result<ProgramRun, StartError> {
        let p = self.program;
        let need = match p.format {
            Format::Line => 1,
            Format::Grid | Format::Compact => puzzle.size().side(),
        };
        let stream = self.stream()?;
        let start = Instant::now();
        let deadline = start + p.time_limit;
        let (got, ended) = match stream.send(input, deadline, p.time_limit) {
            Ok(()) => stream.receive(need, deadline, p.time_limit),
            Err(ended) => (Vec::new(), ended),
        };
        let wall_ns = start.elapsed().as_nanos() as u64;
        let verdict = match ended {
            Some(v) => v,
            None if got.len() == need => judge(&got.join("\n"), p.format, p.mode, reference)?,
            None => self.ended_early(got.len(), need, deadline),
        };
        // After a failure the program's state is unknown: the next puzzle
        // gets a fresh process.
        if !matches!(
            verdict.0,
            Outcome::Solved | Outcome::NoSolution | Outcome::WrongAnswer
        ) {
            self.stream = None;
        }
        let (outcome, reason) = verdict;
        Ok(ProgramRun {
            outcome,
            reason,
            wall_ns,
            cpu_ns: None,
        })
    }

    /// The streaming process, started if it is not running.
    fn stream(&mut self) -> Result<&mut Stream, StartError> {
        let stream = match self.stream.take() {
            Some(stream) => stream,
            None => {
                let mut proc = self.spawn()?;
                let lines = match proc.stdout.take() {
                    Some(out) => read_lines(out),
                    None => mpsc::channel().1,
                };
                Stream { proc, lines }
            }
        };
        Ok(self.stream.insert(stream))
    }

    /// The verdict on a program that closed its output (or its input) after
    /// `got` of the `need` lines of an answer: it is ending. Give it the
    /// rest of its time to say why.
    fn ended_early(&mut self, got: usize, need: usize, deadline: Instant) -> (Outcome, String) {
        let limit = self.program.time_limit;
        let mut stream = self.stream.take().expect("running");
        let exit = stream.proc.finish(deadline);
        failed(&exit, limit, &mut stream.proc).unwrap_or_else(|| {
            (
                Outcome::BadOutput,
                format!("the program ended after {got} of the {need} lines of an answer"),
            )
        })
    }
}

impl Stream {
    /// Writes one puzzle to the program by `deadline`. `Err(Some(verdict))`:
    /// it read none of it in time; `Err(None)`: its input is closed.
    fn send(
        &mut self,
        input: &str,
        deadline: Instant,
        limit: Duration,
    ) -> Result<(), Option<(Outcome, String)>> {
        let Some(stdin) = self.proc.stdin.as_mut() else {
            return Err(None);
        };
        match write_until(stdin, input.as_bytes(), deadline) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Some((
                Outcome::TimeLimit,
                format!(
                    "the program read none of the puzzle within {} (its input is full)",
                    seconds(limit)
                ),
            ))),
            Err(_) => Err(None),
        }
    }

    /// Up to `need` lines of an answer by `deadline`, and the verdict if
    /// reading stopped for a cause of its own (`None` when the lines came,
    /// or the output ended).
    fn receive(
        &self,
        need: usize,
        deadline: Instant,
        limit: Duration,
    ) -> (Vec<String>, Option<(Outcome, String)>) {
        let mut got: Vec<String> = Vec::with_capacity(need);
        while got.len() < need {
            let left = deadline.saturating_duration_since(Instant::now());
            let ended = match self.lines.recv_timeout(left) {
                Ok(Line::Text(l)) => {
                    got.push(l);
                    continue;
                }
                Ok(Line::TooLong) => Some((
                    Outcome::BadOutput,
                    format!("a line longer than {} KiB", MAX_LINE >> 10),
                )),
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => None,
                Err(RecvTimeoutError::Timeout) => Some((
                    Outcome::TimeLimit,
                    format!("no answer within {}", seconds(limit)),
                )),
            };
            return (got, ended);
        }
        (got, None)
    }
}

/// The outcome of a process that did not end normally: time limit,
/// signal, non-zero exit status (with the last line of standard error).
fn failed(exit: &Exit, limit: Duration, proc: &mut Proc) -> Option<(Outcome, String)> {
    let why = match exit.ended {
        Ended::Exit(0) => return None,
        Ended::TimedOut => {
            return Some((
                Outcome::TimeLimit,
                format!("killed after {}", seconds(limit)),
            ));
        }
        Ended::Exit(code) => format!("exit status {code}"),
        Ended::Signal(sig) => format!("killed by {}", signal_name(sig)),
    };
    let reason = match last_line(&proc.stderr_tail()) {
        Some(line) => format!("{why}: {line}"),
        None => why,
    };
    Some((Outcome::Crashed, reason))
}

/// A duration as seconds, e.g. `10 s` or `0.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// The longest line a streaming program may print: an answer's longest line
/// (a 25×25 board in the line layout) is 625 characters.
const MAX_LINE: usize = 64 << 10;

/// Lines read ahead of the puzzle being answered. With [`MAX_LINE`], what a
/// streaming program can make the lab hold is bounded (about 4 MiB, plus
/// the pipe): one that prints without end is then blocked by its full pipe.
const LINES_AHEAD: usize = 64;

/// Sends every non-blank line of `out` (trimmed), then `End`, at most
/// [`LINES_AHEAD`] ahead of the reader.
fn read_lines<R: io::Read + Send + 'static>(out: R) -> Receiver<Line> {
    let (tx, rx) = mpsc::sync_channel(LINES_AHEAD);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(out);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let limit = (MAX_LINE + 1) as u64;
            match reader.by_ref().take(limit).read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) if n > MAX_LINE => {
                    let _ = tx.send(Line::TooLong);
                    break;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim();
                    if !line.is_empty() && tx.send(Line::Text(line.to_string())).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Line::End);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::missing_script;

    #[test]
    fn a_missing_script_is_found_by_its_extension() {
        let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            missing_script(&argv(&["python3", "-u", "no-such-solver.py"])),
            Some("no-such-solver.py")
        );
        assert_eq!(
            missing_script(&argv(&["node", "gone/Solver.JS"])),
            Some("gone/Solver.JS")
        );
        // An existing script, options, code and plain words are not.
        let here = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/sample-report.sh");
        assert_eq!(missing_script(&argv(&["sh", here])), None);
        assert_eq!(missing_script(&argv(&["sh", "-c", "exit 3"])), None);
        assert_eq!(missing_script(&argv(&["printf", "1234"])), None);
        assert_eq!(
            missing_script(&argv(&["no-such.py"])),
            None,
            "argv[0] is the system's"
        );
    }
}
