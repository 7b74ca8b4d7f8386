//! `compare --shard` and `report merge`: the merged shards equal a single
//! run in every column but the times; every refusal of the merge is named
//! and exits 2; `--shard auto` reads the schedulers' variables; a dead shard
//! is rerun alone and a resubmitted one is harmless. Small fixtures, no
//! timing assertions.

mod compare_support;

use std::fs;
use std::path::{Path, PathBuf};

use compare_support::{bin, lab, snapshot, staging_folders};
use sudoku_lab::EXIT_USAGE;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/compare")
        .join(name)
        .display()
        .to_string()
}

/// The scheduler variables `--shard auto` reads, removed from every run so
/// that a test run under a scheduler sees only what it sets.
const SCHEDULER_VARS: [&str; 8] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_ARRAY_JOB_ID",
    "JOB_COMPLETION_INDEX",
    "PARALLEL_SEQ",
];

/// The plan of these tests: both fixtures (14 puzzles), every rung, quick timing.
fn plan() -> Vec<String> {
    [
        "--dataset",
        &fixture("mini-4x4.txt"),
        "--dataset",
        &fixture("mini-9x9.txt"),
        "--budget",
        "200000",
        "--min-time",
        "0",
        "--min-samples",
        "1",
        "--jobs",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn compare(
    out: &Path,
    plan: &[String],
    extra: &[&str],
    env: &[(&str, &str)],
) -> assert_cmd::assert::Assert {
    let mut cmd = lab();
    for v in SCHEDULER_VARS {
        cmd.env_remove(v);
    }
    cmd.envs(env.iter().copied());
    cmd.arg("compare")
        .args(plan)
        .args(extra)
        .arg("--out")
        .arg(out);
    cmd.assert()
}

fn merge(dirs: &[&Path], out: &Path) -> assert_cmd::assert::Assert {
    lab()
        .args(["report", "merge"])
        .args(dirs)
        .arg("--out")
        .arg(out)
        .assert()
}

/// The columns that hold times (they vary from run to run); every other
/// column must be equal. Found by name, so columns added later are compared.
fn is_time_column(name: &str) -> bool {
    name.starts_with("time")
        || name.starts_with("wall")
        || name.starts_with("outliers")
        || name == "runs"
        || name == "samples"
}

/// results.csv as (header, rows), the time columns left out.
fn without_times(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| !is_time_column(&header[i]))
        .collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            keep.iter().map(|&i| rec[i].to_string()).collect()
        })
        .collect();
    (keep.iter().map(|&i| header[i].clone()).collect(), rows)
}

fn meta(dir: &Path) -> Vec<(String, String)> {
    let mut r = csv::Reader::from_path(dir.join("meta.csv")).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[0].to_string(), rec[1].to_string())
        })
        .collect()
}

fn get(meta: &[(String, String)], key: &str) -> Option<String> {
    meta.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
}

/// Runs the plan's N shards into `root/s0..`, returns their folders.
fn shards(root: &Path, plan: &[String], n: u64) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let dir = root.join(format!("s{k}"));
            compare(&dir, plan, &["--shard", &format!("{k}/{n}")], &[]).success();
            dir
        })
        .collect()
}

fn refused(dirs: &[&Path], out: &Path, expect: &[&str]) {
    let a = merge(dirs, out).code(i32::from(EXIT_USAGE));
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    for e in expect {
        assert!(err.contains(e), "expected {e:?} in: {err}");
    }
    assert!(
        !out.join("results.csv").exists(),
        "a refused merge wrote {}",
        out.display()
    );
}

#[test]
fn merged_shards_equal_the_single_run_but_for_the_times() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = plan();
    let single = tmp.path().join("single");
    compare(&single, &plan, &[], &[]).success();
    let dirs = shards(tmp.path(), &plan, 3);
    // Each shard holds its round-robin share: 14 puzzles → 5, 5, 4.
    let strategies = sudoku_lab::Strategy::ladder().len();
    for (k, d) in dirs.iter().enumerate() {
        let (_, rows) = without_times(&d.join("results.csv"));
        assert_eq!(rows.len(), [5, 5, 4][k] * strategies, "shard {k}");
        let m = meta(d);
        assert_eq!(get(&m, "shard").as_deref(), Some(format!("{k}/3").as_str()));
        assert_eq!(get(&m, "shard_from"), Some(format!("--shard {k}/3")));
        // The plan fingerprint, and the machine.
        assert_eq!(get(&m, "plan"), get(&meta(&single), "plan"));
        for key in [
            "plan_datasets",
            "plan_strategies",
            "plan_budget",
            "plan_limit",
            "plan_sample",
            "plan_timing",
            "plan_version",
            "plan_commit",
            "host",
            "cpu",
            "load",
            "pace",
            "busy",
        ] {
            assert!(get(&m, key).is_some_and(|v| !v.is_empty()), "{key} missing");
        }
    }
    let merged = tmp.path().join("merged");
    // In any order.
    let a = merge(&[&dirs[2], &dirs[0], &dirs[1]], &merged).success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(out.contains("merged 3 shards"), "{out}");
    let (h1, r1) = without_times(&single.join("results.csv"));
    let (h2, r2) = without_times(&merged.join("results.csv"));
    assert_eq!(h1, h2);
    assert_eq!(r1.len(), 14 * strategies);
    assert_eq!(r1, r2);
    // Every raw sample line of the single run is in the merge, in its order.
    let sample_keys = |d: &Path| -> Vec<String> {
        let text = fs::read_to_string(d.join("samples.csv")).unwrap();
        text.lines()
            .map(|l| l.splitn(4, ',').take(3).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(sample_keys(&single), sample_keys(&merged));
    assert!(sample_keys(&merged).len() > 14, "a line per timed row");
    // The whole header (time columns included) is the single run's.
    let first_line = |p: &Path| {
        fs::read_to_string(p)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        first_line(&single.join("results.csv")),
        first_line(&merged.join("results.csv"))
    );
    // The report lists the shards and their machines.
    let readme = fs::read_to_string(merged.join("README.md")).unwrap();
    assert!(readme.contains("## Shards and machines"));
    let m = meta(&merged);
    assert_eq!(get(&m, "shard"), None);
    let listed: serde_json::Value = serde_json::from_str(&get(&m, "shards").unwrap()).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    assert_eq!(listed[1]["shard"], "1/3");
    // `report DIR` redraws a merged report byte for byte.
    let before = snapshot(&merged);
    lab().arg("report").arg(&merged).assert().success();
    assert_eq!(before, snapshot(&merged));

    // A sampled plan splits its sample.
    let mut sampled = plan.clone();
    sampled.extend(["--sample", "5", "--seed", "7"].map(String::from));
    let single = tmp.path().join("sampled-single");
    compare(&single, &sampled, &[], &[]).success();
    let root = tmp.path().join("sampled");
    let dirs = shards(&root, &sampled, 4);
    let merged = tmp.path().join("sampled-merged");
    let refs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    merge(&refs, &merged).success();
    let (_, r1) = without_times(&single.join("results.csv"));
    assert_eq!(r1.len(), 10 * strategies);
    assert_eq!(r1, without_times(&merged.join("results.csv")).1);
}

#[test]
fn every_refusal_of_the_merge_is_named_and_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let plan = plan();
    let s = shards(root, &plan, 3);
    let out = root.join("merged");
    // Missing shards, listed.
    refused(&[&s[0]], &out, &["missing shards 1/3, 2/3 of 3"]);
    // A folder given twice.
    let again = s[1].join(".");
    refused(&[&s[0], &s[1], &again, &s[2]], &out, &["given twice"]);
    // A duplicated shard: a copy of shard 1 in another folder.
    let copy = root.join("s1-copy");
    fs::create_dir(&copy).unwrap();
    for f in ["meta.csv", "results.csv"] {
        fs::copy(s[1].join(f), copy.join(f)).unwrap();
    }
    refused(
        &[&s[0], &s[1], &copy, &s[2]],
        &out,
        &["duplicated shard 1/3", "s1-copy"],
    );
    // Mixed plans: shard 2 of another budget, the difference named.
    let mut other = plan.clone();
    let b = other.iter().position(|a| a == "200000").unwrap();
    other[b] = "100000".to_string();
    let foreign = root.join("foreign");
    compare(&foreign, &other, &["--shard", "2/3"], &[]).success();
    refused(
        &[&s[0], &s[1], &foreign],
        &out,
        &["mixed plans", "foreign", "plan_budget: 200000 vs 100000"],
    );
    // Another shard count.
    let two = root.join("two");
    compare(&two, &plan, &["--shard", "1/2"], &[]).success();
    refused(&[&s[0], &two, &s[2]], &out, &["mixed shard counts", "two"]);
    // A shard's samples.csv short of its last line: refused, the row named.
    let cut = root.join("s2-cut");
    fs::create_dir(&cut).unwrap();
    for f in ["meta.csv", "results.csv", "samples.csv"] {
        fs::copy(s[2].join(f), cut.join(f)).unwrap();
    }
    let text = fs::read_to_string(cut.join("samples.csv")).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    fs::write(
        cut.join("samples.csv"),
        kept[..kept.len() - 1].join("\n") + "\n",
    )
    .unwrap();
    refused(
        &[&s[0], &s[1], &cut],
        &out,
        &[
            "no line in the shards' samples.csv for",
            "rerun its shard alone",
        ],
    );
    // Not a shard: a run without --shard.
    let single = root.join("single");
    compare(&single, &plan, &[], &[]).success();
    refused(&[&s[0], &s[1], &single], &out, &["single", "not a shard"]);
    // Incomplete: a results.csv cut short (a copy that stopped halfway).
    let cut = root.join("cut");
    fs::create_dir(&cut).unwrap();
    fs::copy(s[2].join("meta.csv"), cut.join("meta.csv")).unwrap();
    let text = fs::read_to_string(s[2].join("results.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let strategies = sudoku_lab::Strategy::ladder().len();
    let whole = lines[..lines.len() - strategies].join("\n") + "\n";
    fs::write(cut.join("results.csv"), &whole).unwrap();
    refused(
        &[&s[0], &s[1], &cut],
        &out,
        &[
            "cut",
            "incomplete shard 2/3",
            "holds 3 puzzles, its share of the plan is 4",
        ],
    );
    // ... or a puzzle missing a strategy's row.
    let half = lines[..lines.len() - 1].join("\n") + "\n";
    fs::write(cut.join("results.csv"), &half).unwrap();
    refused(
        &[&s[0], &s[1], &cut],
        &out,
        &["cut", "incomplete shard 2/3", "where the plan runs"],
    );
    // A shard that died: only its staging folder.
    let died = root.join("died");
    fs::create_dir_all(died.join(".sudoku-lab.partial-1-0")).unwrap();
    refused(
        &[&s[0], &s[1], &died],
        &out,
        &["died", "incomplete shard", "staging folder"],
    );
    // A folder that does not exist.
    let none = root.join("none");
    refused(&[&s[0], &s[1], &none], &out, &["none", "no such folder"]);
    // --out one of the shards.
    let before = snapshot(&s[1]);
    let a = merge(&[&s[0], &s[1], &s[2]], &s[1]).code(i32::from(EXIT_USAGE));
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("is one of the shard folders"), "{err}");
    assert_eq!(before, snapshot(&s[1]));
    // With the real shard 2 the merge goes through.
    merge(&[&s[0], &s[1], &s[2]], &out).success();
}

#[test]
fn shard_auto_reads_the_schedulers_and_refuses_without_one() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let plan = plan();
    let auto = ["--shard", "auto"];
    // Slurm array task 1 of 3 (--array=0-2).
    let slurm = root.join("slurm");
    compare(
        &slurm,
        &plan,
        &auto,
        &[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
        ],
    )
    .success();
    // Kubernetes Indexed Job, index 0 of 3 completions.
    let k8s = root.join("k8s");
    compare(
        &k8s,
        &plan,
        &["--shard", "auto", "--shards", "3"],
        &[("JOB_COMPLETION_INDEX", "0")],
    )
    .success();
    // GNU parallel's third job.
    let gnu = root.join("parallel");
    compare(
        &gnu,
        &plan,
        &["--shard", "auto", "--shards", "3"],
        &[("PARALLEL_SEQ", "3"), ("PARALLEL_JOBSLOT", "1")],
    )
    .success();
    for (dir, shard, from) in [
        (
            &slurm,
            "1/3",
            "SLURM_ARRAY_TASK_ID=1, SLURM_ARRAY_TASK_COUNT=3",
        ),
        (&k8s, "0/3", "JOB_COMPLETION_INDEX=0, --shards 3"),
        (&gnu, "2/3", "PARALLEL_SEQ=3, --shards 3"),
    ] {
        let m = meta(dir);
        assert_eq!(get(&m, "shard").as_deref(), Some(shard));
        assert_eq!(get(&m, "shard_from").as_deref(), Some(from));
    }
    // Shards from three schedulers are shards of one plan.
    let merged = root.join("merged");
    merge(&[&slurm, &k8s, &gnu], &merged).success();
    let single = root.join("single");
    compare(&single, &plan, &[], &[]).success();
    assert_eq!(
        without_times(&single.join("results.csv")),
        without_times(&merged.join("results.csv"))
    );

    // Refusals, each before anything is measured or written.
    let bad = root.join("bad");
    // (flags, environment, what the error says)
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
    let cases: Vec<Case> = vec![
        (auto.to_vec(), vec![], "no scheduler's shard index is set"),
        (
            vec!["--shard", "auto"],
            vec![("JOB_COMPLETION_INDEX", "1")],
            "add --shards N",
        ),
        (
            vec!["--shard", "auto", "--shards", "3"],
            vec![("JOB_COMPLETION_INDEX", "1"), ("PARALLEL_SEQ", "2")],
            "several schedulers",
        ),
        (
            vec!["--shard", "auto", "--shards", "4"],
            vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ],
            "SLURM_ARRAY_TASK_COUNT=3 says 3 shards, --shards says 4",
        ),
        (
            vec!["--shard", "3/3"],
            vec![],
            "the index must be below the count",
        ),
        (vec!["--shard", "1-3"], vec![], "expected K/N"),
        (
            vec!["--shard", "19/20"],
            vec![],
            "this one would measure nothing",
        ),
        (vec!["--shards", "3"], vec![], "--shard"),
    ];
    for (args, env, expect) in cases {
        let a = compare(&bad, &plan, &args, &env).code(i32::from(EXIT_USAGE));
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(
            err.contains(expect),
            "{args:?} {env:?}: expected {expect:?} in {err}"
        );
        assert!(!bad.join("results.csv").exists());
    }
}

#[test]
fn a_dead_shard_is_rerun_alone_and_a_resubmitted_one_is_harmless() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // Timed long enough (30 ms per task) that the run is surely still
    // measuring when the test sees its staging folder and kills it.
    let mut plan = plan();
    let t = plan.iter().position(|a| a == "--min-time").unwrap();
    plan[t + 1] = "30".to_string();
    let s0 = root.join("s0");
    compare(&s0, &plan, &["--shard", "0/2"], &[]).success();
    let s1 = root.join("s1");
    let mut cmd = std::process::Command::new(bin());
    for v in SCHEDULER_VARS {
        cmd.env_remove(v);
    }
    let mut child = cmd
        .env_remove("SUDOKU_LAB_DATASETS")
        .arg("compare")
        .args(&plan)
        .args(["--shard", "1/2", "--out"])
        .arg(&s1)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let killed = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Err(status);
        }
        if s1.is_dir() && !staging_folders(&s1).is_empty() {
            child.kill().unwrap();
            child.wait().unwrap();
            break Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert!(
        killed.is_ok(),
        "the shard ended before it could be killed: {killed:?}"
    );
    let merged = root.join("merged");
    refused(
        &[&s0, &s1],
        &merged,
        &["s1", "incomplete shard", "staging folder"],
    );
    // Rerun alone: the leftover is cleared, the merge goes through.
    compare(&s1, &plan, &["--shard", "1/2"], &[]).success();
    assert!(staging_folders(&s1).is_empty());
    merge(&[&s0, &s1], &merged).success();
    let first = without_times(&merged.join("results.csv"));

    // Resubmitted after it finished: nothing measured, nothing changed.
    let before = snapshot(&s0);
    let a = compare(&s0, &plan, &["--shard", "0/2"], &[]).success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("already complete"), "{err}");
    assert_eq!(before, snapshot(&s0));
    // --rerun measures again; the merge is the same but for the times.
    let a = compare(&s0, &plan, &["--shard", "0/2", "--rerun"], &[]).success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    assert!(
        out.contains("report:"),
        "the rerun measured and wrote a report: {out}"
    );
    merge(&[&s0, &s1], &merged).success();
    assert_eq!(first, without_times(&merged.join("results.csv")));
    // A shard of another plan in the folder is not "complete": measured.
    let mut other = plan.clone();
    let b = other.iter().position(|a| a == "200000").unwrap();
    other[b] = "150000".to_string();
    let a = compare(&s0, &other, &["--shard", "0/2"], &[]).success();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(!err.contains("already complete"), "{err}");
    assert_eq!(get(&meta(&s0), "plan_budget").as_deref(), Some("150000"));
}

/// `report merge` prints its summary like every command: into a closed pipe
/// it ends quietly with success, onto a full disk it fails with exit 74;
/// either way the merged report is written first.
#[test]
fn merge_output_into_a_closed_pipe_or_a_full_disk() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: this system has no /dev/full");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut plan = plan();
    plan.extend(["--strategy", "mrv"].map(String::from));
    let s = shards(tmp.path(), &plan, 2);
    for (k, full) in [false, true].into_iter().enumerate() {
        let out = tmp.path().join(format!("merged-{k}"));
        let mut cmd = std::process::Command::new(bin());
        cmd.args(["report", "merge"])
            .args(&s)
            .arg("--out")
            .arg(&out);
        if full {
            cmd.stdout(fs::File::options().write(true).open("/dev/full").unwrap());
        } else {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            cmd.stdout(writer);
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!err.contains("panicked"), "{err}");
        if full {
            assert_eq!(
                o.status.code(),
                Some(i32::from(sudoku_lab::EXIT_IO)),
                "{err}"
            );
            assert!(err.contains("cannot write to standard output"), "{err}");
        } else {
            assert_eq!(o.status.code(), Some(0), "{err}");
            assert!(!err.contains("error:"), "{err}");
        }
        assert!(out.join("README.md").is_file());
    }
}

// ---------------------------------------------------------------------------
// Issue 59: shards and files you can trust.
// ---------------------------------------------------------------------------

/// Case 1: a task resubmitted alone (`sbatch --array=1`: Slurm says one
/// task, MIN = MAX = 1) is refused without `--shards`, saying how to name
/// the count, and with it measures exactly shard 1 of N, not the whole plan.
#[test]
fn a_resubmitted_slurm_task_measures_its_own_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let plan = plan();
    let resubmitted = [
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "1"),
    ];
    let alone = root.join("alone");
    let a = compare(&alone, &plan, &["--shard", "auto"], &resubmitted).code(i32::from(EXIT_USAGE));
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("only task of its array") && err.contains("add --shards N"),
        "{err}"
    );
    assert!(!alone.join("results.csv").exists());
    compare(
        &alone,
        &plan,
        &["--shard", "auto", "--shards", "3"],
        &resubmitted,
    )
    .success();
    let named = root.join("named");
    compare(&named, &plan, &["--shard", "1/3"], &[]).success();
    let m = meta(&alone);
    assert_eq!(get(&m, "shard").as_deref(), Some("1/3"));
    // 14 puzzles dealt over 3 shards: shard 1 holds puzzles 1, 4, 7, 10, 13.
    assert_eq!(get(&m, "shard_puzzles").as_deref(), Some("5"));
    assert_eq!(
        without_times(&alone.join("results.csv")),
        without_times(&named.join("results.csv"))
    );
}

/// Case 2: the plan names the build, read when the binary was built: the
/// same binary gives the same plan with git on PATH or not (on main, no git
/// at run time gave `plan_commit,unknown`), and a shard of another build
/// (other sources: `plan_sources`) is refused at merge, naming both.
#[test]
fn the_plan_names_the_build_and_a_changed_build_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut plan = plan();
    plan.extend(["--strategy", "mrv"].map(String::from));
    let s = shards(root, &plan, 2);
    // Shard 1 again, from another folder, with no git anywhere on PATH.
    let bare = root.join("bare");
    let mut cmd = lab();
    for v in SCHEDULER_VARS {
        cmd.env_remove(v);
    }
    cmd.env("PATH", root.join("no-such-folder"))
        .current_dir(root)
        .arg("compare")
        .args(&plan)
        .args(["--shard", "1/2", "--out"])
        .arg(&bare)
        .assert()
        .success();
    let (m0, mb) = (meta(&s[0]), meta(&bare));
    for key in ["plan", "plan_commit", "plan_sources"] {
        assert_eq!(get(&m0, key), get(&mb, key), "{key}");
    }
    let sources = get(&m0, "plan_sources").unwrap();
    assert_eq!(sources.len(), 64, "a SHA-256: {sources}");
    assert!(sources.bytes().all(|b| b.is_ascii_hexdigit()), "{sources}");
    assert!(!get(&m0, "plan_commit").unwrap().is_empty());
    merge(&[&s[0], &bare], &root.join("merged")).success();
    // Shard 1 of a build of other sources (its meta.csv as that build writes it).
    let other = root.join("other-build");
    fs::create_dir(&other).unwrap();
    fs::copy(s[1].join("results.csv"), other.join("results.csv")).unwrap();
    let text = fs::read_to_string(s[1].join("meta.csv")).unwrap();
    let changed = "0".repeat(64);
    fs::write(
        other.join("meta.csv"),
        text.replace(&sources, &changed)
            .replace(&get(&m0, "plan").unwrap(), "0123456789abcdef"),
    )
    .unwrap();
    refused(
        &[&s[0], &other],
        &root.join("merged2"),
        &[
            "mixed plans",
            &s[0].display().to_string(),
            "other-build",
            &format!("plan_sources: {sources} vs {changed}"),
        ],
    );
}

/// A folder of someone's: a `key,value` meta.csv, their results.csv,
/// README.md and thesis.tex, and a programs.csv of theirs.
fn users_folder(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("meta.csv"), "key,value\nauthor,me\n").unwrap();
    fs::write(dir.join("results.csv"), "my,results\n1,2\n").unwrap();
    fs::write(dir.join("README.md"), "my notes\n").unwrap();
    fs::write(dir.join("thesis.tex"), "\\begin{document}\n").unwrap();
    fs::write(dir.join("programs.csv"), "mine\n").unwrap();
    snapshot(dir)
}

/// Cases 3 and 4: every writer of a report folder (`compare --out`,
/// `report merge --out`, `report DIR`) refuses a folder the lab did not
/// make, though it holds a meta.csv, and leaves it as it was; `--force`
/// writes the report into it and removes no file the lab did not write.
#[test]
fn no_writer_takes_a_folder_the_lab_did_not_make() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut plan = plan();
    plan.extend(["--strategy", "mrv"].map(String::from));
    let s = shards(root, &plan, 2);
    let theirs = root.join("theirs");
    let before = users_folder(&theirs);
    let expect = "and no .sudoku-lab-files (the list of its files the lab writes into every report folder it makes), so the lab did not make it";
    let check = |a: assert_cmd::assert::Assert| {
        let err = String::from_utf8_lossy(&a.code(i32::from(EXIT_USAGE)).get_output().stderr)
            .into_owned();
        assert!(err.contains(expect) && err.contains("--force"), "{err}");
        assert_eq!(snapshot(&theirs), before, "the user's files are untouched");
    };
    check(merge(&[&s[0], &s[1]], &theirs));
    check(compare(&theirs, &plan, &[], &[]));
    check(lab().arg("report").arg(&theirs).assert());
    // --force: the report is written; their other files stay, even one
    // named as a report file the run does not write.
    lab()
        .args(["report", "merge"])
        .args(&s)
        .arg("--out")
        .arg(&theirs)
        .arg("--force")
        .assert()
        .success();
    assert_eq!(
        fs::read(theirs.join("thesis.tex")).unwrap(),
        b"\\begin{document}\n"
    );
    assert_eq!(fs::read(theirs.join("programs.csv")).unwrap(), b"mine\n");
    assert!(theirs.join(".sudoku-lab-files").is_file());
    // Now the lab made it: the next writers need no --force, and still
    // leave the files that are not the lab's.
    merge(&[&s[0], &s[1]], &theirs).success();
    compare(&theirs, &plan, &[], &[]).success();
    lab().arg("report").arg(&theirs).assert().success();
    assert_eq!(
        fs::read(theirs.join("thesis.tex")).unwrap(),
        b"\\begin{document}\n"
    );
    assert_eq!(fs::read(theirs.join("programs.csv")).unwrap(), b"mine\n");
}

/// Case 5: `report`, `report merge` and `diff` read rows alike: a second
/// row of one (dataset, index, strategy), an unknown outcome, an impossible
/// size, runs 0, a negative time and an overflowing count are each refused
/// (exit 2) naming file, line and column, and what is wrong.
#[test]
fn report_merge_and_diff_refuse_the_same_bad_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut plan = plan();
    plan.extend(["--strategy", "mrv"].map(String::from));
    let s = shards(root, &plan, 2);
    let text = fs::read_to_string(s[1].join("results.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // Line 3 (the second row) with `name` set to `value`.
    let edit = |name: &str, value: &str| {
        let mut rows: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let mut f: Vec<String> = rows[2].split(',').map(str::to_string).collect();
        f[col(name)] = value.to_string();
        rows[2] = f.join(",");
        rows.join("\n") + "\n"
    };
    let doubled = {
        let mut rows: Vec<&str> = vec![lines[0]];
        for l in &lines[1..] {
            rows.extend([*l, *l]);
        }
        rows.join("\n") + "\n"
    };
    let at = |name: &str| format!("results.csv:3: column {} ({name}): ", col(name) + 1);
    let cases: Vec<(String, String)> = vec![
        (
            doubled,
            format!(
                "results.csv:3: column {} (strategy): a second row of puzzle",
                col("strategy") + 1
            ),
        ),
        (
            edit("outcome", "exploded"),
            at("outcome") + "unknown outcome \"exploded\"",
        ),
        (edit("size", "7"), at("size") + "impossible size 7"),
        (edit("runs", "0"), at("runs") + "0 runs"),
        (edit("time_ns", "-5"), at("time_ns") + "\"-5\" is negative"),
        (
            edit("nodes", "12345678901234567890123456"),
            at("nodes") + "\"12345678901234567890123456\" is too large",
        ),
    ];
    for (k, (bad, expect)) in cases.iter().enumerate() {
        let dir = root.join(format!("bad{k}"));
        fs::create_dir(&dir).unwrap();
        fs::copy(s[1].join("meta.csv"), dir.join("meta.csv")).unwrap();
        fs::write(dir.join("results.csv"), bad).unwrap();
        let runs: [(&str, assert_cmd::assert::Assert); 3] = [
            (
                "report",
                lab().arg("report").arg(&dir).arg("--force").assert(),
            ),
            ("diff", lab().arg("diff").arg(&s[1]).arg(&dir).assert()),
            (
                "merge",
                merge(&[&s[0], &dir], &root.join(format!("merged{k}"))),
            ),
        ];
        for (what, a) in runs {
            let err = String::from_utf8_lossy(&a.code(i32::from(EXIT_USAGE)).get_output().stderr)
                .into_owned();
            let want = format!("{}/{expect}", dir.display());
            assert!(err.contains(&want), "{what}: expected {want:?} in: {err}");
        }
    }
}
