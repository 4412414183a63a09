//! Rhai face of cards: `card.name`, `card.id`, `card.hidden` and `card["prop"]` (also
//! `card.prop`), read from the state's catalogue.

use super::{budget, fail, Fallible, G};
use crate::primitives::zone::{CardDef, CardId};
use rhai::{Dynamic, Engine, ImmutableString, Map, INT};
use std::sync::Arc;

#[derive(Clone)]
pub struct Card {
    pub id: CardId,
    catalogue: Arc<Vec<Arc<CardDef>>>,
}

impl Card {
    pub fn new(id: CardId, catalogue: Arc<Vec<Arc<CardDef>>>) -> Card {
        Card { id, catalogue }
    }

    fn def(&self) -> Option<&CardDef> {
        self.catalogue
            .get(self.id.0 as usize)
            .map(|d| &**d)
            .filter(|_| self.id != CardId::HIDDEN)
    }

    fn prop(&mut self, key: &str) -> Fallible<Dynamic> {
        match self.def() {
            None => fail(format!("this card is hidden: its `{key}` cannot be read")),
            Some(d) => match d.props.get(key) {
                Some(v) => Ok(v.to_dynamic()),
                None if key == "name" => Ok(Dynamic::from(ImmutableString::from(d.name.as_str()))),
                None => Ok(Dynamic::UNIT),
            },
        }
    }
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<Card>("Card")
        .register_get("id", |c: &mut Card| c.id.0 as INT)
        .register_get("hidden", |c: &mut Card| c.def().is_none())
        .register_get("name", |c: &mut Card| {
            ImmutableString::from(c.def().map_or("?", |d| d.name.as_str()))
        })
        .register_indexer_get(Card::prop)
        .register_fn("has", |c: &mut Card, key: &str| {
            c.def().is_some_and(|d| d.props.contains_key(key))
        })
        .register_fn("==", |a: Card, b: Card| a.id == b.id)
        .register_fn("!=", |a: Card, b: Card| a.id != b.id)
        .register_fn("to_string", |c: &mut Card| {
            ImmutableString::from(c.def().map_or("?", |d| d.name.as_str()))
        })
        .register_fn("to_debug", |c: &mut Card| {
            format!("Card({})", c.def().map_or("?", |d| d.name.as_str()))
        })
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
                let id = g.write(|s| {
                    s.new_card(CardDef {
                        name: name.to_string(),
                        props: out,
                    })
                });
                match id {
                    Ok(id) => Ok(Card::new(id, g.read(|s| s.cards.clone()))),
                    Err(e) => fail(e),
                }
            },
        )
        .register_fn("card", |g: &mut G, id: INT| -> Fallible<Card> {
            let n = g.read(|s| s.cards.len()) as INT;
            if !(0..n).contains(&id) {
                return fail(format!("no card {id}"));
            }
            Ok(Card::new(CardId(id as u16), g.read(|s| s.cards.clone())))
        });
}
