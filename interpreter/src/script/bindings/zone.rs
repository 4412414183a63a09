//! Rhai face of `primitives::zone`: find zones, put, move, draw, shuffle, count and list cards
//! (`len`, `count(name)`, `counts()`, `names()`). Decks with a discard and the other pile
//! operations are in `pile`.

use super::{budget, fail, pile, Card, Fallible, G};
use crate::primitives::knowledge::Audience;
use crate::primitives::rng;
use crate::primitives::zone::{CardId, Visibility};
use crate::state::State;
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, INT};
use std::sync::Arc;

#[derive(Clone)]
pub struct ZoneRef {
    pub(super) g: G,
    pub(super) idx: usize,
}

impl ZoneRef {
    pub(super) fn card(&self, id: CardId) -> Card {
        Card::new(id, self.g.clone())
    }

    fn len(&mut self) -> INT {
        self.g.read(|s| s.zones[self.idx].cards.len() as INT)
    }

    fn cards(&mut self) -> Array {
        self.g.read(|s| {
            s.zones[self.idx]
                .cards
                .iter()
                .map(|&c| Dynamic::from(self.card(c)))
                .collect()
        })
    }

    fn top(&mut self) -> Dynamic {
        match self.g.read(|s| s.zones[self.idx].cards.last().copied()) {
            Some(c) => Dynamic::from(self.card(c)),
            None => Dynamic::UNIT,
        }
    }

    /// Moves `card` from wherever it is to the top of this zone.
    fn take(&mut self, card: Card) -> Fallible<()> {
        let moved = self.g.write(|s| {
            let from = s.zones.iter().position(|z| z.cards.contains(&card.id));
            match from {
                Some(f) => {
                    s.zones_mut()[f].remove(card.id);
                    s.zones_mut()[self.idx].cards.push(card.id);
                    s.cards_moved(&[card.id], Some(f), self.idx);
                    true
                }
                None => false,
            }
        });
        if moved {
            Ok(())
        } else {
            fail("that card is in no zone (use `put` for a new card)")
        }
    }

    /// Places a card that is in no zone yet (a freshly made one).
    fn put(&mut self, card: Card) -> Fallible<()> {
        if self
            .g
            .read(|s| s.zones.iter().any(|z| z.cards.contains(&card.id)))
        {
            return fail(format!(
                "card `{}` is already in a zone; move it with `take`",
                card.id.0
            ));
        }
        self.g.write(|s| {
            s.zones_mut()[self.idx].cards.push(card.id);
            s.cards_moved(&[card.id], None, self.idx);
        });
        Ok(())
    }

    /// Moves up to `n` cards from the top of this zone to `to`, shuffling its discard in if it
    /// runs empty (`pile::draw`); returns them.
    fn draw_to(&mut self, to: ZoneRef, n: INT) -> Array {
        let moved = self
            .g
            .write(|s| pile::draw(s, self.idx, to.idx, n.max(0) as usize));
        moved
            .into_iter()
            .map(|c| Dynamic::from(self.card(c)))
            .collect()
    }

    fn move_all_to(&mut self, to: ZoneRef) {
        if to.idx != self.idx {
            self.g.write(|s| {
                let cards = std::mem::take(&mut s.zones_mut()[self.idx].cards);
                s.zones_mut()[to.idx].cards.extend(&cards);
                s.cards_moved(&cards, Some(self.idx), to.idx);
            });
        }
    }

    /// Shuffles, and forgets which seats were shown these cards (`g.reveal_card`): a seat that
    /// saw a card face down does not know where it went (a secret property stays known).
    fn shuffle(&mut self) {
        self.g.write(|s| {
            let mut cards = std::mem::take(&mut s.zones_mut()[self.idx].cards);
            rng::shuffle(&mut s.rng, &mut cards);
            conceal(s, &cards);
            s.zones_mut()[self.idx].cards = cards;
        });
    }

    fn contains(&mut self, card: Card) -> bool {
        self.g.read(|s| s.zones[self.idx].cards.contains(&card.id))
    }

    fn find(&mut self, name: &str) -> Dynamic {
        let found = self.g.read(|s| {
            s.zones[self.idx]
                .cards
                .iter()
                .copied()
                .find(|&c| is_named(s, c, name))
        });
        found.map_or(Dynamic::UNIT, |c| Dynamic::from(self.card(c)))
    }

    /// How many cards of this zone are named `name`.
    fn count(&mut self, name: &str) -> INT {
        self.g.read(|s| {
            s.zones[self.idx]
                .cards
                .iter()
                .filter(|&&c| is_named(s, c, name))
                .count() as INT
        })
    }

    /// The cards of this zone counted by name, `#{ "king": 2, "3": 1 }` (hidden cards count
    /// under `?`): one call where a script would otherwise read every card.
    fn counts(&mut self) -> Map {
        self.g.read(|s| {
            let mut out = Map::new();
            for c in &s.zones[self.idx].cards {
                let name = s.cards.get(c.0 as usize).map_or("?", |d| d.name.as_str());
                let n = out.entry(name.into()).or_insert(Dynamic::from(0 as INT));
                *n = Dynamic::from(n.as_int().unwrap_or(0) + 1);
            }
            out
        })
    }

    /// The names of this zone's cards, bottom to top (`?` for hidden cards).
    fn names(&mut self) -> Array {
        self.g.read(|s| {
            s.zones[self.idx]
                .cards
                .iter()
                .map(|c| {
                    let name = s.cards.get(c.0 as usize).map_or("?", |d| d.name.as_str());
                    Dynamic::from(ImmutableString::from(name))
                })
                .collect()
        })
    }

    fn owner(&mut self) -> Dynamic {
        self.g.read(|s| {
            s.zones[self.idx].owner.map_or(Dynamic::UNIT, |o| {
                Dynamic::from(ImmutableString::from(s.seats[o].as_str()))
            })
        })
    }

    fn name(&mut self) -> ImmutableString {
        self.g.read(|s| s.zones[self.idx].name.as_str().into())
    }
}

/// Whether card `c` is named `name`.
pub(super) fn is_named(s: &State, c: CardId, name: &str) -> bool {
    s.cards.get(c.0 as usize).is_some_and(|d| d.name == name)
}

/// A zone as messages name it: `` `deck` `` or `` `hand` of p2 ``.
pub(super) fn label(s: &State, idx: usize) -> String {
    let z = &s.zones[idx];
    match z.owner {
        Some(o) => format!("`{}` of {}", z.name, s.seats[o]),
        None => format!("`{}`", z.name),
    }
}

/// Forgets who was shown `cards`, copying only the entries that change.
pub(super) fn conceal(s: &mut State, cards: &[CardId]) {
    let known = |c: &&CardId| {
        s.cards
            .get(c.0 as usize)
            .is_some_and(|d| !d.known_to.is_nobody())
    };
    let known: Vec<usize> = cards.iter().filter(known).map(|c| c.0 as usize).collect();
    if known.is_empty() {
        return;
    }
    let catalogue = s.cards_mut();
    for i in known {
        Arc::make_mut(&mut catalogue[i]).known_to = Audience::NOBODY;
    }
}

fn zone(g: &mut G, name: &str, owner: Option<usize>) -> Fallible<ZoneRef> {
    match g.read(|s| s.zone_index(name, owner)) {
        Some(idx) => Ok(ZoneRef { g: g.clone(), idx }),
        None => {
            let known = g.read(|s| {
                let mut names: Vec<&str> = s.zones.iter().map(|z| z.name.as_str()).collect();
                names.dedup();
                names.join(", ")
            });
            let whose = if owner.is_some() {
                " for that seat"
            } else {
                ""
            };
            fail(format!("no zone `{name}`{whose} (zones: {known})"))
        }
    }
}

fn visibility(v: &str) -> Fallible<Visibility> {
    Visibility::parse(v).or_else(fail)
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<ZoneRef>("Zone")
        // What `eval` shows for a zone: its name, owner and cards, top last.
        .register_fn("to_debug", |z: &mut ZoneRef| {
            z.g.read(|s| {
                let cards = s.card_names(z.idx);
                format!(
                    "zone {}: {} card(s) [{}]",
                    label(s, z.idx),
                    cards.len(),
                    cards.join(", ")
                )
            })
        })
        .register_fn("zone", |g: &mut G, name: &str| zone(g, name, None))
        .register_fn("zone", |g: &mut G, name: &str, seat: &str| {
            let i = g.seat(seat)?;
            zone(g, name, Some(i))
        })
        .register_fn(
            "new_zone",
            |g: &mut G, name: &str, vis: &str| -> Fallible<ZoneRef> {
                let v = visibility(vis)?;
                budget::text(name, "new_zone")?;
                let idx = g.write(|s| s.add_zone(name, None, v));
                Ok(ZoneRef { g: g.clone(), idx })
            },
        )
        .register_fn(
            "new_seat_zones",
            |g: &mut G, name: &str, vis: &str| -> Fallible<()> {
                let v = visibility(vis)?;
                let seats = g.read(|s| s.seats.len());
                for _ in 0..seats {
                    budget::text(name, "new_seat_zones")?;
                }
                g.write(|s| (0..seats).for_each(|i| _ = s.add_zone(name, Some(i), v)));
                Ok(())
            },
        )
        .register_fn(
            "move_card",
            |_: &mut G, card: Card, mut from: ZoneRef, mut to: ZoneRef| -> Fallible<()> {
                if !from.contains(card.clone()) {
                    return fail(format!(
                        "card `{}` is not in zone `{}`",
                        card.id.0,
                        from.name()
                    ));
                }
                to.take(card)
            },
        )
        .register_fn("len", ZoneRef::len)
        .register_get("len", ZoneRef::len)
        .register_fn("is_empty", |z: &mut ZoneRef| z.len() == 0)
        .register_fn("cards", ZoneRef::cards)
        .register_fn("top", ZoneRef::top)
        .register_fn("take", ZoneRef::take)
        .register_fn("put", ZoneRef::put)
        .register_fn("draw_to", ZoneRef::draw_to)
        .register_fn("move_all_to", ZoneRef::move_all_to)
        .register_fn("shuffle", ZoneRef::shuffle)
        .register_fn("contains", ZoneRef::contains)
        .register_fn("find", ZoneRef::find)
        .register_fn("count", ZoneRef::count)
        .register_fn("counts", ZoneRef::counts)
        .register_fn("names", ZoneRef::names)
        .register_get("owner", ZoneRef::owner)
        .register_get("name", ZoneRef::name);
}
