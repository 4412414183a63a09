//! Issue 21: a function that replaces one of an earlier script (a variant's overlay, a
//! variant of a variant, a later file of the same game) calls the one it replaces as
//! `base_<name>`, level by level; errors in a base function name its own file, line and
//! column; a script may not define the name a replaced function takes.

use boardscript_interpreter::{Game, Match, Setup};
use std::path::Path;

/// The base game: gold scores 2, iron 1, tin does nothing, any other card is an error.
const CARDS: &str = r#"//! Cards: each seat plays a card a turn.
fn setup(g) { g.set_steps(1); }
fn legal_actions(g, seat) {
    if g.actions_applied() >= 8 { [] } else { ["play gold", "play iron"] }
}
fn apply(g, seat, action) {
    let card = words(action)[1];
    if card == "gold" { g.add_counter(seat, "score", 2); g.log(`${seat} scores 2`); }
    else if card == "iron" { g.add_counter(seat, "score", 1); g.log(`${seat} scores 1`); }
    else if card == "tin" { g.log("tin does nothing"); }
    else { throw `no card ${card}`; }
}
fn winners(g) { [] }
"#;

/// A variant that adds silver and hands every other card to the base game. Its last line
/// has an error after a call that the variant of it renames (the column must stay true).
const PLUS: &str = r#"//! Plus: one more card, silver (3).
fn legal_actions(g, seat) {
    let l = base_legal_actions(g, seat);
    if l.len() > 0 { l.push("play silver"); }
    l
}
fn apply(g, seat, action) {
    if action == "play silver" { g.add_counter(seat, "score", 3); g.log(`${seat} polishes silver`); return; }
    base_apply(g, seat, action); if action == "play tin" { throw "tin melts"; }
}
"#;

/// A variant of the variant: copper, and the metals that fail.
const MORE: &str = r#"//! More: copper on top of Plus.
fn legal_actions(g, seat) {
    let l = base_legal_actions(g, seat);
    if l.len() > 0 { l += ["play copper", "play tin", "play lead"]; }
    l
}
fn apply(g, seat, action) {
    if action == "play copper" { g.log(`${seat} finds copper`); } else { base_apply(g, seat, action); }
}
"#;

fn write(dir: &Path, id: &str, manifest: &str, file: &str, rules: &str) {
    let d = dir.join(id);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("game.toml"), manifest).unwrap();
    std::fs::write(d.join(file), rules).unwrap();
}

/// cards, plus (based on cards) and more (based on plus), side by side in a temp folder.
fn games(plus: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    write(
        p,
        "cards",
        "[seats]\nnames = [\"east\", \"west\"]\n",
        "rules.rhai",
        CARDS,
    );
    let variant = |base: &str, file: &str| format!("base = \"{base}\"\nscripts = [\"{file}\"]\n");
    write(p, "plus", &variant("cards", "plus.rhai"), "plus.rhai", plus);
    write(p, "more", &variant("plus", "more.rhai"), "more.rhai", MORE);
    dir
}

fn start(dir: &Path, id: &str) -> Match {
    let game = Game::load(&dir.join(id), id).unwrap_or_else(|e| panic!("{e}"));
    Match::new(game, Setup::default()).unwrap()
}

fn log(m: &Match) -> Vec<String> {
    m.state.log.iter().map(|e| e.text.clone()).collect()
}

#[test]
fn an_overlay_hands_the_other_cards_to_the_base_apply() {
    let dir = games(PLUS);
    let mut m = start(dir.path(), "plus");
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    assert_eq!(legal, ["play gold", "play iron", "play silver"]);
    m.play(Some("east"), "play gold").unwrap();
    m.play(Some("west"), "play silver").unwrap();
    assert_eq!(
        log(&m),
        [
            "east: play gold",
            "east scores 2",
            "west: play silver",
            "west polishes silver"
        ]
    );
    assert_eq!(
        m.game
            .eval(&m.state, r#"g.counter("west", "score")"#)
            .unwrap(),
        "3"
    );
}

#[test]
fn a_variant_of_a_variant_calls_each_level_in_turn() {
    let dir = games(PLUS);
    let mut m = start(dir.path(), "more");
    let legal = m.game.legal_actions(&m.state, 0).unwrap();
    assert_eq!(
        legal,
        [
            "play gold",
            "play iron",
            "play silver",
            "play copper",
            "play tin",
            "play lead"
        ]
    );
    for (seat, action) in [
        ("east", "play gold"),
        ("west", "play silver"),
        ("east", "play copper"),
        ("west", "play iron"),
    ] {
        m.play(Some(seat), action).unwrap();
    }
    assert_eq!(
        log(&m),
        [
            "east: play gold",
            "east scores 2",
            "west: play silver",
            "west polishes silver",
            "east: play copper",
            "east finds copper",
            "west: play iron",
            "west scores 1"
        ]
    );
}

#[test]
fn errors_in_base_functions_name_their_own_file_line_and_column() {
    let dir = games(PLUS);
    let mut m = start(dir.path(), "more");
    let before = m.state.clone();
    let err = m.play(Some("east"), "play lead").unwrap_err().to_string();
    assert!(
        err.ends_with("cards/rules.rhai:11:12: in `base_base_apply`: no card lead"),
        "{err}"
    );
    // Plus's `base_apply(...)` became a longer name in `more`; the column is the one written.
    let err = m.play(Some("east"), "play tin").unwrap_err().to_string();
    let column = PLUS.lines().nth(8).unwrap().find("throw").unwrap() + 1;
    assert!(
        err.ends_with(&format!(
            "plus/plus.rhai:9:{column}: in `base_apply`: tin melts"
        )),
        "{err}"
    );
    assert_eq!(m.state, before, "the refused actions change nothing");
}

#[test]
fn a_later_file_of_the_same_game_calls_the_earlier_one() {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        "scripts = [\"rules.rhai\", \"house.rhai\"]\n[seats]\nnames = [\"east\", \"west\"]\n";
    write(dir.path(), "cards", manifest, "rules.rhai", CARDS);
    let house =
        "fn apply(g, seat, action) { g.log(\"house rule\"); base_apply(g, seat, action); }\n";
    std::fs::write(dir.path().join("cards/house.rhai"), house).unwrap();
    let mut m = start(dir.path(), "cards");
    m.play(Some("east"), "play iron").unwrap();
    assert_eq!(log(&m), ["east: play iron", "house rule", "east scores 1"]);
}

#[test]
fn defining_the_base_name_while_replacing_is_a_load_error_naming_both() {
    let plus = format!("{PLUS}fn base_apply(g, seat, action) {{ }}\n");
    let dir = games(&plus);
    let err = match Game::load(&dir.path().join("plus"), "plus") {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("plus/plus.rhai:11:4: defines `base_apply`"),
        "{err}"
    );
    assert!(
        err.contains("since `apply` is defined again at ")
            && err.contains("plus/plus.rhai:7:4; rename this function"),
        "{err}"
    );
}

/// `base_<name>` is the name a replaced function takes: no shipped script defines one, so no
/// shipped variant may collide with it.
#[test]
fn no_shipped_script_defines_a_base_function() {
    fn rhai_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rhai_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rhai") {
                out.push(path);
            }
        }
    }
    let mut files = vec![];
    rhai_files(&boardscript_tests::scripts_dir(), &mut files);
    assert!(files.len() > 5, "the shipped scripts are found");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let defines = text.lines().any(|l| {
            let l = l.trim_start().trim_start_matches("private ");
            l.starts_with("fn base_")
        });
        assert!(!defines, "{} defines a `base_` function", file.display());
    }
}
