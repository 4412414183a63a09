//! Issue 21: a question's prompt may differ per seat; `actions` (text and the JSON
//! `prompts` field) and `status` show each seat its own, and no other client reads it.

mod common;

use common::*;
use serde_json::json;

const MANIFEST: &str = "[seats]\nnames = [\"p1\", \"p2\", \"p3\"]\n";

const RULES: &str = r#"
fn setup(g) {}
fn legal_actions(g, seat) { ["claim"] }
fn apply(g, seat, action) {
    g.ask(#{ seat: ["p2", "p3"], options: ["swap", "keep"], then_all: "settled",
             prompt: #{ p2: "p1 shows you the Duke: make them swap it?", p3: "p1 claims the Duke: doubt it?" } });
}
fn settled(g, answers) { g.next_turn(); }
fn winners(g) { [] }
"#;

/// `--seat p2`: the bot claims for p1 and answers for p3; p2 reads its own prompt only.
#[test]
fn i21_a_seat_reads_its_own_prompt() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "claims", MANIFEST, RULES);
    let mut p = Proc::start_in("claims", dir.path(), &["--seed", "1", "--seat", "p2"]);
    let actions = p.ok("actions");
    assert_eq!(
        actions["prompts"],
        json!({"p2": "p1 shows you the Duke: make them swap it?"})
    );
    assert!(
        actions["text"]
            .as_str()
            .unwrap()
            .starts_with("p2 decides (2 legal): p1 shows you the Duke: make them swap it?"),
        "{actions}"
    );
    let status = p.ok("status");
    assert!(
        status["text"]
            .as_str()
            .unwrap()
            .contains("(p1 shows you the Duke: make them swap it?)"),
        "{status}"
    );
    let shown = p.ok("show").to_string();
    assert!(!shown.contains("doubt it"), "{shown}");
    p.finish();
}

/// On a shared screen, the JSON `prompts` gives each deciding seat its own; `status` shows
/// neither (they differ).
#[test]
fn i21_every_deciding_seat_has_its_own_prompt() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "claims", MANIFEST, RULES);
    let mut p = Proc::start_in("claims", dir.path(), &["--seed", "1"]);
    p.ok("do claim");
    let actions = p.ok("actions");
    assert_eq!(
        actions["prompts"],
        json!({
            "p2": "p1 shows you the Duke: make them swap it?",
            "p3": "p1 claims the Duke: doubt it?"
        })
    );
    let status = p.ok("status");
    assert_eq!(
        status["text"],
        json!("p2, p3 to decide; 1 action(s) played; seed 1")
    );
    p.finish();
}
