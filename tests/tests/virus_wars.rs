//! Virus Wars: every scenario check of shared/rules/virus-wars.md (VW-1 to VW-6) as positions,
//! random playouts with invariants, determinism, save/load, undo/redo, reload and variants.

use boardscript_interpreter::{Game, Match, Setup};
use boardscript_tests::{load, play_random, scripts_dir, Playouts, Step, Table};

fn cells(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// VW-1 §4.3: first viruses on the edges; Blue's reach grows within its turn.
#[test]
fn vw_1_opening() {
    let mut t = Table::new("virus-wars").start();
    assert_eq!(t.deciding(), ["blue"]);
    assert_eq!(t.legal("blue"), cells("a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11"));
    t.play("blue", "a6");
    assert_eq!(t.legal("blue"), cells("a5 a7 b5 b6 b7"));
    for c in ["b6", "c6", "d6", "e6"] {
        t.play("blue", c);
    }
    assert_eq!(t.deciding(), ["red"]);
    assert_eq!(t.legal("red"), cells("k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11"));
    t.play("red", "k6");
    assert_eq!(t.legal("red"), cells("j5 j6 j7 k5 k7"));
}

const VW_2: &str = "
7  . . . . . . .
6  . . . . . . .
5  . . R R . . .
4  . B b . . . .
3  . . . . . . .
2  . . . . . b .
1  . . . . . b .
   a b c d e f g
";

/// VW-2 §4.2: zombies give access only when chained to a live virus.
#[test]
fn vw_2_zombie_chains_and_disconnected_zombies() {
    let mut t = Table::new("virus-wars").position(VW_2).start();
    assert_eq!(t.legal("blue"), cells("a3 a4 a5 b3 b5 c3 c5 d3 d4 d5"));
    t.play("blue", "c5");
    assert_eq!(t.eval(r#"g.grid("board").get("c5")"#), "\"b\"");
    assert_eq!(
        t.legal("blue"),
        cells("a3 a4 a5 b3 b5 b6 c3 c6 d3 d4 d5 d6")
    );
    t.play("blue", "d5");
    assert_eq!(
        t.legal("blue"),
        cells("a3 a4 a5 b3 b5 b6 c3 c6 d3 d4 d6 e4 e5 e6")
    );
}

const VW_3: &str = "
7  . . . . . . .
6  . . . . . . .
5  . . . . . . .
4  . B . . . . .
3  . . . R . . .
2  . . . R R . .
1  . . . . . R R
   a b c d e f g
";

/// VW-3 §4: the text's worked example, a five-step turn through a zombie chain.
#[test]
fn vw_3_five_step_turn_through_a_zombie_chain() {
    let mut t = Table::new("virus-wars").position(VW_3).start();
    assert_eq!(t.legal("blue"), cells("a3 a4 a5 b3 b5 c3 c4 c5"));
    let steps = [
        ("c3", "a3 a4 a5 b2 b3 b5 c2 c4 c5 d2 d3 d4"),
        ("d3", "a3 a4 a5 b2 b3 b5 c2 c4 c5 d2 d4 e2 e3 e4"),
        ("d2", "a3 a4 a5 b2 b3 b5 c1 c2 c4 c5 d1 d4 e1 e2 e3 e4"),
        (
            "e2",
            "a3 a4 a5 b2 b3 b5 c1 c2 c4 c5 d1 d4 e1 e3 e4 f1 f2 f3",
        ),
    ];
    for (cell, legal_after) in steps {
        t.play("blue", cell);
        assert_eq!(t.legal("blue"), cells(legal_after), "after {cell}");
    }
    t.play("blue", "f1");
    assert_eq!(t.deciding(), ["red"]);
    let board = t.state().grids[0].render(false);
    assert!(board.contains("1  . . . . . b R"), "{board}");
    assert!(board.contains("3  . . B b . . ."), "{board}");
    assert_eq!(t.legal("red"), cells("f2 g2"));
}

/// VW-4 §4.4: a seat with no legal step at the start of its turn loses at once.
#[test]
fn vw_4_no_legal_step_at_the_start_of_a_turn() {
    let t = Table::new("virus-wars")
        .position("turn red\n5  . . . b R\n4  . . . b b\n3  . . B . .\n2  . . . . .\n1  . . . . .\n   a b c d e")
        .start();
    assert!(t.legal("red").is_empty());
    assert!(t.is_over());
    assert!(t.deciding().is_empty());
    assert_eq!(t.winners(), ["blue"]);
}

/// VW-5 §4.4: running out of steps in the middle of a turn.
#[test]
fn vw_5_running_out_in_the_middle_of_a_turn() {
    let mut t = Table::new("virus-wars")
        .position("turn red\n5  . . . b R\n4  . . . b .\n3  . . B b b\n2  . . . . .\n1  . . . . .\n   a b c d e")
        .start();
    assert_eq!(t.legal("red"), ["e4"]);
    t.play("red", "e4");
    assert!(t.is_over());
    assert_eq!(t.winners(), ["blue"]);
}

/// VW-6 §4.2: absorbing the last live virus cuts its zombie chain.
#[test]
fn vw_6_cutting_a_zombie_chain() {
    let mut t = Table::new("virus-wars")
        .position(
            "5  . . . . .\n4  . . . . .\n3  . . . . .\n2  r r R B .\n1  . . . . .\n   a b c d e",
        )
        .start();
    assert_eq!(t.legal("blue"), cells("c1 c2 c3 d1 d3 e1 e2 e3"));
    for c in ["c2", "c3", "c1", "b3", "b1"] {
        t.play("blue", c);
    }
    assert!(t.legal("red").is_empty());
    assert!(t.is_over());
    assert_eq!(t.winners(), ["blue"]);
}

/// G3 §4.3: a seat that has not placed yet may only generate on an empty cell of its edge.
#[test]
fn first_step_is_a_generation_on_the_own_edge() {
    let t = Table::new("virus-wars")
        .position("turn red\nunplaced red\n3  . . B\n2  B . .\n1  . . .\n   a b c")
        .start();
    assert_eq!(t.legal("red"), cells("c1 c2"));
}

/// Invariants of §4: one cell changes per step, zombies are for ever, turns of `steps` steps.
fn virus_invariant(step: &Step) -> Result<(), String> {
    let (before, after) = (step.before, step.after);
    let (b, a) = (&before.grids[0], &after.grids[0]);
    let changed: Vec<usize> = (0..a.len()).filter(|&i| a.cells[i] != b.cells[i]).collect();
    if changed.len() != 1 {
        return Err(format!("{} cells changed in one step", changed.len()));
    }
    let (was, now) = (b.symbol_at(changed[0]), a.symbol_at(changed[0]));
    let ok = matches!(
        (was, now),
        ('.', 'B') | ('.', 'R') | ('R', 'b') | ('B', 'r')
    );
    if !ok {
        return Err(format!("cell went from {was} to {now}"));
    }
    // The engine counts steps: the turn passes exactly after the last one.
    let (tb, ta) = (&before.turn, &after.turn);
    let passed = ta.current != tb.current;
    if passed != (tb.steps_left == 1) {
        return Err(format!(
            "turn passed: {passed}, with {} step(s) left before",
            tb.steps_left
        ));
    }
    let expected_left = if passed { ta.steps } else { tb.steps_left - 1 };
    if ta.steps_left != expected_left || !(1..=ta.turn_steps).contains(&ta.steps_left) {
        return Err(format!("steps_left {} out of range", ta.steps_left));
    }
    Ok(())
}

/// Plays `games` random games of `id` with `options`, checked after every step by
/// `virus_invariant`, and asserts how they end: each game within §4.4's limit (2 x the
/// board's cells steps), with one winner, and each colour wins some.
fn playouts(id: &str, options: &[(&str, &str)], cells: usize, games: usize, deep_every: usize) {
    Playouts::new(id)
        .seed(11)
        .options(options)
        .games(games)
        .deep_every(deep_every)
        .max_length(2 * cells)
        .check(&virus_invariant)
        .run()
        .assert_all_end()
        .assert_winners_each(1)
        .assert_every_seat_wins();
}

/// 1,000 seeded random games on 11x11.
#[test]
fn random_playouts_11x11() {
    playouts("virus-wars", &[], 121, 1000, 97);
}

/// Rectangular and large boards, and the variants, play out too.
#[test]
fn random_playouts_other_boards_and_variants() {
    playouts(
        "virus-wars",
        &[("width", "9"), ("height", "4")],
        36,
        100,
        13,
    );
    playouts("virus-wars", &[("size", "15")], 225, 30, 50);
    playouts("virus-wars/blitz", &[], 7 * 7, 200, 17);
    playouts("virus-wars/orthogonal", &[], 121, 200, 17);
}

/// Same scripts, options, seed and actions give byte-identical states and saves.
#[test]
fn determinism_same_actions_same_bytes() {
    let setup = Setup {
        seed: 42,
        ..Setup::default()
    };
    let mut a = Match::new(load("virus-wars"), setup.clone()).unwrap();
    play_random(&mut a, 120, 9, |_| false);
    boardscript_tests::assert_replays_identically(&a);
}

/// A save taken mid-game loads into a fresh match as the same state; a save of another game
/// or a malformed one is refused with the state unchanged.
#[test]
fn save_load_round_trip_mid_game() {
    let mut a = Match::new(
        load("virus-wars"),
        Setup {
            seed: 3,
            ..Setup::default()
        },
    )
    .unwrap();
    play_random(&mut a, 77, 1, |_| false);
    let text = a.save_json();
    let mut b = Match::new(load("virus-wars"), Setup::default()).unwrap();
    let save = boardscript_interpreter::SaveFile::parse(&text, "virus-wars").unwrap();
    b.load(&save).unwrap();
    assert_eq!(a.state, b.state);
    assert_eq!(a.actions(), b.actions());

    let before = b.state.clone();
    let foreign = boardscript_interpreter::SaveFile::parse(&text, "virus-wars/blitz").unwrap_err();
    assert!(
        foreign.contains("for game `virus-wars`, not `virus-wars/blitz`"),
        "{foreign}"
    );
    let garbled = boardscript_interpreter::SaveFile::parse("{not json", "virus-wars").unwrap_err();
    assert!(
        garbled.starts_with("not a Boardscript save file"),
        "{garbled}"
    );
    let mut tampered = save.clone();
    tampered.actions[5].action = "z99".into();
    let err = b.load(&tampered).unwrap_err().to_string();
    assert!(err.contains("save action 6"), "{err}");
    assert_eq!(b.state, before);
}

/// Undo returns exactly the earlier states; redo replays them.
#[test]
fn undo_redo() {
    let mut m = Match::new(
        load("virus-wars"),
        Setup {
            seed: 8,
            ..Setup::default()
        },
    )
    .unwrap();
    let mut snapshots = vec![m.state.clone()];
    for _ in 0..12 {
        play_random(&mut m, 1, snapshots.len() as u64, |_| false);
        snapshots.push(m.state.clone());
    }
    assert_eq!(m.undo(5), 5);
    assert_eq!(m.state, snapshots[7]);
    assert_eq!(m.redo(2), 2);
    assert_eq!(m.state, snapshots[9]);
    assert_eq!(m.undo(100), 9);
    assert_eq!(m.state, snapshots[0]);
    assert_eq!(m.redo(100), 12);
    assert_eq!(m.state, snapshots[12]);
}

/// Copies the game folder into a temp dir, so a test can edit rules and add broken overlays.
fn scratch_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = scripts_dir().join("virus-wars");
    let to = dir.path().join("virus-wars");
    std::fs::create_dir_all(&to).unwrap();
    for f in ["game.toml", "rules.rhai"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    dir
}

/// `reload` replays the log on edited rules and names the first action they refuse.
#[test]
fn reload_after_a_rule_edit_reports_the_first_refused_action() {
    let dir = scratch_copy();
    let game_dir = dir.path().join("virus-wars");
    let mut m = Match::new(
        Game::load(&game_dir, "virus-wars").unwrap(),
        Setup::default(),
    )
    .unwrap();
    for a in ["a6", "b6", "c6", "d6", "e6", "k6", "j6"] {
        m.play(None, a).unwrap();
    }
    // New rule: a first virus may only go on row 1 of the edge. `a6` becomes illegal.
    let rules = game_dir.join("rules.rhai");
    let text = std::fs::read_to_string(&rules).unwrap();
    let edited = text.replace(
        "for cell in board.column(edge) {",
        "for cell in [board.column(edge)[0]] {",
    );
    assert_ne!(text, edited, "the edit must apply");
    std::fs::write(&rules, edited).unwrap();
    let report = m
        .reload(Game::load(&game_dir, "virus-wars").unwrap())
        .unwrap();
    let (index, played, why) = report.refused.expect("a6 is refused now");
    assert_eq!((index, played.action.as_str()), (0, "a6"));
    assert!(why.contains("not a legal action"), "{why}");
    assert_eq!(report.replayed, 0);
    assert_eq!(m.actions().len(), 0);
    assert_eq!(m.game.legal_actions(&m.state, 0).unwrap(), ["a1"]);
}

/// Writes a variant of the scratch game whose `overlay.rhai` is `script`.
fn overlay(dir: &tempfile::TempDir, script: &str) -> std::path::PathBuf {
    let v = dir.path().join("broken");
    std::fs::create_dir_all(&v).unwrap();
    std::fs::write(
        v.join("game.toml"),
        "base = \"virus-wars\"\nscripts = [\"overlay.rhai\"]\n",
    )
    .unwrap();
    std::fs::write(v.join("overlay.rhai"), script).unwrap();
    v
}

/// A syntax error names the file, line and column.
#[test]
fn syntax_error_names_file_line_and_column() {
    let dir = scratch_copy();
    let v = overlay(&dir, "// fine\nfn render(g, seat) {\n    let x = ;\n}\n");
    let err = Game::load(&v, "broken")
        .err()
        .expect("must not compile")
        .to_string();
    assert!(err.contains("overlay.rhai:3:13: syntax error"), "{err}");
}

/// An endless loop and a huge string are stopped by the sandbox, with the place named and the
/// state unchanged.
#[test]
fn endless_loop_and_huge_string_are_stopped_state_unchanged() {
    let dir = scratch_copy();
    let v = overlay(
        &dir,
        "fn apply(g, seat, cell) {\n    if cell == \"a1\" { loop { } }\n    let s = \"x\";\n    while true { s += s; }\n}\n",
    );
    let game = Game::load(&v, "broken").unwrap();
    let mut state = game.start(&Setup::default()).unwrap();
    let before = state.clone();
    let err = game.apply(&mut state, 0, "a1").unwrap_err().to_string();
    eprintln!("LOAD: {err}");
    assert!(
        err.contains("overlay.rhai:2:") && err.contains("endless loop"),
        "{err}"
    );
    assert_eq!(state, before);
    let err = game.apply(&mut state, 0, "a2").unwrap_err().to_string();
    assert!(
        err.contains("overlay.rhai:4:") && err.to_lowercase().contains("too large"),
        "{err}"
    );
    assert_eq!(state, before);
}

/// A runtime error inside a helper names the helper's file and line.
#[test]
fn runtime_error_names_the_place() {
    let dir = scratch_copy();
    let v = overlay(
        &dir,
        "fn apply(g, seat, cell) {\n    g.zone(\"tabel\").len()\n}\n",
    );
    let game = Game::load(&v, "broken").unwrap();
    let mut state = game.start(&Setup::default()).unwrap();
    let err = game.apply(&mut state, 0, "a1").unwrap_err().to_string();
    assert!(
        err.contains("overlay.rhai:2:7: in `apply`: no zone `tabel`"),
        "{err}"
    );
}

/// Scripts cannot reach files: an `import` of a real module file is refused when the rules
/// load, at its line (and so is one typed to `eval`), and `eval` is disabled. With a file
/// module resolver the import would run: the game would start and `eval` would answer 4242.
#[test]
fn sandbox_has_no_file_access() {
    let dir = scratch_copy();
    let module_dir = dir.path().join("modules");
    std::fs::create_dir_all(&module_dir).unwrap();
    std::fs::write(
        module_dir.join("secret.rhai"),
        "export const SECRET = 4242;\n",
    )
    .unwrap();
    // Rhai's file resolver takes the path without `.rhai`; absolute, so no base folder matters.
    let module = format!("{:?}", module_dir.join("secret").display().to_string());
    let script = format!(
        "fn setup(g) {{\n    import {module} as secret;\n    g.set(\"leak\", secret::SECRET);\n}}\n"
    );
    let err = match Game::load(&overlay(&dir, &script), "broken") {
        Err(e) => e.to_string(),
        Ok(game) => match game.start(&Setup::default()) {
            Ok(state) => panic!("the import ran: {:?}", state.vars),
            Err(e) => panic!("the import must be refused at load, not when it runs: {e}"),
        },
    };
    assert!(
        err.contains("overlay.rhai:2:5: syntax error: 'import'"),
        "{err}"
    );

    let game = Game::load(&dir.path().join("virus-wars"), "virus-wars").unwrap();
    let state = game.start(&Setup::default()).unwrap();
    let err = game
        .eval(
            &state,
            &format!("import {module} as secret; secret::SECRET"),
        )
        .expect_err("eval must not import")
        .to_string();
    assert!(err.contains("eval:1:1: syntax error: 'import'"), "{err}");

    let v = overlay(&dir, "fn render(g, seat) { eval(\"1\") }\n");
    let err = Game::load(&v, "broken").err().expect("eval is disabled");
    assert!(err.to_string().contains("'eval' is disabled"), "{err}");
}

/// The variants change only what they say and the base game is untouched.
#[test]
fn variants_override_options_and_functions() {
    let blitz = Table::new("virus-wars/blitz").start();
    assert_eq!(blitz.eval("g.option(\"steps\")"), "3");
    assert_eq!(blitz.eval("g.grid(\"board\").width"), "7");
    let mut blitz = blitz;
    blitz.play("blue", "a4");
    assert_eq!(
        blitz.deciding(),
        ["red"],
        "blitz: Blue's first turn is one step"
    );

    // Orthogonal: no diagonal access.
    let pos = "5  . . . . .\n4  . . . . .\n3  . . B . .\n2  . . . . .\n1  R . . . .\n   a b c d e";
    let ortho = Table::new("virus-wars/orthogonal").position(pos).start();
    assert_eq!(ortho.legal("blue"), cells("b3 c2 c4 d3"));
    let base = Table::new("virus-wars").position(pos).start();
    assert_eq!(base.legal("blue"), cells("b2 b3 b4 c2 c4 d2 d3 d4"));
    assert_eq!(
        Table::new("virus-wars").start().eval("g.option(\"steps\")"),
        "5"
    );
}

/// Options are checked: unknown names and bad values are refused with a message.
#[test]
fn options_are_checked() {
    let game = load("virus-wars");
    let bad = |k: &str, v: &str| {
        let setup = Setup {
            options: [(k.to_string(), v.to_string())].into(),
            ..Setup::default()
        };
        game.start(&setup).expect_err("refused").to_string()
    };
    assert!(bad("size", "abc").contains("not a whole number"));
    assert!(bad("size", "40").contains("must be in"));
    assert!(bad("nosuch", "1").contains("no option `nosuch`"));
    assert!(bad("start", "corners").contains("one of edges"));
}
