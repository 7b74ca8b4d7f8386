//! Whole jobs: `compare`'s run of a plan, shards and their merge, `diff` of two report folders,
//! `speed`, and the one writer of report folders.

pub mod compare;
pub mod diff;
pub mod shard;
pub mod solve;
