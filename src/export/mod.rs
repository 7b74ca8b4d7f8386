//! Data to bytes: numbers and tables, the chart engine, the report's prose, the replay page.

pub mod chart;
pub(crate) mod diff_text;
pub mod present;
pub mod replay;
pub mod report;
pub(crate) mod shards;
