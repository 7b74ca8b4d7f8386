//! Every counter of the table reaches the counters that are not
//! [`Counts`]: the tracer (which counts through a `Counts` of its own) and
//! the estimator's probe (which weights each counter by the node it
//! happens at). Run through every rung's real search, in both modes
//! (first solution, whole tree), on puzzles that between them reach every
//! counter; no counter is named, so a line added to the table is held to
//! this too.

use crate::base::counters::Counts;
use crate::base::format::board;
use crate::base::probe::Probe;
use crate::base::search::Limits;
use crate::base::strategy::Strategy;
use crate::base::tracer::Tracer;

/// 4×4 and 9×9; solved by inference or by search; one, several or no
/// solution (found by search, or at the root).
const PUZZLES: [&str; 6] = [
    "................",
    "...1..2.2.4..3..",
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "17..8596229..67158586192734451923876928674315367851249719548623635219487842736591",
    ".12345678..................9.....................................................",
    ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7..9..",
];

#[test]
fn the_tracer_and_the_probe_forward_every_counter_of_the_table() {
    let whole_tree = Limits::count(u64::MAX, None);
    let mut reached = [0u64; Counts::LEN];
    for text in PUZZLES {
        let puzzle = board(text);
        for &s in Strategy::ALL.iter().filter(|s| s.supports(puzzle.size())) {
            for limits in [Limits::solve(None), whole_tree] {
                let counted = s.run(&puzzle, limits, Counts::default());
                assert_eq!(counted.counter.nodes, counted.nodes, "{s} {text}");
                let traced = s.run(&puzzle, limits, Tracer::new(0));
                assert_eq!(traced.counter.counts(), counted.counter, "{s} {text}");
            }
            let counted = s.run(&puzzle, whole_tree, Counts::default()).counter;
            let probed = s.run(
                &puzzle,
                whole_tree,
                Probe::exhaustive(puzzle.size().cells()),
            );
            assert_eq!(probed.counter.fault, None, "{s} {text}");
            let sums = probed.counter.sums.map(|x| x as u64);
            assert_eq!(sums, counted.values(), "{s} {text}: the probe's sums");
            for (total, value) in reached.iter_mut().zip(counted.values()) {
                *total += value;
            }
        }
    }
    for (name, total) in Counts::NAMES.iter().zip(reached) {
        assert!(
            total > 0,
            "no puzzle reaches {name}: its forwarding is untested"
        );
    }
}
