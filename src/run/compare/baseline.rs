//! Named baselines, criterion's way (`compare --save-baseline NAME`, then
//! `diff --baseline NAME NEW`): a copy of a finished report folder kept
//! under the report root, `my-reports/baselines/NAME`, so that a change is
//! compared with a run made before it by name rather than by a folder the
//! next run may replace. A baseline is an ordinary report folder: `diff`,
//! `report` and `report merge` read it as any other.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::run::compare::write::{FolderLock, Staging};

/// The folder of the baselines below the report root.
pub const BASELINES: &str = "baselines";

/// Checks a baseline's name (`--save-baseline`, `--baseline`): letters,
/// digits, `-`, `_` and `.`, not starting with `.`, so that it is one
/// plain folder name on every system.
pub fn parse_name(s: &str) -> Result<String, String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
    if s.is_empty() || s.len() > 64 || s.starts_with('.') || !s.chars().all(plain) {
        return Err(format!(
            "{s:?}: a baseline name is 1 to 64 letters, digits, '-', '_' or '.', not starting with '.' (e.g. main, before-lcv)"
        ));
    }
    Ok(s.to_string())
}

/// Where the baseline `name` is kept below the report root `root`.
pub fn folder(root: &Path, name: &str) -> PathBuf {
    root.join(BASELINES).join(name)
}

/// The baselines saved below `root`, sorted.
pub fn saved(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join(BASELINES))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().join(super::META).is_file())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The folder of the saved baseline `name`; an error lists those saved
/// (and the closest name) when there is none of that name.
pub fn find(root: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let dir = folder(root, name);
    if dir.join(super::META).is_file() {
        return Ok(dir);
    }
    let names = saved(root);
    let hint = crate::base::names::did_you_mean(name, names.iter().map(String::as_str));
    let list = if names.is_empty() {
        "none is saved".to_string()
    } else {
        format!("saved: {}", names.join(", "))
    };
    bail!(
        "no baseline {name:?} in {}{hint} ({list}; `compare --save-baseline {name}` saves one)",
        root.join(BASELINES).display()
    )
}

/// Copies the report folder `report` (its regular files, hidden ones left
/// out) into the baseline `name` below `root`, replacing a baseline of that
/// name as a report replaces the previous one: staged, then renamed into
/// place. Returns the baseline's folder.
pub fn save(report: &Path, root: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let dir = folder(root, name);
    let mut staging = Staging::new(&dir)?;
    let entries =
        std::fs::read_dir(report).with_context(|| format!("cannot read {}", report.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", report.display()))?;
        let Some(file) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let path = entry.path();
        if file.starts_with('.') || !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        staging.write(&file, &bytes)?;
    }
    staging.commit(&FolderLock::acquire(&dir)?)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_plain_folder() {
        assert_eq!(parse_name("before-lcv_2.1"), Ok("before-lcv_2.1".into()));
        for bad in ["", ".", "..", ".hidden", "a/b", "a\\b", "a b", "é"] {
            assert!(parse_name(bad).is_err(), "{bad:?}");
        }
        assert!(parse_name(&"x".repeat(65)).is_err());
    }

    #[test]
    fn a_saved_report_is_found_by_name_and_replaced_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let (report, root) = (tmp.path().join("r"), tmp.path().join("root"));
        std::fs::create_dir(&report).unwrap();
        std::fs::write(report.join(super::super::META), "key,value\n").unwrap();
        std::fs::write(report.join("results.csv"), "1").unwrap();
        std::fs::write(report.join(".hidden"), "x").unwrap();
        let dir = save(&report, &root, "main").unwrap();
        assert_eq!(find(&root, "main").unwrap(), dir);
        assert_eq!(
            std::fs::read_to_string(dir.join("results.csv")).unwrap(),
            "1"
        );
        assert!(!dir.join(".hidden").exists());
        // Saved again from a report without results.csv: the old one goes.
        std::fs::remove_file(report.join("results.csv")).unwrap();
        save(&report, &root, "main").unwrap();
        assert!(!dir.join("results.csv").exists());
        assert_eq!(saved(&root), ["main"]);
        let err = find(&root, "mian").unwrap_err().to_string();
        assert!(
            err.contains("did you mean main?") && err.contains("saved: main"),
            "{err}"
        );
        let err = find(&tmp.path().join("none"), "main")
            .unwrap_err()
            .to_string();
        assert!(err.contains("none is saved"), "{err}");
    }
}
