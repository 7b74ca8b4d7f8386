//! `--dataset` values to puzzle files: a path, a shipped dataset's name
//! ([`crate::io::dataset::shipped_sources`]), or a public corpus fetched earlier
//! ([`crate::io::fetch`]). It stands above both, so that reading puzzle files
//! (`dataset`) knows nothing of downloads.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::io::dataset::{Source, shipped_sources};

/// Turns `--dataset` values into sources: a puzzle file, or the name of a
/// shipped dataset (looked up without reading any shipped file). With no
/// values, every shipped dataset. The same file named two ways (`in/x.txt`,
/// `./in/x.txt`) is one source; two files with one stem keep their paths as
/// names. Each source is read twice (checked, then run), so it must be a
/// regular file: a folder, FIFO or device is refused with what it is.
pub fn resolve_sources(specs: &[String]) -> anyhow::Result<Vec<Source>> {
    if specs.is_empty() {
        return shipped_sources();
    }
    let mut known: Option<anyhow::Result<Vec<Source>>> = None;
    let mut out: Vec<(Source, PathBuf)> = Vec::new();
    for spec in specs {
        let path = Path::new(spec);
        let source = match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Source {
                name: path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| spec.clone()),
                path: path.to_path_buf(),
            },
            Ok(m) => bail!(
                "--dataset {spec}: {} is {}, not a puzzle file (datasets are read twice, to check \
                 them and then to run them: save the puzzles to a regular file)",
                path.display(),
                kind_of(&m)
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let list = known.get_or_insert_with(shipped_sources);
                match list {
                    Ok(list) => match list.iter().find(|s| s.name == *spec) {
                        Some(s) => s.clone(),
                        None => {
                            // A public corpus, fetched into the user's data folder.
                            if let Some(fetched) = crate::io::fetch::resolve(spec) {
                                fetched?
                            } else {
                                let names: Vec<&str> =
                                    list.iter().map(|s| s.name.as_str()).collect();
                                let corpora = crate::io::fetch::names();
                                let hint = crate::base::names::did_you_mean(
                                    spec,
                                    names.iter().copied().chain(corpora.split(", ")),
                                );
                                bail!(
                                    "--dataset {spec}: no such file, and no shipped dataset of that name{hint} \
                                 (shipped: {}; public corpora, after `sudoku-lab datasets fetch NAME`: {corpora})",
                                    names.join(", "),
                                );
                            }
                        }
                    },
                    Err(why) => bail!(
                        "--dataset {spec}: no such file, and the shipped datasets cannot be listed: {why:#}"
                    ),
                }
            }
            Err(e) => {
                return Err(anyhow::Error::from(e)
                    .context(format!("--dataset {spec}: cannot read {}", path.display())));
            }
        };
        let identity = std::fs::canonicalize(&source.path).unwrap_or_else(|_| source.path.clone());
        if out.iter().any(|(_, id)| *id == identity) {
            continue;
        }
        let mut source = source;
        if out.iter().any(|(s, _)| s.name == source.name) {
            source.name = source.path.display().to_string();
        }
        out.push((source, identity));
    }
    Ok(out.into_iter().map(|(s, _)| s).collect())
}

/// What a file-system entry is, in words.
fn kind_of(m: &std::fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_char_device() || t.is_block_device() {
            return "a device";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}
