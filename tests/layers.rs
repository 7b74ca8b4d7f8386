//! The layer table of ARCHITECTURE.md is the import rule of `src/`: every `crate::` path in the
//! code of a layer's folder points to its own layer or one below, except the few up-imports the
//! document lists with their reason. The test reads both tables and the code, so the document
//! cannot drift from the code: a new up-import, a listed one that is gone, a folder the table does
//! not name or a layer without its folder all fail here.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The most up-imports the house allows (issue #57).
const MOST_UP_IMPORTS: usize = 3;

/// The rows of the markdown table that follows `marker` in ARCHITECTURE.md, as cells.
fn table_after(doc: &str, marker: &str) -> Vec<Vec<String>> {
    let start = doc
        .find(marker)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no `{marker}` marker"));
    doc[start..]
        .lines()
        .skip(1)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // heading and its rule
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_string())
                .collect()
        })
        .collect()
}

struct House {
    /// Layer name (its folder under src/) → its rank, bottom = 1.
    rank: BTreeMap<String, usize>,
    /// (file, imported path) pairs allowed to point up.
    allowed: BTreeSet<(String, String)>,
}

fn house() -> House {
    let doc = fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md");
    let mut rank = BTreeMap::new();
    for row in table_after(&doc, "<!-- layers:") {
        let n: usize = row[0].parse().expect("a layer's rank is a number");
        let folder = row[1].trim_start_matches("src/").trim_end_matches('/');
        assert!(
            rank.insert(folder.to_string(), n).is_none(),
            "layer {folder} listed twice"
        );
    }
    assert!(
        rank.len() >= 5,
        "the layer table lists {} layers",
        rank.len()
    );
    let allowed = table_after(&doc, "<!-- up-imports:")
        .into_iter()
        .map(|row| (row[0].clone(), row[1].clone()))
        .collect();
    House { rank, allowed }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The first segment of every `crate::` path in the file's code (comments left out), with the
/// whole path as written, e.g. `("analysis", "crate::analysis::tracer::Tracer")`.
fn crate_paths(text: &str) -> Vec<(String, String)> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect::<String>()
            .trim_end_matches(':')
            .to_string()
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue; // `sudoku_lab::` or another crate's path
            }
            if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a::b, c}`: each item's first segment
                let inner = group.split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let p = ident(item.trim());
                    if !p.is_empty() {
                        out.push((
                            p.split("::").next().unwrap_or("").into(),
                            format!("crate::{p}"),
                        ));
                    }
                }
            } else {
                let p = ident(rest);
                out.push((
                    p.split("::").next().unwrap_or("").into(),
                    format!("crate::{p}"),
                ));
            }
        }
    }
    out
}

/// The names `lib.rs` re-exports at the root (`pub use base::board::{Board, ...}`).
fn root_items() -> BTreeSet<String> {
    let lib = fs::read_to_string("src/lib.rs").expect("src/lib.rs");
    let mut out = BTreeSet::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let names = rest.rsplit("::").next().unwrap_or("");
        for name in names.trim_matches(|c| "{};".contains(c)).split(',') {
            out.insert(name.trim().to_string());
        }
    }
    out
}

/// Every up-import of the code: (file, path, from layer, to layer).
fn up_imports(house: &House) -> Vec<(String, String, String, String)> {
    let roots = root_items();
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file.to_string_lossy().replace('\\', "/");
        let Some(layer) = rel.strip_prefix("src/").and_then(|r| r.split_once('/')) else {
            continue; // lib.rs and main.rs stand above every layer
        };
        let from = layer.0.to_string();
        let text = fs::read_to_string(&file).expect("read a source file");
        for (first, path) in crate_paths(&text) {
            if roots.contains(&first) {
                // lib.rs's re-exports stand above every layer: a layer names its
                // neighbours by their folders, never through the crate's front door.
                out.push((rel.clone(), path, from.clone(), "lib.rs".into()));
                continue;
            }
            let to = first;
            if house.rank.get(&to).is_some_and(|r| *r > house.rank[&from]) {
                out.push((rel.clone(), path, from.clone(), to));
            }
        }
    }
    out
}

#[test]
fn every_folder_of_src_is_a_layer_of_the_table() {
    let house = house();
    let mut folders = BTreeSet::new();
    for entry in fs::read_dir("src").expect("read src") {
        let path = entry.expect("dir entry").path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if path.is_dir() {
            folders.insert(name);
        } else {
            assert!(
                name == "lib.rs" || name == "main.rs",
                "src/{name} stands outside every layer: move it into a layer's folder"
            );
        }
    }
    let listed: BTreeSet<String> = house.rank.keys().cloned().collect();
    assert_eq!(
        folders, listed,
        "the folders of src/ and ARCHITECTURE.md's layer table differ"
    );
    let lib = fs::read_to_string("src/lib.rs").expect("src/lib.rs");
    for layer in &listed {
        assert!(
            lib.lines()
                .any(|l| l.trim().trim_start_matches("pub ") == format!("mod {layer};")),
            "src/lib.rs does not declare the layer `{layer}`"
        );
    }
}

#[test]
fn imports_point_down_except_the_listed_few() {
    let house = house();
    assert!(
        house.allowed.len() <= MOST_UP_IMPORTS,
        "ARCHITECTURE.md allows {} up-imports; the house allows at most {MOST_UP_IMPORTS}",
        house.allowed.len()
    );
    let found = up_imports(&house);
    let unlisted: Vec<String> = found
        .iter()
        .filter(|(file, path, ..)| {
            !house
                .allowed
                .iter()
                .any(|(f, p)| f == file && (path == p || path.starts_with(&format!("{p}::"))))
        })
        .map(|(file, path, from, to)| format!("{file}: {path} ({from} → {to})"))
        .collect();
    assert!(
        unlisted.is_empty(),
        "imports that run up a layer, not in ARCHITECTURE.md's up-import table:\n{}",
        unlisted.join("\n")
    );
    let stale: Vec<String> = house
        .allowed
        .iter()
        .filter(|(f, p)| {
            !found.iter().any(|(file, path, ..)| {
                f == file && (path == p || path.starts_with(&format!("{p}::")))
            })
        })
        .map(|(f, p)| format!("{f}: {p}"))
        .collect();
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md lists up-imports the code no longer has (remove their rows):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_reader_sees_grouped_and_inline_paths_and_skips_comments() {
    let text = "use crate::{analysis::tracer::Tracer, io};\n\
                // crate::run::nothing\n\
                let x = crate::export::chart::render(1); // crate::cli\n\
                use sudoku_lab::run::compare;\n";
    let firsts: Vec<String> = crate_paths(text).into_iter().map(|(f, _)| f).collect();
    assert_eq!(firsts, ["analysis", "io", "export"]);
}

/// The public API reads as a guide: at most this many public modules (the six layers and the
/// few a user reaches into: formats, rungs, defaults, outside programs, the rung check, the
/// estimator); everything else is `pub(crate)`, its public items re-exported by its layer.
const MOST_PUBLIC_MODULES: usize = 12;

#[test]
fn at_most_twelve_public_modules() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut public = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("read a source file");
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("").trim();
            // `pub mod x;` and a macro's `pub mod $module;` alike (not `pub(crate) mod`).
            if let Some(rest) = code.strip_prefix("$(").map(str::trim).or(Some(code))
                && let Some(name) = rest.strip_prefix("pub mod ")
            {
                public.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert!(
        public.len() <= MOST_PUBLIC_MODULES,
        "{} public modules (at most {MOST_PUBLIC_MODULES}):\n{}",
        public.len(),
        public.join("\n")
    );
}
