//! One seeded sampler for every command: `--sample N --seed S` picks the same
//! puzzles of the same file in `compare`, `speed`, `ladder` and `rate`.
//!
//! Reservoir sampling (Vitter's algorithm R) over the stream of puzzles, with
//! a ChaCha8 generator seeded by `S` alone: item `i` (0-based) replaces a
//! random slot of the reservoir with probability `N/(i+1)`, so every subset
//! of `N` items is equally likely, the file is read once (standard input
//! works), and memory is bounded by the sample, not the file. The sample is
//! returned in file order. The same seed and the same file give the same
//! sample on every machine.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded sample of at most `n` items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub n: u64,
    pub seed: u64,
}

impl Sample {
    /// Draws the sample from `items` (errors end the draw); returns the
    /// picked items with their 0-based positions, in file order, and how many
    /// items the stream held.
    pub fn draw<T, E>(
        self,
        items: impl IntoIterator<Item = Result<T, E>>,
    ) -> Result<(Vec<(u64, T)>, u64), E> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut reservoir: Vec<(u64, T)> = Vec::new();
        let mut seen = 0u64;
        for item in items {
            let item = item?;
            if seen < self.n {
                reservoir.push((seen, item));
            } else {
                let j = rng.random_range(0..=seen);
                if j < self.n {
                    reservoir[j as usize] = (seen, item);
                }
            }
            seen += 1;
        }
        reservoir.sort_unstable_by_key(|&(i, _)| i);
        Ok((reservoir, seen))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(n: u64, seed: u64, len: u64) -> Vec<u64> {
        let items = (0..len).map(Ok::<u64, ()>);
        let (picked, seen) = Sample { n, seed }.draw(items).unwrap();
        assert_eq!(seen, len);
        assert!(picked.iter().all(|&(i, v)| i == v));
        picked.into_iter().map(|(i, _)| i).collect()
    }

    #[test]
    fn seeded_sorted_and_sized() {
        let a = positions(10, 7, 1000);
        assert_eq!(a, positions(10, 7, 1000));
        assert_ne!(a, positions(10, 8, 1000));
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(positions(10, 7, 5), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn every_position_is_about_equally_likely() {
        // 2,000 draws of 5 out of 20: each position expected 500 times.
        let mut hits = [0u32; 20];
        for seed in 0..2000 {
            for i in positions(5, seed, 20) {
                hits[i as usize] += 1;
            }
        }
        assert!(hits.iter().all(|&h| (400..600).contains(&h)), "{hits:?}");
    }

    #[test]
    fn errors_end_the_draw() {
        let items = vec![Ok(1), Err("bad"), Ok(3)];
        assert_eq!(Sample { n: 2, seed: 1 }.draw(items), Err("bad"));
    }
}
