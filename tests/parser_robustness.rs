//! The parsers never panic, never read without bound, and reject bad input
//! with a positioned, non-empty message: arbitrary bytes, mutated valid
//! files, odd chunking, failing readers, huge lines, and each named edge case
//! (empty, only comments, 10 or 82 characters, out-of-range digits, tabs,
//! non-UTF-8). Every text input goes through `PuzzleReader`, under the one
//! `DatasetReader` (`input::open` for files and stdin, `Dataset::load`);
//! `parse_str` is checked against it. CSV datasets take the same reader and
//! are covered in `tests/datasets.rs` (positions of CSV errors).

mod core_support;
mod robust_support;

use std::cell::Cell as StdCell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use robust_support::{config, render_file};
use sudoku_lab::base::format::{
    MAX_LINE_BYTES, ParseError, ParseErrorKind, PuzzleReader, parse_str, render, to_line,
};
use sudoku_lab::io::Dataset;
use sudoku_lab::{Board, BoxSize, Format, Puzzle};

type Item = Result<Puzzle, ParseError>;

/// Every item a reader yields over `bytes`, read through `reader`.
fn read_all<R: BufRead>(reader: R) -> Vec<Item> {
    PuzzleReader::new(reader, Some("in.txt".to_string())).collect()
}

/// The raw lines of `bytes` as the parser numbers them (1-based).
fn raw_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if bytes.ends_with(b"\n") || bytes.is_empty() {
        lines.pop();
    }
    lines
}

/// The invariants every parse must keep, whatever the input:
/// at most one error, and only as the last item; the error has a position
/// inside the input and a non-empty message in `file:line:col: problem` form;
/// every puzzle is a consistent board of one common size that survives a
/// line-layout round trip. Returns the items for further checks.
fn check_invariants(bytes: &[u8]) -> Result<Vec<Item>, TestCaseError> {
    let items = read_all(bytes);
    let lines = raw_lines(bytes);
    let mut size = None;
    for (i, item) in items.iter().enumerate() {
        match item {
            Ok(p) => {
                let s = p.board.size();
                prop_assert_eq!(*size.get_or_insert(s), s, "mixed sizes in one file");
                prop_assert!(Board::from_cells(s, p.board.cells().to_vec()).is_ok());
                prop_assert!(p.line >= 1 && p.line <= lines.len(), "line {}", p.line);
                let again = parse_str(&to_line(&p.board)).map(|(_, ps)| ps[0].board.clone());
                prop_assert_eq!(again.as_ref(), Ok(&p.board));
            }
            Err(e) => {
                prop_assert_eq!(i, items.len() - 1, "an error must end the stream");
                let problem = e.kind.to_string();
                prop_assert!(!problem.trim().is_empty());
                prop_assert_eq!(
                    e.to_string(),
                    format!("in.txt:{}:{}: {problem}", e.line, e.column)
                );
                prop_assert!(e.line >= 1 && e.line <= lines.len().max(1), "{e}");
                prop_assert!(e.column >= 1, "{e}");
                if let Some(line) = lines.get(e.line - 1) {
                    prop_assert!(
                        e.column <= line.len().max(1),
                        "{e} (line has {} bytes)",
                        line.len()
                    );
                }
            }
        }
    }
    Ok(items)
}

/// Reading in one-byte chunks must give exactly what reading a slice gives,
/// and a UTF-8 text must parse the same through `parse_str`.
fn check_paths_agree(bytes: &[u8], items: &[Item]) -> Result<(), TestCaseError> {
    let chunked = read_all(BufReader::with_capacity(1, bytes));
    prop_assert_eq!(&chunked, items);
    if let Ok(text) = std::str::from_utf8(bytes) {
        let whole: Result<Vec<Puzzle>, ParseError> = items.iter().cloned().collect();
        match (parse_str(text), whole) {
            (Ok((_, ps)), Ok(expected)) => prop_assert_eq!(ps, expected),
            (Err(e), Ok(expected)) => {
                prop_assert!(expected.is_empty(), "parse_str failed: {e}");
                prop_assert_eq!(e.kind, ParseErrorKind::Empty);
            }
            (Err(e), Err(expected)) => {
                prop_assert_eq!(
                    (e.line, e.column, e.kind),
                    (expected.line, expected.column, expected.kind)
                )
            }
            (Ok(_), Err(expected)) => {
                prop_assert!(false, "parse_str accepted; reader said {expected}")
            }
        }
    }
    Ok(())
}

#[test]
fn arbitrary_bytes_never_panic_and_errors_are_positioned() {
    let mut runner = TestRunner::new(config(2000, 0x5EED_0001));
    runner
        .run(&prop::collection::vec(any::<u8>(), 0..1200), |bytes| {
            let items = check_invariants(&bytes)?;
            check_paths_agree(&bytes, &items)
        })
        .unwrap();
}

/// Bytes the parser treats specially: separators, digits at the edges of
/// each size's range, letters, comment marks and non-UTF-8.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop::sample::select(vec![
        b'0', b'1', b'4', b'5', b'9', b'A', b'G', b'H', b'P', b'Q', b'a', b'p', b'z', b'.', b' ',
        b'\t', b'\n', b'\r', b'#', 0, 0x7F, 0xC3, 0xFF, b'-', b'+',
    ])
}

/// A valid file: 1-3 random puzzles of one size in one layout.
fn valid_file() -> impl Strategy<Value = Vec<u8>> {
    (
        0usize..4,
        any::<u64>(),
        0u8..=100,
        0usize..3,
        1usize..=3,
        any::<bool>(),
    )
        .prop_map(|(b, seed, percent, f, count, crlf)| {
            let size = BoxSize::ALL[b];
            let format = match f {
                0 => Format::Line,
                1 => Format::Grid,
                _ if size.side() <= 9 => Format::Compact,
                _ => Format::Grid,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let clues = size.cells() * percent as usize / 100;
            let boards: Vec<_> = (0..count)
                .map(|i| {
                    let board = core_support::random_puzzle(size, clues, &mut rng);
                    (board, (i % 2 == 0).then(|| format!("p{i}")))
                })
                .collect();
            render_file(&boards, format, crlf).into_bytes()
        })
}

#[derive(Clone, Debug)]
enum Edit {
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Delete(prop::sample::Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), interesting_byte()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<prop::sample::Index>(), interesting_byte()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        match e {
            Edit::Replace(i, b) if !bytes.is_empty() => {
                let k = i.index(bytes.len());
                bytes[k] = *b;
            }
            Edit::Insert(i, b) => {
                let k = i.index(bytes.len() + 1);
                bytes.insert(k, *b);
            }
            Edit::Delete(i) if !bytes.is_empty() => {
                let k = i.index(bytes.len());
                bytes.remove(k);
            }
            _ => {}
        }
    }
    bytes
}

/// Valid files with a few edits reach the deep paths (row counts, conflicts,
/// ranges, layout changes) that random bytes rarely do.
#[test]
fn mutated_valid_files_never_panic_and_errors_are_positioned() {
    let mut runner = TestRunner::new(config(1500, 0x5EED_0002));
    let (accepted, rejected) = (StdCell::new(0u32), StdCell::new(0u32));
    runner
        .run(
            &(valid_file(), prop::collection::vec(edit(), 0..5)),
            |(file, edits)| {
                let bytes = apply(file, &edits);
                let items = check_invariants(&bytes)?;
                check_paths_agree(&bytes, &items)?;
                let failed = items.last().is_some_and(|i| i.is_err());
                let counter = if failed { &rejected } else { &accepted };
                counter.set(counter.get() + 1);
                Ok(())
            },
        )
        .unwrap();
    // Both sides of the parser must have been exercised.
    assert!(
        accepted.get() > 100 && rejected.get() > 100,
        "{accepted:?} {rejected:?}"
    );
}

/// A reader that counts the bytes it hands out, to prove a parse stopped early.
struct Counting<R> {
    inner: R,
    read: Rc<StdCell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// Parses `prefix`, then a 1 GiB line of `fill` (never allocated: it is
/// generated on the fly), then a newline and a valid puzzle. Returns the
/// items and how many bytes the parser pulled from the source.
fn with_huge_line(prefix: &[u8], fill: u8) -> (Vec<Item>, u64) {
    let read = Rc::new(StdCell::new(0));
    let source = prefix
        .chain(io::repeat(fill).take(1 << 30))
        .chain(&b"\n................\n"[..]);
    let reader = BufReader::new(Counting {
        inner: source,
        read: read.clone(),
    });
    let items = read_all(reader);
    (items, read.get())
}

/// The bound on bytes pulled for one over-long line: the limit itself, plus
/// what the prefix and one `BufReader` refill may add.
fn read_bound(prefix: &[u8]) -> u64 {
    MAX_LINE_BYTES + prefix.len() as u64 + 2 * 8 * 1024
}

#[test]
fn a_one_gigabyte_line_is_rejected_promptly_with_bounded_reads() {
    for fill in [b'1', b'.', b' ', b'#', 0xFF] {
        let (items, read) = with_huge_line(b"", fill);
        assert_eq!(items.len(), 1, "{items:?}");
        let err = items[0].as_ref().unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::LineTooLong);
        assert_eq!(
            err.to_string(),
            format!("in.txt:1:1: line longer than {MAX_LINE_BYTES} bytes")
        );
        assert!(read <= read_bound(b""), "read {read} bytes of a 1 GiB line");
    }
}

#[test]
fn a_one_gigabyte_line_after_a_puzzle_names_its_line() {
    let prefix = b"# header\n................ # tiny\n\n";
    let (items, read) = with_huge_line(prefix, b'1');
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0].as_ref().unwrap().name.as_deref(), Some("tiny"));
    let err = items[1].as_ref().unwrap_err();
    assert_eq!((err.line, err.column), (4, 1));
    assert_eq!(err.kind, ParseErrorKind::LineTooLong);
    assert!(read <= read_bound(prefix), "read {read} bytes");
    // Inside a grid puzzle, too.
    let (items, read) = with_huge_line(b"1 0 0 0\n0 0 0 0\n", b'0');
    let err = items[0].as_ref().unwrap_err();
    assert_eq!(
        (err.line, err.kind.clone()),
        (3, ParseErrorKind::LineTooLong)
    );
    assert!(read <= read_bound(b""), "read {read} bytes");
}

/// The limit is exact: a line of `MAX_LINE_BYTES` bytes is read (and then
/// judged on its content); one byte more is "too long". A CR counts as a
/// byte of the line.
#[test]
fn the_line_limit_is_exact() {
    let max = MAX_LINE_BYTES as usize;
    let at_limit = [vec![b'1'; max], b"\n".to_vec()].concat();
    let err = parse(&at_limit).unwrap_err();
    assert_ne!(err.kind, ParseErrorKind::LineTooLong);
    // 65536 = 256², so the line was read whole and judged by its length.
    assert!(
        err.to_string()
            .starts_with("in.txt:1:1: unsupported size 256x256"),
        "{err}"
    );
    for over in [
        [vec![b'1'; max + 1], b"\n".to_vec()].concat(),
        vec![b'1'; max + 1],
        [vec![b'1'; max], b"\r\n".to_vec()].concat(),
    ] {
        let err = parse(&over).unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::LineTooLong);
    }
}

/// The first error or the puzzles of a byte input.
fn parse(bytes: &[u8]) -> Result<Vec<Puzzle>, ParseError> {
    let mut reader = PuzzleReader::new(bytes, Some("in.txt".to_string()));
    let puzzles = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    if puzzles.is_empty() {
        return Err(reader.empty_error());
    }
    Ok(puzzles)
}

fn parse_err(bytes: &[u8]) -> String {
    match parse(bytes) {
        Ok(ps) => panic!(
            "accepted {} puzzles from {:?}",
            ps.len(),
            String::from_utf8_lossy(bytes)
        ),
        Err(e) => e.to_string(),
    }
}

#[test]
fn empty_blank_and_comment_only_inputs_say_no_puzzle_found() {
    let cases: &[(&[u8], &str)] = &[
        (b"", "in.txt:1:1: no puzzle found"),
        (b"\n\n\n", "in.txt:3:1: no puzzle found"),
        (b"   \t  \r\n\t\r\n", "in.txt:2:1: no puzzle found"),
        (b"# only\n# comments\n#\n", "in.txt:3:1: no puzzle found"),
        (b"# no final newline", "in.txt:1:1: no puzzle found"),
        (
            b"# \xff\xfe non-UTF-8 comment\n",
            "in.txt:1:1: no puzzle found",
        ),
    ];
    for (input, message) in cases {
        assert!(
            parse_err(input).starts_with(message),
            "{}",
            parse_err(input)
        );
    }
}

#[test]
fn lengths_that_match_no_size_are_rejected() {
    let dots = |n: usize| ".".repeat(n).into_bytes();
    for n in [1, 2, 3, 5, 8, 10, 15, 17, 80, 82, 255, 257, 624, 626] {
        let err = parse_err(&dots(n));
        assert!(
            err.starts_with("in.txt:1:1: wrong length:")
                || err.starts_with("in.txt:1:1: unsupported size"),
            "{n}: {err}"
        );
    }
    assert!(parse_err(&dots(10)).contains("10 characters"));
    assert!(parse_err(&dots(82)).contains("82 characters"));
    // Perfect squares that are no Sudoku size name the size instead.
    assert!(parse_err(&dots(36)).contains("unsupported size 6x6"));
    // After an 81-character line the size is fixed: 82 or 10 is wrong there.
    let nine = ".".repeat(81);
    for n in [10, 80, 82] {
        let input = format!("{nine}\n{}\n", ".".repeat(n));
        assert!(
            parse_err(input.as_bytes()).starts_with(&format!(
                "in.txt:2:1: wrong length: {n} characters, expected 81"
            )),
            "{n}"
        );
    }
}

#[test]
fn digits_out_of_range_name_the_size_and_the_column() {
    for size in BoxSize::ALL {
        let n = size.side();
        // Line layout: the first symbol past the size, placed at cell 3.
        let mut line = vec![b'.'; size.cells()];
        line[2] = if n < 25 {
            sudoku_lab::base::format::symbol(n as u8 + 1) as u8
        } else {
            b'Q'
        };
        let err = parse(&line).unwrap_err();
        assert_eq!((err.line, err.column), (1, 3), "{err}");
        if n < 25 {
            assert!(
                matches!(err.kind, ParseErrorKind::DigitOutOfRange { .. }),
                "{err}"
            );
            assert!(
                err.to_string()
                    .contains(&format!("out of range for {size}"))
            );
        } else {
            // No symbol exists past 'P' (25).
            assert_eq!(err.kind, ParseErrorKind::UnknownCharacter("'Q'".into()));
        }
        // Grid layout: the number n+1 in row 2, column 2.
        let mut rows = vec![vec!["0".to_string(); n]; n];
        rows[1][1] = (n + 1).to_string();
        let grid: String = rows.iter().map(|r| r.join(" ") + "\n").collect();
        let err = parse(grid.as_bytes()).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3), "{err}");
        assert!(
            err.to_string()
                .contains(&format!("digit {} is out of range for {size}", n + 1))
        );
    }
    // Huge numbers do not overflow.
    let err = parse(b"0 0 0 0\n0 99999999999999999999999999 0 0\n0 0 0 0\n0 0 0 0\n").unwrap_err();
    assert!(
        matches!(err.kind, ParseErrorKind::DigitOutOfRange { .. }),
        "{err}"
    );
    // Signs are not digits.
    let err = parse(b"0 -1 0 0\n").unwrap_err();
    assert_eq!(
        (err.column, err.kind),
        (3, ParseErrorKind::UnknownCharacter("'-'".into()))
    );
}

/// Decision: tabs are whitespace, in grids and around line puzzles.
#[test]
fn tab_separated_grids_are_accepted_as_whitespace() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for size in BoxSize::ALL {
        let board = core_support::random_puzzle(size, size.cells() / 2, &mut rng);
        let spaced = render(&board, Format::Grid);
        for (i, sep) in ["\t", " \t ", "\t\t"].iter().enumerate() {
            let tabbed: String = spaced
                .lines()
                .map(|l| {
                    format!(
                        "{}{}\n",
                        if i == 1 { "\t" } else { "" },
                        l.replace(' ', sep)
                    )
                })
                .collect();
            let ps = parse(tabbed.as_bytes()).unwrap_or_else(|e| panic!("{size}: {e}"));
            assert_eq!(ps.len(), 1);
            assert_eq!(ps[0].board, board);
        }
        let line = format!("\t{}\t# name\t\n", to_line(&board));
        let ps = parse(line.as_bytes()).unwrap();
        assert_eq!(
            (&ps[0].board, ps[0].name.as_deref()),
            (&board, Some("name"))
        );
    }
    // A tab inside a line puzzle splits it into grid tokens: rejected, positioned.
    let err = parse(b"12..\t............\n").unwrap_err();
    assert_eq!((err.line, err.column), (1, 1));
    assert!(err.to_string().contains("unsupported size 2x2"), "{err}");
    // ...and says why a line became a 2x2 grid: its tab made it a grid row.
    assert!(
        err.to_string()
            .contains("the line holds 2 fields separated by spaces or tabs"),
        "{err}"
    );
    let err = parse(b"1\t2\n").unwrap_err();
    assert!(
        err.to_string()
            .contains("2 fields separated by spaces or tabs, read as a grid row"),
        "{err}"
    );
}

#[test]
fn non_utf8_and_control_bytes_are_named_by_position() {
    // A 4x4 line puzzle (16 bytes) with `bytes` at column `at`.
    let line16 = |at: usize, bytes: &[u8]| {
        let mut v = vec![b'.'; 16 - bytes.len()];
        v.splice(at - 1..at - 1, bytes.iter().copied());
        v.push(b'\n');
        v
    };
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            line16(5, b"\xff"),
            "in.txt:1:5: unknown character (byte 0xFF)",
        ),
        (
            line16(1, "\u{e9}".as_bytes()),
            "in.txt:1:1: unknown character (byte 0xC3)",
        ),
        (line16(5, b"\x00"), "in.txt:1:5: binary data (a NUL byte)"),
        (
            line16(3, b"\r"),
            "in.txt:1:3: a carriage return (CR) inside a line",
        ),
        (
            line16(16, b"\x1b"),
            "in.txt:1:16: unknown character (byte 0x1B)",
        ),
        (
            b"0 0 0 0\n0 0 \xe2\x80\x83 0\n".to_vec(),
            "in.txt:2:5: unknown character (byte 0xE2)",
        ),
        (
            b"1000\n0\x7f00\n".to_vec(),
            "in.txt:2:2: unknown character (byte 0x7F)",
        ),
    ];
    for (input, message) in &cases {
        assert!(
            parse_err(input).starts_with(message),
            "{}",
            parse_err(input)
        );
    }
    // Non-UTF-8 in a trailing comment is fine: the name is decoded lossily.
    let ps = parse(b"................ # caf\xe9\n").unwrap();
    assert_eq!(ps[0].name.as_deref(), Some("caf\u{FFFD}"));
}

/// A reader that fails after some bytes, like a disk error or a closed pipe.
struct Failing<'a> {
    data: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Err(io::Error::other("device on fire"));
        }
        let n = buf.len().min(self.data.len()).min(7);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn read_errors_are_reported_with_the_next_line_number() {
    let items = read_all(BufReader::new(Failing {
        data: b"................\n1...",
    }));
    assert_eq!(items.len(), 2);
    let err = items[1].as_ref().unwrap_err();
    assert_eq!(err.line, 2);
    assert_eq!(err.kind, ParseErrorKind::Io("device on fire".into()));
    assert!(
        err.to_string()
            .starts_with("in.txt:2:1: read error: device on fire")
    );
}

/// Files take the same path: `Dataset::load` and `input::open` name the file.
#[test]
fn files_with_comments_and_bad_files_through_dataset_load() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let good = write(
        "good.txt",
        b"# header\r\n\r\n................ # first\r\n\t1...............\t\r\n# trailing comment",
    );
    let ds = Dataset::load(&good).unwrap();
    assert_eq!(ds.name, "good");
    assert_eq!(ds.puzzles.len(), 2);
    assert_eq!(ds.puzzles[1].line, 4);
    let cases: &[(&str, &[u8], &str)] = &[
        ("empty.txt", b"", ":1:1: no puzzle found"),
        ("comments.txt", b"# a\n# b\n", ":2:1: no puzzle found"),
        (
            "binary.txt",
            b"\x89PNG\r\n\x1a\n",
            ":1:1: unknown character (byte 0x89)",
        ),
        (
            "ten.txt",
            b"1234567890\n",
            ":1:1: wrong length: 10 characters",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = write(name, bytes);
        let err = format!("{:#}", Dataset::load(&path).unwrap_err());
        assert!(
            err.starts_with(&format!("{}{message}", path.display())),
            "{err}"
        );
    }
    let missing = dir.path().join("missing.txt");
    let err = format!("{:#}", Dataset::load(&missing).unwrap_err());
    assert!(
        err.contains("cannot open") && err.contains("missing.txt"),
        "{err}"
    );
    // A directory opens on Linux but cannot be read: a read error, positioned.
    let err = format!("{:#}", Dataset::load(dir.path()).unwrap_err());
    assert!(err.contains(":1:1: read error:"), "{err}");
}

/// Random text files through the file path agree with the in-memory path.
#[test]
fn files_parse_like_slices() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.txt");
    let mut runner = TestRunner::new(config(48, 0x5EED_0003));
    runner
        .run(
            &(valid_file(), prop::collection::vec(edit(), 0..3)),
            |(file, edits)| {
                let bytes = apply(file, &edits);
                std::fs::write(&path, &bytes).unwrap();
                // One reader for files and for bytes: same puzzles, same
                // errors (named after the file, or `mem` for the bytes).
                let shown =
                    |r: Result<sudoku_lab::base::format::Puzzle, sudoku_lab::io::LoadError>| {
                        r.map_err(|e| e.to_string().replace(&path.display().to_string(), "mem"))
                    };
                let from_file: Vec<_> = sudoku_lab::io::open(Some(&path))
                    .unwrap()
                    .map(shown)
                    .collect();
                let from_bytes: Vec<_> = sudoku_lab::io::DatasetReader::new(
                    Box::new(std::io::Cursor::new(bytes.clone())),
                    "mem".to_string(),
                )
                .map(|r| shown(r.map(|e| e.puzzle)))
                .collect();
                prop_assert_eq!(from_file, from_bytes);
                Ok(())
            },
        )
        .unwrap();
}
