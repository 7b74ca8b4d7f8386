//! The launch recipes of docs/scale-out.md, run: the GNU parallel lines as
//! the page prints them, the Kubernetes Indexed Job's command with each
//! index, and the Slurm array script on a real one-node Slurm started here
//! (munged, slurmctld and slurmd on localhost, stopped at the end). Each
//! merge is compared with an unsharded run of the same plan, every column
//! but the times.
//!
//! GNU parallel and Slurm come from Debian (`parallel`, `slurm-wlm`,
//! `munge`); `.ci/run` installs them and sets `SUDOKU_LAB_REQUIRE_SCHEDULERS`,
//! which makes their absence a failure. Without it (a machine where they
//! cannot be installed) these tests say they are skipped, and why.

mod compare_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use compare_support::{bin, lab};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether every program is on PATH; if not, a skip (or, in CI, a failure)
/// that names the missing ones.
fn have(programs: &[&str], test: &str) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {p}")])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!(
        "{test}: {} not installed (Debian packages parallel, slurm-wlm, munge; .ci/run installs them)",
        missing.join(", ")
    );
    if std::env::var_os("SUDOKU_LAB_REQUIRE_SCHEDULERS").is_some() {
        panic!("{msg}");
    }
    eprintln!("skipped: {msg}");
    false
}

/// PATH with the lab's binary first, as `sudoku-lab`.
fn path_with_lab() -> String {
    let dir = bin().parent().unwrap().to_path_buf();
    match std::env::var_os("PATH") {
        Some(p) => format!("{}:{}", dir.display(), p.to_string_lossy()),
        None => dir.display().to_string(),
    }
}

/// results.csv without its time columns (found by name).
fn without_times(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| {
            let h = &header[i];
            !(h.starts_with("time")
                || h.starts_with("wall")
                || h.starts_with("outliers")
                || h == "runs"
                || h == "samples")
        })
        .collect();
    let mut rows = vec![keep.iter().map(|&i| header[i].clone()).collect()];
    for rec in r.records() {
        let rec = rec.unwrap();
        rows.push(keep.iter().map(|&i| rec[i].to_string()).collect());
    }
    rows
}

/// Runs `compare ARGS --out DIR` unsharded (the reference of a merge).
fn single(args: &[String], out: &Path) {
    lab()
        .arg("compare")
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

fn meta_value(dir: &Path, key: &str) -> Option<String> {
    let mut r = csv::Reader::from_path(dir.join("meta.csv")).ok()?;
    r.records()
        .filter_map(Result::ok)
        .find(|rec| &rec[0] == key)
        .map(|rec| rec[1].to_string())
}

/// The words of `line` between `compare` and `--shard`: the plan.
fn plan_of(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let start = words.iter().position(|w| *w == "compare").unwrap() + 1;
    let end = words.iter().position(|w| *w == "--shard").unwrap();
    words[start..end].iter().map(|w| w.to_string()).collect()
}

#[test]
fn the_gnu_parallel_recipe_runs_as_printed() {
    if !have(&["parallel"], "GNU parallel recipe") {
        return;
    }
    let page = fs::read_to_string(root().join("docs/scale-out.md")).unwrap();
    let after = page
        .split_once("<!-- scale-out: parallel -->")
        .expect("docs/scale-out.md marks the parallel recipe")
        .1;
    let block = after
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a sh block after the marker")
        .0;
    assert!(block.contains("parallel") && block.contains("report merge"));
    let tmp = tempfile::tempdir().unwrap();
    let status = Command::new("bash")
        .args(["-euo", "pipefail", "-c", block])
        .current_dir(tmp.path())
        .env("PATH", path_with_lab())
        .env_remove("SUDOKU_LAB_DATASETS")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .status()
        .unwrap();
    assert!(status.success(), "the recipe failed: {status}\n{block}");
    let plan = plan_of(block.lines().next().unwrap());
    let reference = tmp.path().join("single");
    single(&plan, &reference);
    let merged = tmp.path().join("my-reports/merged");
    assert_eq!(
        without_times(&reference.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );
    for seq in 1..=4 {
        let shard = tmp.path().join(format!("my-reports/shards/{seq}"));
        let from = meta_value(&shard, "shard_from").unwrap();
        assert!(from.starts_with(&format!("PARALLEL_SEQ={seq},")), "{from}");
    }
}

#[test]
fn the_kubernetes_indexed_job_command_runs_with_each_index() {
    let manifest =
        fs::read_to_string(root().join("scripts/scale-out/k8s-indexed-job.yaml")).unwrap();
    let field = |name: &str| -> &str {
        manifest
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in the manifest"))
            .trim()
    };
    assert_eq!(field("completionMode:"), "Indexed");
    let completions: u64 = field("completions:").parse().unwrap();
    let command: Vec<String> = serde_json::from_str(field("command:")).unwrap();
    assert_eq!(&command[..2], ["sh", "-c"]);
    let script = &command[2];
    assert!(
        script.contains(&format!("--shard auto --shards {completions} ")),
        "--shards must equal completions: {script}"
    );
    // The pod's paths, here: the 9×9 fixture for the data, a temporary
    // folder for the volume.
    let tmp = tempfile::tempdir().unwrap();
    let fixture = root().join("tests/fixtures/compare/mini-9x9.txt");
    let script = script
        .replace("/data/17-clue.txt", &fixture.display().to_string())
        .replace("/results/", &format!("{}/", tmp.path().display()));
    for index in 0..completions {
        let status = Command::new("sh")
            .args(["-c", &script])
            .env("PATH", path_with_lab())
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env_remove("SUDOKU_LAB_DATASETS")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("PARALLEL_SEQ")
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "index {index}: {status}");
    }
    let shards: Vec<PathBuf> = (0..completions)
        .map(|k| tmp.path().join(format!("shards/{k}")))
        .collect();
    let merged = tmp.path().join("merged");
    lab()
        .args(["report", "merge"])
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let reference = tmp.path().join("single");
    single(&plan_of(script.trim_start_matches("exec ")), &reference);
    assert_eq!(
        without_times(&reference.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );
}

/// A one-node Slurm in a folder of its own, brought up and stopped by the
/// script a user runs (scripts/scale-out/slurm-one-node.sh). Dropping it
/// stops the three daemons it started, whatever the test's outcome.
struct Slurm {
    dir: PathBuf,
}

impl Slurm {
    fn script() -> PathBuf {
        root().join("scripts/scale-out/slurm-one-node.sh")
    }

    /// Starts it; returns when the node takes jobs.
    fn start(dir: &Path) -> Slurm {
        run(Command::new("bash")
            .arg(Slurm::script())
            .arg("start")
            .arg(dir));
        Slurm {
            dir: dir.to_path_buf(),
        }
    }

    /// A Slurm command that reads this cluster's configuration.
    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", self.dir.join("slurm.conf"));
        c
    }

    fn logs(&self) -> String {
        let out = Command::new("bash")
            .arg(Slurm::script())
            .arg("logs")
            .arg(&self.dir)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(Slurm::script())
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Submits slurm-array.sh as `sbatch --wait --array=ARRAY` with `plan`;
/// panics with the tasks' output and the daemons' logs if it fails.
fn submit(slurm: &Slurm, work: &Path, array: &str, plan: &[String], deadline: Instant) {
    let mut sbatch = slurm.cmd("sbatch");
    sbatch
        .args(["--wait", "--parsable"])
        .arg(format!("--array={array}"))
        .arg(format!(
            "--export=ALL,SUDOKU_LAB={},SHARDS={}",
            bin().display(),
            work.join("shards").display()
        ))
        .arg(format!("--chdir={}", work.display()))
        .arg(root().join("scripts/scale-out/slurm-array.sh"))
        .args(plan)
        .env_remove("PARALLEL_SEQ")
        .env_remove("JOB_COMPLETION_INDEX")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = sbatch.spawn().unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = slurm.cmd("scancel").arg("--user=root").status();
            panic!(
                "the job array did not end within the bound\n{}",
                slurm.logs()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let out = child.wait_with_output().unwrap();
    let job = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let job_out: String = fs::read_dir(work)
        .unwrap()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&format!("slurm-{job}_"))
        })
        .map(|e| {
            format!(
                "--- {}\n{}",
                e.path().display(),
                fs::read_to_string(e.path()).unwrap_or_default()
            )
        })
        .collect();
    assert!(
        status.success(),
        "sbatch --wait --array={array}: {status}\n{}\n{job_out}\n{}",
        String::from_utf8_lossy(&out.stderr),
        slurm.logs()
    );
}

/// The recipe on a real one-node Slurm, brought up by the script a user
/// runs; then issue 59, case 1: a task resubmitted alone (`--array=1`, a
/// one-task array to Slurm) reruns exactly its own shard, which merges
/// with the others.
#[test]
fn a_slurm_job_array_runs_the_shards_of_one_plan() {
    let test = "Slurm job array";
    if !have(
        &[
            "munged",
            "slurmctld",
            "slurmd",
            "sbatch",
            "sinfo",
            "scontrol",
        ],
        test,
    ) {
        return;
    }
    if unsafe { libc::geteuid() } != 0 {
        let msg = format!("{test}: slurmd must run as root to start jobs");
        if std::env::var_os("SUDOKU_LAB_REQUIRE_SCHEDULERS").is_some() {
            panic!("{msg}");
        }
        eprintln!("skipped: {msg}");
        return;
    }
    let start = Instant::now();
    let deadline = start + Duration::from_secs(240);
    let tmp = tempfile::Builder::new()
        .prefix("lab-slurm")
        .tempdir()
        .unwrap();
    let slurm = Slurm::start(&tmp.path().join("slurm"));
    let fixtures = root().join("tests/fixtures/compare");
    let plan: Vec<String> = vec![
        "--shards".into(),
        "4".into(),
        "--dataset".into(),
        fixtures.join("mini-4x4.txt").display().to_string(),
        "--dataset".into(),
        fixtures.join("mini-9x9.txt").display().to_string(),
        "--budget".into(),
        "200000".into(),
        "--strategy".into(),
        "naive,bitmask,mrv,propagate,dlx,fast".into(),
    ];
    let work = tmp.path().join("work");
    fs::create_dir(&work).unwrap();
    submit(&slurm, &work, "0-3", &plan, deadline);
    let shards: Vec<PathBuf> = (0..4).map(|k| work.join(format!("shards/{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let from = meta_value(dir, "shard_from").unwrap_or_default();
        assert!(
            from.starts_with(&format!(
                "SLURM_ARRAY_TASK_ID={k}, SLURM_ARRAY_TASK_COUNT=4"
            )),
            "{from}"
        );
    }
    let puzzles = meta_value(&shards[1], "shard_puzzles").unwrap();
    let rows = without_times(&shards[1].join("results.csv"));
    // Task 1 died: resubmitted alone, it is shard 1 of 4 again.
    fs::remove_dir_all(&shards[1]).unwrap();
    submit(&slurm, &work, "1", &plan, deadline);
    assert_eq!(meta_value(&shards[1], "shard").as_deref(), Some("1/4"));
    assert_eq!(meta_value(&shards[1], "shard_puzzles"), Some(puzzles));
    assert_eq!(without_times(&shards[1].join("results.csv")), rows);
    let from = meta_value(&shards[1], "shard_from").unwrap_or_default();
    assert!(
        from.starts_with("SLURM_ARRAY_TASK_ID=1, SLURM_ARRAY_TASK_COUNT=1"),
        "{from}"
    );
    let merged = work.join("merged");
    lab()
        .args(["report", "merge"])
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    drop(slurm);
    let reference = work.join("single");
    single(&plan[2..], &reference);
    assert_eq!(
        without_times(&reference.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );
    eprintln!(
        "{test}: started, ran, resubmitted one task, merged and stopped in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
