//! Issue 20, the crashes as tests: each runs the real binary under an address-space limit
//! (`ulimit -v`) and a wall bound that kills it, and asserts the specific clear error and that
//! the process answers afterwards (`play --json`), or that the playout reports it (`sim`,
//! `check`). Before the fixes each of these aborted on a failed allocation or never answered.

mod common;

use common::{run_fed, scripts_dir, write_game};
use serde_json::Value;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// Address space for the child: the script thread's 256 MiB stack and a state at its
/// default budget fit; a runaway allocation does not.
const ULIMIT: &str = "ulimit -v 2000000;";

/// Longer than any of these runs takes; a hang fails the test here.
const WALL: Duration = Duration::from_secs(120);

/// Runs `boardscript ARGS` with `input` on stdin under the limits; its output.
fn run(scripts: &Path, args: &[&str], input: &str) -> Output {
    run_fed(scripts, ULIMIT, args, input, WALL)
}

/// The JSON replies of a `play --json` run: one per command, the process exiting cleanly.
fn replies(out: &Output) -> Vec<Value> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("`{l}`: {e}")))
        .collect()
}

fn error(reply: &Value) -> &str {
    assert_eq!(reply["ok"], false, "{reply}");
    reply["error"].as_str().expect("an error")
}

/// Item 1: `freeze([d, d])` forty times, then `.copy()`: refused at `freeze`, and `status`
/// answers (it aborted with "memory allocation failed").
#[test]
fn doubling_a_frozen_value_is_refused_and_the_process_answers() {
    refused_at_freeze_then_answers(
        "eval let d=freeze([1]); for i in 0..40 { d=freeze([d,d]); } d.copy(); 1",
    );
}

/// Item 2: comparing two doubled values built apart never answered.
#[test]
fn comparing_doubled_values_is_refused_and_the_process_answers() {
    refused_at_freeze_then_answers("eval let a=freeze([1]); let b=freeze([1]); for i in 0..60 { a=freeze([a,a]); b=freeze([b,b]); } let x=freeze([a]); x[0]=b; 1");
}

/// `eval_line` is refused at `freeze` for the weight it would have, and `status` answers after.
fn refused_at_freeze_then_answers(eval_line: &str) {
    let input = format!("{eval_line}\nstatus\n");
    let out = run(&scripts_dir(), &["play", "virus-wars", "--json"], &input);
    let r = replies(&out);
    assert!(
        error(&r[0]).contains("`freeze`: this value would weigh"),
        "{}",
        r[0]
    );
    assert_eq!(r[1]["ok"], true, "{}", r[1]);
    assert_eq!(r.len(), 2);
}

/// The hoarding game: every action stores 38 lists of 49,000 numbers, under new
/// keys (`fresh`: the state grows) or the same ones (the undo history grows).
fn hoarder(dir: &Path, fresh: bool) {
    let key = if fresh { "`k${n}_${i}`" } else { "`k${i}`" };
    write_game(
        dir,
        "hoard",
        "title = \"Hoard\"\n[seats]\nnames = [\"a\", \"b\"]\n",
        &format!(
            "fn setup(g) {{ g.set(\"n\", 0); }}\n\
             fn legal_actions(g, seat) {{ [\"a\"] }}\n\
             fn apply(g, seat, action) {{\n\
                 let n = g.get(\"n\"); let row = []; row.pad(49000, n);\n\
                 for i in 0..38 {{ g.set({key}, row); }}\n\
                 g.set(\"n\", n + 1);\n\
             }}\n\
             fn winners(g) {{ [] }}\n"
        ),
    );
}

/// Item 3: `do a`, `bot 200` aborted at ~3.6 GB. Now the action past the state budget is
/// refused (and with it the whole `bot` command), the game stays where it was, and `status`
/// answers.
#[test]
fn a_hoarding_game_is_stopped_at_its_state_budget() {
    for (fresh, what) in [(true, "state"), (false, "state and undo history")] {
        let dir = tempfile::tempdir().unwrap();
        hoarder(dir.path(), fresh);
        let out = run(
            dir.path(),
            &["play", "hoard", "--json", "--seed", "1"],
            "do a\nbot 200\nstatus\n",
        );
        let r = replies(&out);
        assert_eq!(r[0]["ok"], true, "{}", r[0]);
        let e = error(&r[1]);
        assert!(
            e.contains(&format!("would make the game's {what} weigh"))
                && e.contains("over its budget of 268435456 (`state_size` in [limits])"),
            "{e}"
        );
        assert!(
            r[2]["text"]
                .as_str()
                .is_some_and(|t| t.contains("1 action(s) played")),
            "{}",
            r[2]
        );
    }
}

/// Item 3 under `sim` and `check`: a playout error naming the budget, not an abort.
#[test]
fn sim_and_check_report_the_state_budget_as_a_playout_error() {
    let dir = tempfile::tempdir().unwrap();
    hoarder(dir.path(), true);
    for args in [
        &["sim", "hoard", "--games", "1", "--threads", "1"][..],
        &["check", "hoard", "--games", "1"][..],
    ] {
        let out = run(dir.path(), args, "");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        assert!(
            text.contains("over its budget of 268435456 (`state_size` in [limits])"),
            "{args:?}: {text}"
        );
    }
}
