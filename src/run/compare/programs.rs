//! Outside programs in a `compare` run (`--program`, see
//! [`crate::io::program`]): run after the rungs, on the same puzzles, one
//! puzzle at a time (so a program's CPU time is not shared with the rungs'
//! workers), every answer judged. Their rows go to `programs.csv` (the
//! columns of `results.csv`, node columns empty, plus `reason` and
//! `clock`), and the report places each program against the rungs by time
//! on each board size ([`place`]): "≈ between `used-tables` and `bitmask`".

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::base::progress::Progress;
use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::export::present::{fmt_ratio, fmt_time as time, size_name};
use crate::io::program::{Feed, Program, ProgramName, Reference, Session};
pub(crate) use crate::measure::results::{
    PROGRAMS, ProgramRow, Startup, programs_to_csv as to_csv, read_programs as read,
};
use crate::run::compare::run::{self, Item, Prepared, Row};

/// Runs per start-up measurement.
const STARTUP_RUNS: usize = 5;

/// The `meta.csv` value of the start-up costs: `NAME/SIDE=NS;...`.
pub(crate) fn startups_to_meta(startups: &[Startup]) -> String {
    let each: Vec<String> = startups
        .iter()
        .map(|s| format!("{}/{}={:.0}", s.program, s.side, s.ns))
        .collect();
    each.join(";")
}

/// Reads [`startups_to_meta`]'s value back (entries that do not parse are skipped).
pub(crate) fn startups_from_meta(value: &str) -> Vec<Startup> {
    value
        .split(';')
        .filter_map(|e| {
            let (key, ns) = e.split_once('=')?;
            let (name, side) = key.split_once('/')?;
            Some(Startup {
                program: ProgramName::new(name).ok()?,
                side: side.parse().ok()?,
                ns: ns.parse().ok()?,
            })
        })
        .collect()
}

/// Measures the start-up cost of `session`'s program on the size of
/// `solved` (a complete grid); `None` unless every run solved it.
fn startup(
    session: &mut Session,
    solved: &crate::base::board::Board,
) -> anyhow::Result<Option<f64>> {
    let reference = Reference::new(solved);
    let mut times = Vec::with_capacity(STARTUP_RUNS);
    for _ in 0..STARTUP_RUNS {
        let r = session.run(solved, &reference)?;
        if r.outcome != Outcome::Solved {
            return Ok(None);
        }
        times.push(r.ns() as f64);
    }
    Ok(crate::measure::stats::Summary::of(&mut times).map(|s| s.median))
}

/// Runs every program on every puzzle of the prepared datasets (the same
/// sample the rungs ran), dataset by dataset, one puzzle at a time, and
/// measures each program's [`Startup`] on every board size it meets.
pub(crate) fn run_all(
    programs: &[Program],
    prepared: &[Prepared],
    progress: &dyn Progress,
) -> anyhow::Result<(Vec<ProgramRow>, Vec<Startup>)> {
    let mut rows = Vec::new();
    let mut startups: Vec<Startup> = Vec::new();
    let mut sides_done: Vec<u32> = Vec::new();
    if programs.is_empty() {
        return Ok((rows, startups));
    }
    for p in prepared {
        progress.say(&format!("programs on {}", p.source.name));
        let mut sessions: Vec<Session> = programs.iter().map(Session::new).collect();
        let mut each = |item: &Item| -> anyhow::Result<()> {
            let reference = Reference::new(&item.board);
            let side = item.board.size().side() as u32;
            if !sides_done.contains(&side)
                && let Some(solved) = reference.any_solution()?
            {
                sides_done.push(side);
                for s in &mut sessions {
                    if let Some(ns) = startup(s, solved)? {
                        startups.push(Startup {
                            program: s.program().name.clone(),
                            side,
                            ns,
                        });
                    }
                }
            }
            for s in &mut sessions {
                let r = s.run(&item.board, &reference)?;
                let ran = r.outcome != Outcome::Unsupported;
                rows.push(ProgramRow {
                    puzzle: item.id(&p.source.name),
                    program: s.program().name.clone(),
                    outcome: r.outcome,
                    reason: r.reason.clone(),
                    time_ns: ran.then(|| r.ns()),
                    wall_ns: ran.then_some(r.wall_ns),
                    clock: match s.program().feed {
                        Feed::PerPuzzle => "child-cpu",
                        Feed::Stream => "wall",
                    },
                });
            }
            Ok(())
        };
        match &p.picked {
            Some(picked) => picked.iter().try_for_each(|i| each(i))?,
            None => run::items(&p.source)?.try_for_each(|i| each(&i?))?,
        }
    }
    Ok((rows, startups))
}

/// How the programs were run, for the report's metadata: name, command,
/// format, mode, feed; then the time limit.
pub(crate) fn settings(programs: &[Program]) -> String {
    let each: Vec<String> = programs
        .iter()
        .map(|p| {
            format!(
                "`{}` = `{}` ({}, {}, {})",
                p.name, p.command, p.format, p.mode, p.feed
            )
        })
        .collect();
    let limit = programs.first().map_or(0.0, |p| p.time_limit.as_secs_f64());
    format!("{}; time limit {limit} s per puzzle", each.join("; "))
}

/// Where a program stands among the rungs on one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub program: ProgramName,
    pub side: u32,
    /// Puzzles of this size the program ran, and finished (solved, or
    /// rightly answered nothing for a puzzle without solution).
    pub puzzles: u64,
    pub finished: u64,
    /// Geometric mean of its times over the finished puzzles (ns).
    pub mean_ns: Option<f64>,
    /// Per rung: program time ÷ rung time, geometric mean over the puzzles
    /// both finished, and how many those were. Ladder order.
    pub ratios: Vec<(Strategy, f64, u64)>,
    /// The program's start-up cost on this size, if measured.
    pub startup_ns: Option<f64>,
    /// Per rung, beyond start-up: the median of (program time − start-up,
    /// at least 0) ÷ the median rung time, over the same puzzles.
    pub beyond: Vec<(Strategy, f64, u64)>,
}

impl Placement {
    /// The sentence of the report: between which rungs the program falls.
    pub fn sentence(&self) -> String {
        place_among(&self.program, self.side, &self.ratios, "")
    }

    /// The same, for the time beyond the program's start-up (`None` when
    /// start-up was not measured).
    pub fn sentence_beyond(&self) -> Option<String> {
        let s = self.startup_ns?;
        if self.beyond.iter().all(|b| b.1 == 0.0) {
            return Some(format!(
                "beyond its start-up ({}), `{}` spends no time that can be told from it on {2}×{2}",
                time(s),
                self.program,
                self.side
            ));
        }
        Some(place_among(
            &self.program,
            self.side,
            &self.beyond,
            &format!(" beyond its start-up of {} per puzzle", time(s)),
        ))
    }
}

/// Where a program falls among rungs, given its time ratio to each.
fn place_among(p: &ProgramName, side: u32, ratios: &[(Strategy, f64, u64)], what: &str) -> String {
    let size = format!("{}{what}", size_name(side));
    {
        // Closest on each side: the slowest rung it beats, the fastest that beats it.
        let beats = ratios
            .iter()
            .filter(|r| r.1 <= 1.0)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let beaten = ratios
            .iter()
            .filter(|r| r.1 > 1.0)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let x = fmt_ratio;
        match (beaten, beats) {
            (Some(slow), Some(fast)) => format!(
                "`{p}` ≈ between `{}` and `{}` on {size}: {} the time of `{}`, {} that of `{}`",
                fast.0,
                slow.0,
                x(slow.1),
                slow.0,
                x(fast.1),
                fast.0
            ),
            (Some(slow), None) => format!(
                "`{p}` is slower than every rung on {size}: {} the time of the closest, `{}`",
                x(slow.1),
                slow.0
            ),
            (None, Some(fast)) => format!(
                "`{p}` is faster than every rung on {size}: {} the time of the closest, `{}`",
                x(fast.1),
                fast.0
            ),
            (None, None) => format!(
                "`{p}` cannot be placed on {size}: no puzzle that it and a rung both finished"
            ),
        }
    }
}

fn finished(o: Outcome) -> bool {
    matches!(o, Outcome::Solved | Outcome::NoSolution)
}

/// Places every program on every board size it ran, against the rungs'
/// rows of `results` (like for like: only puzzles both finished), by its
/// whole time and by its time beyond its [`Startup`] cost.
pub fn place(results: &[Row], rows: &[ProgramRow], startups: &[Startup]) -> Vec<Placement> {
    let mut rung_ns: HashMap<(&str, u64), Vec<(Strategy, f64)>> = HashMap::new();
    for r in results {
        if let (true, Some(t)) = (finished(r.outcome), r.timing) {
            rung_ns
                .entry((r.puzzle.dataset.as_str(), r.puzzle.index))
                .or_default()
                .push((r.strategy, t.ns().max(1.0)));
        }
    }
    let mut keys: Vec<(ProgramName, u32)> = Vec::new();
    for r in rows {
        let k = (r.program.clone(), r.puzzle.size);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let median = |v: &mut Vec<f64>| crate::measure::stats::Summary::of(v).map_or(0.0, |s| s.median);
    let mut out = Vec::new();
    for (program, side) in keys {
        let startup_ns = startups
            .iter()
            .find(|s| s.program == program && s.side == side)
            .map(|s| s.ns);
        let mine: Vec<&ProgramRow> = rows
            .iter()
            .filter(|r| r.program == program && r.puzzle.size == side)
            .collect();
        let done: Vec<(&ProgramRow, f64)> = mine
            .iter()
            .filter(|r| finished(r.outcome))
            .filter_map(|r| Some((*r, r.time_ns?.max(1) as f64)))
            .collect();
        // Per rung: Σ ln(program / rung), and the (excess, rung) pairs.
        let mut per: Vec<(Strategy, f64, Vec<f64>, Vec<f64>)> = Vec::new();
        for (r, ns) in &done {
            for &(s, rung) in rung_ns
                .get(&(r.puzzle.dataset.as_str(), r.puzzle.index))
                .map_or(&[][..], Vec::as_slice)
            {
                let i = match per.iter().position(|x| x.0 == s) {
                    Some(i) => i,
                    None => {
                        per.push((s, 0.0, Vec::new(), Vec::new()));
                        per.len() - 1
                    }
                };
                per[i].1 += (ns / rung).ln();
                per[i].2.push((ns - startup_ns.unwrap_or(0.0)).max(0.0));
                per[i].3.push(rung);
            }
        }
        per.sort_by_key(|x| x.0);
        let mut ratios = Vec::new();
        let mut beyond = Vec::new();
        for (s, sum, mut excess, mut rung) in per {
            let n = rung.len() as u64;
            ratios.push((s, (sum / n as f64).exp(), n));
            beyond.push((s, median(&mut excess) / median(&mut rung), n));
        }
        out.push(Placement {
            program,
            side,
            puzzles: mine.len() as u64,
            finished: done.len() as u64,
            mean_ns: crate::measure::stats::geometric_mean(done.iter().map(|d| d.1)),
            ratios,
            startup_ns,
            beyond: if startup_ns.is_some() {
                beyond
            } else {
                Vec::new()
            },
        });
    }
    out
}

/// Reads the rungs' rows of a `results.csv` (for [`place`]), with
/// [`run::read`].
pub fn read_results(path: &Path) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    run::read(path, |r| rows.push(r))?;
    Ok(rows)
}

/// Puzzles programs failed (wrong answer, time limit, crash, bad output).
pub fn failures(rows: &[ProgramRow]) -> u64 {
    rows.iter()
        .filter(|r| r.outcome.is_program_failure())
        .count() as u64
}

/// The report's section on programs, and the console's lines.
pub fn section(settings: &str, placements: &[Placement], rows: &[ProgramRow]) -> (String, String) {
    let mut md = String::from("\n## Outside programs\n\n");
    md.push_str(
        "Run after the rungs on the same puzzles, one puzzle at a time, each puzzle on standard \
         input and every answer checked (a valid completion of the givens; in lex-first mode the \
         lexicographically first solution). One row per puzzle × program in `programs.csv`, with \
         the reason for every failure. A program's time is its process's CPU time (user + \
         system), start-up included — a cost the rungs, timed inside one process, never pay; \
         in stream mode it is the wall-clock time per answer. Ratios are geometric means over \
         the puzzles both the program and the rung finished. *Start-up* is the median time of \
         the program given a puzzle with nothing left to fill (the solution of a puzzle of that \
         size): starting, reading and printing. *Beyond start-up*, a program is placed by the \
         median of (its time − its start-up) against the rung's median time over the same \
         puzzles: what its search costs, roughly.\n\n",
    );
    let _ = writeln!(md, "Programs: {settings}.\n");
    let _ = writeln!(
        md,
        "![{}](programs.svg)\n\n*{}* — [PNG](programs.png)\n",
        crate::export::chart::PROGRAMS.title,
        crate::export::chart::PROGRAMS.title
    );
    let mut table = crate::export::present::Table::new(
        [
            "program",
            "size",
            "puzzles",
            "finished",
            "failed",
            "time per puzzle (geometric mean)",
            "start-up (median)",
        ],
        2,
    );
    let mut console = String::new();
    for p in placements {
        let failed = rows
            .iter()
            .filter(|r| {
                r.program == p.program && r.puzzle.size == p.side && r.outcome.is_program_failure()
            })
            .count();
        table.row(vec![
            format!("`{}`", p.program),
            format!("{0}×{0}", p.side),
            p.puzzles.to_string(),
            p.finished.to_string(),
            failed.to_string(),
            p.mean_ns.map_or("n/a".to_string(), time),
            p.startup_ns.map_or("n/a".to_string(), time),
        ]);
    }
    md.push_str(&table.markdown_compact());
    md.push('\n');
    for p in placements {
        let _ = writeln!(md, "- {}.", p.sentence());
        let _ = writeln!(console, "{}", p.sentence().replace('`', ""));
        if let Some(beyond) = p.sentence_beyond() {
            let _ = writeln!(md, "- {beyond}.");
            let _ = writeln!(console, "{}", beyond.replace('`', ""));
        }
    }
    failed_lines(rows, &mut md, &mut console);
    (md, console)
}

/// The report's list of failed puzzles (the first 10), and the console's line.
fn failed_lines(rows: &[ProgramRow], md: &mut String, console: &mut String) {
    let failed: Vec<&ProgramRow> = rows
        .iter()
        .filter(|r| r.outcome.is_program_failure())
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(
            md,
            "\n**Failed puzzles** ({}; the first 10):\n",
            failed.len()
        );
        for r in failed.iter().take(10) {
            let _ = writeln!(
                md,
                "- `{}` on {} puzzle {} (line {}): {}: {}",
                r.program, r.puzzle.dataset, r.puzzle.index, r.puzzle.line, r.outcome, r.reason
            );
        }
        let _ = writeln!(
            console,
            "{} program runs failed (see {PROGRAMS}); first: {} on {} puzzle {}: {}: {}",
            failed.len(),
            failed[0].program,
            failed[0].puzzle.dataset,
            failed[0].puzzle.index,
            failed[0].outcome,
            failed[0].reason
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_names_the_closest_rungs_on_each_side() {
        let p = Placement {
            program: ProgramName::new("mine").unwrap(),
            side: 9,
            puzzles: 3,
            finished: 3,
            mean_ns: Some(1e6),
            ratios: vec![
                (Strategy::Naive, 0.25, 3),
                (Strategy::UsedTables, 0.5, 3),
                (Strategy::Bitmask, 2.0, 3),
                (Strategy::Fast, 40.0, 3),
            ],
            startup_ns: None,
            beyond: Vec::new(),
        };
        assert_eq!(p.sentence_beyond(), None);
        assert_eq!(
            p.sentence(),
            "`mine` ≈ between `used-tables` and `bitmask` on 9×9: ×2.00 the time of `bitmask`, \
             ×0.50 that of `used-tables`"
        );
        let slow = Placement {
            ratios: vec![(Strategy::Naive, 3.0, 1), (Strategy::Fast, 300.0, 1)],
            ..p.clone()
        };
        assert_eq!(
            slow.sentence(),
            "`mine` is slower than every rung on 9×9: ×3.00 the time of the closest, `naive`"
        );
    }
}
