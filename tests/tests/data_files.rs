//! Data files (`[data]` in `game.toml`): TOML content that scripts read with `data(...)`,
//! checked at load (counts, floats, nesting, place), and never written through by a script.

use boardscript_interpreter::{Game, GameSource, Setup};
use std::path::{Path, PathBuf};

const DECK: &str = r#"
[[card]]
name = "fire"
copies = 2

[[card]]
name = "flood"

[[card]]
name = "fog"
copies = 3
tags = ["wet", "grey"]
"#;

/// The protocol around `legal`, an expression listing the actions from `g` and `seat`.
fn rules(before: &str, legal: &str) -> String {
    format!(
        "{before}\nfn setup(g) {{}}\nfn legal_actions(g, seat) {{ {legal} }}\nfn apply(g, seat, action) {{}}\nfn winners(g) {{ [] }}\n"
    )
}

/// A game folder `id` under `root`: its manifest, `rules.rhai` and the given extra files.
fn game(root: &Path, id: &str, manifest: &str, rules: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.toml"), manifest).unwrap();
    std::fs::write(dir.join("rules.rhai"), rules).unwrap();
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Game `g` under `root` reading `data/deck.toml` (DECK) as `deck`, with `consts` before the
/// protocol and `legal` as its legal actions (see `rules`).
fn deck_game(root: &Path, consts: &str, legal: &str) -> PathBuf {
    game(
        root,
        "g",
        "[data]\ndeck = \"data/deck.toml\"\n",
        &rules(consts, legal),
        &[("data/deck.toml", DECK)],
    )
}

fn legal(game: &Game) -> Vec<String> {
    let state = game.start(&Setup::default()).unwrap();
    let actions = game.legal_actions(&state, 0).unwrap();
    actions.iter().map(|a| a.to_string()).collect()
}

/// A game reading `deck` (the file above, or `deck_text`) with the manifest's `[data]` line
/// `entry`, and what loading it gives.
fn load_deck(entry: &str, deck_text: &str, legal: &str) -> Result<Game, String> {
    let root = tempfile::tempdir().unwrap();
    let manifest = format!("[data]\n{entry}\n");
    let dir = game(
        root.path(),
        "g",
        &manifest,
        &rules("", legal),
        &[("data/deck.toml", deck_text)],
    );
    Game::load(&dir, "g").map_err(|e| e.to_string())
}

/// The load error of the game in `dir`, which must not load.
fn load_error(dir: &std::path::Path) -> String {
    Game::load(dir, "g")
        .err()
        .expect("a load error")
        .to_string()
}

/// The load error of `load_deck` with no legal actions, which must not load.
fn deck_error(entry: &str, deck_text: &str) -> String {
    load_deck(entry, deck_text, "[]")
        .err()
        .expect("a load error")
}

#[test]
fn a_row_is_read_from_a_constant_and_from_a_function() {
    let root = tempfile::tempdir().unwrap();
    let dir = deck_game(root.path(), "const CARDS = data(\"deck\").card;\nconst SECOND = data(\"deck\", \"card\", 1).name;",
            "[CARDS[0].name, SECOND, data(\"deck\", \"card\", 2, \"tags\", 1), `${data_len(\"deck\", \"card\")}`]");
    let game = Game::load(&dir, "g").unwrap();
    assert_eq!(legal(&game), ["fire", "flood", "grey", "3"]);
}

#[test]
fn a_wrong_path_is_a_script_error_that_names_it() {
    let game = load_deck(
        "deck = \"data/deck.toml\"",
        DECK,
        "[data(\"deck\", \"card\", 7).name]",
    )
    .unwrap();
    let state = game.start(&Setup::default()).unwrap();
    let err = game.legal_actions(&state, 0).unwrap_err().to_string();
    assert!(
        err.contains("deck.card has no entry 7 (it holds 3"),
        "{err}"
    );
    let game = load_deck("deck = \"data/deck.toml\"", DECK, "[data(\"decks\")]").unwrap();
    let state = game.start(&Setup::default()).unwrap();
    let err = game.legal_actions(&state, 0).unwrap_err().to_string();
    assert!(err.contains("no data `decks` (data: deck)"), "{err}");
}

#[test]
fn counts_hold_with_and_without_copies() {
    let plain = "deck = { file = \"data/deck.toml\", count = { card = 3 } }";
    assert!(load_deck(plain, DECK, "[]").is_ok());
    let copies = "deck = { file = \"data/deck.toml\", count = { card = 6 }, copies = \"copies\" }";
    assert!(load_deck(copies, DECK, "[]").is_ok());
}

#[test]
fn a_wrong_count_names_the_file_the_array_and_both_numbers() {
    let entry = "deck = { file = \"data/deck.toml\", count = { card = 4 } }";
    let err = deck_error(entry, DECK);
    assert!(
        err.contains("data/deck.toml: `card` holds 3 entries, game.toml expects 4"),
        "{err}"
    );
    let entry = "deck = { file = \"data/deck.toml\", count = { card = 5 }, copies = \"copies\" }";
    let err = deck_error(entry, DECK);
    assert!(
        err.contains("`card` holds 6 entries, game.toml expects 5"),
        "{err}"
    );
    let entry = "deck = { file = \"data/deck.toml\", count = { cards = 3 } }";
    let err = deck_error(entry, DECK);
    assert!(err.contains("data/deck.toml: no array `cards`"), "{err}");
}

#[test]
fn malformed_toml_is_a_load_error_at_its_line_and_column() {
    let text = "[[card]]\nname = \"fire\"\n\n[[card]]\nname = \"flood\n";
    let err = deck_error("deck = \"data/deck.toml\"", text);
    assert!(err.contains("data/deck.toml:5:"), "{err}");
    assert!(!err.contains('\n'), "one line: {err}");
}

#[test]
fn floats_and_datetimes_are_refused_at_their_line() {
    let text = "[[card]]\nname = \"fire\"\nweight = 1.5\n";
    let err = deck_error("deck = \"data/deck.toml\"", text);
    assert!(err.contains("data/deck.toml:3:10: a float"), "{err}");
    let text = "when = 1979-05-27\n";
    let err = deck_error("deck = \"data/deck.toml\"", text);
    assert!(err.contains("data/deck.toml:1:8: a date"), "{err}");
}

#[test]
fn nesting_is_bounded() {
    let text = format!("a = {}1{}\n", "[".repeat(40), "]".repeat(40));
    let err = deck_error("deck = \"data/deck.toml\"", &text);
    assert!(
        err.contains("data/deck.toml:1:") && err.contains("nested more than"),
        "{err}"
    );
}

#[test]
fn a_missing_file_is_a_load_error() {
    let root = tempfile::tempdir().unwrap();
    let dir = game(
        root.path(),
        "g",
        "[data]\ndeck = \"data/nothing.toml\"\n",
        &rules("", "[]"),
        &[],
    );
    let err = load_error(&dir);
    assert!(
        err.contains("game.toml: data deck: file `data/nothing.toml`"),
        "{err}"
    );
}

#[test]
fn a_file_outside_the_game_folder_is_refused() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("secret.toml"), "x = 1\n").unwrap();
    let dir = game(
        root.path(),
        "g",
        "[data]\ndeck = \"../secret.toml\"\n",
        &rules("", "[]"),
        &[],
    );
    let err = load_error(&dir);
    assert!(err.contains("outside the game's folder"), "{err}");
}

#[test]
fn a_variant_replaces_a_data_entry_by_name_and_adds_its_own() {
    let root = tempfile::tempdir().unwrap();
    let base = game(
        root.path(),
        "g",
        "[data]\ndeck = \"data/deck.toml\"\n",
        &rules(
            "",
            "let out = [data(\"deck\", \"card\", 0).name]; try { out.push(data(\"extra\", \"x\")); } catch {} out",
        ),
        &[("data/deck.toml", DECK)],
    );
    assert_eq!(legal(&Game::load(&base, "g").unwrap()), ["fire"]);
    let variant = base.join("variants").join("v");
    std::fs::create_dir_all(variant.join("data")).unwrap();
    std::fs::write(
        variant.join("game.toml"),
        "base = \"g\"\n[data]\ndeck = \"data/deck.toml\"\nextra = \"data/extra.toml\"\n",
    )
    .unwrap();
    std::fs::write(
        variant.join("data/deck.toml"),
        "[[card]]\nname = \"quake\"\n",
    )
    .unwrap();
    std::fs::write(variant.join("data/extra.toml"), "x = \"more\"\n").unwrap();
    assert_eq!(
        legal(&Game::load(&variant, "g/v").unwrap()),
        ["quake", "more"]
    );
}

/// Data reaches scripts read-only: every write is refused (and says how to copy), and a
/// script's `.copy()` changes freely without the next read, call or game seeing it.
#[test]
fn a_script_mutating_its_copy_changes_nothing_another_call_reads() {
    let root = tempfile::tempdir().unwrap();
    let body = r#"
        let seen = [CARDS[0].name, data("deck", "card", 0).name, data("deck").card[0].name];
        let refused = 0;
        let all = CARDS;
        try { all[0].name = "mine"; } catch (e) { if e.contains("read-only") { refused += 1; } }
        try { CARDS[0].name = "mine"; } catch { refused += 1; }
        try { CARDS.push(#{name: "extra"}); } catch { refused += 1; }
        let row = data("deck", "card", 0);
        try { row.name = "mine"; } catch { refused += 1; }
        try { row["name"] = "mine"; } catch { refused += 1; }
        let tags = data("deck", "card", 2, "tags"); try { tags[0] = "dry"; } catch { refused += 1; }
        let copy = CARDS.copy(); copy[0].name = "mine"; copy.clear();
        let copied_row = row.copy(); copied_row.name = "mine"; copied_row.tags = [];
        let all = seen + [CARDS[0].name, data("deck", "card", 0).name, data("deck", "card", 2, "tags", 0), CARDS.len(), refused, copied_row.name];
        let line = ""; for x in all { line += `${x} `; } line.trim(); [line]
    "#;
    let dir = deck_game(root.path(), "const CARDS = data(\"deck\").card;", body);
    let game = Game::load(&dir, "g").unwrap();
    let state = game.start(&Setup::default()).unwrap();
    let fresh = ["fire fire fire fire fire wet 3 6 mine"];
    for _ in 0..2 {
        let actions: Vec<String> = game
            .legal_actions(&state, 0)
            .unwrap()
            .iter()
            .map(|a| a.to_string())
            .collect();
        assert_eq!(actions, fresh);
    }
    // A second game compiled from the same source reads the same.
    let other = GameSource::read(&dir, "g").unwrap().compile().unwrap();
    assert_eq!(legal(&other), fresh);
}

/// A method that takes its receiver by reference (most of Rhai's own: `to_string`, `len` on
/// a string, `contains`) works on a field read through a constant: Rhai writes the receiver
/// back unchanged, which data lets through; a write that changes it is still refused.
#[test]
fn methods_on_fields_of_a_data_constant_work() {
    let root = tempfile::tempdir().unwrap();
    let body = r#"
        let refused = 0;
        try { CARDS[0].copies += 1; } catch (e) { if e.contains("read-only") { refused += 1; } }
        [CARDS[0].copies.to_string(), `${CARDS[0].name.len()}`, `${CARDS[2].tags[1].contains("r")}`,
         `copies ${CARDS[0].copies}`, `refused ${refused}`]
    "#;
    let dir = deck_game(root.path(), "const CARDS = data(\"deck\").card;", body);
    assert_eq!(
        legal(&Game::load(&dir, "g").unwrap()),
        ["2", "4", "true", "copies 2", "refused 1"]
    );
}

/// `freeze` turns a table a script builds into data: read like a data file's (a pointer copy
/// in a constant), refused to write, and refused for what data cannot hold or nests too deep.
#[test]
fn freeze_makes_a_script_table_read_only_data() {
    let root = tempfile::tempdir().unwrap();
    let body = r#"
        let refused = [];
        try { BY_NAME["fire"] = 9; } catch (e) { if e.contains("read-only") { refused.push("write"); } }
        try { freeze(#{ f: Fn("setup") }); } catch (e) { if e.contains("`freeze` takes") { refused.push("fnptr"); } }
        let deep = 1; for i in 0..40 { deep = [deep]; }
        try { freeze(deep); } catch (e) { if e.contains("nested") { refused.push("deep"); } }
        [`fog ${BY_NAME["fog"]}`, `len ${BY_NAME.len()}`, `${"flood" in BY_NAME}`, `${NAMES[1]}`,
         `${freeze(7)}`, `refused ${refused.len()} ${refused.contains("write")} ${refused.contains("fnptr")} ${refused.contains("deep")}`]
    "#;
    let consts = "fn by_name(rows) { let m = #{}; for r in rows { m[r.name] = if \"copies\" in r { r.copies } else { 1 }; } m }\n\
                  const BY_NAME = freeze(by_name(data(\"deck\").card));\n\
                  const NAMES = freeze([\"a\", \"b\"]);";
    let dir = deck_game(root.path(), consts, body);
    assert_eq!(
        legal(&Game::load(&dir, "g").unwrap()),
        [
            "fog 3",
            "len 3",
            "true",
            "b",
            "7",
            "refused 3 true true true"
        ]
    );
}

/// The data is read with the source: a file edited after reading changes no compiled game,
/// and the state carries none of it.
#[test]
fn a_game_source_keeps_the_data_it_read_and_states_do_not_carry_it() {
    let root = tempfile::tempdir().unwrap();
    let dir = deck_game(root.path(), "", "[data(\"deck\", \"card\", 0).name]");
    let source = GameSource::read(&dir, "g").unwrap();
    std::fs::write(dir.join("data/deck.toml"), "[[card]]\nname = \"edited\"\n").unwrap();
    let game = std::thread::spawn(move || legal(&source.compile().unwrap()))
        .join()
        .unwrap();
    assert_eq!(game, ["fire"]);
    let game = Game::load(&dir, "g").unwrap();
    let state = game.start(&Setup::default()).unwrap();
    let saved = serde_json::to_string(&state).unwrap();
    assert!(!saved.contains("edited"), "{saved}");
}

/// A data table or array reads like a map or an array: `for`, `in`, `len`, `keys`, indexing
/// by expression, and `.copy()` for Rhai's own array functions.
#[test]
fn data_reads_like_maps_and_arrays() {
    let root = tempfile::tempdir().unwrap();
    let body = r#"
        let names = ""; for row in CARDS { names += row.name; }
        let fog = CARDS[CARDS.len() - 1];
        let wet = "wet" in fog.tags;
        let keyed = "tags" in fog && !("cost" in fog);
        let kinds = CARDS.copy().filter(|c| "copies" in c && c.copies == 2).len();
        [names, `${wet} ${keyed} ${fog.keys().len()} ${kinds} ${type_of(CARDS)} ${fog.tags.len()}`]
    "#;
    let dir = deck_game(root.path(), "const CARDS = data(\"deck\", \"card\");", body);
    let game = Game::load(&dir, "g").unwrap();
    assert_eq!(legal(&game), ["firefloodfog", "true true 3 1 data 2"]);
}

/// A data array takes Rhai's reading array functions itself (no `.copy()`): `map`, `filter`,
/// `some`, `all` with a closure, `index_of` a value; a table is refused by name.
#[test]
fn data_arrays_map_filter_and_search() {
    let root = tempfile::tempdir().unwrap();
    let body = r#"
        let names = CARDS.map(|c| c.name);
        let two = CARDS.filter(|c| "copies" in c && c.copies == 2).map(|c| c.name);
        let refused = "";
        try { CARDS[0].map(|x| x); } catch (e) { refused = e; }
        [names.reduce(|a, b| a + "+" + b, "names:"), two.reduce(|a, b| a + "+" + b, "two:"), `${CARDS.some(|c| c.name == "fog")} ${CARDS.all(|c| c.name.len() > 3)}`,
         `${NAMES.index_of("b")} ${NAMES.index_of("z")}`, `${refused.contains("takes a data array")}`]
    "#;
    let consts = "const CARDS = data(\"deck\", \"card\");\nconst NAMES = freeze([\"a\", \"b\"]);";
    let dir = deck_game(root.path(), consts, body);
    let game = Game::load(&dir, "g").unwrap();
    assert_eq!(
        legal(&game),
        [
            "names:+fire+flood+fog",
            "two:+fire",
            "true false",
            "1 -1",
            "true"
        ]
    );
}

/// Storing data in the state stores its plain value: the saved state holds that row only.
#[test]
fn a_row_stored_in_the_state_is_a_plain_value() {
    let root = tempfile::tempdir().unwrap();
    let dir = game(
        root.path(),
        "g",
        "[data]\ndeck = \"data/deck.toml\"\n",
        "fn setup(g) { g.set(\"drawn\", data(\"deck\", \"card\", 2)); }\nfn legal_actions(g, seat) { [g.get(\"drawn\").tags[1]] }\nfn apply(g, seat, action) {}\nfn winners(g) { [] }\n",
        &[("data/deck.toml", DECK)],
    );
    let game = Game::load(&dir, "g").unwrap();
    assert_eq!(legal(&game), ["grey"]);
    let saved = serde_json::to_string(&game.start(&Setup::default()).unwrap()).unwrap();
    assert!(saved.contains("fog") && !saved.contains("flood"), "{saved}");
}
