//! Determinizations: a whole state drawn at random among those a seat cannot tell from the
//! real one, built from its `SeatView` alone (its view and the unseen pool). Information-set
//! search plays on them; the leak check compares them with the real state.
//!
//! What is drawn: the unseen cards' identities over the blanked catalogue entries, then those
//! cards into the hidden places (every zone keeps its size; what is left over lies outside
//! every zone, as in the real state); the secrets the seat was not shown, among every card
//! that holds one of that name; hidden bags refilled from their tokens together, each keeping
//! its total; other seats' held choices and held answers among their options; the RNG.

use super::seat_view::{is_unknown_bag, SeatView};
use crate::game::{Game, PlayError};
use crate::primitives::bag::Bag;
use crate::primitives::knowledge::Secret;
use crate::primitives::rng::{self, GameRng};
use crate::primitives::zone::CardId;
use crate::state::State;
use rand::RngCore;
use std::sync::Arc;

/// Why a seat's view cannot be completed into a state.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SampleError {
    /// The view's blanks and the pool disagree (a bug, or a state loaded from elsewhere).
    #[error("cannot sample a state from this view: {0}")]
    Inconsistent(String),
    /// The game keeps something the generic sampler cannot rebuild.
    #[error("{0}")]
    Unsupported(String),
    #[error("{0}")]
    Play(#[from] PlayError),
}

/// A state drawn at random among those `sv`'s seat cannot tell apart, with a fresh RNG.
pub fn determinize(game: &Game, sv: &SeatView, rng: &mut GameRng) -> Result<State, SampleError> {
    let unseen = sv.unseen();
    if unseen.private_vars > 0 {
        return Err(SampleError::Unsupported(format!(
            "this game keeps {} script value(s) private to seats (`g.set_private`), which a \
             bot's sampler cannot rebuild from a seat's view",
            unseen.private_vars
        )));
    }
    let mut st = sv.state().clone();
    st.rng = rng::seeded(rng.next_u64());
    let dealt = deal_cards(&mut st, sv, rng)?;
    draw_secrets(&mut st, sv, &dealt, rng)?;
    refill_bags(&mut st, sv, rng)?;
    st.agenda = unseen.agenda.clone();
    redraw_answers(&mut st, sv.seat(), rng);
    redraw_held_choices(game, &mut st, sv.seat(), rng)?;
    st.name_index = Default::default();
    st.reweigh_all();
    Ok(st)
}

/// The unseen cards' identities onto the blanked entries, then those cards into the hidden
/// places. Returns which entry of the pool each blanked id got.
fn deal_cards(st: &mut State, sv: &SeatView, rng: &mut GameRng) -> Result<Vec<usize>, SampleError> {
    let unseen = sv.unseen();
    if unseen.ids.is_empty() {
        return Ok(vec![]);
    }
    let mut order: Vec<usize> = (0..unseen.cards.len()).collect();
    rng::shuffle(rng, &mut order);
    let cards = st.cards_mut();
    for (&id, &k) in unseen.ids.iter().zip(&order) {
        let slot = cards
            .get_mut(id.0 as usize)
            .ok_or_else(|| SampleError::Inconsistent(format!("no catalogue entry {}", id.0)))?;
        *slot = unseen.cards[k].0.clone();
    }
    let mut ids = unseen.ids.clone();
    rng::shuffle(rng, &mut ids);
    let mut next = ids.into_iter();
    let hidden = st.zones.iter().any(|z| z.cards.contains(&CardId::HIDDEN));
    if hidden {
        for z in st.zones_mut() {
            for c in z.cards.iter_mut().filter(|c| **c == CardId::HIDDEN) {
                *c = next.next().ok_or_else(|| {
                    SampleError::Inconsistent("more hidden places than unseen cards".into())
                })?;
            }
        }
    }
    Ok(order)
}

/// The secrets the seat was not shown, re-drawn among every card holding one of that name.
fn draw_secrets(
    st: &mut State,
    sv: &SeatView,
    dealt: &[usize],
    rng: &mut GameRng,
) -> Result<(), SampleError> {
    let unseen = sv.unseen();
    for (key, values) in &unseen.secrets {
        let mut holders: Vec<CardId> = unseen.secret_holders.get(key).cloned().unwrap_or_default();
        // Unseen cards holding it: where their entries went in `deal_cards`.
        for (&id, &k) in unseen.ids.iter().zip(dealt) {
            if unseen.cards[k].1.contains(key) {
                holders.push(id);
            }
        }
        if holders.len() != values.len() {
            return Err(SampleError::Inconsistent(format!(
                "{} cards hold secret `{key}`, {} values",
                holders.len(),
                values.len()
            )));
        }
        let mut values = values.clone();
        rng::shuffle(rng, &mut values);
        for (id, value) in holders.into_iter().zip(values) {
            st.edit_card(id.0 as usize, |d| {
                d.props.remove(key);
                d.secrets.insert(key.clone(), Secret::hidden(value));
            });
        }
    }
    Ok(())
}

/// Hidden bags refilled from their tokens counted together, each keeping its total.
fn refill_bags(st: &mut State, sv: &SeatView, rng: &mut GameRng) -> Result<(), SampleError> {
    if !st.bags.iter().any(is_unknown_bag) {
        return Ok(());
    }
    let mut pool: Vec<(Arc<str>, u64)> = sv
        .unseen()
        .bag_tokens
        .iter()
        .map(|(k, n)| (k.clone(), *n as u64))
        .collect();
    let mut left: u64 = pool.iter().map(|(_, n)| n).sum();
    for b in st.bags_mut().iter_mut().filter(|b| is_unknown_bag(b)) {
        let total = b.len();
        if total > left {
            return Err(SampleError::Inconsistent(format!(
                "bag `{}` holds {total} tokens, {left} are unseen",
                b.name
            )));
        }
        let mut filled = Bag::new(&b.name, b.visibility).map_err(SampleError::Inconsistent)?;
        for _ in 0..total {
            let mut r = rng.next_u64() % left;
            let i = pool
                .iter()
                .position(|(_, n)| {
                    if r < *n {
                        true
                    } else {
                        r -= n;
                        false
                    }
                })
                .expect("a number below the total falls in some kind");
            pool[i].1 -= 1;
            left -= 1;
            filled
                .add(&pool[i].0, 1)
                .map_err(SampleError::Unsupported)?;
        }
        *b = filled;
    }
    Ok(())
}

/// Other seats' held answers to the open question, re-drawn among their options.
fn redraw_answers(st: &mut State, seat: usize, rng: &mut GameRng) {
    let Some(q) = st.agenda.question_mut() else {
        return;
    };
    let others: Vec<usize> = q.answers.keys().copied().filter(|&s| s != seat).collect();
    for s in others {
        let Some(options) = q.options_of(s).filter(|o| !o.is_empty()) else {
            continue;
        };
        let pick = options[rng::below(rng, options.len())].clone();
        q.answers.insert(s, pick);
    }
}

/// Other seats' held simultaneous choices, re-drawn among their legal actions.
fn redraw_held_choices(
    game: &Game,
    st: &mut State,
    seat: usize,
    rng: &mut GameRng,
) -> Result<(), SampleError> {
    let held: Vec<usize> = st.pending.keys().copied().filter(|&s| s != seat).collect();
    for s in held {
        let legal = game.legal_actions(st, s)?;
        if legal.is_empty() {
            return Err(SampleError::Inconsistent(format!(
                "seat {} holds a choice but has no legal action",
                st.seat_name(s)
            )));
        }
        let pick = legal[rng::below(rng, legal.len())].to_string();
        st.pending.insert(s, pick);
    }
    Ok(())
}
