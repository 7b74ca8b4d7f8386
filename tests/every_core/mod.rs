//! Independent checks spread over the cores: tests whose items (puzzles to
//! count, commands to run) take minutes one after another.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Calls `f` on every item, on up to four threads (as many as the machine
/// has), each taking the next item left; returns when all are done. The
/// order of the calls is not fixed: only for items that do not depend on
/// each other.
pub fn for_each<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    f(item);
                }
            });
        }
    });
}
