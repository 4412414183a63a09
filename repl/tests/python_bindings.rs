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
    let repl = Path::new(env!("CARGO_MANIFEST_DIR"));
    repl.parent().unwrap_or(repl).to_path_buf()
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
    if let Some(newer) = newer_than_wheel(&python) {
        println!(
            "note: {} changed after the installed wheel was built: these tests run the old \
             bindings until `pip install --no-build-isolation ./python` runs again",
            newer.display()
        );
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

/// A source of the bindings (theirs or the engine's) changed after the installed wheel was
/// built, if one did: a reminder, since `cargo test` does not rebuild the wheel.
fn newer_than_wheel(python: &Path) -> Option<PathBuf> {
    let out = Command::new(python)
        .args([
            "-c",
            "import boardscript._boardscript as m; print(m.__file__)",
        ])
        .output()
        .ok()?;
    let built = std::fs::metadata(String::from_utf8(out.stdout).ok()?.trim())
        .and_then(|m| m.modified())
        .ok()?;
    let mut folders: Vec<PathBuf> = ["python/src", "python/boardscript", "interpreter/src"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).ok()?.flatten() {
            let path = entry.path();
            let meta = entry.metadata().ok()?;
            if meta.is_dir() {
                folders.push(path);
            } else if meta.modified().is_ok_and(|m| m > built) {
                return Some(path);
            }
        }
    }
    None
}
