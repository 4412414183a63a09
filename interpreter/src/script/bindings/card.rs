//! Rhai face of cards: `card.name`, `card.id`, `card.hidden` and `card["prop"]` (also
//! `card.prop`), read from the state's catalogue; secret properties and cards revealed to
//! chosen seats (`g.set_secret`, `g.reveal`, `g.reveal_card`, ...).

use super::{budget, fail, strings, Fallible, G};
use crate::primitives::knowledge::Audience;
use crate::primitives::zone::{CardDef, CardId};
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, INT};

/// A card as scripts hold it: its id and the game it belongs to, so that it always reads the
/// catalogue as it is now (a secret set a line earlier included).
#[derive(Clone)]
pub struct Card {
    pub id: CardId,
    g: G,
}

impl Card {
    pub fn new(id: CardId, g: G) -> Card {
        Card { id, g }
    }

    /// `f` on this card's entry; None for a hidden card (or an id the catalogue lacks).
    fn with_def<R>(&self, f: impl FnOnce(&CardDef) -> R) -> Option<R> {
        if self.id == CardId::HIDDEN {
            return None;
        }
        self.g
            .read(|s| s.cards.get(self.id.0 as usize).map(|d| f(d)))
    }

    fn name(&mut self) -> ImmutableString {
        self.with_def(|d| ImmutableString::from(d.name.as_str()))
            .unwrap_or_else(|| "?".into())
    }

    pub(super) fn prop(&mut self, key: &str) -> Fallible<Dynamic> {
        let read = self.with_def(|d| match d.get(key) {
            Some(v) => v.to_dynamic(),
            None if key == "name" => Dynamic::from(ImmutableString::from(d.name.as_str())),
            None => Dynamic::UNIT,
        });
        read.map_or_else(
            || fail(format!("this card is hidden: its `{key}` cannot be read")),
            Ok,
        )
    }
}

/// Changes one catalogue entry (copying only that entry and the list of pointers); refused
/// for a hidden card.
fn edit<R>(g: &G, card: &Card, f: impl FnOnce(&mut CardDef) -> Result<R, String>) -> Fallible<R> {
    let i = card.id.0 as usize;
    if card.id == CardId::HIDDEN || g.read(|s| i >= s.cards.len()) {
        return fail("this card is hidden: it cannot be changed");
    }
    g.write(|s| s.edit_card(i, f)).or_else(fail)
}

/// Seats as scripts name them: `"all"` (everyone, spectators too), a seat, or an array of seats.
fn audience(g: &G, seats: Dynamic) -> Fallible<Audience> {
    let names = if seats.is_string() {
        let name = seats.into_string().unwrap_or_default();
        if name == "all" {
            return Ok(Audience::EVERYONE);
        }
        vec![name]
    } else if let Some(list) = seats.read_lock::<Array>() {
        budget::charge(list.len() as u64, "a list of seats")?;
        super::string_list(&list, "seats")?
    } else {
        return fail(format!(
            "seats are \"all\", a seat's name or an array of them, not a `{}`",
            seats.type_name()
        ));
    };
    let mut out = Audience::NOBODY;
    for name in names {
        out.add_seat(g.seat(&name)?).or_else(fail)?;
    }
    Ok(out)
}

/// The seats of an audience by name (every seat when everyone knows).
fn seat_names(g: &G, who: Audience) -> Array {
    g.read(|s| strings(who.seats(s.seats.len()).map(|i| s.seats[i].as_str())))
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<Card>("Card")
        .register_get("id", |c: &mut Card| c.id.0 as INT)
        .register_get("hidden", |c: &mut Card| c.with_def(|_| ()).is_none())
        .register_get("name", Card::name)
        .register_indexer_get(Card::prop)
        .register_fn("has", |c: &mut Card, key: &str| {
            c.with_def(|d| d.has(key)).unwrap_or(false)
        })
        .register_fn("==", |a: Card, b: Card| a.id == b.id)
        .register_fn("!=", |a: Card, b: Card| a.id != b.id)
        .register_fn("to_string", Card::name)
        .register_fn("to_debug", |c: &mut Card| format!("Card({})", c.name()))
        // A new card, placed in the catalogue; put it in a zone with `zone.put(card)`.
        .register_fn(
            "new_card",
            |g: &mut G, name: &str, props: Map| -> Fallible<Card> {
                budget::text(name, "new_card")?;
                let mut out = std::collections::BTreeMap::new();
                for (k, v) in props {
                    budget::text(&k, "new_card")?;
                    let v = budget::store(&v, &format!("card property `{k}`"))?;
                    out.insert(k.to_string(), v);
                }
                match g.write(|s| s.new_card(CardDef::new(name, out))) {
                    Ok(id) => Ok(Card::new(id, g.clone())),
                    Err(e) => fail(e),
                }
            },
        )
        .register_fn("card", |g: &mut G, id: INT| -> Fallible<Card> {
            let n = g.read(|s| s.cards.len()) as INT;
            if !(0..n).contains(&id) {
                return fail(format!("no card {id}"));
            }
            Ok(Card::new(CardId(id as u16), g.clone()))
        });
    register_knowledge(engine);
}

/// Secret properties (hidden even from the card's holder until revealed) and cards revealed to
/// chosen seats wherever they lie.
fn register_knowledge(engine: &mut Engine) {
    engine
        .register_fn(
            "set_secret",
            |g: &mut G, card: Card, key: &str, v: Dynamic| -> Fallible<()> {
                budget::text(key, "set_secret")?;
                let value = budget::store(&v, &format!("cannot store secret `{key}`"))?;
                edit(g, &card, |d| {
                    d.set_secret(key, value);
                    Ok(())
                })
            },
        )
        .register_fn(
            "reveal",
            |g: &mut G, card: Card, key: &str, seats: Dynamic| -> Fallible<()> {
                let who = audience(g, seats)?;
                edit(g, &card, |d| d.reveal(key, who))
            },
        )
        .register_fn(
            "secret_known_by",
            |g: &mut G, card: Card, key: &str| -> Fallible<Array> {
                let who = card.with_def(|d| d.secrets.get(key).map(|s| s.known_to));
                match who {
                    None => fail("this card is hidden: its secrets cannot be read"),
                    Some(None) => fail(format!("card `{}` has no secret `{key}`", card.id.0)),
                    Some(Some(who)) => Ok(seat_names(g, who)),
                }
            },
        )
        .register_fn(
            "reveal_card",
            |g: &mut G, card: Card, seats: Dynamic| -> Fallible<()> {
                let who = audience(g, seats)?;
                edit(g, &card, |d| {
                    d.known_to.add(who);
                    Ok(())
                })
            },
        )
        .register_fn("conceal_card", |g: &mut G, card: Card| -> Fallible<()> {
            if card.with_def(|d| d.known_to.is_nobody()) == Some(true) {
                return Ok(()); // nothing to forget, so no entry to copy
            }
            edit(g, &card, |d| {
                d.known_to = Audience::NOBODY;
                Ok(())
            })
        })
        .register_fn(
            "card_known_by",
            |g: &mut G, card: Card| -> Fallible<Array> {
                match card.with_def(|d| d.known_to) {
                    Some(who) => Ok(seat_names(g, who)),
                    None => fail("this card is hidden"),
                }
            },
        );
}
