//! Fuzzing the save loader and the machine protocol (`play GAME --json`) with proptest.
//!
//! - The save loader, in process: arbitrary text and mutated valid saves never panic; a save
//!   is refused with one line, or accepted only if it is well formed.
//! - The binary: each case starts one process and sends a random mix of valid commands (legal
//!   actions, `bot`, `undo`, `redo`, saves and loads) and hostile lines (unknown commands,
//!   illegal actions, bad numbers, garbage and mutated files, NUL bytes, invalid UTF-8,
//!   100 KB lines). Whatever comes in: exactly one JSON object with `ok` per line; after a
//!   refusal the full `state` is byte-identical to the one before; queries change nothing; the
//!   undo and redo history matches a model kept here; stderr stays silent; and `quit` ends
//!   the process with status 0. This is the contract of docs/protocol.md ("a refused command
//!   changes nothing").
//!
//! Cases are bounded (`PROPTEST_CASES` overrides the defaults below) and the seed is fixed so
//! CI is reproducible; `PROPTEST_RNG_SEED=<n>` explores other cases. Failures are not
//! persisted to files: proptest prints the minimal failing case, which becomes a test here.

mod case;
mod mutate;
mod process;

use boardscript_interpreter::log::{SaveFile, SAVE_FORMAT};
use case::{op, run_case, LongKind, Op};
use mutate::{mutate_save, sample_save, save_edits, SaveEdit, SaveField};
use process::{Proc, SAVE_REFUSALS_ARE_ONE_LINE, TRAP};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::json;

/// Cases of the in-process save parser: cheap.
const PARSER_CASES: u32 = 512;
/// Cases of the binary fuzz: one child process each, a few dozen lines per case.
const PROTOCOL_CASES: u32 = 48;

const GAMES: &[&str] = &["virus-wars", "virus-war-kr"];

fn config(default_cases: u32) -> Config {
    fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok()?.parse().ok()
    }
    Config {
        cases: env("PROPTEST_CASES").unwrap_or(default_cases),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x5EED_0009)),
        failure_persistence: None,
        // Shrinking a protocol case restarts the process each time: keep it bounded.
        max_shrink_iters: 256,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Part 1: the save parser, in process

/// A refusal is one line; an acceptance is a save of this game in this format, which
/// serializes and parses back to itself.
fn check_parse(text: &str, game: &str) -> Result<(), TestCaseError> {
    match SaveFile::parse(text, game) {
        Err(e) => {
            prop_assert!(!e.is_empty());
            prop_assert!(
                !SAVE_REFUSALS_ARE_ONE_LINE || !e.contains(['\n', '\r']),
                "refusal is not one line: {:?}",
                e
            );
        }
        Ok(save) => {
            prop_assert_eq!(&save.format, SAVE_FORMAT);
            prop_assert_eq!(&save.game, game);
            let again = serde_json::to_string(&save).unwrap();
            prop_assert_eq!(SaveFile::parse(&again, game), Ok(save));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(PARSER_CASES))]

    #[test]
    fn save_parser_never_panics_on_arbitrary_text(text in any::<String>()) {
        check_parse(&text, "virus-wars")?;
    }

    #[test]
    fn save_parser_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check_parse(&String::from_utf8_lossy(&bytes), "virus-wars")?;
    }

    #[test]
    fn save_parser_refuses_or_accepts_mutated_saves_cleanly(
        edits in save_edits(),
        seed in any::<u64>(),
    ) {
        let base = sample_save(
            "virus-wars",
            &["blue", "red"],
            &[("blue", "a6"), ("blue", "b6"), ("blue", "c6")],
            seed,
        );
        let mutated = mutate_save(&base, &edits);
        check_parse(&String::from_utf8_lossy(&mutated), "virus-wars")?;
    }
}

// ---------------------------------------------------------------------------------------------
// Part 2: the binary (`case.rs` builds and checks each case, `process.rs` drives the process)

proptest! {
    #![proptest_config(config(PROTOCOL_CASES))]

    #[test]
    fn protocol_keeps_its_contract_under_hostile_input(
        game in prop::sample::select(GAMES),
        seed in 0..10_000u64,
        ops in prop::collection::vec(op(), 1..24),
    ) {
        run_case(game, seed, &ops);
    }

    /// The same on a game whose script fails now and then, so refusals come from script
    /// errors in the middle of `do` and `bot`. Fails today (the two minimal cases below).
    #[test]
    fn protocol_keeps_its_contract_when_scripts_fail(
        seed in 0..10_000u64,
        ops in prop::collection::vec(op(), 1..24),
    ) {
        run_case(TRAP, seed, &ops);
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed cases: the hostile lines of the issue, in one process per game, whatever the seed.

#[test]
fn every_hostile_line_of_the_issue_is_refused_and_changes_nothing() {
    let ops = [
        Op::DoLegal {
            pick: 0,
            name_seat: false,
        },
        Op::DoLegal {
            pick: 1,
            name_seat: true,
        },
        Op::Undo(1),
        Op::Unknown("frob".into()),
        Op::IllegalAction("x".into()),
        Op::DoNobody,
        Op::DoNotDeciding(0),
        Op::Pick0,
        Op::PickHuge,
        Op::LoadMissing,
        Op::LoadFolder,
        Op::LoadGarbage(b"{\"format\":".to_vec()),
        Op::PositionGarbage(b"\x00\xff garbage".to_vec()),
        Op::LoadMutated(vec![SaveEdit::Set(SaveField::Game, json!("chess"))]),
        Op::Empty,
        Op::WithNul("a1".into()),
        Op::InvalidUtf8(vec![0xFF, 0xFE]),
        Op::Long(LongKind::Do),
        Op::Long(LongKind::Word),
        Op::Long(LongKind::Load),
        Op::Long(LongKind::Nul),
        Op::Long(LongKind::Invalid),
        Op::Arbitrary("undo 99999999999999999999".into()),
        Op::Arbitrary("bot 18446744073709551616".into()),
        Op::Bot(2),
        Op::Undo(3),
        Op::Redo(1),
        Op::Save,
        Op::LoadSaved(0),
    ];
    for game in GAMES {
        run_case(game, 7, &ops);
    }
}

// ---------------------------------------------------------------------------------------------
// What the fuzzing found (issue 9): minimal cases, ignored until fixed.

/// A save's own text is quoted into the refusal verbatim (its `format`, its `game`, an
/// unknown field's name, an action it holds), so a crafted save prints any lines it likes: in
/// the REPL on stderr, in JSON an error that is not one line.
#[test]
fn save_refusals_are_one_line_whatever_the_file_holds() {
    let forged = json!("a\nerror: forged line");
    let base = sample_save("virus-wars", &["blue", "red"], &[("blue", "a6")], 1);
    let edits = [
        SaveEdit::Set(SaveField::Format, forged.clone()),
        SaveEdit::Set(SaveField::Game, forged.clone()),
        SaveEdit::UnknownKey("a\nerror: forged line".into()),
        SaveEdit::Set(SaveField::ActionText(0), forged.clone()),
    ];
    // The parser alone: the first three.
    for edit in &edits[..3] {
        let text = String::from_utf8(mutate_save(&base, std::slice::from_ref(edit))).unwrap();
        let e = SaveFile::parse(&text, "virus-wars").unwrap_err();
        assert!(!e.contains('\n'), "{edit:?}: {e:?}");
    }
    // Through `load`, all four; `send` asserts that each refusal is one line.
    let mut p = Proc::start("virus-wars", 1);
    for (i, edit) in edits.iter().enumerate() {
        let path = p.dir.path().join(format!("forged-{i}.json"));
        std::fs::write(&path, mutate_save(&base, std::slice::from_ref(edit))).unwrap();
        assert_eq!(p.line(&format!("load {}", path.display()))["ok"], false);
    }
    p.finish();
}

/// A script error's message is passed on verbatim: `throw "a\nb"` (or any script error whose
/// text holds a newline) gives an error that is not one line.
#[test]
fn script_errors_are_refused_on_one_line() {
    let mut p = Proc::start("virus-wars", 1);
    let reply = p.line("eval throw \"a\\nb\"");
    assert_eq!(reply["ok"], false);
    p.finish();
}

/// `do` applies the action, then the script's next `legal_actions` throws: the reply is a
/// refusal, but the action stays applied and in the history.
#[test]
fn a_do_refused_by_the_next_legal_actions_changes_nothing() {
    let step = Op::DoLegal {
        pick: 0,
        name_seat: false,
    };
    // Moves 0..4 are fine; the fifth `step` makes moves % 7 == 5.
    run_case(TRAP, 1, &vec![step; 5]);
}

/// `bot 2` plays one action, then the script throws on the second: the reply is a refusal, but
/// the first action stays applied (the fuzz's minimal case, seed 225).
#[test]
fn a_bot_refused_part_way_changes_nothing() {
    let step = Op::DoLegal {
        pick: 0,
        name_seat: false,
    };
    run_case(TRAP, 225, &[step, Op::Bot(2)]);
}
