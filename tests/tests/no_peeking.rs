//! No peeking, for every hidden-information game: along random playouts, a second state that
//! differs from the real one only in what the deciding seat cannot see (other hands, deck
//! order, secrets, held choices, the RNG: a determinization from the seat's own view) gives
//! that seat the same `SeatView` (view and unseen pool), and so the same move from the same
//! bot and seed: the random bot, a bot that searches determinizations, and `mcts`.

use boardscript_interpreter::bots::{
    self, choose_for, sample, Bot, BotEnv, BotError, BotSpec, SeatView,
};
use boardscript_interpreter::primitives::rng::{self, GameRng};
use boardscript_interpreter::{Action, Game, PlayError, State};
use boardscript_tests::{Playouts, Step};

/// A bot that looks ahead on determinizations: for each of a few states sampled from its
/// view, one short random playout after each legal action; it plays the action whose
/// playouts ended best for its seat (ties: the first). Anything it could peek at would
/// change its samples and so, often, its move.
struct SamplingBot {
    seed: u64,
}

impl Bot for SamplingBot {
    fn choose(
        &mut self,
        game: &Game,
        view: &SeatView,
        legal: &[Action],
    ) -> Result<usize, BotError> {
        let mut r = rng::seeded(self.seed);
        let mut score = vec![0i64; legal.len()];
        for _ in 0..3 {
            let sampled = sample::determinize(game, view, &mut r)?;
            for (i, action) in legal.iter().enumerate() {
                let mut s = sampled.clone();
                game.apply(&mut s, view.seat(), action.as_ref())?;
                let mut playout_rng = rng::seeded(self.seed ^ i as u64);
                match bots::random::playout(game, &mut s, &mut playout_rng, 30) {
                    Ok(_) | Err(PlayError::NoEnd(_)) => {}
                    Err(e) => return Err(e.into()),
                }
                // A trace of where the playout went: the seat's counters and the log length.
                score[i] += s.seat_counters[view.seat()].values().sum::<i64>() + s.log.len() as i64;
                score[i] += game.winners(&s)?.contains(&view.seat()) as i64 * 1000;
            }
        }
        Ok((0..legal.len())
            .max_by_key(|&i| (score[i], -(i as i64)))
            .unwrap_or(0))
    }
}

/// The same decision taken from `a` and `b` by the random bot and the sampling bot.
fn same_moves(game: &Game, a: &State, b: &State, seat: usize, seed: u64) -> Result<(), String> {
    let (da, db) = (game.decisions(a), game.decisions(b));
    let (da, db) = (
        da.map_err(|e| e.to_string())?,
        db.map_err(|e| e.to_string())?,
    );
    let random = BotSpec::parse("random").unwrap();
    let pick = |make: &dyn Fn() -> Box<dyn Bot>| -> Result<(usize, usize), String> {
        let x = choose_for(make().as_mut(), game, a, &da, seat).map_err(|e| e.to_string())?;
        let y = choose_for(make().as_mut(), game, b, &db, seat).map_err(|e| e.to_string())?;
        Ok((x, y))
    };
    let (x, y) = pick(&|| bots::make(&random, &BotEnv::new(seed)).unwrap())?;
    if x != y {
        return Err(format!(
            "the random bot plays {x} in one state, {y} in the other"
        ));
    }
    let (x, y) = pick(&|| Box::new(SamplingBot { seed }))?;
    if x != y {
        return Err(format!(
            "the sampling bot plays {x} in one state, {y} in the other"
        ));
    }
    // The information-set search itself, a few iterations (rollouts cut where the game can
    // score a position), at some of the points only: it is the slowest.
    if seed.is_multiple_of(4) {
        let mcts = BotSpec::parse("mcts:iters=12,depth=20").unwrap();
        let (x, y) = pick(&|| bots::make(&mcts, &BotEnv::new(seed)).unwrap())?;
        if x != y {
            return Err(format!("mcts plays {x} in one state, {y} in the other"));
        }
    }
    Ok(())
}

/// A state the deciding seats cannot tell from `real`, for each of them.
fn no_peeking(step: &Step, every: usize) -> Result<(), String> {
    if !step.number.is_multiple_of(every) {
        return Ok(());
    }
    let (game, real) = (step.game, step.after);
    let decisions = game.decisions(real).map_err(|e| e.to_string())?;
    let mut r: GameRng = rng::seeded(step.number as u64 + 7);
    for (seat, _) in &decisions.seats {
        let seat = *seat;
        let sv = SeatView::of(real, seat);
        let other = sample::determinize(game, &sv, &mut r).map_err(|e| e.to_string())?;
        if SeatView::of(&other, seat) != sv {
            let (v, w) = (SeatView::of(&other, seat), sv);
            let (u, x) = (v.unseen(), w.unseen());
            let what = match () {
                _ if v.state() != w.state() => "view",
                _ if u.ids != x.ids || u.cards != x.cards => "unseen cards",
                _ if u.may_lie != x.may_lie => "unseen cards' whereabouts",
                _ if u.secrets != x.secrets || u.secret_holders != x.secret_holders => {
                    "unseen secrets"
                }
                _ if u.bag_tokens != x.bag_tokens => "hidden bags",
                _ => "unseen pool",
            };
            return Err(format!(
                "{} tells a state it cannot tell apart from the real one by its {what}",
                real.seat_name(seat)
            ));
        }
        same_moves(game, real, &other, seat, step.number as u64)?;
    }
    Ok(())
}

#[test]
fn the_card_games_give_a_seat_nothing_it_cannot_see() {
    let check = |s: &Step| no_peeking(s, 2);
    for id in ["virus-war-kr", "virus-war-fr", "fibs", "cosmic-disaster"] {
        Playouts::new(id)
            .games(2)
            .max_length(200)
            .check(&check)
            .run();
    }
}

#[test]
fn nemesis_gives_a_seat_nothing_it_cannot_see() {
    let check = |s: &Step| no_peeking(s, 5);
    Playouts::new("nemesis")
        .games(2)
        .max_length(200)
        .check(&check)
        .run();
}

/// The check can fail: a state where another seat's hidden card differs is told apart when
/// the view shows it (a spectator's pool is not the seat's).
#[test]
fn a_state_that_differs_in_what_the_seat_sees_is_told_apart() {
    let game = boardscript_tests::load("fibs");
    let state = game.start(&Default::default()).unwrap();
    let a = SeatView::of(&state, 0);
    let b = SeatView::of(&state, 1);
    assert_ne!(a, b, "two seats' views of a dealt card game differ");
    let mut r = rng::seeded(3);
    let other = sample::determinize(&game, &b, &mut r).unwrap();
    assert_ne!(
        SeatView::of(&other, 0),
        a,
        "seat 0's hand was dealt again for seat 1"
    );
}
