//! Whole jobs: `compare`'s run of a plan, shards and their merge, `diff` of two report folders,
//! `speed`, and the one writer of report folders.

pub mod compare;
pub(crate) mod diff;
pub(crate) mod shard;
pub(crate) mod solve;
