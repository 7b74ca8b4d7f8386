//! `diff OLD NEW`: a thin wrapper over [`crate::run::diff`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::analysis::diff::Options;
use crate::export::diff_text as text;
use crate::run::diff;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The report folder to compare against (written by `compare --out`);
    /// with --baseline, leave it out and name NEW alone.
    #[arg(required_unless_present = "baseline")]
    pub old: Option<PathBuf>,
    /// The report folder with the change (may be OLD itself with --pair).
    #[arg(required_unless_present = "baseline")]
    pub new: Option<PathBuf>,
    /// Compare NEW with the baseline saved as NAME (`compare
    /// --save-baseline NAME`, kept in `my-reports/baselines/NAME`) instead
    /// of a folder OLD: `diff --baseline main my-reports`.
    #[arg(long, value_name = "NAME", value_parser = crate::run::compare::baseline::parse_name)]
    pub baseline: Option<String>,
    /// Compare strategy OLD_NAME of OLD with NEW_NAME of NEW (repeatable),
    /// e.g. `--pair mrv=lcv`; default: every strategy both hold, by name.
    #[arg(long = "pair", value_name = "OLD=NEW", value_parser = diff::parse_pair)]
    pub pairs: Vec<(String, String)>,
    /// Run-to-run spread in percent: two runs of the same code differ by a
    /// factor within 1 ± PCT/100; every interval is widened by it, and the
    /// verdict is faster or slower only when the whole interval excludes ×1
    /// [default: 10; 30 when either run was measured on a busy machine, where
    /// whole runs drift further].
    #[arg(long, value_name = "PCT", value_parser = percent)]
    pub noise: Option<f64>,
    /// Exit 1 when a dataset × strategy is slower than PCT percent with its
    /// whole 95% interval (its low end above 1 + PCT/100): for CI.
    #[arg(long, value_name = "PCT", value_parser = percent)]
    pub fail_if_slower: Option<f64>,
    /// Also write diff.md, diff.csv, node-changes.csv and the chart
    /// (diff.svg, diff.png) into this folder, as a report folder is written:
    /// a folder the lab did not make is refused without --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub force: super::args::ForceArg,
    /// Print a Markdown page instead of the table.
    #[arg(long, conflicts_with_all = ["csv", "json"])]
    pub markdown: bool,
    /// Print the rows as CSV (one per dataset × strategy).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Print everything as JSON: rows, changed trees, differences.
    #[arg(long)]
    pub json: bool,
}

fn percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..1000.0).contains(&x) => Ok(x),
        _ => Err(format!("{s:?}: expected a percentage from 0 to 1000")),
    }
}

pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let opts = Options {
        pairs: args.pairs.clone(),
        noise: args.noise.map(|pct| pct / 100.0),
        ..Options::default()
    };
    let (old, new) = diff::folders(
        args.baseline.as_deref(),
        args.old.as_deref(),
        args.new.as_deref(),
    )?;
    let d = diff::diff(&old, &new, &opts)?;
    if let Some(out) = &args.out {
        diff::write_out(&d, out, args.force.force)?;
    }
    let body = if args.json {
        crate::export::present::json(&d)?
    } else if args.csv {
        text::csv(&d)?
    } else if args.markdown {
        text::markdown(&d)
    } else {
        text::table(&d)
    };
    // Machine-readable output stays clean: differences go to stderr there.
    if !args.markdown {
        for line in text::differences(&d) {
            crate::io::output::note(line);
        }
    }
    crate::io::output::print(&body)?;
    if let Some(line) = args.fail_if_slower.and_then(|pct| text::slower(&d, pct)) {
        return Ok(super::unsolved(&line));
    }
    Ok(ExitCode::SUCCESS)
}
