//! What a new user reaches for: every command's `--help` ends with one to
//! three examples, and a mistyped strategy or dataset name gets the
//! closest real one.

mod compare_support;

use compare_support::lab;
use predicates::str::contains;

const COMMANDS: [&str; 14] = [
    "solve",
    "count",
    "strategies",
    "trace",
    "replay",
    "ladder",
    "compare",
    "report",
    "diff",
    "speed",
    "generate",
    "rate",
    "estimate",
    "datasets",
];

#[test]
fn every_help_ends_with_examples() {
    for command in COMMANDS {
        let out = lab().args([command, "--help"]).output().unwrap();
        assert!(out.status.success(), "{command}");
        let text = String::from_utf8(out.stdout).unwrap();
        let (_, examples) = text
            .rsplit_once("\nExamples:\n")
            .unwrap_or_else(|| panic!("{command} --help has no examples:\n{text}"));
        let lines: Vec<&str> = examples.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!((1..=3).contains(&lines.len()), "{command}: {lines:?}");
        for line in lines {
            let line = line
                .trim_start()
                .trim_start_matches("mkdir -p my-reports && ");
            assert!(
                line.starts_with(&format!("sudoku-lab {command}")) || line.contains("| sudoku-lab"),
                "{command}: {line}"
            );
            // Files the examples write go into my-reports/, never the checkout.
            for flag in ["-o ", "--out ", "--chart "] {
                if let Some((_, rest)) = line.split_once(flag) {
                    assert!(rest.starts_with("my-reports"), "{command}: {line}");
                }
            }
        }
    }
}

#[test]
fn mistyped_names_get_the_closest() {
    lab()
        .args(["ladder", "-s", "mvr", "x.txt"])
        .assert()
        .code(2)
        .stderr(contains("a similar value exists: 'mrv'"));
    lab()
        .args(["compare", "--dataset", "famous-hrad", "-s", "mrv"])
        .assert()
        .code(2)
        .stderr(contains("(did you mean curated/famous-hard?)"));
}
