//! The layer table of ARCHITECTURE.md is the import rule of `src/`: every `crate::` path in the
//! code of a layer's folder points to its own layer or one below, except the few up-imports the
//! document lists with their reason. The test reads both tables and the code, so the document
//! cannot drift from the code: a new up-import, a listed one that is gone, a folder the table does
//! not name or a layer without its folder all fail here; so do files that import each other
//! round a loop, and more public modules than the API allows.

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

/// The module path of a source file: `src/run/compare/eta.rs` → `run::compare::eta`,
/// `src/run/compare/mod.rs` → `run::compare`, `src/lib.rs` → the root.
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix("src").unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The file that holds the deepest module of `path` (a module path, items included).
fn file_of(path: &[String]) -> Option<PathBuf> {
    (1..=path.len()).rev().find_map(|n| {
        let base = Path::new("src").join(path[..n].join("/"));
        [base.with_extension("rs"), base.join("mod.rs")]
            .into_iter()
            .find(|f| f.is_file())
    })
}

/// Every `crate::`, `super::` and `self::` path of the code (comments left out), groups of `use`
/// lines expanded (`use super::{a::B, c};` → `super::a::B`, `super::c`).
fn module_paths(text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    // Expands `prefix{a, b::{c, d}}` into whole paths, innermost groups first.
    fn expand(prefix: &str, rest: &str, out: &mut Vec<String>) {
        let mut depth = 0;
        let mut start = 0;
        for (i, ch) in rest.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    item(prefix, &rest[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        item(prefix, &rest[start..], out);
    }
    fn item(prefix: &str, it: &str, out: &mut Vec<String>) {
        let it = it.trim();
        match it.find('{') {
            Some(at) => expand(
                &format!("{prefix}{}", &it[..at]),
                it[at + 1..].trim_end().trim_end_matches('}'),
                out,
            ),
            None if !it.is_empty() => out.push(format!("{prefix}{it}")),
            None => {}
        }
    }
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = ["crate::", "super::", "self::"]
        .iter()
        .filter_map(|k| rest.find(k))
        .min()
    {
        let before = rest[..at].chars().last();
        let tail = &rest[at..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        let (head, after) = tail.split_at(len);
        rest = after;
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if head.ends_with("::") && after.starts_with('{') {
            let mut depth = 0;
            let end = after
                .char_indices()
                .find(|&(_, c)| {
                    depth += (c == '{') as i32 - (c == '}') as i32;
                    depth == 0
                })
                .map_or(after.len(), |(i, _)| i);
            expand(head, &after[1..end], &mut paths);
            rest = &after[end..];
        } else {
            paths.push(head.to_string());
        }
    }
    paths
        .into_iter()
        .map(|p| p.split("::").map(|s| s.trim().to_string()).collect())
        .collect()
}

/// File → the files it imports from, a module's own ancestors and descendants left out (a
/// parent declares and re-exports its children; a child reads what its parent holds).
fn file_imports() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut graph = BTreeMap::new();
    for file in files {
        let here = module_of(&file);
        let text = fs::read_to_string(&file).expect("read a source file");
        let mut to = BTreeSet::new();
        for path in module_paths(&text) {
            let mut module = here.clone();
            let mut segs = path.iter().peekable();
            match segs.peek().map(|s| s.as_str()) {
                Some("crate") => module.clear(),
                Some("super") => {
                    while segs.peek().is_some_and(|s| *s == "super") {
                        segs.next();
                        module.pop();
                    }
                }
                _ => {}
            }
            module.extend(
                segs.filter(|s| !["crate", "self", "super", ""].contains(&s.as_str()))
                    .cloned(),
            );
            let Some(target) = file_of(&module) else {
                continue;
            };
            let there = module_of(&target);
            if !there.starts_with(&here) && !here.starts_with(&there) {
                to.insert(target);
            }
        }
        graph.insert(file, to);
    }
    graph
}

/// The groups of files that import each other round a loop (Tarjan's strongly connected
/// components of more than one file).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, (usize, usize)>,
        stack: Vec<&'a PathBuf>,
        next: usize,
        out: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        s.index.insert(v, (s.next, s.next));
        s.next += 1;
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some(w) = s.graph.get_key_value(w).map(|(k, _)| k) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.index[v].1.min(s.index[w].1);
                s.index.get_mut(v).unwrap().1 = low;
            } else if s.stack.contains(&w) {
                let low = s.index[v].1.min(s.index[w].0);
                s.index.get_mut(v).unwrap().1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_files_import_each_other_round_a_loop() {
    let found = circles(&file_imports());
    let text: Vec<String> = found
        .iter()
        .map(|g| {
            g.iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(" ↔ ")
        })
        .collect();
    assert!(
        found.is_empty(),
        "files that import each other:\n{}",
        text.join("\n")
    );
}

#[test]
fn the_circle_finder_sees_a_loop_through_use_groups_and_super() {
    let paths = module_paths(
        "use super::{timing::{counted, unsupported}, Bug};\nlet x = crate::run::shard::f();",
    );
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "super::timing::counted",
            "super::timing::unsupported",
            "super::Bug",
            "crate::run::shard::f"
        ]
    );
    let (a, b, c) = (PathBuf::from("a"), PathBuf::from("b"), PathBuf::from("c"));
    let graph = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([c.clone()])),
        (c.clone(), BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(circles(&graph).len(), 1);
    let open = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b, BTreeSet::new()),
    ]);
    assert!(circles(&open).is_empty());
}
