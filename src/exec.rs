//! One parallel executor for every command that fans out (`compare`,
//! `rate`): items are read in chunks, each chunk's work runs on a pool of
//! worker threads, and results reach the sink in input order. So output
//! order, and everything computed from it, does not depend on the number of
//! workers; only the wall time does. Memory is bounded by one chunk.

use anyhow::Context;
use rayon::prelude::*;

/// Items per chunk: enough to keep every worker busy, few enough that memory
/// stays small and the first results appear soon.
pub const CHUNK: usize = 64;

/// Runs `work` on every item with `jobs` worker threads and hands the
/// results to `sink` in input order. The first error (reading, working or
/// sinking) stops the run.
pub fn ordered<T, R>(
    items: impl Iterator<Item = anyhow::Result<T>>,
    jobs: usize,
    work: impl Fn(&T) -> anyhow::Result<R> + Sync,
    mut sink: impl FnMut(R) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    T: Sync,
    R: Send,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .context("cannot start the worker threads")?;
    let mut items = items.peekable();
    let mut chunk: Vec<T> = Vec::with_capacity(CHUNK);
    while items.peek().is_some() {
        chunk.clear();
        for item in items.by_ref().take(CHUNK) {
            chunk.push(item?);
        }
        let results: Vec<anyhow::Result<R>> =
            pool.install(|| chunk.par_iter().map(&work).collect());
        for r in results {
            sink(r?)?;
        }
    }
    Ok(())
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
