//! Helpers shared by the command-line tests.

use std::process::Command;

/// Runs the `isa-gen` binary: exit code, stdout, stderr.
pub fn isa_gen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_isa-gen"))
        .args(args)
        .output()
        .expect("run isa-gen");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
