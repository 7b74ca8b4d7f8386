//! Symmetries of the Sudoku grid: moves that turn a valid puzzle into another
//! valid puzzle with "the same" solution, but a different search tree.
//!
//! A row-major search fills cells in a fixed order, so turning the grid (or
//! swapping its bands of rows) changes which cells it meets first — and with
//! that, the size of its tree, often by orders of magnitude. The tour uses
//! these transforms to show that a naive solver's speed is partly luck of
//! orientation.
//!
//! Every transform is a permutation of cells that maps rows, columns and boxes
//! onto rows, columns and boxes, so it never breaks the rules.

use crate::base::board::{Board, BoxSize};

/// One symmetry of the grid. `apply` builds the transformed board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transform {
    Identity,
    /// Mirror in the main diagonal: rows become columns.
    Transpose,
    /// Quarter turn clockwise.
    Rot90,
    /// Half turn.
    Rot180,
    /// Quarter turn anticlockwise.
    Rot270,
    /// Mirror top to bottom (the last row becomes the first).
    FlipRows,
    /// Mirror left to right (the last column becomes the first).
    FlipColumns,
    /// Mirror in the anti-diagonal.
    AntiTranspose,
    /// Reorder the bands of rows: new band `i` is old band `order[i]`.
    Bands(Vec<u8>),
}

impl Transform {
    /// The eight turns and mirrors of the square, identity first.
    pub const DIHEDRAL: [Transform; 8] = [
        Transform::Identity,
        Transform::Transpose,
        Transform::Rot90,
        Transform::Rot180,
        Transform::Rot270,
        Transform::FlipRows,
        Transform::FlipColumns,
        Transform::AntiTranspose,
    ];

    /// The eight turns and mirrors, then every non-identity order of the row
    /// bands (5 for 9×9, 1 for 4×4; for 16×16 and 25×25 only the reversed
    /// order, to keep the list short).
    pub fn standard(size: BoxSize) -> Vec<Transform> {
        let b = size.box_size();
        let mut all: Vec<Transform> = Self::DIHEDRAL.to_vec();
        let identity: Vec<u8> = (0..b as u8).collect();
        if b <= 3 {
            let mut order = identity.clone();
            while next_permutation(&mut order) {
                all.push(Transform::Bands(order.clone()));
            }
        } else {
            all.push(Transform::Bands(identity.into_iter().rev().collect()));
        }
        all
    }

    /// Short name, e.g. `rot90` or `bands-213` (bands are 1-based).
    pub fn name(&self) -> String {
        match self {
            Transform::Identity => "identity".into(),
            Transform::Transpose => "transpose".into(),
            Transform::Rot90 => "rot90".into(),
            Transform::Rot180 => "rot180".into(),
            Transform::Rot270 => "rot270".into(),
            Transform::FlipRows => "flip-rows".into(),
            Transform::FlipColumns => "flip-columns".into(),
            Transform::AntiTranspose => "anti-transpose".into(),
            Transform::Bands(order) => {
                let digits: Vec<String> = order.iter().map(|&i| (i + 1).to_string()).collect();
                format!("bands-{}", digits.join(""))
            }
        }
    }

    /// The old (row, column) whose value lands at new (row, column).
    fn source(&self, r: usize, c: usize, n: usize, b: usize) -> (usize, usize) {
        let last = n - 1;
        match self {
            Transform::Identity => (r, c),
            Transform::Transpose => (c, r),
            Transform::Rot90 => (last - c, r),
            Transform::Rot180 => (last - r, last - c),
            Transform::Rot270 => (c, last - r),
            Transform::FlipRows => (last - r, c),
            Transform::FlipColumns => (r, last - c),
            Transform::AntiTranspose => (last - c, last - r),
            Transform::Bands(order) => (order[r / b] as usize * b + r % b, c),
        }
    }

    /// The transformed board. Panics only if a `Bands` order is not a
    /// permutation of `0..b` (a programming error: build it with [`Transform::standard`]).
    pub fn apply(&self, board: &Board) -> Board {
        let size = board.size();
        let (n, b) = (size.side(), size.box_size());
        if let Transform::Bands(order) = self {
            let mut seen = order.clone();
            seen.sort_unstable();
            assert!(
                seen.iter().copied().eq(0..b as u8),
                "band order {order:?} is not a permutation of 0..{b}"
            );
        }
        let old = board.cells();
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = self.source(i / n, i % n, n, b);
                old[r * n + c]
            })
            .collect();
        Board::from_cells(size, cells).expect("a grid symmetry keeps a consistent board consistent")
    }
}

/// Next lexicographic permutation in place; `false` after the last one.
fn next_permutation(v: &mut [u8]) -> bool {
    let Some(i) = v.windows(2).rposition(|w| w[0] < w[1]) else {
        return false;
    };
    let j = v
        .iter()
        .rposition(|&x| x > v[i])
        .expect("v[i+1] > v[i] exists");
    v.swap(i, j);
    v[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::format::{board, to_line};
    use crate::base::strategy::Strategy;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn turns_compose() {
        let b = board(P);
        let r90 = Transform::Rot90.apply(&b);
        assert_eq!(Transform::Rot90.apply(&r90), Transform::Rot180.apply(&b));
        let four = (0..4).fold(b.clone(), |x, _| Transform::Rot90.apply(&x));
        assert_eq!(four, b);
        assert_eq!(Transform::Rot270.apply(&r90), b);
        assert_eq!(
            Transform::Transpose.apply(&Transform::Transpose.apply(&b)),
            b
        );
        // A quarter turn is a transpose followed by a left-right mirror.
        assert_eq!(
            Transform::FlipColumns.apply(&Transform::Transpose.apply(&b)),
            r90
        );
    }

    #[test]
    fn first_row_after_quarter_turn_is_first_column_bottom_up() {
        let b = board(P);
        let line = to_line(&Transform::Rot90.apply(&b));
        let col1: String = (0..9).rev().map(|r| P.as_bytes()[r * 9] as char).collect();
        assert_eq!(&line[..9], col1);
    }

    #[test]
    fn every_transform_keeps_the_solution_count_and_maps_solutions() {
        let b = board(P);
        let sol = Strategy::Mrv.solve(&b, None).unwrap().solution.unwrap();
        let all = Transform::standard(b.size());
        assert_eq!(all.len(), 8 + 5);
        for t in &all {
            let tb = t.apply(&b);
            let run = Strategy::Mrv.count(&tb, 2, None).unwrap();
            assert_eq!(run.solutions, 1, "{}", t.name());
            assert_eq!(run.solution.unwrap(), t.apply(&sol), "{}", t.name());
        }
    }

    #[test]
    fn names_and_band_lists() {
        let four = BoxSize::new(2).unwrap();
        let names: Vec<String> = Transform::standard(four).iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), 9);
        assert_eq!(names[8], "bands-21");
        let sixteen = Transform::standard(BoxSize::new(4).unwrap());
        assert_eq!(sixteen.last().unwrap().name(), "bands-4321");
    }
}
