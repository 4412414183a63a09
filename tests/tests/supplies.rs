//! issue 21: bounded supplies of tokens (doors, markers, coins): declared in `game.toml` or
//! made at run time, placed and taken back, public in every view, kept in saves.

use boardscript_interpreter::primitives::supply::Supply;
use boardscript_interpreter::{Game, PlayError, Setup, State};
use boardscript_tests::inline_game;

const MANIFEST: &str = r#"
[seats]
names = ["a", "b"]

[supplies]
doors = 3
markers = { size = 2, per_seat = true }
"#;

/// What an empty supply means is the rules' to say: here, a door that cannot be placed is
/// logged.
const RULES: &str = r#"
fn setup(g) { g.new_supply("coins", 5); }
fn legal_actions(g, seat) { ["door", "doors", "mark", "back", "overback", "go"] }
fn apply(g, seat, act) {
    let doors = g.supply("doors");
    switch act {
        "door" => { if !doors.place() { g.log("no door left"); } }
        "doors" => { let ok = doors.place(2); g.log(`two doors: ${ok}`); }
        "mark" => { g.supply("markers", seat).place(); }
        "back" => { doors.take_back(); }
        "overback" => { g.set_counter("tried", 1); doors.take_back(3); }
    }
    g.next_turn();
}
fn winners(g) { [] }
"#;

fn game() -> (tempfile::TempDir, Game) {
    let (dir, game) = inline_game("supplied", MANIFEST, RULES);
    (dir, game.unwrap_or_else(|e| panic!("{e}")))
}

fn eval(game: &Game, state: &State, expr: &str) -> String {
    game.eval(state, expr)
        .unwrap_or_else(|e| format!("error: {e}"))
}

fn left(state: &State, name: &str, owner: Option<usize>) -> u32 {
    let i = state.supply_index(name, owner).expect("the supply exists");
    state.supplies[i].left
}

#[test]
fn supplies_of_the_manifest_and_of_setup_start_full() {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    assert_eq!(
        eval(
            &game,
            &state,
            r#"let d = g.supply("doors"); [d.name, d.size, d.left, d.placed, d.owner]"#
        ),
        r#"["doors", 3, 3, 0, ()]"#
    );
    assert_eq!(
        eval(
            &game,
            &state,
            r#"let m = g.supply("markers", "b"); [m.owner, m.size, g.supply("coins").left]"#
        ),
        r#"["b", 2, 5]"#
    );
    let names: Vec<(&str, Option<usize>)> =
        state.supplies.iter().map(|s| (&*s.name, s.owner)).collect();
    assert_eq!(
        names,
        [
            ("doors", None),
            ("markers", Some(0)),
            ("markers", Some(1)),
            ("coins", None)
        ]
    );
}

#[test]
fn placing_from_an_empty_supply_says_no_and_changes_nothing() {
    let (_dir, game) = game();
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "door").unwrap();
    assert_eq!(left(&state, "doors", None), 2);
    game.apply(&mut state, 1, "doors").unwrap();
    assert_eq!(left(&state, "doors", None), 0);
    game.apply(&mut state, 0, "doors").unwrap();
    game.apply(&mut state, 1, "door").unwrap();
    assert_eq!(left(&state, "doors", None), 0);
    let log: Vec<&str> = state.log.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        log,
        [
            "a: door",
            "b: doors",
            "two doors: true",
            "a: doors",
            "two doors: false",
            "b: door",
            "no door left"
        ]
    );
    // Each seat's own supply.
    game.apply(&mut state, 0, "mark").unwrap();
    assert_eq!(
        (
            left(&state, "markers", Some(0)),
            left(&state, "markers", Some(1))
        ),
        (1, 2)
    );
}

#[test]
fn taking_back_more_than_are_out_is_an_error_and_the_action_changes_nothing() {
    let (_dir, game) = game();
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "door").unwrap();
    let before = state.clone();
    let err = game.apply(&mut state, 1, "overback").unwrap_err();
    assert!(matches!(err, PlayError::Script(_)));
    assert!(
        err.to_string()
            .ends_with("in `apply`: supply `doors`: cannot take back 3, only 1 of 3 are out"),
        "{err}"
    );
    assert!(err.to_string().contains("rules.rhai:11:"), "{err}");
    assert_eq!(state, before);
    game.apply(&mut state, 1, "back").unwrap();
    assert_eq!(left(&state, "doors", None), 3);
}

#[test]
fn mistakes_name_the_supply() {
    let (_dir, game) = game();
    let state = game.start(&Setup::default()).unwrap();
    for (expr, message) in [
        (
            r#"g.supply("markers")"#,
            r#"supply `markers` belongs to each seat: write g.supply("markers", seat)"#,
        ),
        (
            r#"g.supply("doors", "a")"#,
            r#"supply `doors` is shared by the table: write g.supply("doors")"#,
        ),
        (
            r#"g.supply("door")"#,
            "no supply `door` (supplies: doors, markers, coins)",
        ),
        (
            r#"g.supply("doors").place(-1)"#,
            "supply `doors`: place -1: a number of tokens is 0 to 1000000",
        ),
        (
            r#"g.new_supply("heap", 1000001)"#,
            "supply `heap`: a size of 1000001 is over the most a supply holds (1000000)",
        ),
        (
            r#"g.new_supply("heap", -2)"#,
            "supply `heap`: a size of -2 is not a number of tokens (0 to 1000000)",
        ),
    ] {
        let got = eval(&game, &state, expr);
        assert!(
            got.starts_with("error: eval:1:") && got.ends_with(message),
            "{expr}: {got}"
        );
    }
}

/// Supplies are public: every view shows them as they are, and the plain rendering lists
/// them.
#[test]
fn every_view_shows_supplies() {
    let (_dir, game) = game();
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "mark").unwrap();
    for seat in [None, Some(0), Some(1)] {
        assert_eq!(state.view(seat).supplies, state.supplies);
    }
    let shown = game.render(&state, Some(1)).unwrap();
    assert!(shown.contains("supply doors: 3 of 3 left\n"), "{shown}");
    assert!(
        shown.contains("supply markers[a]: 1 of 2 left\n"),
        "{shown}"
    );
    assert_eq!(
        eval(&game, &state, r#"g.supply("markers", "a")"#),
        "supply markers[a]: 1 of 2 left"
    );
}

#[test]
fn supplies_survive_a_save_and_count_in_the_weight() {
    let (_dir, game) = game();
    let mut state = game.start(&Setup::default()).unwrap();
    game.apply(&mut state, 0, "doors").unwrap();
    let json = state.to_json();
    assert_eq!(
        json["supplies"][0],
        serde_json::json!({"name": "doors", "size": 3, "left": 1})
    );
    assert_eq!(json["supplies"][2]["owner"], 1);
    let back: State = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, state);
    let mut bad = json.clone();
    bad["supplies"][0]["left"] = 4.into();
    let err = serde_json::from_value::<State>(bad).unwrap_err();
    assert!(
        err.to_string().contains("supply `doors`: 4 left of 3"),
        "{err}"
    );

    let before = state.weigh();
    state
        .supplies_mut()
        .push(Supply::new("extra", None, 1).unwrap());
    assert_eq!(state.weigh(), before + 32 + 5 + 16);
}

fn load_with(supplies: &str) -> Result<Game, String> {
    let manifest = format!("[seats]\nnames = [\"a\"]\n[supplies]\n{supplies}\n");
    inline_game("supplied", &manifest, RULES)
        .1
        .map_err(|e| e.to_string())
}

#[test]
fn the_manifest_is_checked() {
    for (supplies, message) in [
        (
            "doors = -1",
            "supply `doors`: the size is a whole number from 0 to 1000000, not -1",
        ),
        (
            "doors = 2.5",
            "supply `doors`: the size is a whole number from 0 to 1000000, not 2.5",
        ),
        (
            "doors = 1000001",
            "supply `doors`: the size is a whole number from 0 to 1000000, not 1000001",
        ),
        (
            "doors = { size = 3, per_seat = \"yes\" }",
            "supply `doors`: per_seat is true or false, not \"yes\"",
        ),
        (
            "doors = { count = 3 }",
            "supply `doors`: unknown field `count` (a supply has `size` and `per_seat`)",
        ),
        ("doors = { per_seat = true }", "supply `doors`: no size"),
        ("\"\" = 3", "supply ``: a name is 1 to 64 characters"),
    ] {
        let err = load_with(supplies).err().unwrap_or_default();
        assert!(
            err.contains("game.toml: ") && err.ends_with(message),
            "{supplies}: {err}"
        );
    }
    assert!(load_with("doors = 0").is_ok());
}

/// A variant adds supplies or replaces its base's one by one.
#[test]
fn a_variant_adds_or_replaces_supplies() {
    let (dir, _) = inline_game("supplied", MANIFEST, RULES);
    let variant = dir.path().join("supplied/variants/more");
    std::fs::create_dir_all(&variant).unwrap();
    std::fs::write(
        variant.join("game.toml"),
        "base = \"supplied\"\n[supplies]\ndoors = 5\nkeys = { size = 1, per_seat = true }\n",
    )
    .unwrap();
    let game = Game::load(&variant, "supplied/more").unwrap_or_else(|e| panic!("{e}"));
    let state = game.start(&Setup::default()).unwrap();
    let sizes: Vec<(&str, Option<usize>, u32)> = state
        .supplies
        .iter()
        .map(|s| (&*s.name, s.owner, s.size))
        .collect();
    assert_eq!(
        sizes,
        [
            ("doors", None, 5),
            ("keys", Some(0), 1),
            ("keys", Some(1), 1),
            ("markers", Some(0), 2),
            ("markers", Some(1), 2),
            ("coins", None, 5)
        ]
    );
}
