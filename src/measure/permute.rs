//! A random symmetry of a puzzle: what tdoku's benchmark harness does to
//! every puzzle it times (`-r 1`), so that a solver is timed on the whole
//! class of a puzzle, not on the one orientation a file happens to hold.
//!
//! The symmetry is drawn uniformly from the group the rules keep: digits
//! relabelled, bands and stacks permuted, rows within each band and columns
//! within each stack permuted, and the grid transposed or not. The solution
//! count is unchanged (a bijection of solutions); the search tree is not,
//! which is the point.

use rand::Rng;
use rand::seq::SliceRandom;

use crate::base::board::{Board, BoxSize};

/// A permutation of `0..n` that keeps blocks of `b`: a random order of the
/// `n / b` blocks, and a random order within each.
fn block_permutation(b: usize, rng: &mut impl Rng) -> Vec<usize> {
    let mut blocks: Vec<usize> = (0..b).collect();
    blocks.shuffle(rng);
    let mut order = Vec::with_capacity(b * b);
    for block in blocks {
        let mut within: Vec<usize> = (0..b).collect();
        within.shuffle(rng);
        order.extend(within.into_iter().map(|i| block * b + i));
    }
    order
}

/// A uniformly drawn symmetry of `board` (same size, same solution count).
pub(crate) fn random_symmetry(board: &Board, rng: &mut impl Rng) -> Board {
    let size: BoxSize = board.size();
    let (n, b) = (size.side(), size.box_size());
    let rows = block_permutation(b, rng);
    let cols = block_permutation(b, rng);
    let transpose = rng.random_bool(0.5);
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let old = board.cells();
    let cells = (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            match old[r * n + c] {
                0 => 0,
                d => digits[usize::from(d) - 1],
            }
        })
        .collect();
    Board::from_cells(size, cells)
        .expect("a symmetry of the grid keeps a consistent board consistent")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::format::parse_one;
    use crate::base::strategy::Strategy;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_symmetry_keeps_the_solution_count_and_the_clues() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for text in [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            // Two solutions.
            "2.6.3......1.65.7..471.8.5.5......29..8.194.6...42...1....428..6.93....5.7.....13",
            "1.3.3.1..1.3.3.1",
        ] {
            let b = parse_one(text).unwrap().1.board;
            let count = |b: &Board| Strategy::Propagate.count(b, 10, None).unwrap().solutions;
            let clues = |b: &Board| b.cells().iter().filter(|&&c| c != 0).count();
            let mut moved = false;
            for _ in 0..20 {
                let p = random_symmetry(&b, &mut rng);
                assert_eq!(count(&p), count(&b), "{text}");
                assert_eq!(clues(&p), clues(&b));
                moved |= p != b;
            }
            assert!(moved, "twenty draws all gave the puzzle back: {text}");
        }
    }

    #[test]
    fn the_same_seed_draws_the_same_symmetries() {
        let b = parse_one(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap()
        .1
        .board;
        let draw = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..5)
                .map(|_| random_symmetry(&b, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
