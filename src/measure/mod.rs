//! The one way to time a solve (counted run for the counters, uncounted runs for the clock),
//! the references that judge the host's pace, statistics, seeded sampling and the ordered
//! parallel executor.

mod clock;
mod conditions;
pub(crate) mod exec;
mod measurement;
mod pace;
mod passes;
pub(crate) mod permute;
pub(crate) mod results;
pub(crate) mod speed;
pub(crate) mod stats;
mod timer;
mod timing;

pub use clock::Clock;
pub(crate) use clock::cpu_clock_step;
pub use conditions::{Conditions, load_average};
pub use measurement::*;
pub use results::{ProgramRow, Row, columns, measured_columns, program_columns};
pub use speed::{SampleCheck, SpeedOptions, SpeedRow, check_sample, measure as measure_speed};
pub use stats::*;
pub use timing::*;
