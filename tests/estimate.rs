//! scratch
use sudoku_lab::estimate::{self, Options};
use sudoku_lab::format;
use sudoku_lab::{Counts, Limits, Strategy};

#[test]
#[ignore]
fn explore() {
    let path = std::env::var("EST_FILE").unwrap();
    let strategies: Vec<Strategy> = std::env::var("EST_S")
        .unwrap()
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    let budget: u64 = std::env::var("EST_BUDGET")
        .map(|s| s.parse().unwrap())
        .unwrap_or(20_000_000);
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    let mut cov = 0;
    let mut errs = vec![];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(
            std::env::var("EST_N")
                .map(|s| s.parse().unwrap())
                .unwrap_or(1000),
        )
    {
        let (_, p) = format::parse_one(line).unwrap();
        for &s in &strategies {
            let run = s.solve(&p.board, Some(budget)).unwrap();
            if run.end == sudoku_lab::End::BudgetExceeded {
                continue;
            }
            let opts = Options::for_budget(5_000_000);
            let t = std::time::Instant::now();
            let e = estimate::estimate(s, &p.board, Limits::solve(None), Counts::default(), opts)
                .unwrap();
            let truth = run.counts.nodes as f64;
            let iv = e.nodes();
            n += 1;
            if iv.covers(truth) {
                cov += 1;
            }
            errs.push(iv.estimate / truth);
            println!(
                "{s} truth {truth} est {:.0} [{:.0}, {:.0}] ratio {:.3} runs {} effort {} {:?} probes true {} est {:.0}",
                iv.estimate,
                iv.low,
                iv.high,
                iv.estimate / truth,
                e.runs,
                e.effort,
                t.elapsed(),
                run.counts.probes,
                e.get("probes").unwrap().estimate
            );
        }
    }
    errs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "n {n} covered {cov} median ratio {:?}",
        errs.get(errs.len() / 2)
    );
}
