//! `diff OLD NEW`: did a change help? Reads two report folders (`compare`'s
//! `results.csv` and `meta.csv`) and hands them to the computing
//! ([`crate::analysis::diff`]: node counts, time ratios and their intervals,
//! verdicts, the runs' differing conditions); [`files`] are what `diff --out`
//! writes ([`crate::export::diff_text`], [`crate::export::chart::diff`]).
//! `results.csv` is read by column name, as the report reads it, so columns
//! added later do not break it; strategies are kept as names, so a folder
//! written by a program with an outside rung (`examples/lcv.rs`) is read by
//! the plain `sudoku-lab` too.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::analysis::diff::{self, Diff, Folder, Options, Rec};
use crate::export::{chart, diff_text};
use crate::io::meta::Meta;
use crate::io::rows::{Fields, PuzzleId};
use crate::run::compare::run;
use crate::run::compare::write::{FolderLock, Staging};
use crate::run::compare::{META, RESULTS};
use crate::run::shard::Fingerprint;

/// Reads both folders and compares them.
pub fn diff(old: &Path, new: &Path, opts: &Options) -> anyhow::Result<Diff> {
    let a = read_folder(old)?;
    let b = read_folder(new)?;
    let mut left_out = Vec::new();
    let common = diff::common_datasets(&a, &b, &mut left_out)?;
    same_files(&a, &b, &common)?;
    diff::compare(&a, &b, &common, left_out, opts)
}

/// One `results.csv` row as `diff` keeps it: read by the parts of
/// [`run::read`], but with the strategy and outcome kept as names (an
/// outside rung's rows read too).
fn rec(f: &Fields) -> Result<Rec, String> {
    Ok(Rec {
        puzzle: PuzzleId::read(f)?,
        strategy: f.text("strategy")?.to_string(),
        outcome: run::read_outcome(f)?.name().to_string(),
        nodes: run::read_counts(f)?.0.map(|c| c.nodes),
        time: run::read_timing(f)?.map(|t| (t.cpu_ns, t.cpu_min_ns, t.cpu_max_ns)),
    })
}

fn read_folder(dir: &Path) -> anyhow::Result<Folder> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "{}: not a folder (a report folder written by `sudoku-lab compare` is)",
            dir.display()
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("{}: no such folder", dir.display())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
    let meta_path = dir.join(META);
    let results = dir.join(RESULTS);
    for path in [&meta_path, &results] {
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => bail!("{}: not a regular file", path.display()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
                "{}: not a report folder: it holds no {} (`sudoku-lab compare --out {}` writes one)",
                dir.display(),
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                dir.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }
    let bytes = std::fs::read(&meta_path)
        .with_context(|| format!("cannot read {}", meta_path.display()))?;
    let meta =
        Meta::from_csv(&bytes).with_context(|| format!("cannot read {}", meta_path.display()))?;
    // Read as `report` and `merge` read it; an error names file, line and column.
    let mut recs = Vec::new();
    run::read_rows(&results, rec, |r| recs.push(r))?;
    Ok(Folder {
        dir: dir.to_path_buf(),
        results,
        meta,
        recs,
    })
}

/// A dataset of one name must be the same file in both runs: their plans
/// (`meta.csv`) name each dataset's puzzles and hash.
fn same_files(a: &Folder, b: &Folder, common: &[&str]) -> anyhow::Result<()> {
    let sets = |f: &Folder| {
        Fingerprint::from_meta(&f.meta)
            .datasets()
            .ok()
            .unwrap_or_default()
    };
    let (old_sets, new_sets) = (sets(a), sets(b));
    for d in common {
        let x = old_sets.iter().find(|p| p.name == *d);
        let y = new_sets.iter().find(|p| p.name == *d);
        if let (Some(x), Some(y)) = (x, y)
            && (x.fnv1a64 != y.fnv1a64 || x.total != y.total)
        {
            bail!(
                "mismatched plans: dataset {d} is another file in {} ({} puzzles, hash {}) than in {} ({} puzzles, hash {})",
                b.dir.join(META).display(),
                y.total,
                y.fnv1a64,
                a.dir.join(META).display(),
                x.total,
                x.fnv1a64
            );
        }
    }
    Ok(())
}

/// Files `--out DIR` holds, by name: the Markdown page, the rows as CSV,
/// every changed tree, and the chart (SVG and PNG).
pub fn files(diff: &Diff) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let chart = chart::diff::render(diff)?;
    let stem = chart::DIFF.stem;
    Ok(vec![
        (
            "diff.md".to_string(),
            diff_text::markdown(diff).into_bytes(),
        ),
        ("diff.csv".to_string(), diff_text::csv(diff)?.into_bytes()),
        (
            "node-changes.csv".to_string(),
            diff_text::node_changes_csv(diff)?.into_bytes(),
        ),
        (format!("{stem}.svg"), chart.svg.into_bytes()),
        (format!("{stem}.png"), chart.png),
    ])
}

/// Writes [`files`] into the folder `out` as a report folder is written
/// (staged, renamed into place; a folder the lab did not make is refused
/// without `force`).
pub(crate) fn write_out(diff: &Diff, out: &Path, force: bool) -> anyhow::Result<()> {
    crate::run::compare::write::check_out(out, force, &[])?;
    let mut staging = Staging::new(out)?;
    for (name, bytes) in files(diff)? {
        staging.write(&name, &bytes)?;
    }
    staging.commit(&FolderLock::acquire(out)?)
}

/// OLD and NEW from the command line: two folders, or a saved baseline
/// (`--baseline NAME`, under the report root) and one folder.
pub(crate) fn folders(
    baseline: Option<&str>,
    old: Option<&Path>,
    new: Option<&Path>,
) -> anyhow::Result<(PathBuf, PathBuf)> {
    match (baseline, old, new) {
        (None, Some(old), Some(new)) => Ok((old.to_path_buf(), new.to_path_buf())),
        (Some(name), Some(new), None) => {
            let root = Path::new(crate::run::compare::REPORTS);
            Ok((
                crate::run::compare::baseline::find(root, name)?,
                new.to_path_buf(),
            ))
        }
        (Some(name), None, _) => bail!(
            "--baseline {name}: name the report folder to compare with it (`diff --baseline {name} my-reports`)"
        ),
        (Some(name), Some(_), Some(_)) => {
            bail!("--baseline {name} stands for OLD: name one report folder (NEW), not two")
        }
        (None, _, _) => bail!("name two report folders, OLD and NEW"),
    }
}

/// Parses `--pair OLD=NEW`.
pub(crate) fn parse_pair(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
            Ok((a.trim().to_string(), b.trim().to_string()))
        }
        _ => Err(format!(
            "{s:?}: expected OLD=NEW, two strategy names (e.g. mrv=lcv)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_parse() {
        assert_eq!(parse_pair("mrv=lcv"), Ok(("mrv".into(), "lcv".into())));
        assert!(parse_pair("mrv").is_err());
        assert!(parse_pair("=lcv").is_err());
    }
}
