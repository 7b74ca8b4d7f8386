use std::process::ExitCode;

use clap::Parser;
use sudoku_lab::cli::{Cli, EXIT_USAGE, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
