//! Names in prose are checked against the lab: code spans (functions,
//! types, constants, files, commands and flags) and link targets.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use super::markdown::Doc;

/// What the lab is made of, read once.
pub struct Index {
    /// Every file and folder of the project (relative, `/`-separated).
    pub files: BTreeSet<String>,
    /// Identifier words of the lab's Rust sources (src, benches, examples,
    /// build.rs).
    pub words: BTreeSet<String>,
    /// Name → files that define it (`fn`, `struct`, `enum`, `trait`, `type`,
    /// `const`, `static`, `mod`, `macro_rules!`; a file defines its stem).
    pub defs: BTreeMap<String, BTreeSet<String>>,
    /// Type → files with an `impl` block of it (a type's methods may be
    /// spread over the files of its module's folder, as `fast`'s are).
    pub impls: BTreeMap<String, BTreeSet<String>>,
    /// Name → the kinds of item it names: `fn`, `struct`, `enum`, `trait`,
    /// `type`, `const`, `static`, `mod`, `macro_rules`, and `switch` for a
    /// `const NAME: bool`.
    pub kinds: BTreeMap<String, BTreeSet<String>>,
    /// Text of the Rust sources, for string literals (`"flip-columns"`).
    pub source_text: String,
    /// Strategy names, from `sudoku-lab strategies`.
    pub strategies: BTreeSet<String>,
    /// Subcommand → its flags (`--budget`, `-s`), from `--help`.
    pub commands: BTreeMap<String, BTreeSet<String>>,
}

const SKIP_DIRS: [&str; 3] = ["target", ".git", "node_modules"];

impl Index {
    pub fn build(root: &Path, bin: &str) -> Index {
        let mut index = Index {
            files: BTreeSet::new(),
            words: BTreeSet::new(),
            defs: BTreeMap::new(),
            impls: BTreeMap::new(),
            kinds: BTreeMap::new(),
            source_text: String::new(),
            strategies: BTreeSet::new(),
            commands: BTreeMap::new(),
        };
        index.walk(root, root);
        index.read_cli(bin);
        index
    }

    fn walk(&mut self, root: &Path, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            if path.is_dir() {
                if name.as_deref().is_some_and(|n| SKIP_DIRS.contains(&n)) {
                    continue;
                }
                self.files.insert(rel);
                self.walk(root, &path);
                continue;
            }
            self.files.insert(rel.clone());
            // Names come from the lab itself, not from its tests (whose
            // literals, this checker's own included, would vouch for anything).
            // The examples are part of the lab: the outside rung and the
            // exercises the pages teach from, with the tests they name.
            let lab = rel.starts_with("src/")
                || rel.starts_with("benches/")
                || rel.starts_with("examples/")
                || rel == "build.rs";
            if lab
                && path.extension().is_some_and(|e| e == "rs")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                self.read_rust(&rel, &path, &text);
            }
        }
    }

    fn read_rust(&mut self, rel: &str, path: &Path, text: &str) {
        if let Some(stem) = path.file_stem() {
            let stem = stem.to_string_lossy();
            let stem = if stem == "mod" {
                path.parent()
                    .and_then(|p| p.file_name())
                    .map_or(stem.to_string(), |p| p.to_string_lossy().into_owned())
            } else {
                stem.to_string()
            };
            self.defs.entry(stem).or_default().insert(rel.to_string());
        }
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            if matches!(
                pair[0],
                "fn" | "struct"
                    | "enum"
                    | "trait"
                    | "type"
                    | "const"
                    | "static"
                    | "mod"
                    | "macro_rules"
            ) {
                self.defs
                    .entry(pair[1].to_string())
                    .or_default()
                    .insert(rel.to_string());
                self.kinds
                    .entry(pair[1].to_string())
                    .or_default()
                    .insert(pair[0].to_string());
            }
        }
        for line in text.lines() {
            if let Some(owner) = impl_owner(line) {
                self.impls
                    .entry(owner.to_string())
                    .or_default()
                    .insert(rel.to_string());
            }
            let t = line.trim_start().trim_start_matches("pub ");
            if let Some(rest) = t.strip_prefix("const ")
                && let Some((name, ty)) = rest.split_once(':')
                && ty.trim_start().starts_with("bool")
            {
                self.kinds
                    .entry(name.trim().to_string())
                    .or_default()
                    .insert("switch".to_string());
            }
        }
        self.words.extend(words.iter().map(|w| w.to_string()));
        self.source_text.push_str(text);
        self.source_text.push('\n');
    }

    fn read_cli(&mut self, bin: &str) {
        let run = |args: &[&str]| {
            Command::new(bin)
                .args(args)
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default()
        };
        for line in run(&["strategies"]).lines() {
            if let Some(name) = line.split_whitespace().next() {
                self.strategies.insert(name.to_string());
            }
        }
        let top = run(&["--help"]);
        let mut in_commands = false;
        let mut subs = Vec::new();
        for line in top.lines() {
            if line.starts_with("Commands:") {
                in_commands = true;
            } else if in_commands {
                match line.split_whitespace().next() {
                    Some(w) if line.starts_with("  ") => subs.push(w.to_string()),
                    _ => in_commands = false,
                }
            }
        }
        for sub in subs {
            let help = run(&[&sub, "--help"]);
            let mut flags = BTreeSet::new();
            for line in help.lines() {
                let t = line.trim_start();
                if !t.starts_with('-') {
                    continue;
                }
                for w in t.split(|c: char| c.is_whitespace() || c == ',') {
                    let w = w.split(['=', '<', '[']).next().unwrap_or("");
                    if w.len() > 1 && w.starts_with('-') {
                        flags.insert(w.to_string());
                    }
                }
            }
            self.commands.insert(sub, flags);
        }
    }

    fn defined_in(&self, name: &str) -> Option<&BTreeSet<String>> {
        self.defs.get(name)
    }

    /// Why a code span of prose does not name something of the lab, if it does not.
    pub fn check_code(&self, span: &str, foreign: &[String], outputs: &str) -> Option<String> {
        let s = span.trim();
        if s.is_empty() || foreign.iter().any(|f| f == s) {
            return None;
        }
        if let Some(args) = s.strip_prefix("sudoku-lab") {
            return self.check_command(args);
        }
        if s.starts_with("--") {
            let flag = s.split([' ', '=']).next().unwrap_or(s);
            if self.commands.values().any(|f| f.contains(flag)) {
                return None;
            }
            return Some(format!("`{s}`: no command of the lab has the flag {flag}"));
        }
        if !s.contains(char::is_whitespace) && is_path(s) {
            if s.starts_with('$') || s.starts_with("../") || s.starts_with("http") {
                return None;
            }
            let p = s.trim_end_matches('/');
            if self.files.contains(p) {
                return None;
            }
            return Some(format!("`{s}`: no such file or folder in the project"));
        }
        let core = s.trim_end_matches("()");
        let core = strip_turbofish(core);
        let core = core.split('[').next().unwrap_or(&core).to_string();
        if core.contains("::") && is_ident_path(&core) {
            return self.check_rust_path(&core, foreign);
        }
        if is_ident(&core) {
            if foreign.contains(&core) {
                return None;
            }
            if core.len() < 2 {
                return None;
            }
            let ok = self.words.contains(&core)
                || self.strategies.contains(&core)
                || self.commands.contains_key(&core);
            return (!ok).then(|| {
                format!("`{s}`: `{core}` is not a name in src/, benches/ or examples/ (declare seed names with `<!-- docs: foreign ... -->`)")
            });
        }
        let dashed = s.trim_start_matches('@');
        if is_dash_word(dashed) {
            let ok = self.strategies.contains(dashed)
                || self.source_text.contains(&format!("\"{dashed}\""))
                || outputs.contains(dashed)
                || foreign.iter().any(|f| f == dashed);
            return (!ok).then(|| format!("`{s}`: not a strategy, nor a name the lab prints"));
        }
        None
    }

    fn check_command(&self, args: &str) -> Option<String> {
        let words: Vec<&str> = args.split_whitespace().collect();
        let sub = words.first()?;
        if sub.starts_with('-') {
            return None;
        }
        let Some(flags) = self.commands.get(*sub) else {
            return Some(format!("`sudoku-lab{args}`: there is no command `{sub}`"));
        };
        for w in &words[1..] {
            if w.starts_with('-')
                && w.len() > 1
                && !w.chars().nth(1).is_some_and(|c| c.is_ascii_digit())
            {
                let flag = w.split('=').next().unwrap_or(w);
                if !flags.contains(flag) {
                    return Some(format!("`sudoku-lab{args}`: `{sub}` has no flag {flag}"));
                }
            }
        }
        None
    }

    fn check_rust_path(&self, path: &str, foreign: &[String]) -> Option<String> {
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let segs: Vec<&str> = segs
            .into_iter()
            .skip_while(|s| matches!(*s, "crate" | "sudoku_lab" | "self" | "super"))
            .collect();
        if segs.iter().any(|s| foreign.iter().any(|f| f == s)) {
            return None;
        }
        for s in &segs {
            if !self.words.contains(*s) {
                return Some(format!(
                    "`{path}`: `{s}` is not a name in the lab's sources"
                ));
            }
        }
        if segs.len() < 2 {
            return None;
        }
        // `module::name`: defined in the module's file. `Type::name`: a method
        // or constant in an `impl` block of that type, a variant of that enum,
        // or a field of that struct, in a file that defines the type.
        let (owner, last) = (segs[segs.len() - 2], segs[segs.len() - 1]);
        let Some(files) = self.defined_in(owner) else {
            return Some(format!(
                "`{path}`: nothing named `{owner}` is defined in the lab"
            ));
        };
        let module = |f: &String| {
            Path::new(f)
                .file_stem()
                .is_some_and(|s| s == owner || (s == "mod" && f.contains(&format!("/{owner}/"))))
        };
        let impls = self.impls.get(owner).into_iter().flatten();
        let ok = files.iter().chain(impls).any(|f| {
            if module(f) {
                // In the module's file, or a file of its folder it re-exports
                // from (`check.rs` and `check/fixtures.rs`).
                let folder = format!("{}/", f.trim_end_matches(".rs").trim_end_matches("/mod"));
                return self
                    .defs
                    .get(last)
                    .is_some_and(|d| d.iter().any(|g| g == f || g.starts_with(&folder)));
            }
            std::fs::read_to_string(super::root().join(f)).is_ok_and(|t| member_of(&t, owner, last))
        });
        (!ok).then(|| format!("`{path}`: `{owner}` has no `{last}` (no `fn`/`const` in an `impl {owner}`, variant or field of that name)"))
    }

    /// Why a link target of `doc` does not exist, if it does not.
    pub fn check_link(
        &self,
        doc: &Doc,
        dest: &str,
        pages: &BTreeMap<String, Vec<String>>,
    ) -> Option<String> {
        if dest.contains("://") || dest.starts_with("mailto:") {
            return None;
        }
        let (path, frag) = match dest.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (dest, None),
        };
        let dir = Path::new(&doc.rel).parent().unwrap_or(Path::new(""));
        let target = if path.is_empty() {
            doc.rel.clone()
        } else {
            normalize(&dir.join(path))
        };
        let target = target.trim_end_matches('/').to_string();
        if !self.files.contains(&target) {
            return Some(format!("link to `{dest}`: {target} does not exist"));
        }
        if let Some(f) = frag
            && target.ends_with(".md")
        {
            let anchors = pages.get(&target).cloned().unwrap_or_else(|| {
                std::fs::read_to_string(super::root().join(&target))
                    .map(|t| Doc::parse(&target, &t).anchors)
                    .unwrap_or_default()
            });
            if !anchors.iter().any(|a| a == f) {
                return Some(format!(
                    "link to `{dest}`: {target} has no heading with anchor #{f}"
                ));
            }
        }
        None
    }
}

fn normalize(p: &Path) -> String {
    let mut out: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    out.join("/")
}

fn is_path(s: &str) -> bool {
    const EXT: [&str; 9] = [
        ".rs", ".md", ".txt", ".svg", ".png", ".toml", ".csv", ".sh", ".json",
    ];
    (s.contains('/') && !s.contains("::") && !s.contains(['(', '|', '&', '!', '*']))
        || EXT.iter().any(|e| s.ends_with(e))
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_ident_path(s: &str) -> bool {
    s.split("::").all(|p| p.is_empty() || is_ident(p))
}

fn is_dash_word(s: &str) -> bool {
    s.contains('-')
        && !s.starts_with('-')
        && !s.ends_with('-')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `Strategy::add::<R>` → `Strategy::add`.
fn strip_turbofish(s: &str) -> String {
    match s.find("::<") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Whether `last` is a method or associated item of an `impl … owner` block,
/// a variant of `enum owner`, or a field of `struct owner`, in this source.
/// The type an `impl` line is for: `impl<S: Switches> State<S> {` and
/// `impl<S> Clone for State<S> {` are both `State`.
fn impl_owner(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix("impl")?;
    if !t.starts_with(['<', ' ']) {
        return None;
    }
    // Past the impl's own generics, then past `Trait for` if there is one.
    let mut depth = 0;
    let start = t
        .char_indices()
        .find(|&(_, c)| {
            depth += match c {
                '<' => 1,
                '>' => -1,
                _ => 0,
            };
            depth == 0 && c.is_alphabetic()
        })
        .map_or(t.len(), |(i, _)| i);
    let rest = &t[start..];
    let rest = rest.split_once(" for ").map_or(rest, |(_, ty)| ty);
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn member_of(text: &str, owner: &str, last: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let word = |l: &str, w: &str| {
        l.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|x| x == w)
    };
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let opens = (t.starts_with("impl") && word(t.split(" for ").last().unwrap_or(t), owner))
            || ((t.starts_with("pub enum ")
                || t.starts_with("enum ")
                || t.starts_with("pub struct ")
                || t.starts_with("struct "))
                && word(t, owner));
        if !opens {
            continue;
        }
        let mut depth = 0i32;
        for body in &lines[i..] {
            let bt = body.trim_start();
            // `pub(super) fn settle(`: the signature starts after the visibility.
            let sig = bt
                .strip_prefix("pub(")
                .and_then(|r| r.split_once(')'))
                .map_or(bt, |(_, r)| r);
            if depth == 1
                && (word(sig.split('(').next().unwrap_or(""), "fn") && word(bt, last)
                    || bt.starts_with(&format!("{last},"))
                    || bt.starts_with(&format!("{last} {{"))
                    || bt.starts_with(&format!("{last}("))
                    || bt.starts_with(&format!("{last}:"))
                    || bt.starts_with(&format!("pub {last}:"))
                    || (bt.contains("const ") && word(bt, last))
                    || (bt.contains("type ") && word(bt, last)))
            {
                return true;
            }
            depth += body.matches('{').count() as i32 - body.matches('}').count() as i32;
            if depth <= 0 && body.contains('}') {
                break;
            }
        }
    }
    false
}

/// The kind of thing a word next to a code span says it is, and the item
/// kinds (see [`Index::kinds`]) that fit it.
pub fn kind_word(w: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match w {
        "function" | "functions" | "method" | "methods" | "fn" => ("a function", &["fn"]),
        "type" | "types" | "struct" | "enum" | "trait" => {
            ("a type", &["struct", "enum", "trait", "type"])
        }
        "switch" | "switches" => ("a switch (a `const …: bool`)", &["switch"]),
        "constant" | "constants" => ("a constant", &["const", "static", "switch"]),
        // A command-line flag, or a bit flag (a constant).
        "flag" | "flags" => ("a flag", &["--", "const"]),
        "strategy" | "strategies" | "rung" | "variant" => ("a strategy", &["strategy"]),
        "command" | "subcommand" => ("a command", &["command"]),
        "file" | "files" => ("a file", &["file"]),
        _ => return None,
    })
}

impl Index {
    /// Why a code span is not the kind of thing the sentence says (`the
    /// switch `COLS``, `the function `State::place``), if it is not.
    pub fn check_kind(&self, span: &str, word: &str) -> Option<String> {
        let (what, kinds) = kind_word(word)?;
        let s = span.trim();
        let ok = kinds.iter().any(|k| match *k {
            "--" => s.starts_with("--"),
            "strategy" => self.strategies.contains(s),
            "command" => {
                let sub = s.strip_prefix("sudoku-lab ").unwrap_or(s);
                s == "sudoku-lab"
                    || self
                        .commands
                        .contains_key(sub.split_whitespace().next().unwrap_or(""))
            }
            "file" => self.files.contains(s.trim_end_matches('/')),
            kind => {
                let core = s.trim_end_matches("()");
                let core = strip_turbofish(core);
                let last = core.rsplit("::").next().unwrap_or(&core);
                self.kinds.get(last).is_some_and(|ks| ks.contains(kind))
            }
        });
        (!ok).then(|| {
            format!("`{s}` is called {what} (“{word}”), but the lab has nothing of that kind by that name")
        })
    }
}

impl Index {
    /// On a rung's chapter (`docs/03-used-tables.md`), `Owner::item` names
    /// that rung's code: if the rung's file (`src/base/strategy/used_tables.rs`,
    /// or the files of its folder, `src/base/strategy/fast/`) defines `Owner`,
    /// it must define `item` for it too. Catches a real name of another rung
    /// (`State::settle` on the used-tables page).
    pub fn check_chapter(&self, page: &str, span: &str) -> Option<String> {
        let name = page.strip_prefix("docs/")?.strip_suffix(".md")?;
        let (num, rung) = name.split_once('-')?;
        if num.len() != 2 || !num.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let stem = format!("src/base/strategy/{}", rung.replace('-', "_"));
        let file = format!("{stem}.rs");
        let (file, rung_files): (String, Vec<&String>) = if self.files.contains(&file) {
            let one = self.files.iter().filter(|f| **f == file).collect();
            (file, one)
        } else {
            let folder = format!("{stem}/");
            let all = self
                .files
                .iter()
                .filter(|f| f.starts_with(&folder) && f.ends_with(".rs"))
                .collect();
            (folder, all)
        };
        let core = strip_turbofish(span.trim().trim_end_matches("()"));
        let segs: Vec<&str> = core.split("::").collect();
        if segs.len() != 2 || !is_ident_path(&core) {
            return None;
        }
        let (owner, last) = (segs[0], segs[1]);
        if !rung_files
            .iter()
            .any(|f| self.defs.get(owner).is_some_and(|d| d.contains(*f)))
        {
            return None;
        }
        let member = rung_files.iter().any(|f| {
            std::fs::read_to_string(super::root().join(f)).is_ok_and(|t| member_of(&t, owner, last))
        });
        (!member).then(|| {
            format!("`{core}`: this chapter is about {file}, whose `{owner}` has no `{last}`")
        })
    }
}
