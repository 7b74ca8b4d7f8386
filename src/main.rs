use std::process::ExitCode;

use sudoku_lab::cli::{exit_code, parse, run};

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) => exit_code(&err),
    }
}
