//! Helpers shared by the `compare` test files: the binary without any
//! inherited datasets folder, and folder listings/snapshots to prove that a
//! report was left untouched.
#![allow(dead_code)]

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use sudoku_lab::run::STAGING_PREFIX;

/// The binary's path, for tests that spawn it themselves.
pub fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("sudoku-lab")
}

/// The binary, with `SUDOKU_LAB_DATASETS` removed so tests see only what they pass.
pub fn lab() -> Command {
    let mut cmd = Command::cargo_bin("sudoku-lab").unwrap();
    cmd.env_remove("SUDOKU_LAB_DATASETS");
    cmd
}

/// File names in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Hidden staging folders of unfinished or killed runs inside a report folder.
pub fn staging_folders(out: &Path) -> Vec<String> {
    listing(out)
        .into_iter()
        .filter(|n| n.starts_with(STAGING_PREFIX))
        .collect()
}

/// Every file of `dir` with its bytes, sorted by name (staging folders,
/// which readers of a report never look into, left out).
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    listing(dir)
        .into_iter()
        .filter(|n| !n.starts_with(STAGING_PREFIX))
        .map(|n| {
            let bytes = fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// Runs `cmd` to completion and returns its exit code (`None` if a signal
/// ended it) and its peak resident memory in KiB, as the kernel accounts it
/// for that one child (`wait4`): exact, whatever else the test process runs.
#[cfg(target_os = "linux")]
pub fn exit_and_peak_kib(cmd: &mut std::process::Command) -> (Option<i32>, u64) {
    let child = cmd.spawn().expect("spawn");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing through valid pointers; the
    // `Child` is forgotten so std never waits for the pid again.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    std::mem::forget(child);
    assert_eq!(rc, pid, "wait4 failed");
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, usage.ru_maxrss as u64)
}
