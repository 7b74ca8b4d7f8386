//! One child process: started in a process group of its own, waited for
//! with a deadline, killed with everything it started, reaped with its
//! resource usage (`wait4`). Unix only, as the whole lab is.

use std::io::{self, Read, Write as _};
use std::os::fd::AsRawFd as _;
use std::os::unix::process::CommandExt as _;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use super::reaper;

/// How the child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// Exited with this status.
    Exit(i32),
    /// Killed by this signal (not by the lab's time limit).
    Signal(i32),
    /// Killed by the lab at the deadline.
    TimedOut,
}

/// A finished child.
#[derive(Clone, Copy, Debug)]
pub(super) struct Exit {
    pub ended: Ended,
    /// From just before the start to the exit (or the kill).
    pub wall: Duration,
    /// User + system CPU time of the child (and of the children it waited
    /// for), as `wait4` reports it.
    pub cpu: Option<Duration>,
}

/// Bytes read from a pipe until it closed: the first `cap` kept, and whether
/// there was more.
#[derive(Clone, Debug, Default)]
pub(super) struct Captured {
    pub bytes: Vec<u8>,
    pub overflow: bool,
}

/// Reads `pipe` to its end on a thread of its own; keeps the first `cap`
/// bytes (`tail`: the last ones) and drains the rest, so the writer never
/// blocks on a full pipe.
pub(super) fn capture<R: Read + Send + 'static>(
    mut pipe: R,
    cap: usize,
    tail: bool,
) -> Receiver<Captured> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut got = Captured::default();
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    got.bytes.extend_from_slice(&buf[..n]);
                    if got.bytes.len() > cap {
                        got.overflow = true;
                        if tail {
                            let cut = got.bytes.len() - cap;
                            got.bytes.drain(..cut);
                        } else {
                            got.bytes.truncate(cap);
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(got);
    });
    rx
}

/// The last non-blank line of a program's standard error, at most 100
/// characters: what a crash report quotes.
pub(super) fn last_line(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    Some(clip(line, 100))
}

/// At most `most` characters of `s`, `…` marking a cut.
pub(super) fn clip(s: &str, most: usize) -> String {
    let mut c: String = s.chars().take(most).collect();
    if c.len() < s.len() {
        c.push('…');
    }
    c
}

/// How long to wait for a pipe to close after its program ended: only a
/// process that left the group (a daemon) can keep it open longer.
pub(super) const PIPE_GRACE: Duration = Duration::from_secs(1);

/// A running child, alone in its process group.
#[derive(Debug)]
pub(super) struct Proc {
    pid: i32,
    start: Instant,
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    stderr: Option<Receiver<Captured>>,
    reaped: bool,
}

impl Proc {
    /// Starts `argv` with piped standard streams. An error means the
    /// program could not be started at all (not found, not executable).
    pub fn spawn(argv: &[String]) -> io::Result<Proc> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut command = Command::new(program);
        command
            .args(args)
            // Inherited by everything the program starts: how a daemon that
            // left the group is still known as this lab's (`reaper`).
            .env(reaper::MARKER, std::process::id().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A group of its own: the time limit kills the program and
            // whatever it started (a shell's children, a runner's workers).
            .process_group(0);
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id() as i32;
            // SAFETY: the closure makes two async-signal-safe syscalls.
            unsafe {
                command.pre_exec(move || reaper::die_with_parent(parent));
            }
        }
        // Started and listed under the registry's lock: a sweep never sees
        // a program that is running but not yet listed.
        let mut registry = reaper::hold();
        let start = Instant::now();
        let mut child = command.spawn()?;
        // The child is reaped with wait4 below, never through `Child`.
        let pid = child.id() as i32;
        registry.add(pid);
        drop(registry);
        if let Some(stdin) = &child.stdin {
            set_nonblocking(stdin)?;
        }
        let stderr = child
            .stderr
            .take()
            .map(|e| capture(e, super::MAX_OUTPUT / 256, true));
        Ok(Proc {
            pid,
            start,
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            stderr,
            reaped: false,
        })
    }

    /// The tail of standard error, once the child has ended.
    pub fn stderr_tail(&mut self) -> Vec<u8> {
        match self.stderr.take() {
            Some(rx) => rx.recv_timeout(PIPE_GRACE).unwrap_or_default().bytes,
            None => Vec::new(),
        }
    }

    /// Waits for the child to exit, at most until `deadline` (then kills it:
    /// [`Ended::TimedOut`]); kills what is left of its process group either
    /// way, and reaps it.
    pub fn finish(&mut self, deadline: Instant) -> Exit {
        // Standard input is closed first: a program reading to its end ends.
        self.stdin = None;
        let (ended, cpu, end) = finish_pid(self.pid, deadline);
        self.reaped = true;
        Exit {
            ended,
            wall: end.saturating_duration_since(self.start),
            cpu,
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if !self.reaped {
            self.stdin = None;
            finish_pid(self.pid, Instant::now());
        }
    }
}

fn set_nonblocking(stdin: &ChildStdin) -> io::Result<()> {
    let fd = stdin.as_raw_fd();
    // SAFETY: fcntl on a descriptor this process owns, integer arguments.
    let ok = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Writes `bytes` to a child's standard input, giving up at `deadline`:
/// `Ok(false)` when the program stopped reading (its pipe stayed full), an
/// error when it closed its input. The pipe is non-blocking on the lab's
/// side ([`Proc::spawn`]), so a program that never reads cannot hold the
/// lab in a write.
pub(super) fn write_until(
    stdin: &mut ChildStdin,
    mut bytes: &[u8],
    deadline: Instant,
) -> io::Result<bool> {
    while !bytes.is_empty() {
        match stdin.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(false);
                }
                let mut fd = libc::pollfd {
                    fd: stdin.as_raw_fd(),
                    events: libc::POLLOUT,
                    revents: 0,
                };
                let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
                // SAFETY: one valid pollfd.
                unsafe {
                    libc::poll(&mut fd, 1, ms);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Blocks until the child has exited, without reaping it (so its pid
/// and group stay valid for the kill that follows).
fn wait_exited(pid: i32) {
    loop {
        // SAFETY: siginfo_t is plain data that waitid fills in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a siginfo_t.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Reaps the child: how it ended and its CPU time.
fn reap(pid: i32) -> (Ended, Option<Duration>) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to an int and a rusage.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            break;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // Already reaped elsewhere: nothing is known of the exit.
            return (Ended::Signal(0), None);
        }
    }
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    let ended = if libc::WIFEXITED(status) {
        Ended::Exit(libc::WEXITSTATUS(status))
    } else {
        Ended::Signal(libc::WTERMSIG(status))
    };
    (ended, Some(cpu))
}

fn finish_pid(pid: i32, deadline: Instant) -> (Ended, Option<Duration>, Instant) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        wait_exited(pid);
        let _ = tx.send(Instant::now());
    });
    let left = deadline.saturating_duration_since(Instant::now());
    let (timed_out, end) = match rx.recv_timeout(left) {
        Ok(end) => (false, end),
        Err(_) => {
            reaper::kill_group(pid);
            (true, rx.recv().unwrap_or_else(|_| Instant::now()))
        }
    };
    // Whatever the program left behind in its group goes too; then it
    // is reaped and unlisted, and daemons that left it are swept up.
    // Under the registry's lock, so no sweep reaps the child first.
    let mut registry = reaper::hold();
    // The group exists while its leader, the child, is not reaped.
    reaper::kill_group(pid);
    let (ended, cpu) = reap(pid);
    registry.remove(pid);
    drop(registry);
    reaper::sweep();
    let ended = if timed_out { Ended::TimedOut } else { ended };
    (ended, cpu, end)
}

/// The usual name of a signal, for a crash report.
pub(super) fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGFPE => "SIGFPE",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGINT => "SIGINT",
        _ => return format!("signal {sig}"),
    };
    format!("signal {sig} ({name})")
}
