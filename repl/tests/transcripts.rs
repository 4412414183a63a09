//! Transcript tests: the plain REPL (`boardscript play ...` with stdin a pipe: no prompt, no
//! echo, errors on stderr as `error: ...`) fed commands from a file, its output compared with
//! what the file says.
//!
//! # Format of `tests/transcripts/<name>.txt`
//!
//! ```text
//! # args: play virus-wars --seed 3      optional; default `play virus-wars`
//! # A comment: any other `#` line at the very top (kept by BLESS).
//! # exit: 2                             optional; the exit status expected (default 0)
//! > show                                a command, sent to the program's stdin
//! 11  . . . . . . . . . . .             a line the command printed on stdout
//! ! error: ...                          a line the command printed on stderr (`! ` stripped)
//! ```
//!
//! `--scripts <repo>/scripts` is appended to the arguments, so the tests do not depend on the
//! working directory. Output lines between the header and the first `> ` are what the program
//! printed before reading any command (useful for start-up errors, or for `list`).
//!
//! Placeholders, replaced in the arguments and the commands, and put back in place of the real
//! paths in the output: `$TMP`, a fresh empty temporary folder, which is also the program's
//! working directory; `$SCRIPTS`, the scripts folder.
//!
//! # How output is matched to commands
//!
//! stdout and stderr are two pipes, so one run cannot tell how their lines interleave. The
//! harness therefore runs the program once per prefix of the commands: with none, with the
//! first, the first two, ..., all of them. What run k printed beyond run k-1 is command k's
//! output. Runs must be deterministic (fixed seeds), so each run's output must begin with the
//! previous run's; the harness checks that and fails otherwise. Every run gets its own `$TMP`,
//! so a file a command saves is only seen by later commands of the same run. A run takes a few
//! tens of milliseconds, so a transcript of 30 commands costs about a second.
//!
//! # Regenerating
//!
//! `BLESS=1 cargo test -p boardscript-repl --test transcripts` rewrites each file's expected
//! lines from the actual output, keeping the header and the commands; review the diff (the
//! Virus Wars transcripts follow the scenarios of the rules reference, section 7, so a changed
//! list of legal steps there is a rules bug, not something to bless). A transcript test marked
//! `#[ignore = "bug: ..."]` is blessed only with `-- --include-ignored`: do that only once the
//! bug is fixed.
//!
//! Every `.txt` file in the folder must be listed in `transcripts!` below (a test checks it).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

macro_rules! transcripts {
    ($($(#[$meta:meta])* $name:ident),* $(,)?) => {
        $(
            #[test]
            $(#[$meta])*
            fn $name() {
                check(stringify!($name));
            }
        )*
        const NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

transcripts! {
    help_and_unknown_commands,
    bare_actions_cosmic,
    opening_vw1,
    illegal_moves,
    undo_redo,
    bot_status_eval,
    game_over,
    save_load,
    options,
    blitz_variant,
    reload,
    quit_ends_input,
    positions_vw2_vw3,
    positions_vw4_vw6,
    position_flag,
    simultaneous_choices_kr,
}

const RUN_TIMEOUT: Duration = Duration::from_secs(60);

fn transcripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts")
}

fn scripts_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts");
    dir.canonicalize().unwrap_or(dir)
}

/// One command (None: before any) and the lines it printed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Step {
    input: Option<String>,
    stdout: Vec<String>,
    stderr: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Transcript {
    /// The leading `#` lines, `# exit:` excepted.
    header: Vec<String>,
    args: Vec<String>,
    exit: i32,
    /// `steps[0]` holds what was printed before the first command.
    steps: Vec<Step>,
}

impl Transcript {
    fn parse(text: &str) -> Transcript {
        let mut lines = text
            .lines()
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .peekable();
        let mut header = vec![];
        let mut args = "play virus-wars".to_string();
        let mut exit = 0;
        while let Some(line) = lines.next_if(|l| l.starts_with('#')) {
            if let Some(a) = line.strip_prefix("# args:") {
                args = a.trim().to_string();
            } else if let Some(e) = line.strip_prefix("# exit:") {
                exit = e.trim().parse().expect("`# exit:` wants a number");
                continue;
            }
            header.push(line.to_string());
        }
        let mut steps = vec![Step::default()];
        for line in lines {
            if let Some(input) = line.strip_prefix("> ").or((line == ">").then_some("")) {
                steps.push(Step {
                    input: Some(input.to_string()),
                    ..Step::default()
                });
            } else if let Some(err) = line.strip_prefix("! ").or((line == "!").then_some("")) {
                steps.last_mut().unwrap().stderr.push(err.to_string());
            } else {
                steps.last_mut().unwrap().stdout.push(line.to_string());
            }
        }
        Transcript {
            header,
            args: args.split_whitespace().map(String::from).collect(),
            exit,
            steps,
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for h in &self.header {
            out.push_str(h);
            out.push('\n');
        }
        if self.exit != 0 {
            out.push_str(&format!("# exit: {}\n", self.exit));
        }
        for step in &self.steps {
            if let Some(input) = &step.input {
                out.push_str(&prefixed(">", input));
            }
            for l in &step.stdout {
                out.push_str(l);
                out.push('\n');
            }
            for l in &step.stderr {
                out.push_str(&prefixed("!", l));
            }
        }
        out
    }

    fn inputs(&self) -> Vec<String> {
        self.steps.iter().filter_map(|s| s.input.clone()).collect()
    }
}

/// `> line` or `! line`; an empty line is the bare mark (editors drop trailing spaces).
fn prefixed(mark: &str, line: &str) -> String {
    if line.is_empty() {
        format!("{mark}\n")
    } else {
        format!("{mark} {line}\n")
    }
}

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// Runs the binary with `args` (placeholders replaced) and `inputs` on stdin, in a fresh $TMP.
fn run(args: &[String], inputs: &[String]) -> Run {
    let tmp = tempfile::tempdir().expect("temp dir");
    let tmp_path = tmp.path().display().to_string();
    let scripts = scripts_dir().display().to_string();
    let fill = |s: &str| s.replace("$TMP", &tmp_path).replace("$SCRIPTS", &scripts);
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardscript"))
        .args(args.iter().map(|a| fill(a)))
        .arg("--scripts")
        .arg(&scripts)
        .env_remove("BOARDSCRIPT_SCRIPTS")
        .env("NO_COLOR", "1")
        .current_dir(tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boardscript");
    let mut stdin = child.stdin.take().unwrap();
    let input: String = inputs.iter().map(|l| fill(l) + "\n").collect();
    // The program may stop reading (quit, a start-up error): a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for boardscript") {
            break status;
        }
        if start.elapsed() > RUN_TIMEOUT {
            let _ = child.kill();
            panic!("boardscript {args:?} did not finish within {RUN_TIMEOUT:?}; input {inputs:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    writer.join().unwrap();
    let unfill = |s: String| {
        s.replace(&tmp_path, "$TMP")
            .replace(&scripts, "$SCRIPTS")
            .replace("\r\n", "\n")
    };
    Run {
        stdout: unfill(out_reader.join().unwrap().expect("stdout is UTF-8")),
        stderr: unfill(err_reader.join().unwrap().expect("stderr is UTF-8")),
        code: status.code(),
    }
}

/// The lines of a stream's text: "" has none, "\n" one empty line.
fn lines_of(text: &str) -> Vec<String> {
    if text.is_empty() {
        return vec![];
    }
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.split('\n').map(String::from).collect()
}

/// What the file's commands actually produce, in the file's shape.
fn actual(expected: &Transcript) -> Transcript {
    let inputs = expected.inputs();
    let mut steps = vec![];
    let (mut prev_out, mut prev_err) = (String::new(), String::new());
    let mut code = None;
    for k in 0..=inputs.len() {
        let r = run(&expected.args, &inputs[..k]);
        let what = |stream: &str| {
            format!(
                "{stream} of the run with {k} command(s) does not begin with that of the run \
                 with {}: is the output deterministic?",
                k.saturating_sub(1)
            )
        };
        let out = r
            .stdout
            .strip_prefix(&prev_out)
            .unwrap_or_else(|| panic!("{}\n{}", what("stdout"), r.stdout));
        let err = r
            .stderr
            .strip_prefix(&prev_err)
            .unwrap_or_else(|| panic!("{}\n{}", what("stderr"), r.stderr));
        steps.push(Step {
            input: k.checked_sub(1).map(|i| inputs[i].clone()),
            stdout: lines_of(out),
            stderr: lines_of(err),
        });
        prev_out = r.stdout;
        prev_err = r.stderr;
        code = r.code;
    }
    Transcript {
        header: expected.header.clone(),
        args: expected.args.clone(),
        exit: code.unwrap_or(-1),
        steps,
    }
}

fn check(name: &str) {
    let path = transcripts_dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let expected = Transcript::parse(&text);
    let got = actual(&expected);
    let rendered = got.render();
    // The rendering must read back as itself, or the file would be ambiguous.
    let reparsed = Transcript::parse(&rendered);
    if reparsed.steps != got.steps || reparsed.exit != got.exit {
        panic!(
            "{name}: the output has a line that looks like a command, an stderr line or a \
             header (`> `, `! `, `#` first), so it cannot be written as a transcript:\n{rendered}"
        );
    }
    if std::env::var_os("BLESS").is_some_and(|v| v != "0") {
        if rendered != text {
            std::fs::write(&path, &rendered).expect("write transcript");
            eprintln!("blessed {}", path.display());
        }
        return;
    }
    if got != expected {
        let want = expected.render();
        let first = want
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| want.lines().count().min(rendered.lines().count()));
        panic!(
            "transcript {name} differs from line {} on (BLESS=1 regenerates it)\n\
             --- expected ({})\n{want}\n--- actual\n{rendered}",
            first + 1,
            path.display(),
        );
    }
}

#[test]
fn every_transcript_file_has_a_test() {
    let mut files: Vec<String> = std::fs::read_dir(transcripts_dir())
        .expect("tests/transcripts")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".txt").map(String::from)
        })
        .collect();
    files.sort();
    let mut names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(
        files, names,
        "files in tests/transcripts vs tests in transcripts!"
    );
}

#[test]
fn the_format_reads_back() {
    let text = "# args: play virus-wars --seed 3\n# a comment\n# exit: 2\nbefore\n> show\nline 1\n\n! error: x\n>\n> undo 2\n!\n";
    let t = Transcript::parse(text);
    assert_eq!(t.args, ["play", "virus-wars", "--seed", "3"]);
    assert_eq!(t.exit, 2);
    assert_eq!(
        t.header,
        ["# args: play virus-wars --seed 3", "# a comment"]
    );
    assert_eq!(t.inputs(), ["show", "", "undo 2"]);
    assert_eq!(t.steps[0].stdout, ["before"]);
    assert_eq!(t.steps[1].stdout, ["line 1", ""]);
    assert_eq!(t.steps[1].stderr, ["error: x"]);
    assert_eq!(t.steps[3].stderr, [""]);
    assert_eq!(t.render(), text);
    assert_eq!(lines_of(""), Vec::<String>::new());
    assert_eq!(lines_of("\n"), vec![String::new()]);
    assert_eq!(lines_of("a\nb\n"), ["a", "b"]);
}
