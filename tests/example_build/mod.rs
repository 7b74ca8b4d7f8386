//! Building an example from inside a test, without undoing the build that
//! runs the test.

use std::path::Path;
use std::process::Command;

/// Builds example `name` with this test's cargo and profile (`--release`
/// when the test is a release build), in the project at `root`.
///
/// Cargo gives a test the package's variables (`CARGO_MANIFEST_DIR`,
/// `CARGO_PKG_NAME`, ...). Build scripts that track them (ring's tracks
/// `CARGO_MANIFEST_DIR`) would see a change from the outer `cargo test` and
/// rebuild ring, rustls, ureq and the lab (about two minutes of release
/// build), and again at the developer's next build: the nested cargo gets
/// the environment the outer one had.
pub fn build_example(root: &Path, name: &str) -> Result<(), String> {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--quiet", "--example", name]);
    if !cfg!(debug_assertions) {
        cargo.arg("--release");
    }
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let set_by_cargo_for_the_test = [
            "CARGO_PKG_",
            "CARGO_MANIFEST_",
            "CARGO_BIN_",
            "CARGO_CRATE_",
        ]
        .iter()
        .any(|p| key.starts_with(p))
            || ["CARGO_PRIMARY_PACKAGE", "CARGO_TARGET_TMPDIR", "OUT_DIR"].contains(&&*key);
        if set_by_cargo_for_the_test {
            cargo.env_remove(&*key);
        }
    }
    let status = cargo
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo to build example {name}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo could not build example {name}"))
    }
}
