//! `SeatView`: all a bot is given of a game — one seat's view and the unseen pool — so that a
//! bot cannot read what its seat cannot see: there is no path from it to the true state.
//!
//! The unseen pool is what the seat knows of what it cannot see, with no place: the catalogue
//! entries of the cards it has not seen (their secrets stripped; which id is which card is
//! public, as the game's box is) and the zones each may lie in as every seat can tell
//! (`Whereabouts`), the values of the secrets it was not shown, the tokens inside hidden
//! bags, as multisets. It is the same for any two states that differ only in where those
//! things lie among the places the public allows, so a determinization drawn from it
//! (`sample`) tells nothing of where they really are.
//!
//! Script data no seat sees (`g.set_hidden`) is the rules' scaffolding, such as dice a
//! position forces or what a tally will read: it is dropped, as the RNG is replaced, so a
//! determinization runs as if it were not there. A game must not keep there a secret its
//! rules read later (move it into a hidden zone, a card secret or a held choice instead).
//!
//! One thing is taken from the rules' state as it is: the agenda's continuation (which
//! functions run next, with what data), since no view can rebuild it. Which card an id is
//! being public, data naming a card by id tells what the card is, not where it lies: rules
//! keep secrets out of it. A question open to another seat whose options tell what it holds
//! (the cards of the payer's hand to pay with) names the function that lists them
//! (`g.ask(#{list: ...})`): its options are left out here and the sampler lists them again
//! on the state it draws. Options given as a list stay as asked; `check --peek` finds those
//! that depend on what the seat cannot see.

use crate::agenda::Agenda;
use crate::primitives::zone::{CardDef, CardId};
use crate::state::State;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One seat's view of a game, with what it knows of what it does not see.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatView {
    seat: usize,
    view: State,
    unseen: Unseen,
}

/// What a seat knows of what it cannot see: multisets, sorted so that they carry no order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Unseen {
    /// Catalogue indices the view blanks (that they are blank is in the view).
    pub ids: Vec<CardId>,
    /// Their entries, in the same order, as the seat may read them; with the names of the
    /// secrets stripped from each (their values are in `secrets`). Which id is which card
    /// is public, as the game's box is; where each lies is not.
    pub cards: Vec<(Arc<CardDef>, Vec<String>)>,
    /// The zones each of them may lie in as the public can tell (`Whereabouts`), in the same
    /// order; None: anywhere.
    pub may_lie: Vec<Option<Vec<u16>>>,
    /// Cards the seat sees whose secret of this name it was not shown: their ids (the view
    /// drops such a secret, so which cards hold one must be told).
    pub secret_holders: BTreeMap<String, Vec<CardId>>,
    /// Values of the secrets the seat was not shown, by name, over every card (seen or not),
    /// in a canonical order.
    pub secrets: BTreeMap<String, Vec<Value>>,
    /// The tokens inside every hidden bag, counted together by kind, in one pool per kind
    /// a view shows them as (`?red` for a bag's face, `?`): a token is drawn again only
    /// among those that look alike.
    pub bag_tokens: BTreeMap<Arc<str>, BTreeMap<Arc<str>, u32>>,
    /// The agenda as the rules hold it (see the module's note), but for other seats' held
    /// answers, blanked.
    pub agenda: Agenda,
    /// Script data private to other seats (`g.set_private`) that the view drops; the generic
    /// sampler cannot rebuild it. Data no seat sees is not counted (see the module note).
    pub private_vars: usize,
}

impl SeatView {
    /// What `seat` may see of `state`.
    pub fn of(state: &State, seat: usize) -> SeatView {
        SeatView {
            seat,
            view: state.view(Some(seat)),
            unseen: Unseen::of(state, seat),
        }
    }

    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The seat's view: what `show` and the protocol give that seat.
    pub fn state(&self) -> &State {
        &self.view
    }

    pub fn unseen(&self) -> &Unseen {
        &self.unseen
    }

    /// Whether the seat sees the whole game but for the RNG's state (a perfect-information
    /// position), so that a search may keep its tree between moves.
    pub fn sees_everything(&self) -> bool {
        self.unseen.ids.is_empty()
            && self.unseen.secrets.is_empty()
            && self.unseen.bag_tokens.is_empty()
            && self.unseen.private_vars == 0
            && self.view.pending.values().all(|c| !c.is_empty())
            && self
                .unseen
                .agenda
                .question()
                .is_none_or(|q| q.answers.is_empty())
    }
}

impl SeatView {
    /// This view with `ids` (unseen cards of `state`, the state it was made from) shown where
    /// they lie, so that a determinization keeps them there: the leak check keeps what an
    /// action is about to show the seat. Only for checks that hold the real state.
    pub(crate) fn keep_in_place(&mut self, state: &State, ids: &[CardId]) {
        let seat = Some(self.seat);
        for &id in ids {
            let Some(k) = self.unseen.ids.iter().position(|&c| c == id) else {
                continue;
            };
            self.unseen.ids.remove(k);
            let (def, stripped) = self.unseen.cards.remove(k);
            self.unseen.may_lie.remove(k);
            for key in stripped {
                self.unseen.secret_holders.entry(key).or_default().push(id);
            }
            Arc::make_mut(&mut self.view.cards)[id.0 as usize] = def;
            let place = state
                .zones
                .iter()
                .enumerate()
                .find_map(|(z, zone)| zone.position(id).map(|i| (z, i)));
            if let Some((z, i)) = place {
                let zone = &self.view.zones[z];
                // A hand's view lists its known cards first (`State::view`): any blank will do.
                let slot = match zone.cards.get(i) {
                    Some(&CardId::HIDDEN) => Some(i),
                    _ => zone.cards.iter().position(|&c| c == CardId::HIDDEN),
                };
                if let (false, Some(i)) = (zone.visible_to(seat), slot) {
                    self.view.zones_mut()[z].cards[i] = id;
                }
            }
        }
        self.view.reweigh_all();
    }
}

impl Unseen {
    fn of(state: &State, seat: usize) -> Unseen {
        let viewer = Some(seat);
        let mut seen = vec![false; state.cards.len()];
        for z in state.zones.iter().filter(|z| z.visible_to(viewer)) {
            for c in z.cards.iter().filter(|c| **c != CardId::HIDDEN) {
                if let Some(s) = seen.get_mut(c.0 as usize) {
                    *s = true;
                }
            }
        }
        let mut unseen = Unseen {
            agenda: state.agenda.clone(),
            ..Unseen::default()
        };
        // That another seat answered is public; its answer is not (the sampler re-draws it),
        // nor its options when the rules can list them again (the sampler does).
        if let Some(q) = unseen.agenda.question_mut() {
            q.answers
                .iter_mut()
                .filter(|(s, _)| **s != seat)
                .for_each(|(_, a)| a.clear());
            if !q.list.is_empty() {
                q.seats
                    .iter_mut()
                    .filter(|(s, _)| *s != seat)
                    .for_each(|(_, o)| o.clear());
            }
        }
        for (i, def) in state.cards.iter().enumerate() {
            let id = CardId(i as u16);
            let hidden_secrets = def
                .secrets
                .iter()
                .filter(|(_, s)| !s.known_to.includes(viewer));
            for (key, secret) in hidden_secrets.clone() {
                unseen
                    .secrets
                    .entry(key.clone())
                    .or_default()
                    .push(secret.value.clone());
            }
            if seen[i] || def.known_to.includes(viewer) {
                for (key, _) in hidden_secrets {
                    unseen
                        .secret_holders
                        .entry(key.clone())
                        .or_default()
                        .push(id);
                }
                continue;
            }
            unseen.ids.push(id);
            let stripped: Vec<String> = hidden_secrets.map(|(k, _)| k.clone()).collect();
            let as_seen = def.as_seen_by(viewer).map_or_else(|| def.clone(), Arc::new);
            unseen.cards.push((as_seen, stripped));
            unseen
                .may_lie
                .push(state.whereabouts.of(id.0).map(<[u16]>::to_vec));
        }
        for values in unseen.secrets.values_mut() {
            values.sort_by_cached_key(canonical);
        }
        for b in state.bags.iter().filter(|b| b.hides_something()) {
            for (kind, n) in b.counts() {
                let pool = unseen.bag_tokens.entry(b.face_of(kind)).or_default();
                let count = pool.entry(Arc::from(kind)).or_default();
                *count = count.saturating_add(n);
            }
        }
        // Data no seat sees (`g.set_hidden`) is left out, as the RNG is: see the module note.
        unseen.private_vars = state
            .vars
            .values()
            .filter(|v| {
                v.seen_by
                    .as_ref()
                    .is_some_and(|s| !s.is_empty() && !s.contains(&seat))
            })
            .count();
        unseen
    }
}

/// A sort key that depends on a value's content alone.
fn canonical(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
