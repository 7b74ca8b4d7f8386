//! The checks that need only the pages' text (and the lab's source and
//! `--help`): they run in every build, in a second.

use std::collections::BTreeMap;

use super::bind::{self, Binding, Ref};
use super::facts::{self, Fact, Facts};
use super::markdown::{Doc, UnitKind};
use super::names::Index;
use super::numbers;
use super::pictures;
use super::times;
use super::{Kind, Problem};

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
    let outputs: String = doc
        .blocks
        .iter()
        .map(|b| b.expected.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for unit in &doc.units {
        let line = doc.line_of(unit.start);
        for span in &unit.code {
            if let Some(why) = index.check_code(span, &foreign, &outputs) {
                out.push(problem(line, Kind::CodeName, why));
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
            // unless declared with its noun (`constants 10⁵ calls`): a limit of
            // the rules, said so at the top of the page.
            let next = unit.text[p.end..].split_whitespace().next().unwrap_or("");
            let next = next.trim_end_matches([',', '.', ';', ':', ')']);
            let constant = constants.contains(&p.text)
                && (!numbers::is_count(&unit.text, p)
                    || constants.contains(&format!("{} {next}", p.text)));
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
