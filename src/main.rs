//! The `sudoku-lab` program: the library's command line with the built-in
//! rungs. A program that adds rungs of its own calls the same entry.

fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[])
}
