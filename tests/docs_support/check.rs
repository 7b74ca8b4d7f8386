//! The checks that need only the pages' text (and the lab's source and
//! `--help`): they run in every build, in a second.

use std::collections::BTreeMap;

use super::bind::{self, Binding, Ref};
use super::facts::{self, Fact, Facts};
use super::markdown::{Doc, UnitKind};
use super::names::Index;
use super::numbers;
use super::pictures;
use super::quote;
use super::times;
use super::{Kind, Problem};

/// The marker before a pasted block that is a dated record of one run the
/// test cannot repeat (the seeds' race: their code is not in the project).
pub const RECORD: &str = "record";

/// What does not add up in a record: in a `rung  nodes  time  vs naive  vs
/// previous` listing (the race script's), every ratio must be the quotient
/// of the times it compares (to the rounding of three significant digits).
pub fn record_problems(content: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rows: Vec<(String, f64, Vec<f64>)> = Vec::new();
    let mut on = false;
    for line in content.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"rung") && line.contains("vs naive") {
            on = true;
            rows.clear();
            continue;
        }
        if !on {
            continue;
        }
        // name, nodes, time value, unit, ratios...
        let time = words
            .get(2..4)
            .and_then(|w| super::times::parse(&format!("{} {}", w[0], w[1])));
        let (Some(name), Some(t)) = (words.first(), time) else {
            on = false;
            continue;
        };
        let ratios: Vec<f64> = words[4..]
            .iter()
            .filter_map(|w| w.strip_prefix('×').and_then(|r| r.parse().ok()))
            .collect();
        rows.push((name.to_string(), t, ratios));
    }
    let Some(base) = rows.first().map(|r| r.1) else {
        return out;
    };
    for i in 1..rows.len() {
        let (name, t, ratios) = &rows[i];
        let want = [base / t, rows[i - 1].1 / t];
        for (k, (said, want)) in ratios.iter().zip(want).enumerate() {
            if (said - want).abs() > 0.02 * want.abs() {
                out.push(format!(
                    "record: `{name}` {} ×{said}, but its times give ×{want:.3}",
                    if k == 0 { "vs naive" } else { "vs previous" }
                ));
            }
        }
    }
    out
}

/// The marker before a fenced block that quotes a source file
/// (`<!-- docs: quote src/base/strategy/mrv.rs -->`, see [`quote`]).
pub const QUOTE: &str = "quote";

/// The marker line before a page's statement of the machine its times come from.
pub const MACHINE: &str = "machine";
/// How a machine statement begins (the update run writes it).
pub const MACHINE_NOTE: &str = "*Times on this page:";

/// The facts of every block of a page (empty for pending blocks).
pub fn block_facts(doc: &Doc) -> Vec<Facts> {
    doc.blocks
        .iter()
        .map(|b| {
            if b.pending {
                Facts::default()
            } else {
                facts::of(b)
            }
        })
        .collect()
}

/// Looks a key up: in the named block, else in the nearest block of the page
/// (by line distance) that has it.
pub fn resolve(doc: &Doc, facts: &[Facts], r: &Ref, line: usize) -> Result<(Fact, usize), String> {
    if let Some(id) = &r.block {
        let i = doc
            .blocks
            .iter()
            .position(|b| b.id.as_deref() == Some(id))
            .ok_or_else(|| format!("no block has id={id}"))?;
        let f = facts[i]
            .map
            .get(&r.key)
            .ok_or_else(|| format!("block id={id} prints no `{}`", r.key))?;
        return Ok((f.clone(), i));
    }
    doc.blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| facts[*i].map.contains_key(&r.key))
        .min_by_key(|(_, b)| {
            let d = b.open_line as i64 - line as i64;
            // Nearest first; at equal distance, the block above.
            (d.abs(), d > 0)
        })
        .map(|(i, _)| (facts[i].map[&r.key].clone(), i))
        .ok_or_else(|| format!("no block of this page prints `{}`", r.key))
}

fn normal(s: &str) -> String {
    s.to_lowercase()
        .chars()
        .map(|c| if c == '-' || c == '_' { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The puzzle or set a row is about: its first label without `#N` or ` @turn`.
fn subject(labels: &[String]) -> Option<String> {
    let first = labels.first()?;
    let base = first.split(" @").next().unwrap_or(first);
    let base = base.split('#').next().unwrap_or(base);
    Some(normal(base))
}

/// The puzzles (as [`normal`] writes them) whose term holds, when `expr` is
/// a sum of comparisons each about one puzzle (`gt({A/x/time}, {A/y/time})
/// + …`); `None` for any other expression.
fn holding(
    expr: &str,
    lookup: &dyn Fn(&Ref) -> Result<Fact, String>,
) -> Option<std::collections::BTreeSet<String>> {
    let mut out = std::collections::BTreeSet::new();
    for term in expr.split(" + ").map(str::trim) {
        if !term.starts_with("gt(") {
            return None;
        }
        let subjects: Vec<String> = bind::refs(term)
            .iter()
            .map(|r| lookup(r).ok().and_then(|f| subject(&f.labels)))
            .collect::<Option<_>>()?;
        let first = subjects.first()?;
        if subjects.iter().any(|s| s != first) {
            return None;
        }
        if bind::eval(term, lookup).ok()? == 1.0 {
            out.insert(first.clone());
        }
    }
    Some(out)
}

/// All static checks of all pages.
pub fn check_static(docs: &[Doc], index: &Index) -> Vec<Problem> {
    let anchors: BTreeMap<String, Vec<String>> = docs
        .iter()
        .map(|d| (d.rel.clone(), d.anchors.clone()))
        .collect();
    let mut problems = Vec::new();
    let mut produced_figures = Vec::new();
    for doc in docs {
        let facts = block_facts(doc);
        problems.extend(check_doc(doc, &facts, index, &anchors));
        for b in &doc.blocks {
            produced_figures.extend(
                b.command
                    .split_whitespace()
                    .filter(|a| a.starts_with("docs/img/"))
                    .map(str::to_string),
            );
        }
    }
    problems.extend(same_measurement(docs));
    // Every figure of the tour is produced, and so compared, by a block.
    let img = super::root().join("docs/img");
    if let Ok(entries) = std::fs::read_dir(&img) {
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| format!("docs/img/{}", e.file_name().to_string_lossy()))
            .collect();
        names.sort();
        for n in names {
            if !produced_figures.contains(&n) {
                problems.push(Problem {
                    file: n.clone(),
                    line: 1,
                    kind: Kind::Figure,
                    message: "no block of the tour produces this figure, so nothing checks it"
                        .into(),
                    fix: None,
                });
            }
        }
    }
    problems
}

/// The static checks of one page.
pub fn check_doc(
    doc: &Doc,
    facts: &[Facts],
    index: &Index,
    anchors: &BTreeMap<String, Vec<String>>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let problem = |line: usize, kind: Kind, message: String| Problem {
        file: doc.rel.clone(),
        line: line + 1,
        kind,
        message,
        fix: None,
    };
    let constants = doc.constants();
    let foreign = doc.foreign();
    // The puzzles and rungs the page's blocks print: what a named list names.
    let names: std::collections::BTreeSet<String> = doc
        .blocks
        .iter()
        .flat_map(|b| facts::tables(&b.expected))
        .flat_map(|t| t.rows.iter().flat_map(|r| t.labels(r)).collect::<Vec<_>>())
        .collect();
    let outputs: String = doc
        .blocks
        .iter()
        .map(|b| b.expected.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for unit in &doc.units {
        let line = doc.line_of(unit.start);
        let marks: Vec<usize> = unit
            .text
            .match_indices(super::markdown::CODE_MARK)
            .map(|(i, _)| i)
            .collect();
        for (k, span) in unit.code.iter().enumerate() {
            if let Some(why) = index
                .check_code(span, &foreign, &outputs)
                .or_else(|| index.check_chapter(&doc.rel, span))
            {
                out.push(problem(line, Kind::CodeName, why));
                continue;
            }
            // The kind the sentence gives it: the word right before the
            // span (`the switch `COLS``) or right after (``COLS` switch`).
            let Some(&at) = marks.get(k) else { continue };
            let clean = |w: &str| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            };
            let before = clean(unit.text[..at].split_whitespace().next_back().unwrap_or(""));
            let after_text = &unit.text[at + super::markdown::CODE_MARK.len_utf8()..];
            let glued = !after_text.starts_with(char::is_whitespace);
            let after = clean(after_text.split_whitespace().next().unwrap_or(""));
            for word in [before, if glued { String::new() } else { after }] {
                if foreign.iter().any(|f| f == span.trim()) {
                    continue;
                }
                if let Some(why) = index.check_kind(span, &word) {
                    out.push(problem(line, Kind::CodeName, why));
                }
            }
        }
        // Code names belong in backticks, where they are checked.
        if unit.kind != UnitKind::Heading {
            for token in unit.text.split_whitespace() {
                let t = token.trim_matches(|c: char| {
                    !(c.is_alphanumeric() || c == '_' || c == ':' || c == '(' || c == ')')
                });
                let t = t
                    .trim_start_matches('(')
                    .trim_end_matches(|c| c == ':' || c == ')' && !t.ends_with("()"));
                let core = t.trim_end_matches("()");
                let ident = |s: &str| {
                    s.chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                };
                let path =
                    core.contains("::") && core.split("::").all(|p| !p.is_empty() && ident(p));
                let call = t.ends_with("()") && ident(core);
                let snake = ident(core) && core.contains('_') && index.defs.contains_key(core);
                if path || call || snake {
                    out.push(problem(
                        line,
                        Kind::CodeName,
                        format!("`{t}` is a code name without backticks: write it as code, where the lab checks it"),
                    ));
                }
            }
        }
        // Headings name things; the machine statement is written by the update run.
        if unit.kind == UnitKind::Heading || unit.text.starts_with(&MACHINE_NOTE[1..]) {
            continue;
        }
        let mut phrases = numbers::phrases(&unit.text);
        if unit.kind == UnitKind::TableRow {
            phrases.extend(numbers::yes_no_cells(&unit.text));
            phrases.sort_by_key(|p| p.start);
        }
        let mut bound = vec![false; phrases.len()];
        let mut after = 0;
        for (pos, body) in &unit.comments {
            let Some(binding) = bind::parse(body) else {
                continue;
            };
            let line = unit
                .src
                .get(pos.saturating_sub(1))
                .filter(|&&s| s != super::markdown::NO_SOURCE)
                .map_or(line, |&s| doc.line_of(s));
            let binding = match binding {
                Ok(b) => b,
                Err(e) => {
                    out.push(problem(line, Kind::Binding, e));
                    continue;
                }
            };
            let Some(k) = (0..phrases.len())
                .rev()
                .find(|&k| phrases[k].end <= *pos && phrases[k].start >= after)
            else {
                out.push(problem(
                    line,
                    Kind::Binding,
                    format!("`<!--{body}-->` follows no number"),
                ));
                after = *pos;
                continue;
            };
            after = *pos;
            bound[k] = true;
            let phrase = &phrases[k];
            let refs = match &binding {
                Binding::Exact(r) => vec![r.clone()],
                Binding::Approx { expr, .. } | Binding::Below(expr) | Binding::Above(expr) => {
                    bind::refs(expr)
                }
            };
            let mut failed = false;
            for r in &refs {
                match resolve(doc, facts, r, line) {
                    Ok((fact, _)) => {
                        if let Some(s) = subject(&fact.labels) {
                            let here = normal(&unit.text);
                            if !here.contains(&s) {
                                out.push(problem(
                                    line,
                                    Kind::Mention,
                                    format!(
                                        "`{}` is bound to a row of {s:?}, which this {} does not name",
                                        phrase.text,
                                        if unit.kind == UnitKind::TableRow { "table row" } else { "paragraph" }
                                    ),
                                ));
                            }
                        }
                    }
                    Err(e) => {
                        failed = true;
                        out.push(problem(
                            line,
                            Kind::Binding,
                            format!("`{}`: {e}", phrase.text),
                        ));
                    }
                }
            }
            if failed {
                continue;
            }
            match &binding {
                Binding::Exact(r) => {
                    let (fact, b) = resolve(doc, facts, r, line).expect("resolved above");
                    if phrase.text != fact.text {
                        let start = unit.src[phrase.start];
                        let end = unit.src[phrase.end - 1];
                        let fix = (start != super::markdown::NO_SOURCE
                            && end != super::markdown::NO_SOURCE)
                            .then(|| {
                                let last =
                                    doc.text[end..].chars().next().map_or(1, |c| c.len_utf8());
                                (start..end + last, fact.text.clone())
                            });
                        out.push(Problem {
                            fix,
                            ..problem(
                                line,
                                Kind::Mismatch,
                                format!(
                                    "prose says {} but the block at line {} prints {} for `{}`",
                                    phrase.text,
                                    doc.blocks[b].command_line() + 1,
                                    fact.text,
                                    r.key
                                ),
                            )
                        });
                    }
                }
                Binding::Approx { expr, .. } | Binding::Below(expr) | Binding::Above(expr) => {
                    let lookup = |r: &Ref| resolve(doc, facts, r, line).map(|(f, _)| f);
                    // A count of comparisons (`six<!--~ gt(…) + gt(…)-->`)
                    // followed by a list names the puzzles where they hold.
                    let rest = &unit.text[phrase.end..];
                    let list = rest
                        .find(['(', ':'])
                        .filter(|&at| !rest[..at].contains(". "))
                        .and_then(|at| {
                            numbers::named_list(&rest[at + 1..], &|n| names.contains(n))
                        });
                    if let (Some(list), Some(holding)) = (list, holding(expr, &lookup)) {
                        let said: std::collections::BTreeSet<String> =
                            list.iter().map(|n| normal(n)).collect();
                        if said != holding {
                            out.push(problem(
                                line,
                                Kind::Claim,
                                format!(
                                    "`{}` lists {}, but {expr} holds for {}",
                                    phrase.text,
                                    list.join(", "),
                                    holding.iter().cloned().collect::<Vec<_>>().join(", ")
                                ),
                            ));
                        }
                    }
                    match bind::eval(expr, &lookup) {
                        Ok(v) => {
                            if !bind::holds(phrase.said, phrase.unit, &binding, v) {
                                let how = match &binding {
                                    Binding::Approx { .. } => format!(
                                        "does not round to (rounding unit {}) ",
                                        phrase.unit
                                    ),
                                    Binding::Below(_) => "is not less than".into(),
                                    _ => "is not more than".into(),
                                };
                                // A plain figure (`×16.4`, `2.09`, `1,234`) under a
                                // `~` binding is restated from the new value by
                                // update mode; worded claims need a person.
                                let fix = matches!(binding, Binding::Approx { .. })
                                    .then(|| restate(&phrase.text, v))
                                    .flatten()
                                    .and_then(|new| {
                                        let start = unit.src[phrase.start];
                                        let end = unit.src[phrase.end - 1];
                                        (start != super::markdown::NO_SOURCE
                                            && end != super::markdown::NO_SOURCE)
                                            .then(|| {
                                                let last = doc.text[end..]
                                                    .chars()
                                                    .next()
                                                    .map_or(1, |c| c.len_utf8());
                                                (start..end + last, new)
                                            })
                                    });
                                out.push(Problem {
                                    fix,
                                    ..problem(
                                        line,
                                        Kind::Claim,
                                        format!(
                                            "prose says `{}`, which {how} {expr} = {v:.4}",
                                            phrase.text
                                        ),
                                    )
                                });
                            }
                        }
                        Err(e) => out.push(problem(line, Kind::Binding, format!("`{expr}`: {e}"))),
                    }
                }
            }
        }
        for (k, p) in phrases.iter().enumerate() {
            // Part of a name the blocks print (`Inkala 2012`): a label, not a claim.
            let word_before = unit.text[..p.start]
                .split_whitespace()
                .next_back()
                .unwrap_or("");
            let named =
                !word_before.is_empty() && outputs.contains(&format!("{word_before} {}", p.text));
            // A constant never stands for a count (`3 guesses`, `31 of the 50`)
            // unless declared with the words that follow it (`constants 10⁵
            // calls`, `eight of them`): a limit of the rules, said so at the
            // top of the page.
            let following = unit.text[p.end..]
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let with_words = constants.iter().any(|c| {
                c.strip_prefix(p.text.as_str())
                    .and_then(|rest| rest.strip_prefix(' '))
                    .is_some_and(|rest| following.starts_with(rest))
            });
            // Nor does it stand for an approximation (`about 6`): what is
            // approximated was measured, unless declared so (`about 4`).
            let approx = numbers::approximated(&unit.text, p.start);
            let constant = constants.contains(&p.text)
                && match approx {
                    Some(w) => constants.contains(&format!("{w} {}", p.text)),
                    None => !numbers::is_count(&unit.text, p) || with_words,
                };
            if p.claim && !bound[k] && !named && !constant {
                out.push(problem(
                    line,
                    Kind::Unbound,
                    format!(
                        "`{}` is not bound to a command's output (add `<!--= KEY-->` or `<!--~ EXPR-->` after it, or declare it in `<!-- docs: constants ... -->`) in: {}",
                        p.text,
                        snippet(&unit.text, p.start)
                    ),
                ));
            }
        }
        for (at, names, counts) in numbers::miscounted_lists(&unit.text, |n| names.contains(n)) {
            out.push(problem(
                line,
                Kind::Claim,
                format!(
                    "the list names {} ({}) but its sentence counts {}: {}",
                    names.len(),
                    names.join(", "),
                    counts
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                    snippet(&unit.text, at)
                ),
            ));
        }
    }
    for link in &doc.links {
        if let Some(why) = index.check_link(doc, &link.dest, anchors) {
            out.push(problem(doc.line_of(link.offset), Kind::Link, why));
        }
    }
    // Times add up.
    let mut timed = false;
    for b in doc.blocks.iter().filter(|b| !b.pending) {
        for t in facts::tables(&b.expected) {
            timed |= facts::TIME_COLUMNS.iter().any(|c| t.column(c).is_some());
            for why in times::per_node_errors(&t) {
                out.push(problem(b.command_line(), Kind::Time, why));
            }
        }
    }
    // Pages that print times say on what machine.
    if timed {
        let lines = doc.lines();
        let marker = doc.directives.iter().find(|d| d.word == MACHINE);
        let ok = marker.is_some_and(|m| {
            lines
                .get(doc.line_of(m.offset) + 1)
                .is_some_and(|l| l.starts_with(MACHINE_NOTE))
        });
        if !ok {
            out.push(problem(
                0,
                Kind::Machine,
                format!("this page prints times but has no `<!-- docs: machine -->` line followed by a statement starting `{MACHINE_NOTE}` (the update run writes it)"),
            ));
        }
    }
    // No pasted output: only `console` blocks show what a command printed,
    // except a dated record (`<!-- docs: record -->` before it), whose
    // ratios are recomputed from its times.
    // Code quotes: checked against their file.
    let quoted = |f: &super::markdown::Fence| {
        doc.directives.iter().find(|d| {
            d.word == QUOTE && {
                let l = doc.line_of(d.offset);
                l < f.open_line
                    && doc.lines()[l + 1..f.open_line]
                        .iter()
                        .all(|x| x.trim().is_empty())
            }
        })
    };
    for d in doc.directives.iter().filter(|d| d.word == QUOTE) {
        let line = doc.line_of(d.offset);
        match doc
            .fences
            .iter()
            .find(|f| quoted(f).is_some_and(|q| q.offset == d.offset))
        {
            Some(f) => {
                for (at, why) in quote::check(super::root(), d.args.trim(), &f.content) {
                    out.push(problem(f.open_line + 1 + at, Kind::Quote, why));
                }
            }
            None => out.push(problem(
                line,
                Kind::Quote,
                "`docs: quote` not right before a fenced block".into(),
            )),
        }
    }
    for f in &doc.fences {
        if f.info.starts_with("console") || quoted(f).is_some() {
            continue;
        }
        let record = doc.directives.iter().any(|d| {
            d.word == RECORD && {
                let l = doc.line_of(d.offset);
                l + 1 == f.open_line
                    || (l < f.open_line
                        && doc.lines()[l + 1..f.open_line]
                            .iter()
                            .all(|x| x.trim().is_empty()))
            }
        });
        let pasted = f
            .content
            .lines()
            .any(|l| l.starts_with("$ ") || super::runner::mask_times(l) != l);
        if record {
            for why in record_problems(&f.content) {
                out.push(problem(f.open_line, Kind::Pasted, why));
            }
        } else if pasted {
            out.push(problem(
                f.open_line,
                Kind::Pasted,
                "this block shows a command's output or times, but is not a `console` block the test re-runs (make it one, or mark a dated record that cannot be re-run with `<!-- docs: record -->`)".into(),
            ));
        }
    }
    // Worked examples.
    for d in doc.directives.iter().filter(|d| d.word == "check") {
        let line = doc.line_of(d.offset);
        match doc.fences.iter().find(|f| f.open_line > line) {
            Some(f) => {
                for why in pictures::check(d.args.trim(), &f.content) {
                    out.push(problem(f.open_line, Kind::Picture, why));
                }
            }
            None => out.push(problem(
                line,
                Kind::Picture,
                "`docs: check` before no block".into(),
            )),
        }
    }
    out
}

/// The text around a position, for messages.
fn snippet(text: &str, at: usize) -> String {
    let start = text[..at]
        .char_indices()
        .rev()
        .nth(30)
        .map_or(0, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .nth(40)
        .map_or(text.len(), |(i, _)| at + i);
    format!(
        "\"…{}…\"",
        text[start..end].replace(super::markdown::CODE_MARK, "`…`")
    )
}

/// The same measurement (puzzle × strategy, same node count) quoted in two
/// blocks must show similar times: figures from different runs, machines or
/// loads must not be mixed on the tour.
pub fn same_measurement(docs: &[Doc]) -> Vec<Problem> {
    let mut seen: BTreeMap<(String, String), (String, usize, Fact)> = BTreeMap::new();
    let mut out = Vec::new();
    for doc in docs {
        for b in doc.blocks.iter().filter(|b| !b.pending) {
            for t in facts::tables(&b.expected) {
                let Some(nodes) = t.column("nodes").or(t.column("mean")) else {
                    continue;
                };
                let puzzles = t.column("puzzles");
                for col in facts::TIME_COLUMNS {
                    let Some(c) = t.column(col) else { continue };
                    for row in &t.rows {
                        let labels = t.labels(row);
                        let count = match puzzles {
                            Some(p) => format!("{}×{}", row[nodes], row[p]),
                            None => row[nodes].clone(),
                        };
                        let key = (
                            format!("{}/{col}", labels.join("/")),
                            format!("{count} {}", b.command.contains("--min-time 0")),
                        );
                        let fact = Fact {
                            text: row[c].clone(),
                            value: times::parse(&row[c]),
                            time: true,
                            labels,
                        };
                        match seen.get(&key) {
                            Some((file, line, first)) => {
                                if first.text != fact.text {
                                    out.push(Problem {
                                        file: doc.rel.clone(),
                                        line: b.command_line() + 1,
                                        kind: Kind::Time,
                                        message: format!(
                                            "`{}` is {} here but {} at {file}:{line}: one measurement quoted with two values (quote one run on every page)",
                                            key.0, fact.text, first.text
                                        ),
                                        fix: None,
                                    });
                                }
                            }
                            None => {
                                seen.insert(key, (doc.rel.clone(), b.command_line() + 1, fact));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// `text` (a plain figure: an optional `×`, digits with optional thousands
/// commas and decimals) rewritten to say `value` with as many decimals.
/// `None` for anything else (percentages, words, ranges).
fn restate(text: &str, value: f64) -> Option<String> {
    let (prefix, num) = match text.strip_prefix('×') {
        Some(rest) => ("×", rest),
        None => ("", text),
    };
    if num.is_empty()
        || !num
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let decimals = num.split_once('.').map_or(0, |(_, d)| d.len());
    let mut body = format!("{value:.decimals$}");
    if num.contains(',') {
        let (int, frac) = body
            .split_once('.')
            .map_or((body.as_str(), ""), |(i, f)| (i, f));
        let grouped: Vec<String> = int
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        body = grouped.join(",") + if frac.is_empty() { "" } else { "." } + frac;
    }
    Some(format!("{prefix}{body}"))
}
