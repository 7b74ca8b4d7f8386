//! Datasets: named, ordered lists of puzzles read from files.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::format::Puzzle;
use crate::input;

/// A named, ordered list of puzzles.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Short name used in reports, e.g. `curated/famous-hard`.
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    pub puzzles: Vec<Puzzle>,
}

impl Dataset {
    /// Loads every puzzle of a file; the name is the file stem.
    pub fn load(path: &Path) -> anyhow::Result<Dataset> {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Self::load_named(path, name)
    }

    /// Loads every puzzle of a file under the given name.
    pub fn load_named(path: &Path, name: String) -> anyhow::Result<Dataset> {
        let mut reader = input::open(Some(path))?;
        let puzzles = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
        if puzzles.is_empty() {
            return Err(reader.empty_error().into());
        }
        Ok(Dataset {
            name,
            path: path.to_path_buf(),
            puzzles,
        })
    }
}

/// The folder of the shipped datasets: `$SUDOKU_LAB_DATASETS`, or the
/// `datasets/` folder of this source tree.
pub fn shipped_dir() -> PathBuf {
    std::env::var_os("SUDOKU_LAB_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets"))
}

/// Every shipped dataset (`*.txt` and `*.csv` below [`shipped_dir`]), sorted
/// by name; names are paths relative to that folder without extension.
pub fn shipped() -> anyhow::Result<Vec<Dataset>> {
    let root = shipped_dir();
    let mut files = Vec::new();
    collect_files(&root, &mut files)
        .with_context(|| format!("cannot read the datasets folder {}", root.display()))?;
    files.sort();
    if files.is_empty() {
        bail!("no datasets (*.txt, *.csv) found in {}", root.display());
    }
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap_or(f).with_extension("");
            Dataset::load_named(f, rel.to_string_lossy().replace('\\', "/"))
        })
        .collect()
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("txt" | "csv")
        ) {
            out.push(path);
        }
    }
    Ok(())
}
