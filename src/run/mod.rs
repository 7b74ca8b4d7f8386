//! Whole jobs: `compare`'s run of a plan, shards and their merge, `diff` of two report folders,
//! `speed`, and the one writer of report folders.

pub(crate) mod compare;
pub(crate) mod diff;
pub(crate) mod shard;
pub(crate) mod solve;

pub use compare::{
    Eta, Finished, Forecast, Item, Placement, Plan, Prepared, STAGING_PREFIX, Schedule, Source,
    Tick, execute, measure, place, prepare, probe, process_cpu, read_results, resolve_sources,
};
