//! Hostile and careless manifests (issue 9, items 2, 3, 13, 17, 18): each is refused at load
//! with one `error:` line (status 2) by `play`, `sim` and `check`, shown as broken by `list`
//! beside the games that still work, and never crashes or hangs the process.

mod common;

use common::boardscript;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Longer than any of these runs takes; a run past it is a hang (the child is killed).
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// A small correct game: one action, then over.
const RULES: &str = r#"
fn setup(g) {}
fn legal_actions(g, seat) { if g.counter("n") < 1 { ["go"] } else { [] } }
fn apply(g, seat, action) { g.add_counter("n", 1); }
fn winners(g) { [] }
"#;

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `boardscript ARGS --scripts ROOT` with `input` on stdin, killed after `TIME_LIMIT`.
fn run(root: &Path, args: &[&str], input: &str) -> Run {
    let mut child = boardscript(root, "", args, Stdio::piped())
        .spawn()
        .expect("start boardscript");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = r.read_to_string(&mut text);
            text
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            panic!("`boardscript {}` hung", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Writes game `id` under `root`: its manifest and the small correct rules.
fn game(root: &Path, id: &str, manifest: &str) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.toml"), manifest).unwrap();
    std::fs::write(dir.join("rules.rhai"), RULES).unwrap();
}

/// A refusal at start: status 2, nothing on stdout, one `error:` line holding `needle`.
fn assert_refused(r: &Run, needle: &str) {
    assert_eq!(r.status.code(), Some(2), "stderr: {}", r.stderr);
    assert_eq!(r.stdout, "", "stderr: {}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {}", r.stderr);
    assert!(lines[0].starts_with("error: "), "{}", r.stderr);
    assert!(lines[0].contains(needle), "`{needle}` in: {}", r.stderr);
}

/// `list` ran, showed `ok` as a working game and each of `broken` as broken with `needle`.
fn assert_listed(root: &Path, broken: &[&str], needle: &str) {
    let r = run(root, &["list"], "");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("ok  A fine game\n"), "{}", r.stdout);
    for id in broken {
        let line = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{id}  ")))
            .unwrap_or_else(|| panic!("`{id}` not listed:\n{}", r.stdout));
        assert!(line.contains("(broken: "), "{line}");
        assert!(line.contains(needle), "`{needle}` in {line}");
    }
    assert!(!r.stdout.contains('\u{1b}'), "a control character printed");
}

fn folder_with_a_fine_game() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    game(root.path(), "ok", "title = \"A fine game\"\n");
    root
}

/// Item 2: a base that is the game itself, or a cycle through two manifests, used to
/// overflow the stack and kill every command on the folder.
#[test]
fn base_cycles_are_load_errors_and_list_still_lists_the_rest() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    game(r, "selfish", "base = \"selfish\"\n");
    game(r, "ping", "base = \"pong\"\n");
    game(r, "pong", "base = \"ping\"\n");
    assert_refused(
        &run(r, &["play", "selfish"], ""),
        "base cycle: selfish -> selfish",
    );
    assert_refused(
        &run(r, &["play", "ping", "--json"], ""),
        "base cycle: ping -> pong -> ping",
    );
    assert_refused(
        &run(r, &["sim", "pong", "--games", "2", "--quiet"], ""),
        "base cycle",
    );
    assert_refused(
        &run(r, &["check", "selfish", "--games", "1"], ""),
        "base cycle",
    );
    assert_listed(r, &["selfish", "ping", "pong"], "base cycle");
    // The working game still plays.
    let ok = run(r, &["play", "ok", "--json"], "do go\nquit\n");
    assert!(ok.status.success(), "{}", ok.stderr);
    let reply: serde_json::Value =
        serde_json::from_str(ok.stdout.lines().next().unwrap()).expect("a JSON reply");
    assert_eq!(reply["ok"], true, "{}", ok.stdout);
}

/// Item 3: `[seats] min = 0, max = 0` made `play` panic (status 101).
#[test]
fn nonsense_seats_are_load_errors_naming_the_manifest() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    let cases = [
        (
            "zero",
            "[seats]\nmin = 0\nmax = 0\n",
            "min must be at least 1",
        ),
        ("upside", "[seats]\nmin = 3\nmax = 2\n", "above max"),
        ("huge", "[seats]\nmin = 1\nmax = 1000000000\n", "above 64"),
        (
            "twins",
            "[seats]\nnames = [\"a\", \"a\"]\n",
            "two seats are named",
        ),
        ("blank", "[seats]\nnames = [\"\", \"b\"]\n", "empty"),
        (
            "spaced",
            "[seats]\nnames = [\"a b\", \"c\"]\n",
            "not a seat name",
        ),
    ];
    for (id, manifest, needle) in cases {
        game(r, id, manifest);
        let out = run(r, &["play", id, "--json"], "");
        assert_refused(&out, needle);
        assert!(out.stderr.contains("game.toml"), "{}", out.stderr);
    }
    assert_listed(
        r,
        &["zero", "upside", "huge", "twins", "blank", "spaced"],
        "seats",
    );
}

/// Item 13: a manifest could load any file as a script, and quote it in the error.
#[test]
fn scripts_load_only_from_inside_the_game_folder() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    std::fs::write(r.join("secret.rhai"), "SECRET-LINE\n").unwrap();
    let cases = [
        ("passwd", "/etc/passwd", "outside the game's folder"),
        ("zero", "/dev/zero", "outside the game's folder"),
        ("climb", "../secret.rhai", "outside the game's folder"),
        ("linked", "link.rhai", "outside the game's folder"),
        ("missing", "nowhere.rhai", "nowhere.rhai"),
        ("itself", ".", "not a regular file"),
    ];
    for (id, script, _) in cases {
        game(r, id, &format!("scripts = [\"{script}\"]\n"));
    }
    std::os::unix::fs::symlink(r.join("secret.rhai"), r.join("linked").join("link.rhai")).unwrap();
    for (id, _, needle) in cases {
        let out = run(r, &["play", id], "");
        assert_refused(&out, needle);
        assert!(!out.stderr.contains("SECRET") && !out.stderr.contains("root:"));
    }
    let ids: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_listed(r, &ids, "file");
}

/// Item 13: a script file past the size cap is refused without reading it all.
#[test]
fn a_script_over_the_size_cap_is_refused() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    game(r, "big", "");
    let big = std::fs::File::create(r.join("big").join("rules.rhai")).unwrap();
    big.set_len(5 << 20).unwrap();
    assert_refused(&run(r, &["play", "big"], ""), "larger than 4 MiB");
}

/// Item 18: manifests whose options break their own rules, and texts `list` would print raw.
#[test]
fn nonsense_options_and_texts_are_load_errors() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    let cases = [
        (
            "below",
            "[options.n]\ndefault = 0\nmin = 1\nmax = 3\n",
            "outside",
        ),
        (
            "crossed",
            "[options.n]\ndefault = 2\nmin = 3\nmax = 1\n",
            "above max",
        ),
        (
            "stray",
            "[options.c]\ndefault = \"z\"\nchoices = [\"x\", \"y\"]\n",
            "not among",
        ),
        (
            "twice",
            "[options.c]\ndefault = \"x\"\nchoices = [\"x\", \"x\"]\n",
            "twice",
        ),
        (
            "float",
            "[options.f]\ndefault = 2.5\n",
            "default is a string",
        ),
        (
            "escape",
            "title = \"red \\u001b[31m\"\n",
            "control character",
        ),
        (
            "about",
            "[options.n]\ndefault = 1\nabout = \"two\\nlines\"\n",
            "control",
        ),
    ];
    for (id, manifest, needle) in cases {
        game(r, id, manifest);
        assert_refused(&run(r, &["play", id], ""), needle);
    }
    let ids: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_listed(r, &ids, "game.toml");
}

/// Item 18: a value outside an option's declared choices is refused at start, listing them.
#[test]
fn option_values_are_checked_against_the_declared_choices() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("scripts");
    let out = run(
        &shipped,
        &["play", "virus-war-fr", "-o", "first_player=nobody"],
        "",
    );
    assert_refused(&out, "random, p1, p2");
    let out = run(&shipped, &["play", "cosmic-disaster", "-o", "owner=p9"], "");
    assert_refused(&out, "p1, p2, p3, p4");
    let out = run(
        &shipped,
        &["play", "virus-war-kr", "-o", "same_kind_damage=eleven"],
        "",
    );
    assert_refused(&out, "slot, 0, 1");
}

/// Item 17: what `legal_actions`, `to_decide`, `winners` and `accept` return is checked; the
/// client gets a refusal naming the function, and the process stays up.
#[test]
fn malformed_script_results_are_refused_naming_the_function() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    let two = "[seats]\nnames = [\"n\", \"s\"]\n";
    let rules = |body: &str| {
        format!(
            "fn setup(g) {{}}\nfn apply(g, seat, action) {{ g.add_counter(\"n\", 1); }}\n{body}\n"
        )
    };
    let cases = [
        (
            "newline",
            "fn legal_actions(g, s) { [\"a\\nb\"] }\nfn winners(g) { [] }",
            "actions",
            "`legal_actions` returned \"a\\nb\" for `n`",
        ),
        (
            "dupes",
            "fn legal_actions(g, s) { [\"x\", \"y\", \"x\"] }\nfn winners(g) { [] }",
            "actions",
            "`legal_actions` returned \"x\" twice",
        ),
        (
            "at",
            "fn legal_actions(g, s) { [\"@n\"] }\nfn winners(g) { [] }",
            "actions",
            "may not begin with `@`",
        ),
        (
            "double",
            "fn to_decide(g) { [\"n\", \"n\"] }\nfn legal_actions(g, s) { [\"go\"] }\nfn winners(g) { [] }",
            "do go",
            "`to_decide` returned seat `n` twice",
        ),
        (
            "winners",
            "fn legal_actions(g, s) { [] }\nfn winners(g) { [\"s\", \"s\"] }",
            "status",
            "`winners` returned seat `s` twice",
        ),
        (
            "accept",
            "fn legal_actions(g, s) { [\"go\"] }\nfn winners(g) { [] }\nfn accept(g, s, a) { \"bad  form\" }",
            "do other",
            "`accept` returned \"bad  form\"",
        ),
    ];
    for (id, body, command, needle) in cases {
        game(r, id, two);
        std::fs::write(r.join(id).join("rules.rhai"), rules(body)).unwrap();
        let out = run(r, &["play", id, "--json"], &format!("{command}\nstatus\n"));
        assert!(out.status.success(), "{id}: {}", out.stderr);
        let replies: Vec<serde_json::Value> = out
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON reply"))
            .collect();
        assert_eq!(replies.len(), 2, "{id}: {}", out.stdout);
        assert_eq!(replies[0]["ok"], false, "{id}: {}", out.stdout);
        let error = replies[0]["error"].as_str().unwrap_or_default();
        assert!(error.contains(needle), "{id}: `{needle}` in {error}");
    }
}

/// Rules with a declared phase `fight` (entered by the first action, with its own `apply`)
/// and a helper `card_apply(g, n)` that is no phase function.
const PHASED_RULES: &str = r#"fn setup(g) {}
fn legal_actions(g, seat) { if g.counter("n") < 3 { ["go"] } else { [] } }
fn apply(g, seat, action) { g.add_counter("n", 1); g.set_phase("PHASE"); }
fn fight_apply(g, seat, action) { g.add_counter("n", card_apply(g, 2)); }
fn card_apply(g, n) { n }
fn winners(g) { [] }
"#;

fn phased_game(root: &Path, id: &str, manifest: &str, phase: &str) {
    game(root, id, manifest);
    let rules = PHASED_RULES.replace("PHASE", phase);
    std::fs::write(root.join(id).join("rules.rhai"), rules).unwrap();
}

/// Issue 10 item 10: a helper named like a phase function (`card_apply(g, n)`) made the game
/// refuse to load, with no line; it is a helper unless `card` is a declared phase, and then
/// the error names its line. Phases are declared in `game.toml`, and a malformed list is a
/// load error.
#[test]
fn i10_phase_functions_are_those_of_declared_phases() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    phased_game(r, "helper", "phases = [\"fight\"]\n", "fight");
    let o = run(r, &["check", "helper", "--games", "2"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", o.stdout, o.stderr);
    phased_game(r, "carded", "phases = [\"fight\", \"card\"]\n", "fight");
    assert_refused(
        &run(r, &["play", "carded", "--json"], ""),
        "rules.rhai:5:1: `card_apply` stands in for `apply` while the phase is `card`",
    );
    for (manifest, why) in [
        ("phases = [\"fi ght\"]\n", "`fi ght` is not a phase name"),
        (
            "phases = [\"fight\", \"fight\"]\n",
            "`fight` is listed twice",
        ),
        ("phases = \"fight\"\n", "game.toml:1:"),
    ] {
        phased_game(r, "badlist", manifest, "fight");
        assert_refused(&run(r, &["check", "badlist", "--games", "1"], ""), why);
    }
}

/// Issue 10 item 10: a mistyped phase in `set_phase` silently fell back to the plain
/// functions; it is a script error at its line, listing the declared phases.
#[test]
fn i10_an_undeclared_phase_is_an_error_at_its_line() {
    let root = folder_with_a_fine_game();
    let r = root.path();
    phased_game(r, "typo", "phases = [\"fight\"]\n", "figt");
    let o = run(r, &["check", "typo", "--games", "1"], "");
    assert_eq!(o.status.code(), Some(1), "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout
            .contains("rules.rhai:3:54: in `apply`: no phase `figt`; phases: fight"),
        "{}",
        o.stdout
    );
}
