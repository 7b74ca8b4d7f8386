//! Fuzzes every puzzle input path: `PuzzleReader` (files, stdin, datasets)
//! over arbitrary bytes, in one piece and in tiny chunks, and `parse_str`.
//! Checks, besides "no panic": an error ends the stream and carries a
//! position and a message; every accepted puzzle round-trips through each
//! layout its size allows.
//!
//! Run: `cd fuzz && nice -n 19 cargo +nightly fuzz run parse -- -max_total_time=600`
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use sudoku_lab::base::format::{PuzzleReader, parse_str, render};
use sudoku_lab::{Format, Puzzle};

fuzz_target!(|data: &[u8]| {
    let items: Vec<_> = PuzzleReader::new(data, Some("fuzz".into())).collect();
    let chunked: Vec<_> =
        PuzzleReader::new(BufReader::with_capacity(3, data), Some("fuzz".into())).collect();
    assert_eq!(items, chunked, "chunking changed the parse");
    for (i, item) in items.iter().enumerate() {
        match item {
            Ok(p) => round_trips(p),
            Err(e) => {
                assert_eq!(i, items.len() - 1, "an error must end the stream");
                assert!(e.line >= 1 && e.column >= 1, "{e}");
                assert!(!e.kind.to_string().trim().is_empty());
                assert!(
                    e.to_string()
                        .starts_with(&format!("fuzz:{}:{}: ", e.line, e.column))
                );
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok((_, puzzles)) = parse_str(text) {
            let expected: Vec<&Puzzle> = items.iter().map_while(|i| i.as_ref().ok()).collect();
            assert_eq!(puzzles.iter().collect::<Vec<_>>(), expected);
        }
    }
});

fn round_trips(p: &Puzzle) {
    let board = &p.board;
    for format in [Format::Line, Format::Grid, Format::Compact] {
        if format == Format::Compact && board.size().side() > 9 {
            continue;
        }
        let text = render(board, format);
        let (found, back) = parse_str(&text).expect("a rendered board parses");
        assert_eq!((found, &back[0].board), (format, board));
    }
}
