//! `generate`: write a seeded set of uniquely solvable puzzles.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::base::board::BoxSize;
use crate::base::progress::Progress;
use crate::cli::progress::Bar;
use crate::io::generate::{self, Clues, DEFAULT_MAX_ATTEMPTS, Params, Symmetry};

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board side: 4, 9, 16 or 25.
    #[arg(long, default_value_t = 9, value_parser = parse_size)]
    pub size: usize,
    /// Number of puzzles.
    #[arg(long, short = 'n', default_value_t = 10)]
    pub count: usize,
    /// Seed of the ChaCha8 generator: same arguments, same bytes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Clue target: K, or an inclusive range A..B: each puzzle aims at a
    /// count drawn uniformly from A..B and is kept if removal gets it to at
    /// most B. Default: as few clues as uniqueness allows (16x16 stops at
    /// 83, 25x25 at 315).
    #[arg(long, value_name = "K|A..B")]
    pub clues: Option<Clues>,
    /// Symmetry of the clue pattern.
    #[arg(long, value_enum, default_value_t = Symmetry::None)]
    pub symmetry: Symmetry,
    /// Only keep puzzles from which no single clue can be removed.
    #[arg(long)]
    pub minimal: bool,
    /// Node budget of each uniqueness check (a number, or `unlimited`;
    /// default depends on size). Read as every command's `--budget` is: 0 is
    /// refused.
    #[arg(long, value_name = "NODES")]
    pub budget: Option<crate::base::search::Budget>,
    /// Fresh grids tried per puzzle before giving up on its clue target.
    #[arg(long, default_value_t = DEFAULT_MAX_ATTEMPTS)]
    pub max_attempts: u32,
    /// Write here (atomically) instead of standard output.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

fn parse_size(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .filter(|&n| BoxSize::from_side(n).is_some())
        .ok_or_else(|| format!("`{s}` is not a supported size: use 4, 9, 16 or 25"))
}

impl GenerateArgs {
    pub fn params(&self) -> Params {
        Params {
            size: BoxSize::from_side(self.size).unwrap_or(BoxSize::NINE),
            count: self.count,
            seed: self.seed,
            clues: self.clues,
            symmetry: self.symmetry,
            minimal: self.minimal,
            budget: self.budget.map(|b| b.get().unwrap_or(u64::MAX)),
            max_attempts: self.max_attempts,
        }
    }
}

pub fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let params = args.params();
    params.check()?;
    let bar = Bar::new("generate");
    bar.start(params.count as u64);
    let puzzles = generate::generate(&params, &|| bar.tick());
    bar.finish();
    let text = params.file(&puzzles?);
    match &args.out {
        Some(path) => crate::io::output::write_file(path, text.as_bytes())?,
        None => crate::io::output::print(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `--symmetry` takes the names [`Symmetry::name`] gives (the library knows
/// nothing of clap).
impl clap::ValueEnum for Symmetry {
    fn value_variants<'a>() -> &'a [Self] {
        &Symmetry::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.summary()))
    }
}
