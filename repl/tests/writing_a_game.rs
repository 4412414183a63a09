//! Writing a game (issue 20 items 11 and 12): the complete game in the README's "Writing a
//! game" (Nim) passes `check` and plays as it says, and `winners(g)` is needed only by rules
//! that do not end the game with `g.end_game`.

mod common;

use common::{run_fed, write_game};
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// Runs `boardscript ARGS --scripts DIR` with `input` on stdin, killed after 60 s.
fn run(scripts: &Path, args: &[&str], input: &str) -> Output {
    run_fed(scripts, "", args, input, Duration::from_secs(60))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The first fenced block of `lang` in the README's "Writing a game" section.
fn readme_block(lang: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let section = &readme[readme
        .find("\n## Writing a game\n")
        .expect("a Writing a game section")..];
    let open = format!("\n```{lang}\n");
    let start = section
        .find(&open)
        .unwrap_or_else(|| panic!("no ```{lang} block"))
        + open.len();
    let len = section[start..].find("\n```\n").expect("a closed block");
    section[start..start + len + 1].to_string()
}

/// The README's Nim, written to a scripts folder exactly as the README shows it.
fn readme_nim() -> tempfile::TempDir {
    let manifest = readme_block("toml");
    let rules = readme_block("rhai");
    assert!(manifest.starts_with("title = \"Nim\""), "{manifest}");
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "nim", &manifest, &rules);
    dir
}

/// Item 12: the README's complete game is `game.toml` and `rules.rhai` with `setup`,
/// `legal_actions`, `apply` and `render`, and no `winners` (it ends with `g.end_game`).
#[test]
fn i20_12_the_readme_game_is_complete() {
    let rules = readme_block("rhai");
    for f in [
        "fn setup(g)",
        "fn legal_actions(g, seat)",
        "fn apply(g, seat, action)",
        "fn render(g, seat)",
    ] {
        assert!(rules.contains(f), "the README's Nim lacks `{f}`");
    }
    assert!(
        !rules.contains("fn winners"),
        "item 11: Nim ends with g.end_game alone"
    );
}

/// Item 12: `check` passes on the README's Nim as written.
#[test]
fn i20_12_the_readme_game_passes_check() {
    let dir = readme_nim();
    let out = run(dir.path(), &["check", "nim", "--games", "20"], "");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("20 random playout(s) finished without error"),
        "{said}"
    );
}

/// Item 12: Nim plays as the README says: the turn passes after each action, and taking the
/// last stone ends the game with the words `status` and `show` print.
#[test]
fn i20_12_the_readme_game_plays_as_described() {
    let dir = readme_nim();
    let input = "status\ntake 3\nstatus\ntake 3\ntake 3\ntake 3\ntake 3\nstatus\nshow\n";
    let out = run(dir.path(), &["play", "nim", "--seed", "1"], input);
    let said = text(&out);
    assert!(
        said.contains("first to decide; 0 action(s) played"),
        "{said}"
    );
    assert!(
        said.contains("second to decide; 1 action(s) played"),
        "{said}"
    );
    assert!(
        said.contains("game over: first wins (took the last stone)"),
        "{said}"
    );
    assert!(
        said.contains("heap: 0\nfirst wins (took the last stone)"),
        "{said}"
    );
}

/// Item 11: `sim` on a game without `winners` tallies the wins `g.end_game` gave.
#[test]
fn i20_11_sim_counts_end_game_wins_without_winners() {
    let dir = readme_nim();
    let out = run(
        dir.path(),
        &["sim", "nim", "--games", "40", "--threads", "1"],
        "",
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("no winner           0"), "{said}");
    assert!(said.contains("win: took the last stone       40"), "{said}");
}

/// Rules that never call `g.end_game` (a comment naming it does not count), with `winners`
/// left out.
const NEITHER: &str = "// not yet: g.end_game([\"a\"], \"heap empty\");\n\
fn setup(g) { g.set_counter(\"heap\", 5); g.set_steps(1); }\n\
fn legal_actions(g, seat) { if g.counter(\"heap\") > 0 { [\"take\"] } else { [] } }\n\
fn apply(g, seat, action) { g.add_counter(\"heap\", -1); }\n";

/// Item 11: a game with neither `winners` nor `g.end_game` does not load, and the error
/// names both.
#[test]
fn i20_11_a_game_with_neither_is_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    write_game(
        dir.path(),
        "heap",
        "[seats]\nnames = [\"a\", \"b\"]\n",
        NEITHER,
    );
    let out = run(dir.path(), &["check", "heap"], "");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("rules.rhai: missing protocol function `winners(g)`: rules that never end the game with `g.end_game(winners, reason)` must say who won"),
        "{said}"
    );
}

/// Item 11: rules that call `g.end_game` on some path but end a game by leaving nobody able
/// to act, without `winners`, fail that playout with an error naming what is missing.
#[test]
fn i20_11_an_end_without_end_game_or_winners_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let rules = NEITHER.replace(
        "g.add_counter(\"heap\", -1); }",
        "g.add_counter(\"heap\", -1); if g.counter(\"heap\") < 0 { g.end_game(\"never\"); } }",
    );
    write_game(
        dir.path(),
        "heap",
        "[seats]\nnames = [\"a\", \"b\"]\n",
        &rules,
    );
    let out = run(dir.path(), &["check", "heap", "--games", "2"], "");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "nobody can act, but the game was not ended: missing protocol function `winners(g)`"
        ),
        "{said}"
    );
    let out = run(
        dir.path(),
        &["play", "heap"],
        "take\ntake\ntake\ntake\ntake\nstatus\n",
    );
    assert!(
        text(&out).contains("error: ") && text(&out).contains("the game was not ended"),
        "{}",
        text(&out)
    );
}
