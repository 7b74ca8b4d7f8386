//! Puzzles in and bytes out: the one puzzle reader (datasets, single files, standard input), the
//! public corpora, generated sets, outside solver programs, the row schema of result files and
//! the one writer of single files.

pub(crate) mod csv_file;
pub mod dataset;
pub mod fetch;
pub mod generate;
pub mod input;
pub(crate) mod meta;
pub(crate) mod output;
pub mod program;
pub(crate) mod rows;
pub mod sample;
pub(crate) mod sources;
