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
    let dir = fetch::data_dir();
    let mut text = String::new();
    for c in &fetch::CORPORA {
        let state = match fetch::path_of(c) {
            Ok(p) if p.is_file() => format!("fetched: {}", p.display()),
            _ => "not fetched".to_string(),
        };
        text.push_str(&format!(
            "{:<20} {:>7} puzzles  {state}\n{:<20} {}\n",
            c.name, c.puzzles, "", c.about
        ));
    }
    match dir {
        Ok(d) => text.push_str(&format!(
            "\n`sudoku-lab datasets fetch NAME` keeps them in {}\n",
            d.display()
        )),
        Err(e) => text.push_str(&format!("\n{e}\n")),
    }
    crate::io::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn fetch_named(args: &FetchArgs) -> anyhow::Result<ExitCode> {
    let mut chosen: Vec<&'static fetch::Corpus> = Vec::new();
    for name in &args.names {
        if name == "all" {
            chosen.extend(fetch::CORPORA.iter());
            continue;
        }
        match fetch::corpus(name) {
            Some(c) => chosen.push(c),
            None => anyhow::bail!(
                "datasets fetch: no public corpus named {name:?} (known: {}, or all)",
                fetch::names()
            ),
        }
    }
    chosen.sort_by_key(|c| c.name);
    chosen.dedup();
    let base = match &args.from {
        Some(b) => b.clone(),
        None => std::env::var(fetch::BASE_ENV)
            .ok()
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| crate::base::defaults::FETCH_BASE.to_string()),
    };
    let bar = Bar::bytes("download");
    let done = fetch::fetch(&chosen, &base, &bar);
    bar.finish();
    let mut text = String::new();
    for f in done? {
        text.push_str(&format!(
            "{}: {} puzzles, {} {}\n",
            f.name,
            f.puzzles,
            if f.already {
                "already fetched, checked:"
            } else {
                "fetched and checked:"
            },
            f.path.display()
        ));
    }
    crate::io::output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
