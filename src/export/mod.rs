//! Data to bytes: numbers and tables, the chart engine, the report's prose, the replay page.

pub(crate) mod chart;
pub(crate) mod diff_text;
pub(crate) mod present;
pub(crate) mod replay;
pub(crate) mod report;
pub(crate) mod shards;

pub use chart::{FULL_SET, register_font, report_charts, rung_color};
pub use present::{
    fmt_count, fmt_ratio, fmt_ratio_ci, fmt_time, fmt_time_ci, markdown, percent, size_name,
    thousands,
};
pub use replay::{MAX_STEPS, Page, encode, html, page, size_bound};
pub use report::utc_string;
