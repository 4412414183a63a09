//! Zones: ordered collections of cards (deck, hand, discard, bag, a cell) with a visibility.

use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A card, piece or token: an index into the state's card catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CardId(pub u16);

impl CardId {
    /// Stands for a card a view may not identify (its place is shown, not its face).
    pub const HIDDEN: CardId = CardId(u16::MAX);
}

/// One entry of the card catalogue: a name and the properties a script gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    pub name: String,
    pub props: BTreeMap<String, Value>,
}

/// Who may see a zone's cards. Counts are always public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    #[default]
    All,
    Owner,
    None,
}

impl Visibility {
    pub fn parse(text: &str) -> Result<Visibility, String> {
        match text {
            "all" | "everyone" => Ok(Visibility::All),
            "owner" => Ok(Visibility::Owner),
            "none" | "nobody" => Ok(Visibility::None),
            other => Err(format!(
                "unknown visibility `{}` (use all, owner or none)",
                crate::text::excerpt(other)
            )),
        }
    }
}

/// An ordered collection; the last card is the top (drawn first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    pub name: String,
    pub owner: Option<usize>,
    pub visibility: Visibility,
    pub cards: Vec<CardId>,
}

impl Zone {
    pub fn new(name: &str, owner: Option<usize>, visibility: Visibility) -> Zone {
        Zone {
            name: name.to_string(),
            owner,
            visibility,
            cards: Vec::new(),
        }
    }

    /// Whether `seat` (None: a spectator) may see this zone's cards.
    pub fn visible_to(&self, seat: Option<usize>) -> bool {
        match self.visibility {
            Visibility::All => true,
            Visibility::Owner => seat.is_some() && seat == self.owner,
            Visibility::None => false,
        }
    }

    pub fn position(&self, card: CardId) -> Option<usize> {
        self.cards.iter().position(|&c| c == card)
    }

    pub fn remove(&mut self, card: CardId) -> bool {
        match self.position(card) {
            Some(i) => {
                self.cards.remove(i);
                true
            }
            None => false,
        }
    }
}
