//! `datasets`: the public corpora ([`crate::io::fetch`]): list them, fetch them.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::cli::progress::Bar;
use crate::io::fetch;

#[derive(Debug, Args)]
pub struct DatasetsArgs {
    #[command(subcommand)]
    pub command: DatasetsCommand,
}

#[derive(Debug, Subcommand)]
pub enum DatasetsCommand {
    /// The public corpora: name, puzzles, fetched or not, what they are.
    List,
    /// Download public corpora into the user's data folder
    /// ($XDG_DATA_HOME/sudoku-lab/datasets or ~/.local/share/sudoku-lab/datasets),
    /// each checked by a hash of its puzzles; then `--dataset NAME` reads it.
    /// An interrupted download resumes where it stopped.
    Fetch(FetchArgs),
}

#[derive(Debug, Args)]
pub struct FetchArgs {
    /// Corpora to fetch (`datasets list` names them), or `all`.
    #[arg(required = true, value_name = "NAME")]
    pub names: Vec<String>,
    /// Base URL the archive (data.zip) is downloaded from: a mirror of
    /// tdoku's repository. Default: $SUDOKU_LAB_FETCH_BASE, else tdoku's
    /// repository on GitHub.
    #[arg(long, value_name = "URL")]
    pub from: Option<String>,
}

pub fn run(args: &DatasetsArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        DatasetsCommand::List => list(),
        DatasetsCommand::Fetch(f) => fetch_named(f),
    }
}

fn list() -> anyhow::Result<ExitCode> {
    let (corpora, dir) = fetch::listing();
    crate::io::output::print(&crate::export::present::corpora(&corpora, &dir))?;
    Ok(ExitCode::SUCCESS)
}

fn fetch_named(args: &FetchArgs) -> anyhow::Result<ExitCode> {
    let chosen = fetch::choose(&args.names)?;
    let bar = Bar::bytes("download");
    let done = fetch::fetch(&chosen, &fetch::base_url(args.from.as_deref()), &bar);
    bar.finish();
    crate::io::output::print(&crate::export::present::fetched(&done?))?;
    Ok(ExitCode::SUCCESS)
}
