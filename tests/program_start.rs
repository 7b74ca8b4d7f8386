//! A program that cannot start stops the command with one exit code (2,
//! a bad `--program`) before any puzzle, whether the system cannot run it
//! (`./missing`) or its interpreter would start without its script
//! (`python3 missing.py`, which would otherwise fail every puzzle, exit 1).

mod compare_support;

use compare_support::lab;
use predicates::str::contains;

#[test]
fn a_program_that_cannot_start_exits_2_either_way() {
    let puzzles = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/puzzles/tiny-4x4.txt");
    for command in ["./no-such-solver", "python3 no-such-solver.py"] {
        lab()
            .args(["speed", "-s", "bitmask", "--program"])
            .arg(format!("mine={command}"))
            .arg(puzzles)
            .assert()
            .code(2)
            .stderr(contains(format!("cannot start program mine ({command})")));
    }
}
