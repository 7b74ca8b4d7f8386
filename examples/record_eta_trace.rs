//! Records the trace the progress estimate is tested on
//! (`tests/fixtures/eta/load-change-run.csv`, read by `tests/eta_trace.rs`):
//! the default `compare` run's tasks as they finish, each with the moment it
//! finished, the worker it ran on and its cost, measured by the same code
//! `compare` runs (`run::run::{prepare, probe, execute}`), nothing
//! written but the trace.
//!
//! ```sh
//! cargo run --release --example record_eta_trace -- trace.csv
//! ```
//!
//! The lines are `ms,worker,strategy,side,probe,cpu_us`: milliseconds since
//! the measuring began (after the probe, where `compare`'s bar starts), the
//! worker (0, 1, … in order of first appearance), the task (strategy, board
//! side, the puzzle's probe) and the CPU time the task took; then
//! `cpu,ms,cpu_us` lines: the process's CPU time since the measuring began,
//! read every half second. The header says when the measuring ended, the
//! commit and the machine's load.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::Mutex;
use std::time::Instant;

use sudoku_lab::run::{self, Plan};

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".to_string())
}

fn main() -> anyhow::Result<()> {
    let out = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: record_eta_trace OUT.csv"))?;
    let plan = Plan {
        sources: run::resolve_sources(&[])?,
        strategies: sudoku_lab::Strategy::ladder(),
        budget: sudoku_lab::base::defaults::MEASURE_BUDGET,
        limit: sudoku_lab::base::defaults::LIMIT,
        sample: None,
        method: sudoku_lab::measure::Method::DEFAULT,
        jobs: sudoku_lab::base::defaults::jobs(),
        programs: Vec::new(),
        shard: None,
    };
    let load_before = load();
    // The code that runs: the commit when the run starts.
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let prepared = run::prepare(&plan)?;
    let probes = run::probe(&plan, &prepared)?;
    // Said when the clock starts, so a load started or stopped by hand
    // can be placed on the trace's clock.
    eprintln!("{out}: measuring");
    let start = Instant::now();
    type Line = (u128, usize, String, u32, u64, u128);
    let lines: Mutex<(Vec<Line>, HashMap<std::thread::ThreadId, usize>)> = Mutex::default();
    let done = |t: &run::Tick| {
        let ms = start.elapsed().as_millis();
        if let Ok(mut g) = lines.lock() {
            let (lines, workers) = &mut *g;
            let n = workers.len();
            let w = *workers.entry(std::thread::current().id()).or_insert(n);
            let name = t.strategy.name().to_string();
            lines.push((ms, w, name, t.side, t.probe, t.cpu.as_micros()));
        }
    };
    // The process's CPU time, read every half second while the tasks run
    // (what the bar's ticker reads): `cpu,MS,CPU_US` lines.
    let running = std::sync::atomic::AtomicBool::new(true);
    let cpu0 = sudoku_lab::run::process_cpu();
    let samples: Mutex<Vec<(u128, u128)>> = Mutex::default();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        scope.spawn(|| {
            while running.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(500));
                let cpu = sudoku_lab::run::process_cpu().saturating_sub(cpu0);
                if let Ok(mut s) = samples.lock() {
                    s.push((start.elapsed().as_millis(), cpu.as_micros()));
                }
            }
        });
        let result = run::execute(&plan, &prepared, &probes, &mut |_| Ok(()), &done);
        running.store(false, std::sync::atomic::Ordering::Relaxed);
        result
    })?;
    let end = start.elapsed().as_millis();
    let samples = samples
        .into_inner()
        .map_err(|_| anyhow::anyhow!("poisoned"))?;
    let (lines, workers) = lines
        .into_inner()
        .map_err(|_| anyhow::anyhow!("poisoned"))?;
    let mut f = std::io::BufWriter::new(std::fs::File::create(&out)?);
    writeln!(
        f,
        "# the default compare run's tasks as they finished (examples/record_eta_trace.rs)"
    )?;
    writeln!(
        f,
        "# commit {commit}; {} workers; 1-minute load {load_before} before, {} after",
        workers.len(),
        load()
    )?;
    writeln!(f, "# end_ms {end}")?;
    writeln!(f, "ms,worker,strategy,side,probe,cpu_us")?;
    for (ms, w, s, side, probe, cpu) in lines {
        writeln!(f, "{ms},{w},{s},{side},{probe},{cpu}")?;
    }
    for (ms, cpu) in samples {
        writeln!(f, "cpu,{ms},{cpu}")?;
    }
    f.flush()?;
    eprintln!("{out}: measured in {:.1} s", end as f64 / 1000.0);
    Ok(())
}
