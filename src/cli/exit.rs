//! From an error to an exit code, in one place: [`Failure::of`] reads what
//! kind of failure an error is from its causes, [`exit_code`] reports it.
//! The entry ([`super::run_with`]) calls [`parse`] and [`exit_code`].

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser;

use super::{Cli, EXIT_BUG, EXIT_IO, EXIT_USAGE};

/// What an error means for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The reader of standard output went away (`| head`): end quietly and
    /// successfully, as ripgrep does.
    ClosedPipe,
    Usage,
    Io,
    Bug,
}

impl Failure {
    /// Classifies an error by its causes: a bug wins, then a standard-output
    /// failure, then an I/O error the system reported for a path that exists.
    pub fn of(err: &anyhow::Error) -> Failure {
        use std::io::ErrorKind;
        let bug = err.chain().any(|e| {
            e.is::<crate::base::strategy::WrongSolution>() || e.to_string().starts_with("BUG:")
        });
        if bug {
            return Failure::Bug;
        }
        // A program that cannot be started (not found, not executable) is a
        // bad `--program`, whatever the system's reason.
        let spawn = err.chain().any(|e| {
            matches!(
                e.downcast_ref::<crate::io::program::StartError>(),
                Some(crate::io::program::StartError::Spawn { .. })
            )
        });
        if spawn {
            return Failure::Usage;
        }
        match crate::io::output::stdout_failure(err.as_ref()) {
            Some(ErrorKind::BrokenPipe) => return Failure::ClosedPipe,
            Some(_) => return Failure::Io,
            None => {}
        }
        let io = err
            .chain()
            .filter_map(|e| e.downcast_ref::<std::io::Error>())
            .any(|e| {
                !matches!(
                    e.kind(),
                    ErrorKind::NotFound | ErrorKind::InvalidData | ErrorKind::InvalidInput
                )
            });
        if io { Failure::Io } else { Failure::Usage }
    }

    pub fn code(self) -> u8 {
        match self {
            Failure::ClosedPipe => 0,
            Failure::Usage => EXIT_USAGE,
            Failure::Io => EXIT_IO,
            Failure::Bug => EXIT_BUG,
        }
    }
}

/// Reports a failed command on standard error (unless the pipe was closed)
/// and returns its exit code.
pub fn exit_code(err: &anyhow::Error) -> ExitCode {
    let failure = Failure::of(err);
    if failure != Failure::ClosedPipe {
        crate::io::output::note(format_args!("error: {err:#}"));
    }
    ExitCode::from(failure.code())
}

/// Parses the command line `argv` (program name first). Help and version go
/// to standard output and follow the same rules as every command's output;
/// clap's errors exit 2.
pub fn parse(argv: &[OsString]) -> Result<Cli, ExitCode> {
    Cli::try_parse_from(argv).map_err(|e| match e.print() {
        Err(io) if !e.use_stderr() => exit_code(&crate::io::output::stdout_error(io).into()),
        _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE)),
    })
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::base::board::{Board, BoxSize};
    use crate::base::strategy::{Strategy, WrongSolution};

    fn of(e: impl Into<anyhow::Error>) -> Failure {
        Failure::of(&e.into())
    }

    #[test]
    fn failures_by_cause() {
        let size = BoxSize::new(2).unwrap();
        let wrong = WrongSolution {
            strategy: Strategy::ALL[0],
            puzzle: Board::empty(size),
            reason: crate::base::board::VerifyError::SizeMismatch,
        };
        assert_eq!(
            of(anyhow::Error::from(wrong).context("dataset d")),
            Failure::Bug
        );
        assert_eq!(
            of(anyhow::anyhow!("BUG: counted and uncounted differ")),
            Failure::Bug
        );
        let pipe = crate::io::output::stdout_error(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(
            of(anyhow::Error::from(pipe).context("table")),
            Failure::ClosedPipe
        );
        let full = crate::io::output::stdout_error(io::Error::from(io::ErrorKind::StorageFull));
        assert_eq!(of(full), Failure::Io);
        // A broken pipe that is not standard output (a FIFO given to --out) is I/O.
        assert_eq!(of(io::Error::from(io::ErrorKind::BrokenPipe)), Failure::Io);
        let denied = anyhow::Error::from(io::Error::from(io::ErrorKind::PermissionDenied))
            .context("cannot write x");
        assert_eq!(of(denied), Failure::Io);
        assert_eq!(of(io::Error::from(io::ErrorKind::NotFound)), Failure::Usage);
        assert_eq!(
            of(io::Error::from(io::ErrorKind::InvalidData)),
            Failure::Usage
        );
        assert_eq!(of(anyhow::anyhow!("--steps is too large")), Failure::Usage);
        let codes = [
            Failure::ClosedPipe,
            Failure::Usage,
            Failure::Io,
            Failure::Bug,
        ];
        assert_eq!(codes.map(Failure::code), [0, 2, 74, 70]);
    }
}
