//! The board model: sizes, typed indices, geometry tables and the [`Board`] type.
//!
//! A board of box size `b` has side `n = b²` and `n²` cells. Cells are numbered
//! row-major. Digits run `1..=n`; `0` is a blank in the raw cell array.
//! A [`Board`] is always *consistent*: no two equal givens share a unit. The
//! constructor enforces it, so every strategy may rely on it.

use std::fmt;
use std::sync::OnceLock;

/// Largest supported side (25×25); sizes the fixed arrays strategies use.
pub const MAX_SIDE: usize = 25;
/// Largest number of cells (625).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// Box size `b` in `2..=5`: 4×4, 9×9, 16×16 or 25×25 boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoxSize(u8);

impl BoxSize {
    pub const ALL: [BoxSize; 4] = [BoxSize(2), BoxSize(3), BoxSize(4), BoxSize(5)];
    pub const NINE: BoxSize = BoxSize(3);

    /// `Some` for box sizes 2..=5.
    pub fn new(b: usize) -> Option<Self> {
        (2..=5).contains(&b).then_some(BoxSize(b as u8))
    }
    /// The box size whose side is `n` (4, 9, 16, 25).
    pub fn from_side(n: usize) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.side() == n)
    }
    /// The box size whose cell count is `cells` (16, 81, 256, 625).
    pub fn from_cells(cells: usize) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.cells() == cells)
    }
    pub fn box_size(self) -> usize {
        self.0 as usize
    }
    pub fn side(self) -> usize {
        let b = self.0 as usize;
        b * b
    }
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }
    /// Geometry tables for this size (built once per process).
    pub fn geometry(self) -> &'static Geometry {
        static GEOMS: [OnceLock<Geometry>; 4] = [const { OnceLock::new() }; 4];
        GEOMS[self.0 as usize - 2].get_or_init(|| Geometry::build(self))
    }
}

impl fmt::Display for BoxSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// A cell index, row-major, `0..n²`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u16);

impl Cell {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The digits used in every row, column and box, one bitmask per unit
/// (bit `d-1` for digit `d`): `bitmask`'s three tables, reached through a
/// cell. The candidates of a cell are the digits none of its units uses.
/// Shared by `mrv`, the generator and rungs written outside the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitMasks {
    row: [u32; MAX_SIDE],
    col: [u32; MAX_SIDE],
    boxm: [u32; MAX_SIDE],
}

impl UnitMasks {
    /// No digit used anywhere.
    pub const EMPTY: UnitMasks = UnitMasks {
        row: [0; MAX_SIDE],
        col: [0; MAX_SIDE],
        boxm: [0; MAX_SIDE],
    };

    /// The digits `cell` may still take (3 mask reads).
    #[inline(always)]
    pub fn candidates(&self, g: &Geometry, cell: usize) -> u32 {
        !(self.row[g.row[cell] as usize]
            | self.col[g.col[cell] as usize]
            | self.boxm[g.boxi[cell] as usize])
            & g.full
    }

    /// Marks digit `bit` used in `cell`'s three units, or unused again (a
    /// toggle: placing and undoing are the same operation).
    #[inline(always)]
    pub fn toggle(&mut self, g: &Geometry, cell: usize, bit: u32) {
        self.row[g.row[cell] as usize] ^= bit;
        self.col[g.col[cell] as usize] ^= bit;
        self.boxm[g.boxi[cell] as usize] ^= bit;
    }
}

/// Which kind of unit: the three constraints of Sudoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    Row,
    Column,
    Box,
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

/// A unit: a row, column or box, with its index `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub kind: UnitKind,
    pub index: u8,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.index + 1)
    }
}

/// Precomputed index tables for one size, so hot loops never divide.
#[derive(Debug)]
pub struct Geometry {
    pub size: BoxSize,
    /// Box size `b`.
    pub b: usize,
    /// Side `n = b²`.
    pub n: usize,
    /// Cell count `n²`.
    pub cells: usize,
    /// Row of each cell.
    pub row: Vec<u8>,
    /// Column of each cell.
    pub col: Vec<u8>,
    /// Box of each cell (boxes numbered row-major).
    pub boxi: Vec<u8>,
    /// First cell (top-left) of each box.
    pub box_origin: Vec<u16>,
    /// Mask with the `n` digit bits set.
    pub full: u32,
}

impl Geometry {
    fn build(size: BoxSize) -> Self {
        let (b, n) = (size.box_size(), size.side());
        let cells = n * n;
        let row = (0..cells).map(|c| (c / n) as u8).collect();
        let col = (0..cells).map(|c| (c % n) as u8).collect();
        let boxi = (0..cells)
            .map(|c| ((c / n) / b * b + (c % n) / b) as u8)
            .collect();
        let box_origin = (0..n)
            .map(|x| ((x / b * b) * n + (x % b) * b) as u16)
            .collect();
        let full = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        Geometry {
            size,
            b,
            n,
            cells,
            row,
            col,
            boxi,
            box_origin,
            full,
        }
    }

    /// Human position of a cell, `r3c7` (1-based), the usual Sudoku notation.
    pub fn name(&self, cell: Cell) -> String {
        let c = cell.index();
        format!("r{}c{}", self.row[c] + 1, self.col[c] + 1)
    }

    /// The `n` cells of a unit, in row-major order.
    pub fn unit_cells(&self, unit: Unit) -> impl Iterator<Item = Cell> + '_ {
        let (n, b, i) = (self.n, self.b, unit.index as usize);
        (0..n).map(move |k| {
            Cell(match unit.kind {
                UnitKind::Row => i * n + k,
                UnitKind::Column => k * n + i,
                UnitKind::Box => self.box_origin[i] as usize + (k / b) * n + k % b,
            } as u16)
        })
    }

    /// The three units a cell belongs to.
    pub fn units_of(&self, cell: Cell) -> [Unit; 3] {
        let c = cell.index();
        [
            (UnitKind::Row, self.row[c]),
            (UnitKind::Column, self.col[c]),
            (UnitKind::Box, self.boxi[c]),
        ]
        .map(|(kind, index)| Unit { kind, index })
    }
}

/// Two equal givens in one unit: the board has no solution and is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub digit: u8,
    pub unit: Unit,
    /// The earlier cell (row-major) and the later one.
    pub first: Cell,
    pub second: Cell,
}

/// Why a board could not be built from raw values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("expected {expected} cells, found {found}")]
    WrongLength { expected: usize, found: usize },
    #[error("value {value} at cell {cell} is out of range 0..={max}")]
    OutOfRange { cell: usize, value: u8, max: usize },
    #[error("conflicting givens: {0:?}")]
    Conflict(Conflict),
}

/// A consistent Sudoku board; `0` marks a blank in the raw cell slice.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: BoxSize,
    cells: Vec<u8>,
}

impl Board {
    /// An empty board.
    pub fn empty(size: BoxSize) -> Self {
        Board {
            size,
            cells: vec![0; size.cells()],
        }
    }

    /// Builds a board from raw values (0 = blank), checking range and that no
    /// two equal givens share a row, column or box.
    pub fn from_cells(size: BoxSize, cells: Vec<u8>) -> Result<Self, BoardError> {
        let mut board = Board { size, cells };
        board.check()?;
        Ok(board)
    }

    /// Replaces this board's values with `cells` (same size), checking them
    /// as [`Board::from_cells`] does, without allocating: the way a
    /// [`crate::Solver`] takes puzzle after puzzle. On error the board keeps
    /// the rejected values and must not be searched.
    pub fn refill(&mut self, cells: &[u8]) -> Result<(), BoardError> {
        if cells.len() != self.cells.len() {
            return Err(BoardError::WrongLength {
                expected: self.cells.len(),
                found: cells.len(),
            });
        }
        self.cells.copy_from_slice(cells);
        self.check()
    }

    /// Length, range and consistency of the values.
    fn check(&mut self) -> Result<(), BoardError> {
        check_values(self.size, &self.cells)?;
        conflict(self.geometry(), &self.cells).map_or(Ok(()), |c| Err(BoardError::Conflict(c)))
    }

    pub fn size(&self) -> BoxSize {
        self.size
    }
    pub fn geometry(&self) -> &'static Geometry {
        self.size.geometry()
    }
    /// Raw values, row-major, `0` for blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// Number of givens (non-blank cells).
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Checks that `solution` is a complete, legal grid that keeps every given
    /// of `self`. This is how the lab verifies every answer it reports.
    pub fn check_solution(&self, solution: &Board) -> Result<(), VerifyError> {
        if solution.size != self.size {
            return Err(VerifyError::SizeMismatch);
        }
        self.check_cells(&solution.cells)
    }

    /// [`Board::check_solution`] for a grid given as raw values (row-major,
    /// one per cell), e.g. a [`crate::Solver`]'s buffer: no allocation.
    pub fn check_cells(&self, solution: &[u8]) -> Result<(), VerifyError> {
        if solution.len() != self.cells.len() {
            return Err(VerifyError::SizeMismatch);
        }
        let g = self.geometry();
        for (c, (&given, &v)) in self.cells.iter().zip(solution).enumerate() {
            let cell = Cell(c as u16);
            if v == 0 {
                return Err(VerifyError::Blank(g.name(cell)));
            }
            if v as usize > g.n {
                return Err(VerifyError::OutOfRange {
                    cell: g.name(cell),
                    value: v,
                });
            }
            if given != 0 && given != v {
                return Err(VerifyError::GivenChanged {
                    cell: g.name(cell),
                    given,
                    found: v,
                });
            }
        }
        // A full grid without two equal values in a unit has every digit
        // once per unit.
        conflict(g, solution).map_or(Ok(()), |Conflict { digit, unit, .. }| {
            Err(VerifyError::Duplicate { digit, unit })
        })
    }

    /// Builds a board without the consistency check; only for strategies that
    /// produced the values and verify them afterwards.
    pub(crate) fn from_raw_unchecked(size: BoxSize, cells: &[u8]) -> Self {
        Board {
            size,
            cells: cells.to_vec(),
        }
    }
}

/// The length and range of a board's values (not their consistency): the
/// errors [`Board::from_cells`] names first. For a solver that checks the
/// rules itself while entering the givens ([`crate::Rung::search_cells`]).
pub(crate) fn check_values(size: BoxSize, cells: &[u8]) -> Result<(), BoardError> {
    if cells.len() != size.cells() {
        return Err(BoardError::WrongLength {
            expected: size.cells(),
            found: cells.len(),
        });
    }
    // The maximum first (one vectorized pass over the bytes), the
    // position only when there is an error to name.
    let too_big = |v: u8| v as usize > size.side();
    if too_big(cells.iter().copied().max().unwrap_or(0))
        && let Some((cell, &value)) = cells.iter().enumerate().find(|&(_, &v)| too_big(v))
    {
        return Err(BoardError::OutOfRange {
            cell,
            value,
            max: size.side(),
        });
    }
    Ok(())
}

/// The first conflict among values in range (`0..=n`), if any: first the
/// fast check, then, only when there is one, the search that names it.
fn conflict(g: &Geometry, cells: &[u8]) -> Option<Conflict> {
    if consistent(g, cells) {
        None
    } else {
        first_conflict(g, cells)
    }
}

/// No two equal values share a unit: one bit set per unit, on the stack.
fn consistent(g: &Geometry, cells: &[u8]) -> bool {
    let mut seen = [[0u32; MAX_SIDE]; 3];
    for (c, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u32 << (v - 1);
        let units = [g.row[c], g.col[c], g.boxi[c]];
        for (k, &u) in units.iter().enumerate() {
            let slot = &mut seen[k][u as usize];
            if *slot & bit != 0 {
                return false;
            }
            *slot |= bit;
        }
    }
    true
}

/// The first conflict in row-major order of the later cell, if any.
fn first_conflict(g: &Geometry, cells: &[u8]) -> Option<Conflict> {
    // seen[unit kind][unit index][digit] = first cell holding it (on the
    // stack, ~8 KB: checking a board never allocates)
    let mut seen = [[[None::<Cell>; MAX_SIDE + 1]; MAX_SIDE]; 3];
    for (c, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let cell = Cell(c as u16);
        for (k, unit) in g.units_of(cell).into_iter().enumerate() {
            let slot = &mut seen[k][unit.index as usize][v as usize];
            if let Some(first) = *slot {
                return Some(Conflict {
                    digit: v,
                    unit,
                    first,
                    second: cell,
                });
            }
            *slot = Some(cell);
        }
    }
    None
}

/// Why a claimed solution is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("solution has a different size than the puzzle")]
    SizeMismatch,
    #[error("solution leaves {0} blank")]
    Blank(String),
    #[error("solution writes {value} at {cell}, outside the board's digits")]
    OutOfRange { cell: String, value: u8 },
    #[error("solution changes the given at {cell} from {given} to {found}")]
    GivenChanged { cell: String, given: u8, found: u8 },
    #[error("solution repeats digit {digit} in {unit}")]
    Duplicate { digit: u8, unit: Unit },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_boxes() {
        let g = BoxSize::NINE.geometry();
        assert_eq!(g.boxi[0], 0);
        assert_eq!(g.boxi[80], 8);
        assert_eq!(g.boxi[3 * 9 + 4], 4);
        let box4: Vec<u16> = g
            .unit_cells(Unit {
                kind: UnitKind::Box,
                index: 4,
            })
            .map(|c| c.0)
            .collect();
        assert_eq!(box4, vec![30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(g.name(Cell(10)), "r2c2");
        assert_eq!(
            BoxSize::new(5).map(|s| s.geometry().full),
            Some((1 << 25) - 1)
        );
    }

    #[test]
    fn conflicts_name_both_cells() {
        let mut cells = vec![0; 16];
        cells[0] = 3;
        cells[5] = 3; // r2c2, same 2x2 box as r1c1
        let err = Board::from_cells(BoxSize::new(2).unwrap(), cells).unwrap_err();
        assert_eq!(
            err,
            BoardError::Conflict(Conflict {
                digit: 3,
                unit: Unit {
                    kind: UnitKind::Box,
                    index: 0
                },
                first: Cell(0),
                second: Cell(5)
            })
        );
    }
}
