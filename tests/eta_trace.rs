//! The progress estimate of `compare`, driven by a recorded run.
//!
//! `tests/fixtures/eta/default-run.csv` is the default `compare` run as it
//! happened on a shared 2-core machine (its header says the load), recorded
//! by `examples/record_eta_trace.rs` with the code `compare` runs: the
//! moment each task finished, on which worker, its class and CPU cost, and
//! the process's CPU clock every half second. Replayed through
//! [`sudoku_lab::run::Eta`] as `compare` drives it (after every
//! task and at every clock reading, the bar's ticks), the estimate must stay
//! within 2× of the time that was really left from a tenth of the run to
//! its last twentieth (where a few seconds of error are a large factor);
//! the test prints the worst factor up to nine tenths and after.

use std::path::Path;
use std::time::Duration;

use sudoku_lab::Strategy;
use sudoku_lab::run::Eta;
use sudoku_lab::run::{Forecast, Tick};

/// A recorded run: tasks (ms, strategy, side, probe, cpu s), clock
/// readings (ms, process CPU s), and the end of the measuring (ms).
struct Trace {
    tasks: Vec<(f64, Strategy, u32, u64, f64)>,
    cpu: Vec<(f64, f64)>,
    end: f64,
    header: String,
}

fn read(path: &Path) -> Trace {
    let text = std::fs::read_to_string(path).unwrap();
    let mut t = Trace {
        tasks: Vec::new(),
        cpu: Vec::new(),
        end: 0.0,
        header: String::new(),
    };
    for line in text.lines() {
        if let Some(end) = line.strip_prefix("# end_ms ") {
            t.end = end.parse().unwrap();
        } else if line.starts_with('#') {
            t.header.push_str(line);
            t.header.push('\n');
        } else if let Some(rest) = line.strip_prefix("cpu,") {
            let (ms, us) = rest.split_once(',').unwrap();
            t.cpu
                .push((ms.parse().unwrap(), us.parse::<f64>().unwrap() / 1e6));
        } else if !line.starts_with("ms,") {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 6, "{line}");
            t.tasks.push((
                f[0].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
                f[5].parse::<f64>().unwrap() / 1e6,
            ));
        }
    }
    assert!(t.end > 0.0 && !t.tasks.is_empty() && !t.cpu.is_empty());
    t
}

/// The process clock at `ms`, read between the two readings around it.
fn cpu_at(cpu: &[(f64, f64)], ms: f64) -> f64 {
    match cpu.iter().position(|&(t, _)| t >= ms) {
        Some(0) => cpu[0].1 * ms / cpu[0].0.max(1.0),
        Some(i) => {
            let ((t0, c0), (t1, c1)) = (cpu[i - 1], cpu[i]);
            c0 + (c1 - c0) * (ms - t0) / (t1 - t0).max(1.0)
        }
        None => cpu[cpu.len() - 1].1,
    }
}

/// Every estimate the bar would have shown: (ms, estimate of the time left
/// in ms, or `None`), after each task and at each clock reading.
fn replay(t: &Trace) -> Vec<(f64, Option<f64>)> {
    replay_with_pace(t)
        .into_iter()
        .map(|(ms, left, _)| (ms, left))
        .collect()
}

/// [`replay`], with the pace each estimate assumed (cores), as the bar
/// shows it beside the time left.
fn replay_with_pace(t: &Trace) -> Vec<(f64, Option<f64>, Option<f64>)> {
    let mut forecast = Forecast::default();
    for &(_, s, side, probe, _) in &t.tasks {
        forecast.expect(s, side, probe);
    }
    let mut eta = Eta::new(forecast);
    let mut events: Vec<(f64, Option<usize>)> = t.cpu.iter().map(|&(ms, _)| (ms, None)).collect();
    events.extend(t.tasks.iter().enumerate().map(|(i, x)| (x.0, Some(i))));
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut shown = Vec::new();
    for (ms, task) in events {
        if let Some(i) = task {
            let (_, strategy, side, probe, cpu) = t.tasks[i];
            eta.finish(&Tick {
                strategy,
                side,
                probe,
                cpu: Duration::from_secs_f64(cpu),
            });
        }
        let left = eta.left(
            Duration::from_secs_f64(ms / 1e3),
            Duration::from_secs_f64(cpu_at(&t.cpu, ms)),
        );
        shown.push((ms, left.map(|d| d.as_secs_f64() * 1e3), eta.pace()));
    }
    shown
}

/// The worst factor between estimate and truth from `from` ms to `to` ms
/// (an estimate missing there counts as infinitely off), and where it was.
fn worst(shown: &[(f64, Option<f64>)], t: &Trace, from: f64, to: f64) -> (f64, f64) {
    let mut worst = (1.0f64, 0.0);
    for &(ms, left) in shown {
        if ms < from || ms > to {
            continue;
        }
        let actual = t.end - ms;
        let factor = left.map_or(f64::INFINITY, |l| (l / actual).max(actual / l));
        if factor > worst.0 {
            worst = (factor, ms);
        }
    }
    worst
}

fn fixture() -> Trace {
    read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eta/default-run.csv"))
}

#[test]
fn the_estimate_is_within_2x_of_the_recorded_run_from_a_tenth_on() {
    let t = fixture();
    let shown = replay(&t);
    let (factor, at) = worst(&shown, &t, 0.1 * t.end, 0.9 * t.end);
    let (tail, tail_at) = worst(&shown, &t, 0.9 * t.end, 0.95 * t.end);
    eprintln!(
        "{}{} tasks over {:.1} s: worst factor {factor:.3} from 10% to 90% of the run (at {:.0}%), \
         {tail:.3} from 90% to 95% (at {:.0}%)",
        t.header,
        t.tasks.len(),
        t.end / 1e3,
        100.0 * at / t.end,
        100.0 * tail_at / t.end
    );
    assert!(factor <= 2.0, "off by {factor:.2}× at {at:.0} ms");
    assert!(tail <= 2.0, "off by {tail:.2}× at {tail_at:.0} ms");
}

/// The same run as if other load had come halfway through and halved the
/// run's share of the machine: every interval of the clock after the middle
/// takes twice as long (the CPU work is the same). No estimate foresees
/// load that has not come yet; once it has, the estimate takes the slower
/// pace within its window and is within 2× again from there on.
#[test]
fn the_estimate_follows_load_that_comes_midway() {
    let mut t = fixture();
    let mid = t.end / 2.0;
    let stretch = |ms: f64| {
        if ms <= mid {
            ms
        } else {
            mid + 2.0 * (ms - mid)
        }
    };
    for x in &mut t.tasks {
        x.0 = stretch(x.0);
    }
    for x in &mut t.cpu {
        x.0 = stretch(x.0);
    }
    t.end = stretch(t.end);
    let with_pace = replay_with_pace(&t);
    let shown: Vec<(f64, Option<f64>)> = with_pace.iter().map(|&(ms, l, _)| (ms, l)).collect();
    let (before, _) = worst(&shown, &t, 0.1 * t.end, mid);
    let settled = mid + Eta::WINDOW.as_secs_f64() * 1e3;
    let (factor, at) = worst(&shown, &t, settled, 0.9 * t.end);
    eprintln!(
        "load doubled halfway: worst factor {factor:.3} from one window after it came to 90% \
         of the run (at {:.0}%); {before:.3} from 10% of the run until it came",
        100.0 * at / t.end
    );
    assert!(factor <= 2.0, "off by {factor:.2}× at {at:.0} ms");
    // The pace shown beside the estimate halves with the load: the median
    // pace over the second half (a window after the load came) against the
    // first half's, from a tenth of the run on.
    let median_pace = |from: f64, to: f64| {
        let mut v: Vec<f64> = with_pace
            .iter()
            .filter(|&&(ms, _, _)| ms >= from && ms <= to)
            .filter_map(|&(_, _, p)| p)
            .collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (early, late) = (median_pace(0.1 * t.end, mid), median_pace(settled, t.end));
    eprintln!("pace shown: {early:.3} cores before the load came, {late:.3} after");
    let fell = early / late;
    assert!((1.6..=2.5).contains(&fell), "the pace fell by ×{fell:.2}");
}
