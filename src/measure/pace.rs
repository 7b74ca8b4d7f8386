//! Whether this core runs at full pace, by timing a fixed reference before
//! and after every sample.
//!
//! Why: on a virtual machine the host can slow a virtual CPU without telling
//! the guest, and the thread's CPU clock counts the lost time as running. On
//! this lab's 2-core VM, idle otherwise, a loop ran about 13× slower for
//! 30–130 ms at a time every second or two (7% of the time), and searches
//! ran 1.5–2.5× slower for stretches of several seconds while the loop slowed
//! by under 10% (branchy, memory-touching code is what such a stretch hits).
//! A sample taken while the core was slow is not a time of the strategy: it
//! is thrown away and taken again in a later round of
//! [`measure_all`](super::measure_all).
//!
//! Which reference: with one thread measuring, a *search* (`propagate` on
//! a 2-node puzzle). Probed against `mrv`, `dlx`, `fast` and `bitmask`
//! solves in alternation for 40 s, its slowdown tracked theirs with a
//! correlation of 0.97–0.99, always a little larger than theirs. The
//! sample first waits for the pace to come back. With several threads
//! measuring at once, the workers slow each other's searches about as much,
//! so a search would flag most samples: then the arithmetic *loop* (it
//! still catches the 13× stalls), no waiting, and the interleaved median
//! takes care of the rest. (Load from other processes is never slowness: it
//! stops the thread's CPU clock.)
//!
//! Against what: the fastest the reference has run *on this machine with
//! this build*, not only in this process. A slow stretch lasts longer than
//! a `speed` or `ladder` run on a small set, so a process that started
//! inside one would take the slow pace for full pace, and two commands a
//! second apart would disagree by the stretch's factor. The best readings
//! are kept in a small record in the user's cache folder (see
//! [`record_path`]), shared by every process of the same executable, and
//! forgotten after [`RECORD_LIFE`] so that a machine that changed does not
//! wait for a pace it no longer has. Waiting is bounded for the same
//! reason: at most [`Pace::PATIENCE`] per sample and, over a process,
//! [`Pace::ALLOWANCE`] plus a quarter of its measuring time (slow stretches
//! of 6–7 s were seen here); after that samples are kept as they are, and
//! [`Timing::retaken`](super::Timing) says how many were judged slow. It
//! waits only while nothing else runs on the machine: slowness that comes
//! from other processes lasts as long as they do.

use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::base::board::Board;
use crate::base::counters::NoCount;
use crate::base::search::Limits;
use crate::base::solver::Solver;
use crate::base::strategy::Strategy;
use crate::measure::Clock;

/// Threads inside [`measure_all`](super::measure_all) right now.
static MEASURING: AtomicU64 = AtomicU64::new(0);
/// Nanoseconds this process has waited for the pace to come back.
static WAITED: AtomicU64 = AtomicU64::new(0);
/// When this process first measured, and where its machine record lives.
static STARTED: OnceLock<(Instant, Option<PathBuf>)> = OnceLock::new();

/// The search reference: `propagate` on this 27-clue puzzle (2 nodes, 51
/// forced cells, about 2 µs), four times.
const PACE_PUZZLE: &str =
    "....3.....4....7.1.86.4......9.....87....5...45..8.379......8.6..341.95..9..63.17";

/// A machine record older than this is ignored.
const RECORD_LIFE: Duration = Duration::from_secs(6 * 3600);

thread_local! {
    /// This thread's reference solver and puzzle, made on first use.
    static PACE_SOLVER: std::cell::RefCell<Option<(Solver, Board)>> =
        const { std::cell::RefCell::new(None) };
}

/// Counts this thread among the measuring ones while it lives.
pub(super) struct Measuring;

impl Measuring {
    pub(super) fn enter() -> Measuring {
        STARTED.get_or_init(|| {
            let path = record_path();
            if let Some(r) = path
                .as_deref()
                .and_then(|p| Record::read(p, SystemTime::now()))
            {
                for (kind, ns) in [(Kind::Search, r.search), (Kind::Loop, r.loop_)] {
                    kind.best().fetch_min(ns, Ordering::Relaxed);
                    kind.saved().fetch_min(ns, Ordering::Relaxed);
                }
            }
            (Instant::now(), path)
        });
        MEASURING.fetch_add(1, Ordering::Relaxed);
        Measuring
    }
}

impl Drop for Measuring {
    fn drop(&mut self) {
        MEASURING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A reading of the search reference this much slower than its best
/// means the core is slow (one worker). The reference slows a little more
/// than the searches it guards, so at 1.25 the samples it lets through ran
/// within about 20% of full pace.
pub const SLOW_SEARCH: f64 = 1.25;
/// The same for the arithmetic loop, the reference with several workers.
pub const SLOW_LOOP: f64 = 1.5;

/// The two references.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Search,
    Loop,
}

/// Fastest confirmed readings, and the values last written to the record.
static BEST: [AtomicU64; 2] = [AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX)];
static SAVED: [AtomicU64; 2] = [AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX)];

impl Kind {
    fn best(self) -> &'static AtomicU64 {
        &BEST[self as usize]
    }

    fn saved(self) -> &'static AtomicU64 {
        &SAVED[self as usize]
    }

    /// A reading this much slower than the best means the core is slow
    /// ([`SLOW_SEARCH`], [`SLOW_LOOP`]).
    fn slow(self) -> f64 {
        match self {
            Kind::Search => SLOW_SEARCH,
            Kind::Loop => SLOW_LOOP,
        }
    }

    /// One reading in CPU ns; `None` when the reference cannot run.
    fn read(self) -> Option<u64> {
        match self {
            Kind::Loop => Some(loop_reading()),
            Kind::Search => search_reading(),
        }
    }
}

pub(super) struct Pace;

impl Pace {
    /// Longest wait for the pace to come back before one sample.
    const PATIENCE: Duration = Duration::from_secs(1);
    /// Waiting a process may do besides [`Pace::WAIT_SHARE`] of its
    /// measuring time.
    const ALLOWANCE: Duration = Duration::from_secs(10);
    const WAIT_SHARE: f64 = 0.25;
    /// A second reading within this factor confirms a new best (a lone fast
    /// reading can be a glitch: the thread clock once read 0 ns here).
    const CONFIRM: f64 = 1.1;

    /// Whether only this thread is measuring (the search reference applies).
    fn alone() -> bool {
        MEASURING.load(Ordering::Relaxed) <= 1
    }

    /// Before a sample: says whether the core runs at full pace. When it
    /// does not, one thread is measuring and nothing else is running on the
    /// machine, the slowness is the host's and passes: waits for it
    /// (within [`Pace::PATIENCE`] and the process's allowance). With other
    /// processes or workers running, the slowness is theirs and may last as
    /// long as they do: no wait, the sample is judged as it is.
    pub(super) fn before() -> bool {
        if Self::steady().0 {
            return true;
        }
        if !Self::alone() || Self::others_running() {
            return false;
        }
        let start = Instant::now();
        let mut polls = 0u32;
        loop {
            if Self::steady().0 {
                Self::waited(start);
                return true;
            }
            polls += 1;
            if start.elapsed() >= Self::PATIENCE
                || !Self::may_wait(start)
                || (polls.is_multiple_of(1024) && Self::others_running())
            {
                Self::waited(start);
                return false;
            }
            std::thread::yield_now();
        }
    }

    /// Whether another thread than this one is runnable right now, in two
    /// readings in a row (a kernel thread often shows up in one).
    fn others_running() -> bool {
        let once = || {
            std::fs::read_to_string("/proc/loadavg")
                .ok()
                .and_then(|s| runnable(&s))
                .is_some_and(|running| running > 1)
        };
        once() && once()
    }

    fn waited(start: Instant) {
        let ns = start.elapsed().as_nanos() as u64;
        WAITED.fetch_add(ns, Ordering::Relaxed);
    }

    /// Whether this process may go on waiting (a wait that began at `start`).
    fn may_wait(start: Instant) -> bool {
        let Some((first, _)) = STARTED.get() else {
            return false;
        };
        let waited = WAITED.load(Ordering::Relaxed) as f64 + start.elapsed().as_nanos() as f64;
        let allowed = Self::ALLOWANCE.as_nanos() as f64
            + Self::WAIT_SHARE * first.elapsed().as_nanos() as f64;
        waited < allowed
    }

    /// Times the reference that applies and says whether it ran at full
    /// pace (a slow search is read twice: one slow reading alone is a blip
    /// of the reference, not a slow core), with the reading ÷ the best.
    pub(super) fn steady() -> (bool, f64) {
        if Self::alone() {
            let first = Self::at_pace(Kind::Search);
            if first.0 {
                return first;
            }
            let second = Self::at_pace(Kind::Search);
            (second.0, first.1.min(second.1))
        } else {
            Self::at_pace(Kind::Loop)
        }
    }

    /// One reading of `kind` judged against its best (which it may lower),
    /// and the reading ÷ the best (1.0 when there is none yet).
    fn at_pace(kind: Kind) -> (bool, f64) {
        let Some(ns) = kind.read() else {
            return (true, 1.0);
        };
        let (fast, improved) = judge(kind.best(), kind.slow(), ns, || kind.read());
        if improved {
            Self::save();
        }
        let best = kind.best().load(Ordering::Relaxed);
        let ratio = if best == u64::MAX {
            1.0
        } else {
            (ns as f64 / best as f64).max(1.0)
        };
        (fast, ratio)
    }

    /// Writes the bests to the machine record when one of them improved by
    /// 2% or more since it was last written.
    fn save() {
        let improved = [Kind::Search, Kind::Loop].into_iter().any(|k| {
            let (best, saved) = (
                k.best().load(Ordering::Relaxed),
                k.saved().load(Ordering::Relaxed),
            );
            best != u64::MAX && (saved == u64::MAX || (best as f64) < 0.98 * saved as f64)
        });
        let Some((_, Some(path))) = STARTED.get() else {
            return;
        };
        if !improved {
            return;
        }
        let mut r = Record {
            search: Kind::Search.best().load(Ordering::Relaxed),
            loop_: Kind::Loop.best().load(Ordering::Relaxed),
        };
        // Another process may have written a better one meanwhile.
        if let Some(theirs) = Record::read(path, SystemTime::now()) {
            r.search = r.search.min(theirs.search);
            r.loop_ = r.loop_.min(theirs.loop_);
        }
        Kind::Search.saved().store(r.search, Ordering::Relaxed);
        Kind::Loop.saved().store(r.loop_, Ordering::Relaxed);
        r.write(path);
    }
}

/// Judges reading `ns` against `best`: whether it is at pace (within
/// `slow` × best), and whether it lowered the best. A reading below the best
/// lowers it only when `again`, a second reading, confirms it within
/// [`Pace::CONFIRM`]; the best becomes the slower of the two.
fn judge(
    best: &AtomicU64,
    slow: f64,
    ns: u64,
    again: impl FnOnce() -> Option<u64>,
) -> (bool, bool) {
    let b = best.load(Ordering::Relaxed);
    if ns < b {
        let improved = again()
            .filter(|&a| a as f64 <= Pace::CONFIRM * ns as f64)
            .map(|a| best.fetch_min(ns.max(a).max(1), Ordering::Relaxed) > ns.max(a).max(1))
            .unwrap_or(false);
        return (true, improved);
    }
    (ns as f64 <= slow * b as f64, false)
}

/// Runnable threads from the text of `/proc/loadavg` (its fourth field,
/// `running/total`).
fn runnable(loadavg: &str) -> Option<u32> {
    let (running, _) = loadavg.split_whitespace().nth(3)?.split_once('/')?;
    running.parse().ok()
}

fn loop_reading() -> u64 {
    let clock = Clock::start();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut table = [0u32; 64];
    for _ in 0..black_box(4096) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        table[(x & 63) as usize] = table[(x & 63) as usize].wrapping_add(x as u32);
    }
    black_box(table);
    clock.stop().0 as u64
}

fn search_reading() -> Option<u64> {
    PACE_SOLVER.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let board = crate::base::format::parse_one(PACE_PUZZLE).ok()?.1.board;
            let solver = Solver::new(Strategy::Propagate, board.size()).ok()?;
            *slot = Some((solver, board));
        }
        let (solver, board) = slot.as_mut()?;
        // One solve to bring its state back into the caches (the sample
        // before it used them), then the timed ones.
        black_box(
            black_box(&mut *solver)
                .search(black_box(board), Limits::solve(None), NoCount)
                .nodes,
        );
        let clock = Clock::start();
        for _ in 0..4 {
            black_box(
                black_box(&mut *solver)
                    .search(black_box(board), Limits::solve(None), NoCount)
                    .nodes,
            );
        }
        Some(clock.stop().0 as u64)
    })
}

/// The machine record: the best readings of both references, in CPU ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    search: u64,
    loop_: u64,
}

impl Record {
    /// The record at `path`, if it is well formed and younger than
    /// [`RECORD_LIFE`] at `now`.
    fn read(path: &Path, now: SystemTime) -> Option<Record> {
        let modified = std::fs::metadata(path).ok()?.modified().ok()?;
        if now.duration_since(modified).unwrap_or_default() > RECORD_LIFE {
            return None;
        }
        Record::parse(&std::fs::read_to_string(path).ok()?)
    }

    fn parse(text: &str) -> Option<Record> {
        let mut r = Record {
            search: u64::MAX,
            loop_: u64::MAX,
        };
        for line in text.lines() {
            let (key, value) = line.split_once(' ')?;
            let ns: u64 = value.trim().parse().ok().filter(|&ns| ns > 0)?;
            match key {
                "search" => r.search = ns,
                "loop" => r.loop_ = ns,
                _ => {}
            }
        }
        Some(r)
    }

    fn text(&self) -> String {
        let mut s = String::new();
        for (key, ns) in [("search", self.search), ("loop", self.loop_)] {
            if ns != u64::MAX {
                s.push_str(&format!("{key} {ns}\n"));
            }
        }
        s
    }

    /// Best effort: a cache that cannot be written only costs consistency.
    fn write(&self, path: &Path) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::io::output::write_file(path, self.text().as_bytes());
    }
}

/// Where this executable's machine record lives:
/// `$XDG_CACHE_HOME/sudoku-lab/` (or `~/.cache/sudoku-lab/`, or the
/// temporary folder), one file per executable (path, size and modification
/// time: a rebuild can change the reference's speed).
fn record_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    exe.hash(&mut h);
    meta.len().hash(&mut h);
    meta.modified().ok()?.hash(&mut h);
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    Some(
        base.join("sudoku-lab")
            .join(format!("pace-{:016x}", h.finish())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_best_needs_a_second_reading_to_confirm_it() {
        let best = AtomicU64::new(u64::MAX);
        // A first reading with no confirmation is at pace but sets nothing.
        assert_eq!(judge(&best, 1.25, 7_000, || None), (true, false));
        assert_eq!(best.load(Ordering::Relaxed), u64::MAX);
        // Confirmed: the best is the slower of the two readings.
        assert_eq!(judge(&best, 1.25, 7_000, || Some(7_300)), (true, true));
        assert_eq!(best.load(Ordering::Relaxed), 7_300);
        // A glitch (the clock read 0 ns once) that the next reading denies.
        assert_eq!(judge(&best, 1.25, 0, || Some(7_200)), (true, false));
        assert_eq!(best.load(Ordering::Relaxed), 7_300);
        // Against the best: 1.25 × 7,300 = 9,125.
        assert_eq!(judge(&best, 1.25, 9_125, || unreachable!()), (true, false));
        assert_eq!(judge(&best, 1.25, 9_126, || unreachable!()), (false, false));
        assert_eq!(judge(&best, 1.5, 10_900, || unreachable!()), (true, false));
    }

    #[test]
    fn runnable_threads_come_from_the_fourth_field_of_loadavg() {
        assert_eq!(runnable("0.43 0.83 1.16 1/75 1241\n"), Some(1));
        assert_eq!(runnable("1.96 1.95 1.69 3/77 31513"), Some(3));
        assert_eq!(runnable("0.43 0.83 1.16"), None);
        assert_eq!(runnable(""), None);
    }

    #[test]
    fn a_record_round_trips_and_bad_or_old_ones_are_ignored() {
        let r = Record {
            search: 6_581,
            loop_: 9_020,
        };
        assert_eq!(Record::parse(&r.text()), Some(r));
        let half = Record {
            search: 7_000,
            loop_: u64::MAX,
        };
        assert_eq!(half.text(), "search 7000\n");
        assert_eq!(Record::parse(&half.text()), Some(half));
        for bad in ["search", "search x\n", "search 0\n", "search -5\n"] {
            assert_eq!(Record::parse(bad), None, "{bad:?}");
        }

        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("nested").join("pace-test");
        r.write(&path);
        let now = SystemTime::now();
        assert_eq!(Record::read(&path, now), Some(r));
        let later = now + RECORD_LIFE + Duration::from_secs(60);
        assert_eq!(
            Record::read(&path, later),
            None,
            "a stale record is ignored"
        );
        assert_eq!(Record::read(&dir.path().join("missing"), now), None);
    }

    #[test]
    fn the_record_is_per_executable_in_the_cache_folder() {
        let path = record_path().expect("a record path");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(
            name.starts_with("pace-") && name.len() == "pace-".len() + 16,
            "{name}"
        );
        assert_eq!(
            path.parent().and_then(|p| p.file_name()),
            Some("sudoku-lab".as_ref())
        );
        assert_eq!(
            record_path(),
            Some(path),
            "the same executable, the same record"
        );
    }
}
