//! `--program NAME=COMMAND` and its settings, shared by `speed` and
//! `compare`. The programs themselves live in [`crate::io::program`].

use std::time::Duration;

use clap::Args;

use crate::base::defaults;
use crate::io::program::{Feed, FormatArg, Mode, Program, Setting, SpecError, apply, check_unique};

/// Outside solver programs to run beside the rungs.
#[derive(Clone, Debug, Default, Args)]
pub struct ProgramArgs {
    /// Run an outside solver program beside the rungs (repeatable): NAME
    /// names it in tables and CSV; COMMAND is split into arguments without a
    /// shell ('...', "..." and \ quote as in sh; nothing is expanded). The
    /// puzzle goes to its standard input, the answer is read from its
    /// standard output and checked.
    #[arg(long = "program", value_name = "NAME=COMMAND", value_parser = Program::parse)]
    pub programs: Vec<Program>,
    /// The layout programs read and print: line (one line, . for a blank),
    /// grid (Baekjoon 2580: rows of space-separated numbers, 0 for a blank)
    /// or compact (Baekjoon 2239: rows of digits). FORMAT for every program,
    /// NAME=FORMAT for one [default: line]
    #[arg(
        long = "program-format",
        value_name = "[NAME=]FORMAT",
        requires = "programs"
    )]
    pub formats: Vec<Setting<FormatArg>>,
    /// Which answers count: any (every valid completion) or lex-first (only
    /// the lexicographically first solution, as Baekjoon 2239 asks); MODE or
    /// NAME=MODE [default: any]
    #[arg(
        long = "program-mode",
        value_name = "[NAME=]MODE",
        requires = "programs"
    )]
    pub modes: Vec<Setting<Mode>>,
    /// How puzzles reach a program: per-puzzle (a new process for each) or
    /// stream (one process answers puzzle after puzzle, flushing each
    /// answer); FEED or NAME=FEED [default: per-puzzle]
    #[arg(
        long = "program-feed",
        value_name = "[NAME=]FEED",
        requires = "programs"
    )]
    pub feeds: Vec<Setting<Feed>>,
    /// Seconds of wall-clock time a program may spend on one puzzle; then it
    /// is killed (with everything it started) and the puzzle recorded as
    /// time-limit.
    #[arg(long = "time-limit", value_name = "SECONDS",
          default_value_t = defaults::TIME_LIMIT.as_secs_f64(), value_parser = parse_seconds)]
    pub time_limit: f64,
}

impl ProgramArgs {
    /// The programs with their settings applied, in command-line order.
    pub fn programs(&self) -> Result<Vec<Program>, SpecError> {
        let mut programs = self.programs.clone();
        check_unique(&programs)?;
        let formats: Vec<Setting<_>> = self
            .formats
            .iter()
            .map(|s| Setting {
                program: s.program.clone(),
                value: s.value.0,
            })
            .collect();
        apply(&mut programs, &formats, |p| &mut p.format)?;
        apply(&mut programs, &self.modes, |p| &mut p.mode)?;
        apply(&mut programs, &self.feeds, |p| &mut p.feed)?;
        let limit = Duration::from_secs_f64(self.time_limit);
        programs.iter_mut().for_each(|p| p.time_limit = limit);
        Ok(programs)
    }
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!(
            "expected seconds above 0 and at most 86400, got {s:?}"
        )),
    }
}
