//! The determinization sampler on every shipped game: a state drawn from a seat's view looks
//! to that seat exactly like the real one (same view, same decisions, same legal actions),
//! and it plays on (a random playout from it ends or runs without a script error).

use boardscript_interpreter::bots::{sample, SeatView};
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::State;
use boardscript_tests::{Playouts, Step};

/// The same game as `seat` sees it: the view, minus bookkeeping a view may keep or drop.
fn seen(state: &State, seat: usize) -> serde_json::Value {
    let mut v = state.view(Some(seat)).to_json();
    v.as_object_mut().unwrap().remove("rng");
    v
}

fn consistent(step: &Step) -> Result<(), String> {
    if !step.number.is_multiple_of(3) {
        return Ok(());
    }
    let (game, real) = (step.game, step.after);
    let mut r = rng::seeded(step.number as u64);
    // A question open to another seat lists that seat's options, which the sampler takes
    // from the rules' state (see `SeatView`): a state sampled for a seat not asked may not
    // fit them. Bots sample for the seat that decides.
    let deciding = |seat: usize| {
        real.agenda
            .question()
            .is_none_or(|q| q.options_of(seat).is_some())
    };
    for seat in (0..real.seats.len()).filter(|&s| deciding(s)) {
        let sv = SeatView::of(real, seat);
        let d = sample::determinize(game, &sv, &mut r).map_err(|e| e.to_string())?;
        if seen(&d, seat) != seen(real, seat) {
            return Err(format!(
                "a state sampled for {} looks different to it",
                real.seat_name(seat)
            ));
        }
        let legal = |s: &State| {
            game.decisions(s)
                .map(|d| d.seats)
                .map_err(|e| e.to_string())
        };
        let (a, b) = (legal(real)?, legal(&d)?);
        let mine = |l: &Vec<(usize, Vec<boardscript_interpreter::Action>)>| {
            l.iter().find(|(s, _)| *s == seat).cloned()
        };
        if mine(&a) != mine(&b) {
            return Err(format!(
                "{}'s legal actions differ in a sampled state: {:?} vs {:?}",
                real.seat_name(seat),
                mine(&a),
                mine(&b)
            ));
        }
        let mut d = d;
        let mut bot = rng::seeded(1);
        boardscript_interpreter::bots::random::playout(game, &mut d, &mut bot, 400)
            .or_else(|e| match e {
                boardscript_interpreter::PlayError::NoEnd(n) => Ok(n),
                e => Err(e),
            })
            .map_err(|e| format!("a playout from a sampled state failed: {e}"))?;
    }
    Ok(())
}

fn check(id: &str, games: usize, setup: impl FnOnce(Playouts) -> Playouts) {
    setup(Playouts::new(id).games(games).check(&consistent)).run();
}

#[test]
fn sampled_states_look_the_same_in_perfect_information_games() {
    for id in ["connect-four", "breakthrough", "hex", "virus-wars"] {
        check(id, 2, |p| p);
    }
}

#[test]
fn sampled_states_look_the_same_in_card_games() {
    for id in ["virus-war-kr", "virus-war-fr", "fibs", "cosmic-disaster"] {
        check(id, 2, |p| p.max_length(300));
    }
}

#[test]
fn sampled_states_look_the_same_in_nemesis() {
    check("nemesis", 4, |p| p.max_length(300));
}
