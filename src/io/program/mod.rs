//! Outside solver programs beside the ladder: any executable that reads a
//! puzzle on standard input and prints its answer on standard output (a
//! Baekjoon 2580 or 2239 submission, a C solver, a Python script).
//!
//! The lab never trusts a program's answer. For every puzzle it
//!
//! 1. renders the puzzle in the program's [`Format`] (`line`: one line of
//!    n² symbols, `.` for a blank; `grid`: Baekjoon 2580, n lines of n
//!    space-separated numbers, `0` for a blank; `compact`: Baekjoon 2239, n
//!    lines of n digits) and writes it to the program's standard input;
//! 2. reads standard output until the program exits (one process per puzzle,
//!    [`Feed::PerPuzzle`]) or until a whole answer has arrived
//!    ([`Feed::Stream`]), killing the program and everything it started
//!    (its process group) when the [`Program::time_limit`] passes;
//! 3. judges the answer: a valid completion of the givens, and in
//!    [`Mode::LexFirst`] also the lexicographically first solution, which
//!    the lab's row-major rungs find first ([`Reference`]).
//!
//! Each puzzle gets one [`ProgramRun`]: an [`Outcome`](crate::Outcome) (`solved`,
//! `no-solution` when the program rightly printed nothing for a puzzle
//! without solution, `wrong-answer`, `time-limit`, `crashed`, `bad-output`,
//! `unsupported`) with a short reason, the wall-clock time and the child's
//! CPU time. A failed puzzle never stops a run: commands report it and exit 1.
//!
//! ```no_run
//! use sudoku_lab::io::program::{Program, Reference, Session};
//! use sudoku_lab::{Board, BoxSize, Outcome};
//!
//! // `--program mine=./solver --program-format grid`
//! let mut program = Program::parse("mine=./solver").unwrap();
//! program.format = sudoku_lab::Format::Grid;
//! let puzzle = Board::empty(BoxSize::NINE);
//! let mut session = Session::new(&program);
//! let run = session.run(&puzzle, &Reference::new(&puzzle)).unwrap();
//! if run.outcome != Outcome::Solved {
//!     eprintln!("{}: {} ({})", program.name, run.outcome, run.reason);
//! }
//! ```

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::base::format::Format;
use crate::base::strategy::Strategy;

mod answer;
mod command;
mod process;
mod reaper;
mod session;

pub use answer::{Reference, judge, parse_answer};
pub use command::split_command;
pub use reaper::{MARKER, end_all, goodbye};
pub use session::{ProgramRun, Session, StartError};

/// The most output kept from one run of a program; more is `bad-output`.
/// A correct 25×25 answer is under 2 KiB.
pub(crate) const MAX_OUTPUT: usize = 1 << 20;

/// The name a program goes by in tables, CSV files and charts: lower-case
/// letters, digits and `-`, starting with a letter (the rule rung names
/// follow), and never the name of a strategy.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProgramName(String);

impl ProgramName {
    /// Checks `name` against the naming rule and the ladder.
    ///
    /// ```
    /// use sudoku_lab::io::program::ProgramName;
    /// assert!(ProgramName::new("seed-2239").is_ok());
    /// assert!(ProgramName::new("bitmask").is_err()); // a strategy's name
    /// assert!(ProgramName::new("My Solver").is_err());
    /// ```
    pub fn new(name: &str) -> Result<ProgramName, SpecError> {
        let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid {
            return Err(SpecError::BadName(name.to_string()));
        }
        if Strategy::from_name(name).is_some() {
            return Err(SpecError::StrategyName(name.to_string()));
        }
        Ok(ProgramName(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ProgramName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Which answers a program may give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Any valid completion of the givens (Baekjoon 2580).
    #[default]
    Any,
    /// Only the lexicographically first solution, reading the grid row by
    /// row (Baekjoon 2239).
    LexFirst,
}

/// How puzzles reach a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Feed {
    /// A fresh process per puzzle: standard input holds one puzzle and is
    /// then closed; the answer is everything printed before the exit. The
    /// time includes starting the process (and an interpreter).
    #[default]
    PerPuzzle,
    /// One process for many puzzles: the lab writes a puzzle, waits for one
    /// whole answer (1 line in `line` format, n lines in `grid`/`compact`;
    /// blank lines are skipped), then writes the next; standard input is
    /// closed after the last. The program must flush after each answer. The
    /// time of a puzzle is the wall-clock time from writing it to reading its
    /// answer (CPU time per puzzle is not known). A program that fails a
    /// puzzle (time limit, crash, unreadable answer) is restarted for the next.
    Stream,
}

/// One outside program and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub name: ProgramName,
    /// The command as given (shown in reports).
    pub command: String,
    /// The command split into arguments ([`split_command`]); never empty.
    pub argv: Vec<String>,
    pub format: Format,
    pub mode: Mode,
    pub feed: Feed,
    /// Wall-clock time a puzzle may take before the program is killed.
    pub time_limit: Duration,
}

impl Program {
    /// A program from `NAME=COMMAND` (the `--program` flag), with the default
    /// format (`line`), mode (`any`), feed (a process per puzzle) and
    /// `crate::base::defaults::TIME_LIMIT`.
    ///
    /// ```
    /// use sudoku_lab::io::program::Program;
    /// let p = Program::parse("mine=python3 'my solver.py' --fast").unwrap();
    /// assert_eq!(p.name.as_str(), "mine");
    /// assert_eq!(p.argv, ["python3", "my solver.py", "--fast"]);
    /// assert!(Program::parse("python3 solver.py").is_err()); // no NAME=
    /// ```
    pub fn parse(spec: &str) -> Result<Program, SpecError> {
        let (name, command) = spec
            .split_once('=')
            .ok_or_else(|| SpecError::NoName(spec.to_string()))?;
        let name = ProgramName::new(name)?;
        let argv = split_command(command)?;
        Ok(Program {
            name,
            command: command.to_string(),
            argv,
            format: Format::Line,
            mode: Mode::Any,
            feed: Feed::PerPuzzle,
            time_limit: crate::base::defaults::TIME_LIMIT,
        })
    }
}

/// A `--program-format`, `--program-mode` or `--program-feed` value:
/// `VALUE` for every program, or `NAME=VALUE` for one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting<T> {
    /// The program it applies to; `None`: every program.
    pub program: Option<String>,
    pub value: T,
}

impl<T: std::str::FromStr<Err = SpecError>> std::str::FromStr for Setting<T> {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let (program, value) = match s.split_once('=') {
            Some((name, value)) => (Some(name.to_string()), value),
            None => (None, s),
        };
        let value = value.parse()?;
        Ok(Setting { program, value })
    }
}

/// Applies settings in order to `programs`: a setting for every program,
/// then those for one program, whatever their order on the command line.
/// A setting naming no program is an error.
///
/// ```
/// use sudoku_lab::io::program::{Mode, Program, Setting, apply};
/// let mut ps = vec![Program::parse("a=./a").unwrap(), Program::parse("b=./b").unwrap()];
/// // `--program-mode b=lex-first --program-mode any`
/// let modes: Vec<Setting<Mode>> = vec!["b=lex-first".parse().unwrap(), "any".parse().unwrap()];
/// apply(&mut ps, &modes, |p| &mut p.mode).unwrap();
/// assert_eq!((ps[0].mode, ps[1].mode), (Mode::Any, Mode::LexFirst));
/// ```
pub fn apply<T: Copy>(
    programs: &mut [Program],
    settings: &[Setting<T>],
    field: fn(&mut Program) -> &mut T,
) -> Result<(), SpecError> {
    for s in settings.iter().filter(|s| s.program.is_none()) {
        programs.iter_mut().for_each(|p| *field(p) = s.value);
    }
    for s in settings {
        let Some(name) = &s.program else { continue };
        let p = programs
            .iter_mut()
            .find(|p| p.name.as_str() == name)
            .ok_or_else(|| SpecError::UnknownProgram(name.clone()))?;
        *field(p) = s.value;
    }
    Ok(())
}

/// Checks that no two programs share a name.
pub(crate) fn check_unique(programs: &[Program]) -> Result<(), SpecError> {
    for (i, p) in programs.iter().enumerate() {
        if programs[..i].iter().any(|q| q.name == p.name) {
            return Err(SpecError::Duplicate(p.name.to_string()));
        }
    }
    Ok(())
}

/// A program's answer layout, as `--program-format` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FormatArg(pub Format);

/// `FromStr` (unknown names are a [`SpecError::BadValue`] that lists the
/// valid ones) and `Display` of a program setting, from one table of names.
macro_rules! setting_names {
    ($ty:ident, $what:literal, $($value:expr => $name:literal),+) => {
        impl std::str::FromStr for $ty {
            type Err = SpecError;
            fn from_str(s: &str) -> Result<Self, SpecError> {
                $(if s == $name {
                    return Ok($value);
                })+
                let (what, found, valid) = ($what, s.to_string(), &[$($name),+]);
                Err(SpecError::BadValue { what, found, valid })
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let names = [$(($value, $name)),+];
                f.write_str(names.iter().find(|(v, _)| v == self).map_or("", |(_, n)| n))
            }
        }
    };
}

setting_names!(Mode, "mode", Mode::Any => "any", Mode::LexFirst => "lex-first");
setting_names!(Feed, "feed", Feed::PerPuzzle => "per-puzzle", Feed::Stream => "stream");
// `line`, `grid` (Baekjoon 2580) or `compact` (2239).
setting_names!(FormatArg, "format", FormatArg(Format::Line) => "line",
    FormatArg(Format::Grid) => "grid", FormatArg(Format::Compact) => "compact");

/// A `--program` (or setting) the lab cannot use. Usage errors (exit 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("--program {0:?}: expected NAME=COMMAND")]
    NoName(String),
    #[error(
        "program name {0:?} is not valid: use lower-case letters, digits and '-', starting with a letter"
    )]
    BadName(String),
    #[error("program name {0:?} is a strategy's name; pick another")]
    StrategyName(String),
    #[error("two programs are named {0:?}")]
    Duplicate(String),
    #[error("no --program is named {0:?}")]
    UnknownProgram(String),
    #[error("the command of a program is empty")]
    EmptyCommand,
    #[error("unterminated {0} quote in the command {1:?}")]
    Unterminated(char, String),
    #[error("the command {0:?} ends with a lone backslash")]
    TrailingBackslash(String),
    #[error("unknown {what} {found:?} (valid: {})", valid.join(", "))]
    BadValue {
        what: &'static str,
        found: String,
        valid: &'static [&'static str],
    },
}

/// Who produced a row of `speed` or `compare`: a rung of the ladder or an
/// outside program. Written (CSV, tables) as its name; the two never share
/// a name ([`ProgramName::new`]).
///
/// ```
/// use sudoku_lab::io::program::{Entrant, ProgramName};
/// use sudoku_lab::Strategy;
/// assert_eq!(Entrant::Rung(Strategy::Mrv).to_string(), "mrv");
/// let mine = Entrant::Program(ProgramName::new("mine").unwrap());
/// assert_eq!((mine.name(), mine.strategy()), ("mine", None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Entrant {
    Rung(Strategy),
    Program(ProgramName),
}

impl Entrant {
    pub fn name(&self) -> &str {
        match self {
            Entrant::Rung(s) => s.name(),
            Entrant::Program(p) => p.as_str(),
        }
    }

    /// The rung, if this is one.
    pub fn strategy(&self) -> Option<Strategy> {
        match self {
            Entrant::Rung(s) => Some(*s),
            Entrant::Program(_) => None,
        }
    }
}

impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Entrant {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.name())
    }
}

/// A strategy's name reads as that rung; any other valid name as a program.
impl<'de> Deserialize<'de> for Entrant {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let name = String::deserialize(de)?;
        match Strategy::from_name(&name) {
            Some(s) => Ok(Entrant::Rung(s)),
            None => ProgramName::new(&name)
                .map(Entrant::Program)
                .map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rung_rule_and_avoid_strategies() {
        assert!(ProgramName::new("a").is_ok());
        assert!(ProgramName::new("seed-2580").is_ok());
        for bad in ["", "2580", "A", "my_solver", "a b", "-x"] {
            assert_eq!(
                ProgramName::new(bad),
                Err(SpecError::BadName(bad.into())),
                "{bad}"
            );
        }
        for s in Strategy::ALL {
            assert_eq!(
                ProgramName::new(s.name()),
                Err(SpecError::StrategyName(s.name().into()))
            );
        }
    }

    #[test]
    fn settings_for_all_then_for_one() {
        let mut ps = vec![
            Program::parse("a=x").unwrap(),
            Program::parse("b=y").unwrap(),
        ];
        let settings: Vec<Setting<Mode>> = ["b=lex-first", "any"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        apply(&mut ps, &settings, |p| &mut p.mode).unwrap();
        assert_eq!([ps[0].mode, ps[1].mode], [Mode::Any, Mode::LexFirst]);
        let unknown: Vec<Setting<Mode>> = vec!["c=any".parse().unwrap()];
        assert_eq!(
            apply(&mut ps, &unknown, |p| &mut p.mode),
            Err(SpecError::UnknownProgram("c".into()))
        );
        assert!("b=sideways".parse::<Setting<Mode>>().is_err());
        let f: Setting<FormatArg> = "grid".parse().unwrap();
        assert_eq!(f.value, FormatArg(Format::Grid));
        let feed: Setting<Feed> = "a=stream".parse().unwrap();
        assert_eq!(feed.value, Feed::Stream);
    }

    #[test]
    fn duplicate_names_are_refused() {
        let ps = vec![
            Program::parse("a=x").unwrap(),
            Program::parse("a=y").unwrap(),
        ];
        assert_eq!(check_unique(&ps), Err(SpecError::Duplicate("a".into())));
    }

    #[test]
    fn entrants_read_back_by_name() {
        #[derive(Serialize, Deserialize)]
        struct R {
            e: Entrant,
        }
        for e in [
            Entrant::Rung(Strategy::Mrv),
            Entrant::Program(ProgramName::new("mine").unwrap()),
        ] {
            let text = crate::io::csv_file::serialized(&[R { e: e.clone() }]).unwrap();
            let mut r = csv::Reader::from_reader(text.as_bytes());
            let back: R = r.deserialize().next().unwrap().unwrap();
            assert_eq!(back.e, e);
        }
    }
}
