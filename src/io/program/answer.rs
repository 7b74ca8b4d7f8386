//! Reading a program's answer and judging it against the puzzle.

use std::cell::OnceCell;

use crate::base::board::Board;
use crate::base::format::Format;
use crate::base::strategy::{Outcome, Strategy, WrongSolution};

use crate::io::program::Mode;
use crate::io::program::process::clip;

/// What the lab knows about one puzzle to judge answers by, worked out
/// only when an answer needs it: the lexicographically first solution (or
/// that there is none). Shared by every program run on the puzzle.
#[derive(Debug)]
pub struct Reference<'a> {
    puzzle: &'a Board,
    first: OnceCell<Option<Board>>,
    any: OnceCell<Option<Board>>,
}

impl<'a> Reference<'a> {
    pub fn new(puzzle: &'a Board) -> Reference<'a> {
        Reference {
            puzzle,
            first: OnceCell::new(),
            any: OnceCell::new(),
        }
    }

    /// The rung that finds the lexicographically first solution: a rung that
    /// keeps naive's cell and digit order (row by row, digits upwards), the
    /// fastest of those that support the size.
    pub fn rung(puzzle: &Board) -> Option<Strategy> {
        Strategy::ALL
            .iter()
            .rev()
            .copied()
            .find(|s| s.is_row_major() && s.supports(puzzle.size()))
    }

    /// The lexicographically first solution (`None`: there is none), found
    /// by [`Reference::rung`] with no node budget and verified.
    pub fn first(&self) -> Result<Option<&Board>, WrongSolution> {
        if self.first.get().is_none() {
            let first = match Reference::rung(self.puzzle) {
                Some(rung) => rung.solve(self.puzzle, None)?.solution,
                // Every size has a row-major rung today; without one, ask
                // the default rung whether a solution exists at all.
                None => {
                    Strategy::default_for(self.puzzle.size())
                        .solve(self.puzzle, None)?
                        .solution
                }
            };
            let _ = self.first.set(first);
        }
        Ok(self.first.get().and_then(Option::as_ref))
    }

    /// Some solution (`None`: there is none), for questions any solution
    /// answers: the first one if known, else the default rung's (fast on
    /// every size, where row-major search can take very long on 16×16 and up).
    pub fn any_solution(&self) -> Result<Option<&Board>, WrongSolution> {
        if let Some(first) = self.first.get() {
            return Ok(first.as_ref());
        }
        if self.any.get().is_none() {
            let any = Strategy::default_for(self.puzzle.size())
                .solve(self.puzzle, None)?
                .solution;
            let _ = self.any.set(any);
        }
        Ok(self.any.get().and_then(Option::as_ref))
    }
}

/// Reads an answer printed in `format` for a puzzle of `puzzle`'s size:
/// `Ok(None)` when nothing but whitespace was printed, the cells (row-major,
/// `0` for a blank) when the text has the layout's shape, or why not.
/// Digits are not checked against the rules here ([`judge`] does that): a
/// grid of the right shape with a repeated digit is a wrong answer, not
/// unreadable output. Blank lines, surrounding spaces and CRLF are allowed.
///
/// ```
/// use sudoku_lab::io::program::parse_answer;
/// use sudoku_lab::{Board, BoxSize, Format};
/// let p = Board::empty(BoxSize::new(2).unwrap());
/// let grid = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1 \n";
/// assert_eq!(parse_answer(grid, Format::Grid, &p).unwrap().unwrap()[..4], [1, 2, 3, 4]);
/// assert!(parse_answer("1234341221434321", Format::Grid, &p).is_err());
/// assert_eq!(parse_answer(" \n", Format::Line, &p), Ok(None));
/// ```
pub fn parse_answer(text: &str, format: Format, puzzle: &Board) -> Result<Option<Vec<u8>>, String> {
    let n = puzzle.size().side();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return Ok(None);
    }
    let want = match format {
        Format::Line => 1,
        Format::Grid | Format::Compact => n,
    };
    if lines.len() != want {
        return Err(format!(
            "{} non-blank lines, expected {want} ({format} layout)",
            lines.len()
        ));
    }
    let mut cells = Vec::with_capacity(n * n);
    for (row, line) in lines.iter().enumerate() {
        let at = |what: String| match format {
            Format::Line => what,
            _ => format!("row {}: {what}", row + 1),
        };
        match format {
            Format::Grid => {
                let nums: Vec<&str> = line.split_whitespace().collect();
                if nums.len() != n {
                    return Err(at(format!("{} numbers, expected {n}", nums.len())));
                }
                for t in nums {
                    let v = t
                        .parse::<u8>()
                        .map_err(|_| at(format!("{:?} is not a number", clip(t, 20))))?;
                    cells.push(v);
                }
            }
            Format::Line | Format::Compact => {
                let len = if format == Format::Line { n * n } else { n };
                let count = line.chars().count();
                if count != len {
                    return Err(at(format!("{count} characters, expected {len}")));
                }
                for c in line.chars() {
                    // The lab's alphabet: `.`/`0`, `1`-`9`, `A`-`P` (any case).
                    let v = match c {
                        '.' => 0,
                        c => c
                            .to_digit(36)
                            .filter(|&v| v <= 25)
                            .ok_or_else(|| at(format!("unexpected character {c:?}")))?
                            as u8,
                    };
                    cells.push(v);
                }
            }
        }
    }
    Ok(Some(cells))
}

/// Judges what a program printed for `puzzle` (it exited normally, in
/// time): the outcome, and a short reason unless it is `solved`. A correct
/// empty answer (the puzzle has no solution) is `no-solution`.
///
/// Errors only on a bug in the lab (its own reference solution was wrong).
///
/// ```
/// use sudoku_lab::io::program::{Mode, Reference, judge};
/// use sudoku_lab::{Format, Outcome, base::format::parse_one};
///
/// // Two solutions: the bottom half is open in two ways.
/// let puzzle = parse_one("12343412........").unwrap().1.board;
/// let r = Reference::new(&puzzle);
/// let second = "1234341243212143"; // valid, but not the smallest
/// assert_eq!(judge(second, Format::Line, Mode::Any, &r).unwrap().0, Outcome::Solved);
/// let (outcome, why) = judge(second, Format::Line, Mode::LexFirst, &r).unwrap();
/// assert_eq!(outcome, Outcome::WrongAnswer);
/// assert!(why.ends_with("r3c1 is 4, the first has 2"));
/// assert_eq!(judge("hello", Format::Line, Mode::Any, &r).unwrap().0, Outcome::BadOutput);
/// ```
pub fn judge(
    stdout: &str,
    format: Format,
    mode: Mode,
    reference: &Reference,
) -> Result<(Outcome, String), WrongSolution> {
    let puzzle = reference.puzzle;
    let cells = match parse_answer(stdout, format, puzzle) {
        Err(why) => return Ok((Outcome::BadOutput, why)),
        Ok(None) => {
            return Ok(match reference.any_solution()? {
                Some(_) => (
                    Outcome::WrongAnswer,
                    "printed nothing, but the puzzle has a solution".to_string(),
                ),
                None => (Outcome::NoSolution, String::new()),
            });
        }
        Ok(Some(cells)) => cells,
    };
    if let Err(e) = puzzle.check_cells(&cells) {
        return Ok((Outcome::WrongAnswer, e.to_string()));
    }
    if mode == Mode::LexFirst
        && let Some(first) = reference.first()?
        && let Some(i) = (0..cells.len()).find(|&i| cells[i] != first.cells()[i])
    {
        let g = puzzle.geometry();
        let cell = crate::base::board::Cell(i as u16);
        return Ok((
            Outcome::WrongAnswer,
            format!(
                "valid, but not the lexicographically first solution: {} is {}, the first has {}",
                g.name(cell),
                cells[i],
                first.cells()[i]
            ),
        ));
    }
    Ok((Outcome::Solved, String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::board::BoxSize;
    use crate::base::format::render;

    /// The 4×4 board with two solutions: its top rows are 12../34.., the
    /// bottom half is open in two ways.
    fn two_solutions() -> Board {
        let cells = [1, 2, 3, 4, 3, 4, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0];
        Board::from_cells(BoxSize::new(2).unwrap(), cells.to_vec()).unwrap()
    }

    #[test]
    fn every_layout_reads_back_what_render_writes() {
        let p = two_solutions();
        let r = Reference::new(&p);
        let first = r.first().unwrap().unwrap().clone();
        for format in [Format::Line, Format::Grid, Format::Compact] {
            let text = render(&first, format);
            assert_eq!(
                parse_answer(&text, format, &p).unwrap().as_deref(),
                Some(first.cells()),
                "{format}"
            );
            for mode in [Mode::Any, Mode::LexFirst] {
                assert_eq!(
                    judge(&text, format, mode, &r).unwrap(),
                    (Outcome::Solved, String::new())
                );
            }
        }
    }

    #[test]
    fn lex_first_refuses_the_other_solution() {
        let p = two_solutions();
        let r = Reference::new(&p);
        let first = r.first().unwrap().unwrap().clone();
        assert_eq!(&first.cells()[8..], [2, 1, 4, 3, 4, 3, 2, 1]);
        let other = "1234341243212143";
        assert_ne!(other, render(&first, Format::Line));
        assert_eq!(
            judge(other, Format::Line, Mode::Any, &r).unwrap().0,
            Outcome::Solved
        );
        let (o, why) = judge(other, Format::Line, Mode::LexFirst, &r).unwrap();
        assert_eq!(o, Outcome::WrongAnswer);
        assert!(why.contains("r3c1 is 4, the first has 2"), "{why}");
    }

    #[test]
    fn shapes_and_rules() {
        let p = two_solutions();
        let r = Reference::new(&p);
        let judged = |t: &str, f| judge(t, f, Mode::Any, &r).unwrap();
        assert_eq!(judged("", Format::Line).0, Outcome::WrongAnswer);
        let (o, why) = judged("1234\n3412\n", Format::Compact);
        assert_eq!(o, Outcome::BadOutput);
        assert_eq!(why, "2 non-blank lines, expected 4 (compact layout)");
        let (o, why) = judged("1 2 3 4\n3 4 1 2\n2 1 4 x\n4 3 2 1\n", Format::Grid);
        assert_eq!(
            (o, why.as_str()),
            (Outcome::BadOutput, "row 3: \"x\" is not a number")
        );
        let (o, why) = judged("12343412214343?1", Format::Line);
        assert_eq!(
            (o, why.as_str()),
            (Outcome::BadOutput, "unexpected character '?'")
        );
        // The right shape, the wrong grid: a wrong answer, with the rule broken.
        let (o, why) = judged("1234341221434312", Format::Line);
        assert_eq!(o, Outcome::WrongAnswer);
        assert!(why.starts_with("solution repeats digit"), "{why}");
        let (o, why) = judged("2234341221434321", Format::Line);
        assert_eq!(o, Outcome::WrongAnswer);
        assert!(why.contains("changes the given at r1c1"), "{why}");
        // CRLF, blank lines and trailing spaces are fine.
        let ok = "\r\n1 2 3 4 \r\n3 4 1 2\r\n\r\n2 1 4 3\r\n4 3 2 1\r\n";
        assert_eq!(judged(ok, Format::Grid).0, Outcome::Solved);
    }

    #[test]
    fn nothing_printed_is_right_only_without_solution() {
        let size = BoxSize::new(2).unwrap();
        // r1c3 and r1c4 would both need 4: consistent givens, no solution.
        let p = crate::base::format::parse_one("12....3.........")
            .unwrap()
            .1
            .board;
        assert_eq!(p.size(), size);
        let r = Reference::new(&p);
        assert_eq!(r.first().unwrap(), None);
        assert_eq!(
            judge("\n", Format::Grid, Mode::LexFirst, &r).unwrap(),
            (Outcome::NoSolution, String::new())
        );
        assert_eq!(
            judge("1234341221434321", Format::Line, Mode::Any, &r)
                .unwrap()
                .0,
            Outcome::WrongAnswer
        );
    }
}
