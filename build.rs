//! Records what built the binary, so reports and shard plans can name it:
//! the compiler, the git commit with whether the sources differed from it,
//! and a SHA-256 of the sources. All are read here, at build time, so one
//! binary names one build wherever it runs, with git or without.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = output(Command::new(rustc).arg("--version")).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_LAB_RUSTC={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");

    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    println!("cargo:rustc-env=SUDOKU_LAB_COMMIT={}", commit(&root));
    println!("cargo:rustc-env=SUDOKU_LAB_SOURCES={}", sources_hash(&root));
    // Printing any rerun-if-changed makes cargo rerun this script on those
    // paths only: the sources (hashed), and git's HEAD, branch and index
    // (a commit moves them; the dirty flag reads them).
    for path in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let branch = git(&root, &["symbolic-ref", "-q", "HEAD"]);
    for name in ["HEAD", "index"]
        .into_iter()
        .map(str::to_string)
        .chain(branch)
    {
        if let Some(p) = git(&root, &["rev-parse", "--git-path", &name]) {
            let p = root.join(p);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
}

fn output(cmd: &mut Command) -> Option<String> {
    cmd.output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// `git ARGS` in the source tree, without taking git's optional locks (a
/// status that refreshed the index would touch it, and rerun this script).
fn git(root: &Path, args: &[&str]) -> Option<String> {
    output(
        Command::new("git")
            .arg("--no-optional-locks")
            .args(args)
            .current_dir(root),
    )
}

/// The commit the sources were built from, `(modified)` when tracked
/// sources differ from it; where git or the repository is missing, says so.
fn commit(root: &Path) -> String {
    let Some(head) = git(root, &["rev-parse", "HEAD"]) else {
        return "unknown (no git repository at build time)".to_string();
    };
    let paths = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];
    let status = git(
        root,
        &[
            &["status", "--porcelain", "--untracked-files=no", "--"][..],
            &paths[..],
        ]
        .concat(),
    );
    match status {
        Some(s) if s.is_empty() => head,
        Some(_) => format!("{head} (modified)"),
        None => format!("{head} (modified or not: git status failed at build time)"),
    }
}

/// SHA-256 over every file below `src/` (path and bytes, in path order)
/// and Cargo.lock: what decides the counts, and more. Two builds of one
/// hash ran the same code, committed or not.
fn sources_hash(root: &Path) -> String {
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    files.sort();
    files.push(root.join("Cargo.lock"));
    let mut h = Sha256::new();
    for f in &files {
        let rel = f.strip_prefix(root).unwrap_or(f);
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        let bytes = std::fs::read(f).unwrap_or_default();
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&p, out),
            Ok(t) if t.is_file() => out.push(p),
            _ => {}
        }
    }
}
