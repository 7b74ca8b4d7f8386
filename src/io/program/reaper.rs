//! Every process an outside program starts ends with the lab, on every exit
//! path. Three layers, because no single one covers them all:
//!
//! 1. **A registry of live process groups.** Each program runs in a group of
//!    its own ([`super::process`]); the group is registered while it runs.
//!    [`end_all`] kills every registered group: the command line calls it when
//!    a command returns (success or error) and from its Ctrl-C / SIGTERM /
//!    SIGHUP handler, so an interrupted lab never leaves a program running
//!    (a terminal's Ctrl-C reaches only the lab's own group, never these).
//! 2. **A marker and a subreaper.** Every program is started with
//!    `SUDOKU_LAB_RUN=<lab pid>` in its environment, which its descendants
//!    inherit; [`sweep`] kills every process that carries it outside the
//!    groups of running programs (a daemon that left its group with
//!    `setsid`), after every finished program and at exit. The lab makes
//!    itself a child subreaper (`PR_SET_CHILD_SUBREAPER`, Linux), so such
//!    orphans are re-parented to it rather than to PID 1, and reaps them.
//! 3. **For a lab that cannot act** (SIGKILL, a crash): each program gets
//!    `PR_SET_PDEATHSIG` = SIGKILL, so it dies with the lab; and a small
//!    watchdog (`sh`, in a group of its own) is told each group as it starts
//!    and ends. When the lab goes away without saying goodbye, its pipe
//!    closes: the watchdog kills the groups still listed and every process
//!    that still carries the lab's marker.
//!
//! Unix only (the subreaper, the death signal and the sweep: Linux).

use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard};

/// The environment variable every program (and what it starts) carries: the
/// pid of the lab that started it.
pub const MARKER: &str = "SUDOKU_LAB_RUN";

/// The lab's side of the watchdog: its standard input, or `None` when it
/// could not be started (the other layers still work).
struct Registry {
    groups: Vec<i32>,
    watchdog: Option<ChildStdin>,
    started: bool,
}

/// The watchdog's pid (0: none), so that the sweep leaves it alone.
static REGISTRY_WATCHDOG_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    watchdog: None,
    started: false,
});

/// The registry, locked. Held while a program is spawned and registered, so
/// a [`sweep`] never sees a program that is started but not yet listed.
pub(super) struct Held(MutexGuard<'static, Registry>);

pub(super) fn hold() -> Held {
    let mut g = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if !g.started {
        g.started = true;
        become_subreaper();
        g.watchdog = start_watchdog();
    }
    Held(g)
}

impl Held {
    /// Lists `pgid` (a program just started, leader of its group).
    pub fn add(&mut self, pgid: i32) {
        self.0.groups.push(pgid);
        self.tell(&format!("+{pgid}\n"));
    }

    /// Unlists `pgid`: its group has been killed and its leader is about to
    /// be reaped (so the number cannot be reused while it is listed).
    pub fn remove(&mut self, pgid: i32) {
        self.0.groups.retain(|&g| g != pgid);
        self.tell(&format!("-{pgid}\n"));
    }

    fn tell(&mut self, line: &str) {
        if let Some(w) = self.0.watchdog.as_mut()
            && w.write_all(line.as_bytes()).is_err()
        {
            self.0.watchdog = None;
        }
    }
}

/// Kills every listed group and sweeps up what escaped them. For exit paths:
/// after it, no program of this lab runs. Safe to call at any time, from
/// any thread, more than once.
pub fn end_all() {
    let mut g = hold_if_started();
    let Some(g) = g.as_mut() else { return };
    for &pgid in &g.0.groups {
        kill_group(pgid);
    }
    sweep_locked(&g.0.groups);
}

/// Ends the lab's children that carry its marker and are not a listed
/// program (daemons re-parented to the lab), and reaps them.
pub(super) fn sweep() {
    if let Some(g) = hold_if_started() {
        sweep_locked(&g.0.groups);
    }
}

fn hold_if_started() -> Option<Held> {
    let g = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    g.started.then_some(Held(g))
}

pub(super) fn kill_group(pgid: i32) {
    // SAFETY: kill has no memory effects; -pgid names a process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

#[cfg(target_os = "linux")]
fn become_subreaper() {
    // SAFETY: prctl with integer arguments has no memory effects.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn become_subreaper() {}

/// The watchdog's script: `$1` is the lab's pid. It keeps the list of live
/// groups (`+PGID`, `-PGID` lines); `bye` means the lab ends them itself.
/// On end of input without `bye`, the lab died: kill the listed groups, then
/// (twice, for what was starting) every process carrying the marker.
const WATCHDOG: &str = r#"
live=
while IFS= read -r line; do
  case $line in
    bye) exit 0 ;;
    +*) live="$live ${line#+}" ;;
    -*) g=${line#-}; rest=
        for p in $live; do [ "$p" = "$g" ] || rest="$rest $p"; done
        live=$rest ;;
  esac
done
for p in $live; do kill -9 -- "-$p" 2>/dev/null; done
for pass in 1 2; do
  for f in /proc/[0-9]*/environ; do
    if tr '\000' '\n' < "$f" 2>/dev/null | grep -qx "SUDOKU_LAB_RUN=$1"; then
      p=${f#/proc/}; p=${p%/environ}
      kill -9 "$p" 2>/dev/null
    fi
  done
done
"#;

fn start_watchdog() -> Option<ChildStdin> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(WATCHDOG)
        .arg("sudoku-lab-watchdog")
        .arg(std::process::id().to_string())
        .env_remove(MARKER)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Out of the lab's group: a terminal's Ctrl-C is the lab's to
        // handle; the watchdog only acts when the lab is gone.
        .process_group(0)
        .spawn()
        .ok()?;
    REGISTRY_WATCHDOG_PID.store(child.id() as i32, std::sync::atomic::Ordering::Relaxed);
    child.stdin.take()
}

/// Tells the watchdog the lab is ending its programs itself.
pub fn goodbye() {
    if let Some(mut g) = hold_if_started() {
        if let Some(mut w) = g.0.watchdog.take() {
            let _ = w.write_all(b"bye\n");
        }
        // A later program in this process starts a new watchdog.
        g.0.started = false;
    }
}

/// A process as `/proc/PID/stat` shows it: state, parent, group.
#[cfg(target_os = "linux")]
struct Stat {
    zombie: bool,
    parent: i32,
    group: i32,
}

/// Reads `/proc/PID/stat` (the fields after the command name, which ends
/// at the last `)`: the name itself may hold anything).
#[cfg(target_os = "linux")]
fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut f = text[text.rfind(')')? + 1..].split_whitespace();
    let state = f.next()?;
    let parent = f.next()?.parse().ok()?;
    let group = f.next()?.parse().ok()?;
    Some(Stat {
        zombie: state == "Z" || state == "X",
        parent,
        group,
    })
}

/// Whether `pid`'s environment carries this lab's marker (a zombie's
/// environment reads empty).
#[cfg(target_os = "linux")]
fn marked(pid: i32, want: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == want))
}

/// Every process of the system, by pid.
#[cfg(target_os = "linux")]
fn all_pids() -> Vec<i32> {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|p| p.file_name().to_str()?.parse().ok())
        .collect()
}

/// Kills every live process that carries the marker and is not in a
/// listed group (a running program), wherever it was re-parented; reaps
/// those that are the lab's children (the subreaper's share), and the
/// lab's zombie children that were in a program's group.
#[cfg(target_os = "linux")]
fn sweep_locked(listed: &[i32]) {
    let me = std::process::id() as i32;
    let want = format!("{MARKER}={me}");
    // SAFETY: getpgrp has no arguments and no memory effects.
    let own_group = unsafe { libc::getpgrp() };
    // A killed daemon may have been starting another: a few passes.
    for _ in 0..4 {
        let strays: Vec<(i32, Stat)> = all_pids()
            .into_iter()
            .filter(|&p| p != me)
            .filter_map(|p| Some((p, stat(p)?)))
            .filter(|(p, s)| !s.zombie && !listed.contains(&s.group) && marked(*p, want.as_bytes()))
            .collect();
        if strays.is_empty() {
            break;
        }
        for (pid, _) in &strays {
            // SAFETY: kill has no memory effects.
            unsafe {
                libc::kill(*pid, libc::SIGKILL);
            }
        }
        for (pid, s) in &strays {
            if s.parent == me {
                reap_quietly(*pid);
            }
        }
    }
    // Zombies re-parented to the lab: processes of a program's group (or a
    // daemon of one) that ended by themselves. Commands the lab runs
    // otherwise (`git`) stay in its own group and are reaped by their caller.
    let watchdog = REGISTRY_WATCHDOG_PID.load(std::sync::atomic::Ordering::Relaxed);
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        for pid in text
            .split_whitespace()
            .filter_map(|p| p.parse::<i32>().ok())
        {
            let Some(s) = stat(pid) else { continue };
            if s.zombie && pid != watchdog && s.group != own_group && !listed.contains(&s.group) {
                reap_quietly(pid);
            }
        }
    }
}

/// Waits for the child `pid` (killed, or a zombie already).
#[cfg(target_os = "linux")]
fn reap_quietly(pid: i32) {
    let mut status = 0;
    // SAFETY: a valid pointer to an int; `pid` is a child of this process.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
    {}
}

#[cfg(not(target_os = "linux"))]
fn sweep_locked(_: &[i32]) {}

/// What a program's child does between `fork` and `exec` (Linux): die with
/// the thread that started it (`PR_SET_PDEATHSIG`), and at once if that
/// thread is already gone. Async-signal-safe: two syscalls.
#[cfg(target_os = "linux")]
pub(super) fn die_with_parent(parent: i32) -> std::io::Result<()> {
    // SAFETY: prctl and getppid with integer arguments; no memory effects.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::getppid() != parent {
            libc::_exit(137);
        }
    }
    Ok(())
}
