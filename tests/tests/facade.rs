//! The library's facade as an embedder uses it (issue 24): only the names the crate root
//! exports for it, from another crate. Tables on several threads at once, checked seats,
//! views that never show another seat's hidden cards, errors that list only the asking
//! seat's options.

use boardscript_interpreter::{GameSource, Seat, Setup, Table, TableError};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

fn scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

fn source(id: &str) -> GameSource {
    GameSource::find(&scripts(), id).unwrap_or_else(|e| panic!("reading {id}: {e}"))
}

fn setup(seats: Option<usize>, seed: u64) -> Setup {
    Setup {
        seats,
        seed,
        ..Setup::default()
    }
}

/// Plays random bot moves until the game ends (or `limit` actions); returns the actions.
fn play_out(table: &Table, limit: usize) -> Vec<String> {
    let mut played = vec![];
    while let Some(&seat) = table.deciding().unwrap().first() {
        if played.len() == limit {
            break;
        }
        played.push(table.play_bot(seat, "random").unwrap());
    }
    played
}

#[test]
fn four_threads_play_from_one_source_as_one_thread_does() {
    let source = Arc::new(source("fibs"));
    // Plain threads with the default stack: each table brings the stack its scripts need.
    let games: Vec<_> = (0..4u64)
        .map(|seed| {
            let source = source.clone();
            std::thread::spawn(move || {
                let table = Table::new(&source, setup(Some(3), seed)).unwrap();
                let actions = play_out(&table, 10_000);
                (actions, table.outcome().unwrap().map(|o| o.text))
            })
        })
        .collect();
    let games: Vec<_> = games.into_iter().map(|h| h.join().unwrap()).collect();
    for (seed, (actions, outcome)) in games.iter().enumerate() {
        assert!(outcome.is_some(), "game {seed} did not end");
        // The same game again, alone on this thread: the same actions and ending.
        let table = Table::new(&source, setup(Some(3), seed as u64)).unwrap();
        assert_eq!(&play_out(&table, 10_000), actions, "seed {seed}");
        assert_eq!(&table.outcome().unwrap().map(|o| o.text), outcome);
    }
    assert_ne!(games[0].0, games[1].0, "two seeds, one game");
}

#[test]
fn a_seat_out_of_range_is_an_error_at_every_call() {
    let two = Table::new(&source("connect-four"), setup(None, 1)).unwrap();
    let four = Table::new(&source("fibs"), setup(Some(4), 1)).unwrap();
    let out = TableError::NoSeat { index: 3, seats: 2 };
    assert_eq!(two.seat_at(3), Err(out.clone()));
    // A seat of another table, valid there, is refused here: never a panic.
    let stranger: Seat = four.seat_at(3).unwrap();
    assert_eq!(two.apply(stranger, "d").unwrap_err(), out);
    assert_eq!(two.decision(stranger).unwrap_err(), out);
    assert_eq!(two.view(stranger).unwrap_err(), out);
    assert_eq!(two.play_bot(stranger, "random").unwrap_err(), out);
    assert_eq!(two.name(stranger).unwrap_err(), out);
    assert!(matches!(
        two.seat("nobody"),
        Err(TableError::NoSeatNamed { name, .. }) if name == "nobody"
    ));
    // Nothing was played by the refused calls.
    assert!(two.save().unwrap().actions.is_empty());
}

#[test]
fn an_illegal_action_lists_only_the_asking_seats_options() {
    let table = Table::new(&source("fibs"), setup(Some(3), 5)).unwrap();
    play_out(&table, 4);
    // A step where one seat decides alone (others may answer at once in this game).
    while table.deciding().unwrap().len() != 1 {
        play_out(&table, 1);
    }
    let seat = table.deciding().unwrap()[0];
    let mine: BTreeSet<String> = table.decision(seat).unwrap().options.into_iter().collect();
    let name = table.name(seat).unwrap().to_string();
    let Err(TableError::Illegal {
        seat: who, legal, ..
    }) = table.apply(seat, "bogus 99")
    else {
        panic!("an illegal action was not refused as illegal");
    };
    assert_eq!(who, name);
    let listed: Vec<&str> = legal.split(", ").map(|a| a.trim_matches('`')).collect();
    assert!(!listed.is_empty());
    for action in listed
        .iter()
        .filter(|a| !a.starts_with("...") && !a.contains(" more"))
    {
        assert!(
            mine.contains(*action),
            "`{action}` is not {name}'s: {legal}"
        );
    }
    // A seat that is not deciding is told who is, and nothing of anyone's options.
    let other = table.seats().into_iter().find(|s| *s != seat).unwrap();
    let err = table.apply(other, "bogus 99").unwrap_err();
    assert_eq!(
        err,
        TableError::NotDeciding {
            seat: table.name(other).unwrap().to_string(),
            waiting: name,
        }
    );
}

/// The card ids `zone` shows (hidden ones left out).
fn shown(zone: &Value) -> impl Iterator<Item = u64> + '_ {
    const HIDDEN: u64 = 65535;
    zone["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .filter(|&c| c != HIDDEN)
}

/// Whether the card's catalogue entry in `state` says `seat` (None: everyone) was shown it.
fn known_to(state: &Value, card: u64, seat: Option<usize>) -> bool {
    match (&state["cards"][card as usize]["known_to"], seat) {
        (Value::String(s), _) => s == "everyone",
        (Value::Array(seats), Some(seat)) => seats.iter().any(|s| s.as_u64() == Some(seat as u64)),
        _ => false,
    }
}

/// The rule every view keeps: a card shows only in a zone everyone sees, in a zone of the
/// viewer's own that its owner sees, or where its catalogue entry says the viewer was shown
/// it. `seat` None: a spectator.
fn check_view(table: &Table, seat: Option<Seat>) -> Result<Value, String> {
    let view = match seat {
        Some(seat) => table.view(seat),
        None => table.spectator_view(),
    };
    let state = view.unwrap().to_json()["state"].clone();
    let me = seat.map(Seat::index);
    for zone in state["zones"].as_array().unwrap() {
        let open = zone["visibility"] == "all"
            || (zone["visibility"] == "owner"
                && me.is_some()
                && zone["owner"].as_u64() == me.map(|s| s as u64));
        if let Some(card) = shown(zone).find(|&c| !open && !known_to(&state, c, me)) {
            return Err(format!(
                "{} sees card {card} ({}) in zone {} of {}",
                seat.map_or("a spectator", |s| table.name(s).unwrap()),
                state["cards"][card as usize]["name"],
                zone["name"],
                zone["owner"]
            ));
        }
    }
    Ok(state)
}

#[test]
fn views_never_show_another_seats_hidden_cards_in_any_game() {
    let games = GameSource::list(&scripts());
    assert!(games.len() >= 10, "games found: {games:?}");
    let mut placeholder_rng = None;
    for id in &games {
        let source = source(id);
        for seed in 0..2 {
            let table = Table::new(&source, setup(None, seed)).unwrap();
            for step in 0..200 {
                let at = |e: String| panic!("{id} seed {seed} step {step}: {e}");
                let spectator = check_view(&table, None).unwrap_or_else(at);
                // Views carry a stand-in RNG, the same in every game and at every step.
                let rng = placeholder_rng.get_or_insert_with(|| spectator["rng"].clone());
                for seat in table.seats() {
                    let view = check_view(&table, Some(seat)).unwrap_or_else(at);
                    assert_eq!(&view["rng"], rng, "{id} seed {seed} step {step}");
                }
                let Some(&seat) = table.deciding().unwrap().first() else {
                    break;
                };
                table.play_bot(seat, "random").unwrap();
            }
        }
    }
}

#[test]
fn a_refused_action_changes_nothing() {
    let table = Table::new(&source("connect-four"), setup(None, 3)).unwrap();
    play_out(&table, 3);
    let before = table.save().unwrap();
    let seat = table.deciding().unwrap()[0];
    let view = table.view(seat).unwrap().to_json();
    assert!(matches!(
        table.apply(seat, "z9"),
        Err(TableError::Illegal { .. } | TableError::Rules(_))
    ));
    assert_eq!(table.save().unwrap(), before);
    assert_eq!(table.view(seat).unwrap().to_json(), view);
}

#[test]
fn undo_save_and_load_round_trip() {
    let source = source("fibs");
    let table = Table::new(&source, setup(Some(2), 9)).unwrap();
    play_out(&table, 6);
    let save = table.save().unwrap();
    let seat = table.seats()[0];
    let view = table.view(seat).unwrap().to_json();
    assert_eq!(table.undo(2).unwrap(), 2);
    assert_eq!(table.save().unwrap().actions.len(), save.actions.len() - 2);
    let other = Table::new(&source, setup(Some(2), 1)).unwrap();
    other.load(save.clone()).unwrap();
    assert_eq!(other.save().unwrap(), save);
    assert_eq!(other.view(seat).unwrap().to_json(), view);
    // A save of another game is refused, and the table keeps its game.
    let mut wrong = save.clone();
    wrong.game = "connect-four".into();
    assert!(matches!(other.load(wrong), Err(TableError::Rules(m)) if m.contains("not `fibs`")));
    assert_eq!(other.save().unwrap(), save);
}

#[test]
fn redo_reload_and_a_hint_from_the_seats_options() {
    let source = source("connect-four");
    let table = Table::new(&source, setup(None, 4)).unwrap();
    let played = play_out(&table, 5);
    assert_eq!(table.undo(3).unwrap(), 3);
    assert_eq!(table.redo(5).unwrap(), 3, "only what was taken back");
    assert_eq!(table.save().unwrap().actions.len(), 5);
    // The same rules again: every action replays.
    let report = table.reload(&source).unwrap();
    assert_eq!((report.replayed, report.refused), (5, None));
    assert_eq!(
        table
            .save()
            .unwrap()
            .actions
            .iter()
            .map(|p| p.action.clone())
            .collect::<Vec<_>>(),
        played
    );
    let seat = table.deciding().unwrap()[0];
    let options = table.decision(seat).unwrap().options;
    let hint = table.hint(seat, "mcts:iters=200").unwrap();
    assert_eq!(hint.iterations, 200);
    assert!(!hint.moves.is_empty());
    assert!(hint.moves.iter().all(|m| options.contains(&m.action)));
    // A hint plays nothing; a bad bot is refused as a bot error.
    assert_eq!(table.save().unwrap().actions.len(), 5);
    assert!(
        matches!(table.hint(seat, "nosuchbot"), Err(TableError::Bot(m)) if m.contains("no bot `nosuchbot`"))
    );
    // The referee's tools read the whole state; nothing changes.
    assert_eq!(table.eval("1 + 2").unwrap(), "3");
    let spectator = table.spectator_view().unwrap().to_json();
    assert_ne!(
        table.referee_json().unwrap()["rng"],
        spectator["state"]["rng"]
    );
}

/// The README's example ("Using the engine as a library"), as written there.
#[test]
fn the_readme_example_runs() -> Result<(), Box<dyn std::error::Error>> {
    let source = GameSource::find(&scripts(), "fibs")?;
    let table = Table::new(
        &source,
        Setup {
            seats: Some(3),
            seed: 7,
            ..Setup::default()
        },
    )?;
    let mut moves = 0;
    while let Some(&seat) = table.deciding()?.first() {
        let decision = table.decision(seat)?;
        let view = table.view(seat)?;
        assert!(!decision.options.is_empty());
        let _ = (table.name(seat)?, view.log().last().map(|l| l.len()));
        table.play_bot(seat, "mcts:iters=200")?;
        moves += 1;
    }
    assert!(moves > 0);
    assert!(table.outcome()?.unwrap().text.contains("win"));
    Ok(())
}
