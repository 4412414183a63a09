//! Issue 9, the protocol's promises under attack: a refused command changes nothing (game,
//! undo and redo history), files a client names are only regular files, saves never clobber
//! or land on a device, a seat-restricted client learns and does only what its seat may, and
//! the REPL keeps the secrets it promises. Each test names the item of the issue it pins.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A one-seat game whose `legal_actions` fails once `step` reaches `fail_at`.
fn fragile_game(dir: &std::path::Path, fail_at: i64) {
    write_game(
        dir,
        "fragile",
        "title = \"Fragile\"\n",
        &format!(
            r#"
fn setup(g) {{ }}
fn legal_actions(g, seat) {{
    if g.counter("step") >= {fail_at} {{ throw "cannot list step " + g.counter("step"); }}
    ["x", "y"]
}}
fn apply(g, seat, action) {{ g.add_counter("step", 1); }}
fn winners(g) {{ [] }}
"#
        ),
    );
}

/// r9: a `do` whose next position the script cannot list is refused and not applied.
#[test]
fn r9_a_do_whose_aftermath_fails_is_not_applied() {
    let dir = tempfile::tempdir().unwrap();
    fragile_game(dir.path(), 1);
    let mut p = Proc::start_in("fragile", dir.path(), &["--seed", "1"]);
    let before = p.state();
    let error = p.refused("do x");
    assert!(error.contains("cannot list step 1"), "{error}");
    assert_eq!(p.state(), before);
    assert_eq!(p.ok("undo")["undone"], 0, "nothing was kept to undo");
    p.finish();
}

/// r9, r10: `bot 5` failing on its third action keeps none of them, and a failed command
/// after `undo` leaves the redo list whole.
#[test]
fn r9_r10_a_failing_bot_keeps_nothing_and_the_redo_list_survives() {
    let dir = tempfile::tempdir().unwrap();
    fragile_game(dir.path(), 4);
    let mut p = Proc::start_in("fragile", dir.path(), &["--seed", "1"]);
    p.ok("do x");
    p.ok("do y");
    let two = p.state();
    let error = p.refused("bot 5");
    assert!(error.contains("cannot list step 4"), "{error}");
    assert_eq!(p.state(), two, "no bot action kept");
    assert_eq!(p.ok("undo 2")["undone"], 2);
    let zero = p.state();
    p.ok("do x");
    p.ok("do x");
    p.ok("do x");
    // The fourth listing fails inside `bot 2`: refused, back to three actions, redo empty
    // (the three `do`s cleared it, as a new action does).
    p.refused("bot 2");
    assert_eq!(p.ok("undo 3")["undone"], 3);
    assert_eq!(p.state(), zero);
    // Now the redo list holds three actions; a refused command must not empty it.
    p.refused("do nonsense");
    p.refused("bot 5");
    assert_eq!(p.ok("redo 3")["redone"], 3);
    p.finish();
}

/// r8, r11: devices and pipes are never read or written; one reply each, and nothing at all
/// on stderr in machine mode.
#[test]
fn r8_r11_devices_pipes_and_folders_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let args = ["play", "virus-wars", "--json", "--seed", "2"];
    let mut child = boardscript(&scripts_dir(), "", &args, Stdio::piped())
        .spawn()
        .unwrap();
    let lines = [
        "load /dev/stdin".to_string(),
        "load /dev/zero".to_string(),
        format!("load {}", fifo.display()),
        format!("position {}", fifo.display()),
        format!("load {}", dir.path().display()),
        "save /dev/stdout".to_string(),
        "save /dev/null".to_string(),
        format!("save {}", fifo.display()),
        "status".to_string(),
        "quit".to_string(),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for l in &lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out = finish_within(child, Duration::from_secs(30));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
        .collect();
    assert_eq!(replies.len(), lines.len(), "one reply per line: {stdout}");
    for (line, reply) in lines.iter().zip(&replies).take(8) {
        assert_eq!(reply["ok"], false, "`{line}` was accepted: {reply}");
    }
    assert_eq!(replies[8]["ok"], true);
    assert_eq!(
        replies[8]["text"],
        "blue to decide; 0 action(s) played; seed 2"
    );
    assert!(
        out.stderr.is_empty(),
        "stderr: {:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success());
}

/// r13: a save never replaces a file unless asked, never follows a link, and leaves no
/// temporary file behind.
#[test]
fn r13_saves_do_not_clobber_and_do_not_follow_links() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("precious.txt");
    std::fs::write(&target, "precious").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut p = Proc::start(&["--seed", "2"]);
    p.ok("do a1");
    let error = p.refused(&format!("save {}", target.display()));
    assert!(error.contains("save!"), "{error}");
    p.refused(&format!("save! {}", link.display()));
    p.refused(&format!("save --force {}", link.display()));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    let v = p.ok(&format!("save! {}", target.display()));
    assert_eq!(v["path"], target.display().to_string());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .contains("boardscript-save/1"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 2, "a temporary file was left: {names:?}");
    p.finish();
}

/// r13: an error about a file a client named does not quote the file.
#[test]
fn r13_a_refused_position_does_not_echo_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "hunter2-the-secret-line\nmore\n").unwrap();
    let mut p = Proc::start(&["--seed", "2"]);
    let before = p.state();
    let error = p.refused(&format!("position {}", secret.display()));
    assert!(!error.contains("hunter2"), "{error}");
    assert!(error.contains("rules.rhai:"), "still says where: {error}");
    let error = p.refused(&format!("load {}", secret.display()));
    assert!(!error.contains("hunter2"), "{error}");
    assert_eq!(p.state(), before);
    p.finish();
}

/// r19: a save written with a byte order mark loads; a save whose seats do not match its
/// own setup is refused.
#[test]
fn r19_a_bom_is_fine_and_seats_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("s.json");
    let mut p = Proc::start(&["--seed", "2"]);
    p.ok("do a1");
    p.ok(&format!("save {}", save.display()));
    let text = std::fs::read_to_string(&save).unwrap();
    let bom = dir.path().join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["seats"] = json!(["red", "blue"]);
    let swapped = dir.path().join("swapped.json");
    std::fs::write(&swapped, v.to_string()).unwrap();
    let state = p.state();
    let mut q = Proc::start(&["--seed", "9"]);
    let error = q.refused(&format!("load {}", swapped.display()));
    assert!(error.contains("seats"), "{error}");
    assert_eq!(q.ok(&format!("load {}", bom.display()))["actions"], 1);
    assert_eq!(q.state(), state);
    q.finish();
    p.finish();
}

/// r16: without `--seed`, each game draws its own seed; `status` shows it and it replays.
#[test]
fn r16_the_default_seed_is_random_and_shown() {
    let seed_of = |p: &mut Proc| p.ok("status")["seed"].as_u64().expect("status has a seed");
    let mut a = Proc::start_in("virus-war-kr", &scripts_dir(), &[]);
    let mut b = Proc::start_in("virus-war-kr", &scripts_dir(), &[]);
    let (sa, sb) = (seed_of(&mut a), seed_of(&mut b));
    assert_ne!(sa, sb, "two games dealt from the same seed");
    let state = a.state();
    let mut c = Proc::start_in("virus-war-kr", &scripts_dir(), &["--seed", &sa.to_string()]);
    assert_eq!(c.state(), state, "the shown seed replays the deal");
    for p in [a, b, c] {
        p.finish();
    }
}

/// r14: a seat-restricted client, tried with every command: it sees its own view only, acts
/// only for its seat, and every god-mode command is refused and changes nothing.
#[test]
fn r14_a_seat_restricted_client_sees_and_does_only_its_seat() {
    let mut p = Proc::start_in(
        "virus-war-kr",
        &scripts_dir(),
        &["--seed", "5", "--seat", "p2"],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.json");
    std::fs::write(&file, "{}").unwrap();
    let f = file.display();
    let status = p.ok("status");
    assert!(
        status.get("seed").is_none(),
        "the seed gives the deal away: {status}"
    );
    assert!(!status["text"].as_str().unwrap().contains("seed"));
    for line in [
        "state".to_string(),
        "eval 1".to_string(),
        "eval g.zone(\"hand\", \"p1\").names()".to_string(),
        format!("save {f}.new"),
        format!("save! {f}"),
        format!("load {f}"),
        format!("position {f}"),
        "reload".to_string(),
        "undo".to_string(),
        "redo".to_string(),
        "bot".to_string(),
        "bot 3".to_string(),
        "view p1".to_string(),
        "view @p3".to_string(),
        "do @p1 keep v vi".to_string(),
        "do @p3 bogus".to_string(),
    ] {
        let error = p.refused(&line);
        assert!(!error.contains("keep"), "`{line}` leaked actions: {error}");
    }
    assert!(!std::path::Path::new(&format!("{f}.new")).exists());
    // Only its own decision is listed; an illegal action lists only its own options.
    let deciding = p.ok("actions")["deciding"].clone();
    let seats: Vec<&String> = deciding.as_object().unwrap().keys().collect();
    assert_eq!(seats, ["p2"]);
    let mine = strings(&deciding["p2"]);
    let error = p.refused("do bogus");
    for a in &mine {
        assert!(error.contains(a.as_str()), "{error}");
    }
    // Its views: its own hand shown, every other hand hidden, no RNG.
    for line in ["show", "view p2", "view @p2", "view"] {
        let v = p.ok(line);
        let view = &v["view"];
        assert!(
            view.get("rng").is_none_or(|r| r != &p_state_rng()),
            "{line}"
        );
        for zone in view["zones"].as_array().unwrap() {
            let owner = zone["owner"].as_u64();
            if zone["name"] == "hand" && owner != Some(1) {
                for card in zone["cards"].as_array().unwrap() {
                    // A hidden card is a marker id outside the catalogue, or a card named `?`.
                    let id = card.as_u64().unwrap() as usize;
                    let name = &view["cards"][id]["name"];
                    assert!(name.is_null() || name == "?", "{line}: {zone}");
                }
            }
        }
    }
    p.ok("log");
    p.ok("help");
    p.ok("status");
    // It plays; the bot answers for the others until p2 must decide again.
    let v = p.ok(&format!("do {}", mine[0]));
    assert_eq!(v["seat"], "p2");
    let next = p.ok("actions")["deciding"].clone();
    assert!(next.get("p2").is_some() || next == json!({}), "{next}");
    p.finish();
}

/// The RNG of a full state, which no view may carry (views carry a fixed dummy).
fn p_state_rng() -> Value {
    let mut god = Proc::start_in("virus-war-kr", &scripts_dir(), &["--seed", "5"]);
    let rng = god.state()["rng"].clone();
    god.finish();
    rng
}

/// `--seat` names a seat of the game.
#[test]
fn r14_an_unknown_seat_is_a_start_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_boardscript"))
        .args([
            "play",
            "virus-wars",
            "--json",
            "--seat",
            "green",
            "--scripts",
        ])
        .arg(scripts_dir())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: --seat: no seat `green`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// r15: on a shared screen, a bot's held choice is not printed, and an illegal action typed
/// for a seat other than the one shown does not list that seat's hand.
#[test]
fn r15_the_repl_keeps_held_choices_and_other_hands_secret() {
    let out = Command::new(env!("CARGO_BIN_EXE_boardscript"))
        .args([
            "play",
            "virus-war-kr",
            "--seed",
            "5",
            "--plain",
            "--scripts",
        ])
        .arg(scripts_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b"bot\ndo @p3 bogus\nstate\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let first = stdout.lines().next().unwrap();
    assert!(first.starts_with("bot p"), "{first}");
    assert!(
        !first.contains("keep"),
        "the held choice was printed: {first}"
    );
    assert!(first.contains("held"), "{first}");
    assert!(stderr.contains("bogus"), "{stderr}");
    assert!(!stderr.contains("keep"), "p3's hand was listed: {stderr}");
    // The god-mode state still shows everything, held choice included.
    assert!(stdout.contains("\"pending\""), "{stdout}");
}

/// r21: `--watch` still sees edits after the game's folder is replaced whole.
#[test]
fn r21_watch_survives_a_replaced_folder() {
    let dir = tempfile::tempdir().unwrap();
    let rules = |list: &str| {
        format!(
            "fn setup(g) {{ }}\nfn legal_actions(g, seat) {{ {list} }}\nfn apply(g, seat, action) {{ }}\nfn winners(g) {{ [] }}\n"
        )
    };
    let game = write_game(dir.path(), "w", "title = \"W\"\n", &rules("[\"a\"]"));
    let mut p = Proc::start_in("w", dir.path(), &["--seed", "1", "--watch"]);
    assert_eq!(p.ok("actions")["deciding"], json!({"p1": ["a"]}));
    // As `git checkout` or some editors do: remove the folder, write it again.
    std::fs::remove_dir_all(&game).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    write_game(dir.path(), "w", "title = \"W\"\n", &rules("[\"b\"]"));
    std::thread::sleep(Duration::from_millis(300));
    p.ok("status");
    assert_eq!(p.ok("actions")["deciding"], json!({"p1": ["b"]}));
    // And the new folder is watched in turn.
    std::fs::write(game.join("rules.rhai"), rules("[\"c\"]")).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    p.ok("status");
    assert_eq!(p.ok("actions")["deciding"], json!({"p1": ["c"]}));
    p.finish();
}

/// r18: `list` prints what it reads from disk (folder names, broken manifests) one line each.
#[test]
fn r18_list_shows_odd_folder_names_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "fn setup(g) { }\nfn legal_actions(g, seat) { [] }\nfn apply(g, seat, action) { }\nfn winners(g) { [] }\n";
    write_game(dir.path(), "odd\nforged: line", "title = \"Odd\"\n", rules);
    write_game(
        dir.path(),
        "zones",
        "[zones]\nhand = { visible_to = \"x\\ny\" }\n",
        rules,
    );
    let out = boardscript(dir.path(), "", &["list"], Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.lines().any(|l| l.starts_with("forged")), "{stdout}");
    assert!(stdout.contains("odd\\nforged: line"), "{stdout}");
    let broken = stdout.lines().find(|l| l.starts_with("zones")).unwrap();
    assert!(
        broken.contains("broken") && broken.contains("x\\ny"),
        "{stdout}"
    );
}

/// Issue 10, item 1: a runtime error in edited rules keeps the old rules and the whole game;
/// a legitimate refusal keeps the dropped actions aside, and reverting the edit brings the
/// whole game back.
#[test]
fn reload_keeps_the_game_when_new_rules_fail_and_restores_it_when_reverted() {
    let dir = tempfile::tempdir().unwrap();
    let rules = |legal: &str| {
        format!(
            "fn setup(g) {{ }}\nfn legal_actions(g, seat) {{ {legal} }}\nfn apply(g, seat, action) {{ g.add_counter(\"n\", 1); }}\nfn winners(g) {{ [] }}\n"
        )
    };
    let game = write_game(dir.path(), "r", "title = \"R\"\n", &rules("[\"a\", \"b\"]"));
    let mut p = Proc::start_in("r", dir.path(), &["--seed", "1"]);
    for a in ["a", "b", "a", "b"] {
        p.ok(&format!("do {a}"));
    }
    let whole = p.state();
    // A typo the script only meets at run time, from the second action on.
    let typo = "if g.counter(\"n\") >= 1 { g.stepp() } [\"a\", \"b\"]";
    std::fs::write(game.join("rules.rhai"), rules(typo)).unwrap();
    let error = p.refused("reload");
    assert!(
        error.contains("old rules kept") && error.contains("stepp"),
        "{error}"
    );
    assert_eq!(p.state(), whole, "a failing reload changes nothing");
    // Rules that legitimately refuse `b`: the game stops before the first `b`...
    std::fs::write(game.join("rules.rhai"), rules("[\"a\"]")).unwrap();
    let v = p.ok("reload");
    assert_eq!(v["replayed"], 1);
    assert_eq!(v["refused"]["index"], 2);
    assert_eq!(v["kept_aside"], 3);
    // ...and reverting the edit brings all four actions back.
    std::fs::write(game.join("rules.rhai"), rules("[\"a\", \"b\"]")).unwrap();
    let v = p.ok("reload");
    assert_eq!(v["replayed"], 4);
    assert_eq!(v["refused"], Value::Null);
    assert_eq!(p.state(), whole);
    p.finish();
}
