//! The progress estimate of `compare`, driven by a recorded run whose load
//! changed halfway.
//!
//! `tests/fixtures/eta/load-change-run.csv` is the default `compare` run as
//! it happened on a shared 2-core machine, recorded by
//! `examples/record_eta_trace.rs` with the code `compare` runs: the moment
//! each task finished, on which worker, its class and CPU cost, and the
//! process's CPU clock every half second. Four busy loops ran beside it
//! from the start and were killed by hand when the run's CPU passed 90 s
//! (the header says at which ms): the run's share of the machine went from
//! about 0.15 to 0.35-0.5 cores, as in issue 61 (load 14, then 4.5).
//! Replayed through [`sudoku_lab::run::Eta`] as `compare` drives it (after
//! every task and at every clock reading, the bar's ticks), the tests check
//! the estimate against the time that was really left.
//!
//! What no estimate can do, and is not asked: foresee load that has not
//! changed yet (before the loops were killed, the truth is a faster run than
//! anyone could know), and foresee the tail, where one worker has finished
//! and the other measures its last group alone (the last tenth here): the
//! process's pace then halves, which the pace of the window shows only after.

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
/// in ms or `None`, the pace it assumed in cores), after each task and at
/// each clock reading.
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
    read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eta/load-change-run.csv"))
}

/// When the recorded run's load fell (ms), from its header.
fn load_fell(t: &Trace) -> f64 {
    t.header
        .lines()
        .find_map(|l| l.strip_prefix("# load fell at ms "))
        .and_then(|ms| ms.parse().ok())
        .unwrap()
}

/// The median pace shown from `from` to `to` ms.
fn median_pace(shown: &[(f64, Option<f64>, Option<f64>)], from: f64, to: f64) -> f64 {
    let mut v: Vec<f64> = shown
        .iter()
        .filter(|&&(ms, _, _)| ms >= from && ms <= to)
        .filter_map(|&(_, _, p)| p)
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The recorded run: once the load has fallen and a window has seen it, the
/// estimate is within 1.6× of the time left until the tail (nine tenths);
/// the pace shown rises with the share the run got.
#[test]
fn the_estimate_follows_the_recorded_load_change() {
    let t = fixture();
    let fell = load_fell(&t);
    let with_pace = replay_with_pace(&t);
    let shown: Vec<(f64, Option<f64>)> = with_pace.iter().map(|&(ms, l, _)| (ms, l)).collect();
    let settled = fell + Eta::WINDOW.as_secs_f64() * 1e3;
    let (factor, at) = worst(&shown, &t, settled, 0.9 * t.end);
    let (early, _) = worst(&shown, &t, 0.1 * t.end, fell);
    let (tail, tail_at) = worst(&shown, &t, 0.9 * t.end, 0.95 * t.end);
    let (before, after) = (
        median_pace(&with_pace, 0.1 * t.end, fell),
        median_pace(&with_pace, settled, 0.9 * t.end),
    );
    eprintln!(
        "{}{} tasks over {:.1} s, load fell at {:.0}%: worst factor {factor:.3} from a window \
         after it to 90% (at {:.0}%); {early:.3} from 10% until it fell; {tail:.3} from 90% to \
         95% (at {:.0}%); pace shown {before:.3} cores before, {after:.3} after",
        t.header,
        t.tasks.len(),
        t.end / 1e3,
        100.0 * fell / t.end,
        100.0 * at / t.end,
        100.0 * tail_at / t.end
    );
    assert!(factor <= 1.6, "off by {factor:.2}× at {at:.0} ms");
    assert!(after / before >= 2.0, "pace {before:.3} → {after:.3}");
}

/// The CPU work left (the estimate × the pace it assumes) against the CPU
/// the process really spent from there on: within 2× from a tenth of the
/// run to nine tenths, load change or not (the work does not depend on it).
#[test]
fn the_work_left_is_within_2x_from_a_tenth_on() {
    let t = fixture();
    let end_cpu = t.cpu[t.cpu.len() - 1].1;
    let mut worst = (1.0f64, 0.0);
    for (ms, left, pace) in replay_with_pace(&t) {
        if ms < 0.1 * t.end || ms > 0.9 * t.end {
            continue;
        }
        let truth = end_cpu - cpu_at(&t.cpu, ms);
        let est = left.zip(pace).map_or(0.0, |(l, p)| l / 1e3 * p);
        let f = (est / truth).max(truth / est);
        if f.is_nan() || f > worst.0 {
            worst = (f, ms);
        }
    }
    eprintln!(
        "work left: worst factor {:.3} from 10% to 90% (at {:.0}%)",
        worst.0,
        100.0 * worst.1 / t.end
    );
    assert!(
        worst.0 <= 2.0,
        "off by {:.2}× at {:.0} ms",
        worst.0,
        worst.1
    );
}

/// The same run as if more load had come when it fell and halved the run's
/// share instead: every interval of the clock after that takes twice as
/// long (the CPU work is the same), on top of the real fall. Once a window
/// has seen it, the estimate is within 2× again until the tail (1.84 at
/// worst, near the tail: not yet the 1.5 issue 61 asks for).
#[test]
fn the_estimate_follows_load_that_comes_midway() {
    let mut t = fixture();
    let mid = load_fell(&t);
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
    let settled = mid + Eta::WINDOW.as_secs_f64() * 1e3;
    let (factor, at) = worst(&shown, &t, settled, 0.9 * t.end);
    let (early, late) = (
        median_pace(&with_pace, 0.1 * t.end, mid),
        median_pace(&with_pace, settled, 0.9 * t.end),
    );
    eprintln!(
        "load came at {:.0}%: worst factor {factor:.3} from one window after it to 90% (at \
         {:.0}%); pace shown {early:.3} cores before, {late:.3} after",
        100.0 * mid / t.end,
        100.0 * at / t.end
    );
    assert!(factor <= 2.0, "off by {factor:.2}× at {at:.0} ms");
    // The pace shown after it, against the recorded run's over the same
    // work (a window after the fall to nine tenths of its clock): halved.
    let real = fixture();
    let unstretched = median_pace(&replay_with_pace(&real), settled, 0.9 * real.end);
    let halved = unstretched / late;
    assert!(
        (1.6..=2.5).contains(&halved),
        "the pace fell by ×{halved:.2}"
    );
}
