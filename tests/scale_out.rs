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
    let merged = tmp.path().join("merged");
    assert_eq!(
        without_times(&reference.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );
    for seq in 1..=4 {
        let from = meta_value(&tmp.path().join(format!("shards/{seq}")), "shard_from").unwrap();
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

/// A one-node Slurm in a folder of its own: munged on a private socket,
/// slurmctld and slurmd on free localhost ports. Dropping it stops the three
/// daemons it started (by their pid files), whatever the test's outcome.
struct Slurm {
    dir: PathBuf,
    conf: PathBuf,
    socket: PathBuf,
}

impl Slurm {
    fn start(dir: &Path) -> Slurm {
        let munge = dir.join("munge");
        fs::create_dir_all(&munge).unwrap();
        for d in ["state", "spool", "log"] {
            fs::create_dir_all(dir.join(d)).unwrap();
        }
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&munge, fs::Permissions::from_mode(0o700)).unwrap();
        let key: Vec<u8> = (0..128u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 ^ std::process::id() as u8)
            .collect();
        let key_file = munge.join("munge.key");
        fs::write(&key_file, key).unwrap();
        fs::set_permissions(&key_file, fs::Permissions::from_mode(0o600)).unwrap();
        let socket = munge.join("socket");
        let slurm = Slurm {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
            socket: socket.clone(),
        };
        run(Command::new("munged").args([
            "--force".to_string(),
            format!("--socket={}", socket.display()),
            format!("--key-file={}", key_file.display()),
            format!("--pid-file={}", munge.join("munged.pid").display()),
            format!("--log-file={}", dir.join("log/munged.log").display()),
            format!("--seed-file={}", munge.join("seed").display()),
        ]));
        let port = || {
            std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        };
        let (ctld_port, d_port) = (port(), port());
        let host = sudoku_lab::shard::hostname();
        let host = host.split('.').next().unwrap_or("localhost");
        let d = dir.display();
        let conf = format!(
            "ClusterName=lab\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={d_port}\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={socket}\n\
             CredType=cred/munge\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/log/slurmctld.log\n\
             SlurmdLogFile={d}/log/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SwitchType=switch/none\n\
             MpiDefault=none\n\
             SchedulerType=sched/builtin\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             ReturnToService=2\n\
             JobCompType=jobcomp/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             NodeName=lab1 NodeHostname={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
             PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
            socket = socket.display()
        );
        fs::write(&slurm.conf, conf).unwrap();
        run(slurm.cmd("slurmctld").args(["-c", "-i"]));
        run(slurm.cmd("slurmd").args(["-N", "lab1"]));
        slurm
    }

    /// A Slurm command that reads this cluster's configuration.
    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        if program == "slurmctld" || program == "slurmd" {
            c.arg("-f").arg(&self.conf);
        }
        c
    }

    fn logs(&self) -> String {
        let mut out = String::new();
        for name in ["slurmctld.log", "slurmd.log", "munged.log"] {
            let text = fs::read_to_string(self.dir.join("log").join(name)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            out.push_str(&format!("--- {name}\n"));
            for l in tail.into_iter().rev() {
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }

    /// Waits until the node takes jobs.
    fn wait_idle(&self, deadline: Instant) {
        loop {
            let out = self
                .cmd("sinfo")
                .args(["-h", "-n", "lab1", "-o", "%T"])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the Slurm node did not come up\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }

    fn pid(&self, file: &Path) -> Option<i32> {
        fs::read_to_string(file).ok()?.trim().parse().ok()
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        let pids: Vec<i32> = [
            self.dir.join("slurmctld.pid"),
            self.dir.join("slurmd.pid"),
            self.dir.join("munge/munged.pid"),
        ]
        .iter()
        .filter_map(|f| self.pid(f))
        .collect();
        let _ = self
            .cmd("scontrol")
            .arg("shutdown")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = Command::new("munged")
            .arg("--stop")
            .arg(format!("--socket={}", self.socket.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        // What did not end within ten seconds is ended (only our daemons).
        let alive = |pid: i32| unsafe { libc::kill(pid, 0) } == 0;
        let until = Instant::now() + Duration::from_secs(10);
        while pids.iter().any(|&p| alive(p)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(100));
        }
        for &p in &pids {
            if alive(p) {
                unsafe { libc::kill(p, libc::SIGKILL) };
            }
        }
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
    let deadline = start + Duration::from_secs(170);
    let tmp = tempfile::Builder::new()
        .prefix("lab-slurm")
        .tempdir()
        .unwrap();
    let slurm = Slurm::start(tmp.path());
    slurm.wait_idle(start + Duration::from_secs(60));
    let fixtures = root().join("tests/fixtures/compare");
    let plan: Vec<String> = vec![
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
    let mut sbatch = slurm.cmd("sbatch");
    sbatch
        .args(["--wait", "--array=0-3", "--parsable"])
        .arg(format!(
            "--export=ALL,SUDOKU_LAB={},SHARDS={}",
            bin().display(),
            work.join("shards").display()
        ))
        .arg(format!("--chdir={}", work.display()))
        .arg(root().join("scripts/scale-out/slurm-array.sh"))
        .args(&plan)
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
    let job_out: String = (0..4)
        .map(|k| {
            let job = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let f = work.join(format!("slurm-{job}_{k}.out"));
            format!(
                "--- {}\n{}",
                f.display(),
                fs::read_to_string(&f).unwrap_or_default()
            )
        })
        .collect();
    assert!(
        status.success(),
        "sbatch --wait: {status}\n{}\n{job_out}\n{}",
        String::from_utf8_lossy(&out.stderr),
        slurm.logs()
    );
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
    single(&plan, &reference);
    assert_eq!(
        without_times(&reference.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );
    eprintln!(
        "{test}: started, ran, merged and stopped in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
