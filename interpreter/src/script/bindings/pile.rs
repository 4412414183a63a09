//! Rhai face of piles: decks that shuffle their discard pile in when drawn empty
//! (`z.set_discard`, `z.draw`, `z.draw_to`), cards put at the bottom or at a position, found
//! by name (`find_all`, `find(name, n)`), and cards mixed face down (`g.mix_into`,
//! `z.conceal_all`) so that no seat keeps knowing where a card it was shown went.

use super::zone::{conceal, is_named, label, ZoneRef};
use super::{budget, fail, Card, Fallible, G};
use crate::primitives::rng;
use crate::primitives::zone::CardId;
use crate::state::State;
use rhai::{Array, Dynamic, Engine, INT};

/// Moves up to `n` cards from the top of zone `from` to zone `to`, the top one first; when
/// `from` runs empty, its discard (if it has one) is shuffled into it, once: so a draw stops
/// short only when both are empty, and a deck drawing into its own discard cannot go round
/// for ever. The cards shuffled in are forgotten by every seat, as after `z.shuffle()`.
pub(super) fn draw(s: &mut State, from: usize, to: usize, n: usize) -> Vec<CardId> {
    let mut drawn = take_top(s, from, to, n);
    if drawn.len() < n && refill(s, from) {
        drawn.extend(take_top(s, from, to, n - drawn.len()));
    }
    drawn
}

/// Moves up to `n` cards from the top of `from` to `to`; returns them, the top one first.
fn take_top(s: &mut State, from: usize, to: usize, n: usize) -> Vec<CardId> {
    let zones = s.zones_mut();
    let cards = &mut zones[from].cards;
    let k = n.min(cards.len());
    let drawn: Vec<CardId> = cards.drain(cards.len() - k..).rev().collect();
    zones[to].cards.extend(&drawn);
    s.cards_moved(&drawn, Some(from), to);
    drawn
}

/// Shuffles the discard of `deck` (empty) into it with the game's RNG; whether any card came.
fn refill(s: &mut State, deck: usize) -> bool {
    let Some(pile) = s.zones[deck].discard.filter(|&p| p != deck) else {
        return false;
    };
    if s.zones.get(pile).is_none_or(|z| z.cards.is_empty()) {
        return false;
    }
    let mut cards = std::mem::take(&mut s.zones_mut()[pile].cards);
    rng::shuffle(&mut s.rng, &mut cards);
    conceal(s, &cards);
    s.zones_mut()[deck].cards.extend(&cards);
    s.cards_moved(&cards, Some(pile), deck);
    true
}

/// `card`, if it is one of the catalogue's (not a hidden card of a view).
fn known(s: &State, card: &Card, what: &str) -> Fallible<CardId> {
    match card.id != CardId::HIDDEN && (card.id.0 as usize) < s.cards.len() {
        true => Ok(card.id),
        false => fail(format!("{what}: this card is hidden")),
    }
}

/// Puts `card` (new, or moved from wherever it is) into zone `to` at position `at` from the
/// bottom (None: the top). Refused, changing nothing, when `at` is past the top.
fn put_at(g: &G, to: usize, card: &Card, at: Option<INT>, what: &str) -> Fallible<()> {
    let id = g.read(|s| known(s, card, what))?;
    let from = g.read(|s| {
        s.zones
            .iter()
            .enumerate()
            .find_map(|(z, zone)| zone.position(id).map(|i| (z, i)))
    });
    // The zone's size without the card: the positions it may take are 0 to that.
    let size = g.read(|s| s.zones[to].cards.len()) - from.is_some_and(|(z, _)| z == to) as usize;
    let at = match at {
        None => size,
        Some(i) if (0..=size as INT).contains(&i) => i as usize,
        Some(i) => {
            return fail(format!(
                "{what}: zone {} holds {size} card(s) besides this one, so a position is 0 to {size}, not {i}",
                g.read(|s| label(s, to))
            ))
        }
    };
    g.write(|s| {
        let zones = s.zones_mut();
        if let Some((z, i)) = from {
            zones[z].cards.remove(i);
        }
        zones[to].cards.insert(at, id);
        s.cards_moved(&[id], from.map(|(z, _)| z), to);
    });
    Ok(())
}

/// The cards of `from` (a card, an array of cards or a zone), checked.
fn cards_of(g: &G, from: Dynamic) -> Fallible<Vec<CardId>> {
    if let Some(z) = from.read_lock::<ZoneRef>() {
        return Ok(g.read(|s| s.zones[z.idx].cards.clone()));
    }
    if let Some(card) = from.read_lock::<Card>() {
        return Ok(vec![g.read(|s| known(s, &card, "mix_into"))?]);
    }
    let Some(list) = from.read_lock::<Array>() else {
        return fail(format!(
            "mix_into: mixes a card, an array of cards or a zone, not a `{}`",
            from.type_name()
        ));
    };
    budget::charge(list.len() as u64, "mix_into")?;
    list.iter()
        .map(|d| match d.read_lock::<Card>() {
            Some(card) => g.read(|s| known(s, &card, "mix_into")),
            None => fail(format!(
                "mix_into: an array of cards holds no `{}`",
                d.type_name()
            )),
        })
        .collect()
}

/// Moves `cards` (each from wherever it is, or new) into zone `to`, shuffles it, and makes
/// every seat forget every card in it.
fn mix_into(s: &mut State, cards: &[CardId], to: usize) {
    let mut moving = vec![false; s.cards.len()];
    let mut order = Vec::with_capacity(cards.len());
    for &c in cards {
        if !std::mem::replace(&mut moving[c.0 as usize], true) {
            order.push(c);
        }
    }
    let mut placed = vec![false; s.cards.len()];
    let mut sources: Vec<(usize, Vec<CardId>)> = vec![];
    for (i, z) in s.zones.iter().enumerate() {
        let from: Vec<CardId> = z
            .cards
            .iter()
            .copied()
            .filter(|c| moving[c.0 as usize])
            .collect();
        from.iter().for_each(|c| placed[c.0 as usize] = true);
        if !from.is_empty() && i != to {
            sources.push((i, from));
        }
    }
    let zones = s.zones_mut();
    for z in zones.iter_mut() {
        if z.cards.iter().any(|c| moving[c.0 as usize]) {
            z.cards.retain(|c| !moving[c.0 as usize]);
        }
    }
    zones[to].cards.extend(&order);
    let new: Vec<CardId> = order
        .iter()
        .copied()
        .filter(|c| !placed[c.0 as usize])
        .collect();
    for (from, cards) in sources {
        s.cards_moved(&cards, Some(from), to);
    }
    s.cards_moved(&new, None, to);
    let zones = s.zones_mut();
    let mut mixed = std::mem::take(&mut zones[to].cards);
    rng::shuffle(&mut s.rng, &mut mixed);
    conceal(s, &mixed);
    s.zones_mut()[to].cards = mixed;
}

/// The cards of zone `idx` named `name`, bottom to top.
fn named(g: &G, idx: usize, name: &str) -> Vec<CardId> {
    g.read(|s| {
        s.zones[idx]
            .cards
            .iter()
            .copied()
            .filter(|&c| is_named(s, c, name))
            .collect()
    })
}

pub fn register(engine: &mut Engine) {
    engine
        .register_fn(
            "set_discard",
            |z: &mut ZoneRef, pile: ZoneRef| -> Fallible<()> {
                if pile.idx == z.idx {
                    let name = z.g.read(|s| label(s, z.idx));
                    return fail(format!("zone {name} cannot be its own discard"));
                }
                z.g.write(|s| s.zones_mut()[z.idx].discard = Some(pile.idx));
                Ok(())
            },
        )
        .register_fn("draw", |z: &mut ZoneRef, to: ZoneRef| -> Dynamic {
            match z.g.write(|s| draw(s, z.idx, to.idx, 1)).first() {
                Some(&c) => Dynamic::from(z.card(c)),
                None => Dynamic::UNIT,
            }
        })
        .register_fn("put_bottom", |z: &mut ZoneRef, card: Card| {
            put_at(&z.g, z.idx, &card, Some(0), "put_bottom")
        })
        .register_fn("put_at", |z: &mut ZoneRef, card: Card, at: INT| {
            put_at(&z.g, z.idx, &card, Some(at), "put_at")
        })
        .register_fn("find_all", |z: &mut ZoneRef, name: &str| -> Array {
            let found = named(&z.g, z.idx, name);
            found
                .into_iter()
                .map(|c| Dynamic::from(z.card(c)))
                .collect()
        })
        .register_fn(
            "find",
            |z: &mut ZoneRef, name: &str, n: INT| -> Fallible<Dynamic> {
                if n < 0 {
                    return fail(format!("find: the n-th card counts from 0, not {n}"));
                }
                let found = named(&z.g, z.idx, name);
                Ok(usize::try_from(n)
                    .ok()
                    .and_then(|n| found.get(n))
                    .map_or(Dynamic::UNIT, |&c| Dynamic::from(z.card(c))))
            },
        )
        .register_fn(
            "mix_into",
            |g: &mut G, from: Dynamic, to: ZoneRef| -> Fallible<()> {
                let cards = cards_of(g, from)?;
                g.write(|s| mix_into(s, &cards, to.idx));
                Ok(())
            },
        )
        .register_fn("conceal_all", |z: &mut ZoneRef| {
            z.g.write(|s| {
                let cards = s.zones[z.idx].cards.clone();
                conceal(s, &cards);
            })
        });
}
