//! Determinizations: a whole state drawn at random among those a seat cannot tell from the
//! real one, built from its `SeatView` alone (its view and the unseen pool). Information-set
//! search plays on them; the leak check compares them with the real state.
//!
//! What is drawn: the unseen cards into the hidden places, each into a zone it may lie in as
//! the public can tell (every zone keeps its size; what is left over lies outside every zone,
//! as in the real state; which id is which card is public, as the game's box is); the
//! secrets the seat was not shown, among every card that holds one of that name; hidden bags
//! refilled from their unseen tokens, each keeping its total and what its view shows of
//! them (faces, `Bag::set_faces`); other seats' held choices
//! and held answers among their options; the RNG.

use super::seat_view::SeatView;
use crate::game::{Game, PlayError};
use crate::primitives::bag::Bag;
use crate::primitives::knowledge::Secret;
use crate::primitives::rng::{self, GameRng};
use crate::primitives::zone::{CardId, Visibility};
use crate::state::State;
use rand::RngCore;
use std::collections::BTreeMap;
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
    deal_cards(&mut st, sv, rng)?;
    draw_secrets(&mut st, sv, rng)?;
    refill_bags(&mut st, sv, rng)?;
    st.agenda = unseen.agenda.clone();
    relist_options(game, &mut st, sv.seat())?;
    redraw_answers(&mut st, sv.seat(), rng);
    redraw_held_choices(game, &mut st, sv.seat(), rng)?;
    st.name_index = Default::default();
    st.reweigh_all();
    Ok(st)
}

/// The unseen cards' entries back onto their ids, then those cards into the hidden places,
/// each into a zone it may lie in (`Unseen::may_lie`); the rest stay outside every zone.
fn deal_cards(st: &mut State, sv: &SeatView, rng: &mut GameRng) -> Result<(), SampleError> {
    let unseen = sv.unseen();
    if unseen.ids.is_empty() {
        return Ok(());
    }
    let cards = st.cards_mut();
    for (&id, (def, _)) in unseen.ids.iter().zip(&unseen.cards) {
        let slot = cards
            .get_mut(id.0 as usize)
            .ok_or_else(|| SampleError::Inconsistent(format!("no catalogue entry {}", id.0)))?;
        *slot = def.clone();
    }
    // Groups: each zone with hidden places, then "outside every zone" for the rest.
    let mut zones: Vec<usize> = vec![];
    let mut capacity: Vec<usize> = vec![];
    for (z, zone) in st.zones.iter().enumerate() {
        let n = zone.cards.iter().filter(|c| **c == CardId::HIDDEN).count();
        if n > 0 {
            zones.push(z);
            capacity.push(n);
        }
    }
    let places: usize = capacity.iter().sum();
    let outside =
        unseen.ids.len().checked_sub(places).ok_or_else(|| {
            SampleError::Inconsistent("more hidden places than unseen cards".into())
        })?;
    capacity.push(outside);
    let allowed: Vec<Vec<usize>> = unseen
        .may_lie
        .iter()
        .map(|may| match may {
            None => (0..capacity.len()).collect(),
            Some(may) => (0..zones.len())
                .filter(|&g| may.binary_search(&(zones[g] as u16)).is_ok())
                .collect(),
        })
        .collect();
    let group_of = assign(allowed, &capacity, rng).ok_or_else(|| {
        SampleError::Inconsistent(
            "the unseen cards cannot be dealt into the hidden places where each may lie".into(),
        )
    })?;
    let mut members: Vec<Vec<CardId>> = vec![vec![]; zones.len()];
    for (i, &g) in group_of.iter().enumerate() {
        if g < zones.len() {
            members[g].push(unseen.ids[i]);
        }
    }
    for (g, mut ids) in members.into_iter().enumerate() {
        rng::shuffle(rng, &mut ids);
        let mut next = ids.into_iter();
        let zone = &mut st.zones_mut()[zones[g]];
        for c in zone.cards.iter_mut().filter(|c| **c == CardId::HIDDEN) {
            *c = next
                .next()
                .expect("a group holds as many cards as its places");
        }
    }
    let w = Arc::make_mut(&mut st.whereabouts);
    for (&id, may) in unseen.ids.iter().zip(&unseen.may_lie) {
        if let Some(may) = may {
            w.set(id.0, may.clone());
        }
    }
    Ok(())
}

/// A random assignment of items to groups, each to one of its `allowed` groups and no group
/// over its capacity, found by augmenting paths from a random order (Kuhn's algorithm: at
/// most items x edges steps); None when there is none.
fn assign(
    mut allowed: Vec<Vec<usize>>,
    capacity: &[usize],
    rng: &mut GameRng,
) -> Option<Vec<usize>> {
    let mut order: Vec<usize> = (0..allowed.len()).collect();
    rng::shuffle(rng, &mut order);
    for a in &mut allowed {
        rng::shuffle(rng, a);
    }
    let mut members: Vec<Vec<usize>> = vec![vec![]; capacity.len()];
    let mut group_of = vec![usize::MAX; allowed.len()];
    for item in order {
        let mut visited = vec![false; capacity.len()];
        if !augment(
            item,
            &allowed,
            capacity,
            &mut members,
            &mut group_of,
            &mut visited,
        ) {
            return None;
        }
    }
    Some(group_of)
}

/// Places `item`, moving items already placed along a path of groups not yet visited.
fn augment(
    item: usize,
    allowed: &[Vec<usize>],
    capacity: &[usize],
    members: &mut [Vec<usize>],
    group_of: &mut [usize],
    visited: &mut [bool],
) -> bool {
    for &g in &allowed[item] {
        if std::mem::replace(&mut visited[g], true) {
            continue;
        }
        if members[g].len() < capacity[g] {
            members[g].push(item);
            group_of[item] = g;
            return true;
        }
        for k in 0..members[g].len() {
            // Visited groups are closed to the deeper search, so `members[g]` stays as it is.
            if augment(members[g][k], allowed, capacity, members, group_of, visited) {
                members[g][k] = item;
                group_of[item] = g;
                return true;
            }
        }
    }
    false
}

/// The secrets the seat was not shown, re-drawn among every card holding one of that name.
fn draw_secrets(st: &mut State, sv: &SeatView, rng: &mut GameRng) -> Result<(), SampleError> {
    let unseen = sv.unseen();
    for (key, values) in &unseen.secrets {
        let mut holders: Vec<CardId> = unseen.secret_holders.get(key).cloned().unwrap_or_default();
        for (id, (_, stripped)) in unseen.ids.iter().zip(&unseen.cards) {
            if stripped.contains(key) {
                holders.push(*id);
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

/// Hidden bags refilled from the unseen tokens: each of a bag's view kinds (`?red`, `?`)
/// drawn from the pool of tokens that look so, so every bag keeps its total and its faces.
fn refill_bags(st: &mut State, sv: &SeatView, rng: &mut GameRng) -> Result<(), SampleError> {
    if !st.bags.iter().any(Bag::is_hidden_view) {
        return Ok(());
    }
    let mut pools: BTreeMap<Arc<str>, Bag> = BTreeMap::new();
    for (shown_as, tokens) in &sv.unseen().bag_tokens {
        let mut pool = Bag::new(shown_as, Visibility::All).map_err(SampleError::Inconsistent)?;
        for (kind, n) in tokens {
            pool.add(kind, *n).map_err(SampleError::Unsupported)?;
        }
        pools.insert(shown_as.clone(), pool);
    }
    for b in st.bags_mut().iter_mut().filter(|b| b.is_hidden_view()) {
        let mut filled = b.emptied();
        for (shown_as, n) in b.counts() {
            let mut pool = pools.get_mut(shown_as);
            for _ in 0..n {
                let kind = pool.as_mut().and_then(|p| p.draw(rng)).ok_or_else(|| {
                    SampleError::Inconsistent(format!(
                        "bag `{}` holds more tokens shown as `{shown_as}` than are unseen",
                        b.name
                    ))
                })?;
                filled.add(&kind, 1).map_err(SampleError::Unsupported)?;
            }
        }
        *b = filled;
    }
    Ok(())
}

/// Other seats' options in the open question, listed again by the rules on the drawn state
/// when the question names the function that lists them.
fn relist_options(game: &Game, st: &mut State, seat: usize) -> Result<(), SampleError> {
    let others: Vec<usize> = match st.agenda.question() {
        Some(q) if !q.list.is_empty() => q
            .seats
            .iter()
            .map(|(s, _)| *s)
            .filter(|&s| s != seat)
            .collect(),
        _ => return Ok(()),
    };
    for s in others {
        let options = game.relist(st, s)?.unwrap_or_default();
        if options.is_empty() {
            return Err(SampleError::Inconsistent(format!(
                "the rules list no option for {} in the drawn state",
                st.seat_name(s)
            )));
        }
        if let Some(slot) = st
            .agenda
            .question_mut()
            .and_then(|q| q.seats.iter_mut().find(|(x, _)| *x == s))
        {
            slot.1 = options;
        }
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
