//! The Python bindings' tests (`python/tests/`, issue 26), run by `cargo test` so that the
//! README's one test command covers them: pytest from the virtual environment `.ci/run`
//! makes (`target/python-venv`, the wheel installed in it). Without that environment the
//! test is skipped with a note, except under CI (`$CI` set), where it fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// pytest is stopped (and the test failed) after this long: a hung game cannot hang CI.
const LIMIT: Duration = Duration::from_secs(600);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn venv_python() -> PathBuf {
    let venv = std::env::var_os("BOARDSCRIPT_PYTHON_VENV")
        .map_or_else(|| root().join("target/python-venv"), PathBuf::from);
    match cfg!(windows) {
        true => venv.join("Scripts/python.exe"),
        false => venv.join("bin/python"),
    }
}

#[test]
fn python_tests_pass() {
    let python = venv_python();
    let installed = python.is_file()
        && Command::new(&python)
            .args(["-c", "import boardscript, pytest"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    if !installed {
        let why = format!(
            "no Python environment with boardscript and pytest at {} (.ci/run makes it: \
             python3 -m venv target/python-venv, pip install maturin pytest, \
             pip install --no-build-isolation ./python)",
            python.display()
        );
        if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
            panic!("{why}");
        }
        println!("skipped: {why}");
        return;
    }
    let mut pytest = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .current_dir(root())
        .env("BOARDSCRIPT_BIN", env!("CARGO_BIN_EXE_boardscript"))
        .env_remove("BOARDSCRIPT_SCRIPTS")
        .spawn()
        .expect("pytest starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = pytest.try_wait().expect("pytest runs") {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = pytest.kill();
            panic!("pytest still running after {LIMIT:?}: stopped");
        }
        sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "pytest failed: {status}");
}
