//! Puzzles in and bytes out: the one puzzle reader (datasets, single files, standard input), the
//! public corpora, generated sets, outside solver programs, the row schema of result files and
//! the one writer of single files.

pub(crate) mod csv_file;
pub(crate) mod dataset;
pub(crate) mod fetch;
pub(crate) mod generate;
pub(crate) mod input;
pub(crate) mod meta;
pub(crate) mod output;
pub mod program;
pub(crate) mod rows;
pub(crate) mod sample;
pub(crate) mod sources;

pub use dataset::*;
pub use fetch::{corpus, list_hash};
pub use generate::*;
pub use input::open;
pub use sample::Sample;
