//! The leak check: whether what a seat cannot see changes what it is shown next. A check at
//! one instant cannot see a rule that skips a question when two hidden cards are equal (the
//! question is already asked or not), so it compares one action ahead.
//!
//! At a state `S` with the next action `a` and a seat `s`: `D` is `S` with everything `s`
//! cannot see re-dealt (`sample`, within the public whereabouts), but for the cards `a` shows
//! `s`, even in passing, and the card secrets some seat knows after `a` (they stay as they
//! are: see `keep_shown_secrets`), with `S`'s RNG (shuffles and draws fall alike),
//! script data no seat sees as in `S`, and other seats' held choices as in `S` where `a`
//! resolves them. `a` is applied to both; `s`'s view (log and prompt included), who decides
//! and `s`'s legal actions must then be equal. A deal is set aside, telling nothing, when
//! `a` is refused in it (another seat's action that depends on what it holds), when `a`
//! shows `s` other cards in it than in `S` (a reveal that depends on hidden cards, such as
//! "show the highest card": what it shows is the information it gives), or when `a` moves
//! other copies of the same cards (which of two alike cards goes is the mover's choice).

use super::sample::{self, SampleError};
use super::seat_view::SeatView;
use crate::game::{Game, PlayError};
use crate::primitives::rng::{self, GameRng};
use crate::primitives::zone::CardId;
use crate::state::{State, Witness};
use rand::RngCore;
use std::collections::BTreeSet;

/// What a re-deal changed for a seat.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} changes for {seat_name} when what it cannot see is dealt again ({detail})")]
pub struct Leak {
    pub seat: usize,
    pub seat_name: String,
    /// What differs: `its view`, `its legal actions`, `who decides`.
    pub what: String,
    /// Where it differs first, with both values, so the script line to mend can be found.
    pub detail: String,
}

/// Why a check could not run (not a leak): the game refused the action, or the sampler.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PeekError {
    #[error("{0}")]
    Leak(#[from] Leak),
    #[error("{0}")]
    Play(#[from] PlayError),
    #[error("{0}")]
    Sample(#[from] SampleError),
}

/// Whether a deal told something (`Compared`) or was set aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peeked {
    Compared,
    SetAside,
}

/// Checks, for `seat`, action `action` of `actor` in `state` (see the module note), with one
/// deal drawn from `rng`.
pub fn peek_check(
    game: &Game,
    state: &State,
    seat: usize,
    actor: usize,
    action: &str,
    rng: &mut GameRng,
) -> Result<Peeked, PeekError> {
    let mut after = state.clone();
    after.witness = Witness::recording();
    game.apply(&mut after, actor, action)?;
    let before_unseen = unseen_ids(state, seat);
    let after_unseen = unseen_ids(&after, seat);
    let passed = passed_before(&after, seat, &before_unseen);
    let shown: Vec<CardId> = before_unseen
        .difference(&after_unseen)
        .copied()
        .chain(passed.iter().copied())
        .chain(secrets_known(&after))
        .collect();
    let mut sv = SeatView::of(state, seat);
    sv.keep_in_place(state, &shown);
    let mut dealt = sample::determinize(game, &sv, rng)?;
    dealt.rng = state.rng.clone();
    keep_shown_secrets(&mut dealt, state, &after, seat);
    keep_hidden_data(&mut dealt, state);
    keep_resolved_choices(&mut dealt, state, &after);
    let mine = |s: &State| -> Result<_, PlayError> {
        let d = game.decisions(s)?;
        let own = d
            .seats
            .iter()
            .find(|(x, _)| *x == seat)
            .map(|(_, a)| a.clone());
        Ok((d.to_decide, own))
    };
    let (real_now, dealt_now) = (mine(state)?, mine(&dealt)?);
    if real_now != dealt_now {
        return Err(leak(
            state,
            seat,
            "who decides or its legal actions (before the action)",
            differ(&real_now, &dealt_now),
        ));
    }
    let mut dealt_after = dealt;
    dealt_after.witness = Witness::recording();
    if game.apply(&mut dealt_after, actor, action).is_err() {
        return Ok(Peeked::SetAside);
    }
    if unseen_ids(&dealt_after, seat) != after_unseen
        || passed_before(&dealt_after, seat, &before_unseen) != passed
        || other_copies_moved(&after, &dealt_after)
    {
        return Ok(Peeked::SetAside);
    }
    let (a, b) = (mine(&after)?, mine(&dealt_after)?);
    if a.0 != b.0 {
        return Err(leak(state, seat, "who decides", differ(&a.0, &b.0)));
    }
    if a.1 != b.1 {
        return Err(leak(state, seat, "its legal actions", differ(&a.1, &b.1)));
    }
    let (real_view, dealt_view) = (seen(&after, seat), seen(&dealt_after, seat));
    if real_view != dealt_view {
        let detail = first_difference(&real_view, &dealt_view, String::new())
            .unwrap_or_else(|| "the views differ".to_string());
        return Err(leak(state, seat, "its view", detail));
    }
    Ok(Peeked::Compared)
}

/// `peek_check` for every seat, each with its own deal; the first leak found.
pub fn peek_every_seat(
    game: &Game,
    state: &State,
    actor: usize,
    action: &str,
    rng: &mut GameRng,
) -> Result<(), PeekError> {
    for seat in 0..state.seats.len() {
        let mut r = rng::seeded(rng.next_u64());
        peek_check(game, state, seat, actor, action, &mut r)?;
    }
    Ok(())
}

fn leak(state: &State, seat: usize, what: &str, detail: String) -> PeekError {
    PeekError::Leak(Leak {
        seat,
        seat_name: state.seat_name(seat).to_string(),
        what: what.to_string(),
        detail,
    })
}

/// Two values that differ, as `real … / dealt again …`.
fn differ<T: std::fmt::Debug>(real: &T, dealt: &T) -> String {
    format!("real {real:?} / dealt again {dealt:?}")
}

/// The first place two JSON values differ, as `path: real … / dealt again …`.
fn first_difference(
    real: &serde_json::Value,
    dealt: &serde_json::Value,
    path: String,
) -> Option<String> {
    use serde_json::Value;
    if real == dealt {
        return None;
    }
    let here = |path: &str| {
        let shown = |v: &Value| {
            let t = v.to_string();
            match t.len() > 120 {
                true => format!("{}…", &t[..t.floor_char_boundary(120)]),
                false => t,
            }
        };
        Some(format!(
            "{path}: real {} / dealt again {}",
            shown(real),
            shown(dealt)
        ))
    };
    match (real, dealt) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                first_difference(x, y, format!("{path}.{k}"))
            })
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, format!("{path}[{i}]"))),
        (Value::Array(a), Value::Array(b)) => {
            let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            let from =
                |v: &[Value]| serde_json::to_string(&v[at.min(v.len())..]).unwrap_or_default();
            Some(format!(
                "{path}: {} items real / {} dealt again, from [{at}]: real {} / dealt again {}",
                a.len(),
                b.len(),
                from(a),
                from(b)
            ))
        }
        _ => here(&path),
    }
}

/// The cards of `unseen` that passed through a zone `seat` sees during the action (recorded
/// by `after`'s witness): shown, even if hidden again before the action ended.
fn passed_before(after: &State, seat: usize, unseen: &BTreeSet<CardId>) -> BTreeSet<CardId> {
    after
        .witness
        .moves()
        .iter()
        .filter(|(c, z)| unseen.contains(c) && after.zones[*z].visible_to(Some(seat)))
        .map(|(c, _)| *c)
        .collect()
}

/// The cards with a secret some seat knows after the action: they stay where they are, with
/// that secret (`keep_shown_secrets`).
fn secrets_known(after: &State) -> impl Iterator<Item = CardId> + '_ {
    after.cards.iter().enumerate().filter_map(|(i, d)| {
        let known = d.secrets.values().any(|s| !s.known_to.is_nobody());
        known.then_some(CardId(i as u16))
    })
}

/// Whether the action made the same moves in both states, but of other copies of some card
/// (`tell 5` took the other 5): which of two look-alike cards goes is its mover's choice, made
/// on what it holds, and tells only what that choice tells; the deal is set aside.
fn other_copies_moved(real: &State, dealt: &State) -> bool {
    let (a, b) = (real.witness.moves(), dealt.witness.moves());
    let name = |s: &State, c: CardId| s.cards.get(c.0 as usize).map(|d| d.name.clone());
    a.len() == b.len()
        && a != b
        && a.iter()
            .zip(b)
            .all(|(&(x, zx), &(y, zy))| zx == zy && name(real, x) == name(dealt, y))
}

/// The cards `seat` cannot identify in `state`.
fn unseen_ids(state: &State, seat: usize) -> BTreeSet<CardId> {
    SeatView::of(state, seat)
        .unseen()
        .ids
        .iter()
        .copied()
        .collect()
}

/// The seat's view as JSON, but for the RNG (replaced in every view).
fn seen(state: &State, seat: usize) -> serde_json::Value {
    let mut v = state.view(Some(seat)).to_json();
    if let Some(o) = v.as_object_mut() {
        o.remove("rng");
    }
    v
}

/// The secrets some seat knows after the action keep their real values: what a seat knows,
/// the rules may make public as it acts on it (an infected card scanned puts a larva on its
/// holder's board); the check is for what nobody was shown (a deck's order, a mark nobody
/// scanned) reaching a seat. Each takes its value from the card that got it in the deal (a
/// swap, so the values stay the same multiset).
fn keep_shown_secrets(dealt: &mut State, real: &State, after: &State, seat: usize) {
    let viewer = Some(seat);
    let audience = |st: &State, i: usize, key: &str| {
        st.cards
            .get(i)
            .and_then(|d| d.secrets.get(key))
            .map(|s| s.known_to)
    };
    let known =
        |st: &State, i: usize, key: &str| audience(st, i, key).is_some_and(|a| a.includes(viewer));
    for (i, def) in real.cards.iter().enumerate() {
        for (key, secret) in &def.secrets {
            let someone_knows = audience(after, i, key).is_some_and(|a| !a.is_nobody());
            if known(real, i, key) || !someone_knows {
                continue;
            }
            let value =
                |st: &State, j: usize| st.cards[j].secrets.get(key).map(|s| s.value.clone());
            if value(dealt, i).as_ref() == Some(&secret.value) {
                continue;
            }
            let holder = (0..dealt.cards.len()).find(|&j| {
                j != i && !known(real, j, key) && value(dealt, j).as_ref() == Some(&secret.value)
            });
            let Some(j) = holder else { continue };
            let mine = value(dealt, i);
            dealt.edit_card(i, |d| {
                if let Some(s) = d.secrets.get_mut(key) {
                    s.value = secret.value.clone();
                }
            });
            if let Some(mine) = mine {
                dealt.edit_card(j, |d| {
                    if let Some(s) = d.secrets.get_mut(key) {
                        s.value = mine;
                    }
                });
            }
        }
    }
}

/// Script data no seat sees, as in the real state (the sampler drops it): the check is of
/// the deal, not of the rules' scaffolding.
fn keep_hidden_data(dealt: &mut State, real: &State) {
    for (key, var) in real.vars.iter() {
        if var.seen_by.as_ref().is_some_and(Vec::is_empty) {
            dealt.set_var(key.clone(), var.clone());
        }
    }
}

/// Other seats' held choices and answers that the action resolves, as in the real state
/// (they are applied, and shown, by it), each answer where the deal offers it.
fn keep_resolved_choices(dealt: &mut State, real: &State, after: &State) {
    for (&s, choice) in &real.pending {
        if !after.pending.contains_key(&s) {
            dealt.pending.insert(s, choice.clone());
        }
    }
    let still_held = |s: usize| {
        after
            .agenda
            .question()
            .is_some_and(|q| q.answers.contains_key(&s))
    };
    if let (Some(q), Some(rq)) = (dealt.agenda.question_mut(), real.agenda.question()) {
        for (&s, answer) in &rq.answers {
            // An answer the deal's options (listed again) do not offer stays re-drawn.
            let offered = q.options_of(s).is_some_and(|o| o.contains(answer));
            if !still_held(s) && offered {
                q.answers.insert(s, answer.clone());
            }
        }
    }
}
