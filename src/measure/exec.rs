//! One parallel executor for every command that fans out (`compare`,
//! `rate`): the calling thread reads the items and hands them out, worker
//! threads take them one at a time as they free up, and results reach the
//! sink in input order. So output order, and everything computed from it,
//! does not depend on the number of workers; only the wall time does.
//! Memory is bounded by a window of [`WINDOW`] items: no item is handed out
//! that far ahead of the oldest one not yet sunk.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// Most items handed out and not yet sunk: enough to keep every worker busy
/// past one slow item, few enough that memory stays small.
pub const WINDOW: usize = 64;

/// Runs `work` on every item with `jobs` worker threads and hands the
/// results to `sink` in input order, each as soon as it and every result
/// before it are done. The first error (reading, working or sinking) stops
/// the run: no new item is started, and the error is returned once the
/// items under way have ended.
pub fn ordered<T, R>(
    items: impl Iterator<Item = anyhow::Result<T>>,
    jobs: usize,
    work: impl Fn(&T) -> anyhow::Result<R> + Sync,
    mut sink: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    T: Send,
    R: Send,
{
    let stop = AtomicBool::new(false);
    let (hand_out, queue) = mpsc::channel::<(usize, T)>();
    let queue = Mutex::new(queue);
    let (results, inbox) = mpsc::channel::<(usize, anyhow::Result<R>)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let results = results.clone();
            let (queue, stop, work) = (&queue, &stop, &work);
            scope.spawn(move || {
                loop {
                    let next = match queue.lock() {
                        Ok(q) => q.recv(),
                        Err(_) => break,
                    };
                    let Ok((i, item)) = next else { break };
                    if stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    if results.send((i, work(&item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(results);
        let mut items = items.enumerate();
        let (mut handed, mut next, mut read_all) = (0, 0, false);
        let mut waiting = BTreeMap::new();
        let outcome = loop {
            while !read_all && handed < next + WINDOW {
                match items.next() {
                    None => read_all = true,
                    Some((i, Ok(item))) => {
                        if hand_out.send((i, item)).is_err() {
                            read_all = true;
                        }
                        handed += 1;
                    }
                    Some((i, Err(e))) => {
                        // Its turn comes after the items before it.
                        waiting.insert(i, Err(e));
                        handed += 1;
                        read_all = true;
                    }
                }
            }
            if let Some(e) = drain(&mut waiting, &mut next, &mut sink) {
                break Err(e);
            }
            if next == handed {
                // Every item handed out is sunk: the end, or (when the whole
                // window finished before this drain) the next window.
                if read_all {
                    break Ok(());
                }
                continue;
            }
            match inbox.recv() {
                Ok((i, result)) => {
                    waiting.insert(i, result);
                }
                Err(_) => break Err(anyhow::anyhow!("the worker threads stopped")),
            }
        };
        stop.store(true, Ordering::Relaxed);
        drop(hand_out);
        outcome
    })
}

/// Sinks the waiting results that are next in order; the first error.
fn drain<R>(
    waiting: &mut BTreeMap<usize, anyhow::Result<R>>,
    next: &mut usize,
    sink: &mut impl FnMut(R) -> anyhow::Result<()>,
) -> Option<anyhow::Error> {
    while let Some(result) = waiting.remove(next) {
        *next += 1;
        if let Err(e) = result.and_then(&mut *sink) {
            return Some(e);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_does_not_depend_on_workers() {
        let run = |jobs| {
            let mut out = Vec::new();
            ordered(
                (0..1000u64).map(Ok),
                jobs,
                |&x| Ok(x * x),
                |r| {
                    out.push(r);
                    Ok(())
                },
            )
            .unwrap();
            out
        };
        let one = run(1);
        assert_eq!(one, (0..1000u64).map(|x| x * x).collect::<Vec<_>>());
        assert_eq!(run(4), one);
    }

    /// The oldest item of the window finishing after all the others (a
    /// slow first puzzle, a worker descheduled on a busy machine) drains the
    /// whole window at once: the run must go on to the unread items, not
    /// end there (it lost every item after the first window).
    #[test]
    fn a_slow_first_item_loses_nothing() {
        let mut out = Vec::new();
        ordered(
            (0..(3 * WINDOW as u64)).map(Ok),
            4,
            |&x| {
                if x == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                }
                Ok(x)
            },
            |r| {
                out.push(r);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..(3 * WINDOW as u64)).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let mut seen = 0;
        let r = ordered(
            (0..500u64).map(Ok),
            2,
            |&x| {
                if x == 100 {
                    anyhow::bail!("bad {x}")
                } else {
                    Ok(x)
                }
            },
            |_| {
                seen += 1;
                Ok(())
            },
        );
        assert!(r.unwrap_err().to_string().contains("bad 100"));
        assert!(seen <= 100);
    }
}
