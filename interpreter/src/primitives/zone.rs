//! Zones: ordered collections of cards (deck, hand, discard, bag, a cell) with a visibility.

use super::knowledge::{Audience, Secret};
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

/// One entry of the card catalogue: a name, the properties a script gave it, its secret
/// properties, and the seats shown its face wherever it lies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDef {
    pub name: String,
    pub props: BTreeMap<String, Value>,
    /// Properties no view shows (not even to the holder) but to the seats they were revealed
    /// to; the rules always read them. Absent in older saves.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secrets: BTreeMap<String, Secret>,
    /// Seats whose views show this card's face even in a zone they may not see.
    #[serde(default, skip_serializing_if = "Audience::is_nobody")]
    pub known_to: Audience,
}

impl CardDef {
    pub fn new(name: impl Into<String>, props: BTreeMap<String, Value>) -> CardDef {
        CardDef {
            name: name.into(),
            props,
            secrets: BTreeMap::new(),
            known_to: Audience::NOBODY,
        }
    }

    /// A property, public or secret: what the rules read.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.props
            .get(key)
            .or_else(|| self.secrets.get(key).map(|s| &s.value))
    }

    pub fn has(&self, key: &str) -> bool {
        self.props.contains_key(key) || self.secrets.contains_key(key)
    }

    /// Makes `key` a secret holding `value` (a public property of that name stops being
    /// public). A new value is known to nobody: those shown the old one did not see this one.
    pub fn set_secret(&mut self, key: &str, value: Value) {
        self.props.remove(key);
        match self.secrets.get_mut(key) {
            Some(s) if s.value == value => {}
            Some(s) => *s = Secret::hidden(value),
            None => _ = self.secrets.insert(key.to_string(), Secret::hidden(value)),
        }
    }

    /// Shows the secret `key` to `audience` from now on, besides those already shown it.
    pub fn reveal(&mut self, key: &str, audience: Audience) -> Result<(), String> {
        match self.secrets.get_mut(key) {
            Some(s) => {
                s.known_to.add(audience);
                Ok(())
            }
            None => Err(format!(
                "card `{}` has no secret `{key}` (set it with `set_secret`)",
                crate::text::excerpt(&self.name)
            )),
        }
    }

    /// Whether a view may need to redact something of this entry beyond blanking it.
    pub fn has_knowledge(&self) -> bool {
        !self.secrets.is_empty() || !self.known_to.is_nobody()
    }

    /// This entry as `viewer` (None: a spectator), who sees the card, may read it: without the
    /// secrets not revealed to it, and with knowledge reduced to its own (`Audience::as_seen_by`).
    /// None when that is the entry itself, so views share it.
    pub fn as_seen_by(&self, viewer: Option<usize>) -> Option<CardDef> {
        if !self.has_knowledge() {
            return None;
        }
        let secrets = self
            .secrets
            .iter()
            .filter(|(_, s)| s.known_to.includes(viewer))
            .map(|(k, s)| {
                let known_to = s.known_to.as_seen_by(viewer);
                (
                    k.clone(),
                    Secret {
                        value: s.value.clone(),
                        known_to,
                    },
                )
            })
            .collect();
        let seen = CardDef {
            name: self.name.clone(),
            props: self.props.clone(),
            secrets,
            known_to: self.known_to.as_seen_by(viewer),
        };
        (seen != *self).then_some(seen)
    }
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
    /// The zone (by index) shuffled into this one when a draw finds it empty: a deck's
    /// discard pile. Absent in saves made before decks had one, and for other zones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<usize>,
}

impl Zone {
    pub fn new(name: &str, owner: Option<usize>, visibility: Visibility) -> Zone {
        Zone {
            name: name.to_string(),
            owner,
            visibility,
            cards: Vec::new(),
            discard: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry as the viewer reads it in a view.
    fn seen(d: &CardDef, viewer: Option<usize>) -> CardDef {
        d.as_seen_by(viewer).unwrap_or_else(|| d.clone())
    }

    fn infected_card() -> CardDef {
        let mut props = BTreeMap::new();
        props.insert("kind".to_string(), Value::Str("contamination".into()));
        let mut d = CardDef::new("c1", props);
        d.set_secret("infected", Value::Bool(true));
        d
    }

    #[test]
    fn a_secret_is_read_by_the_rules_and_shown_to_nobody() {
        let d = infected_card();
        assert_eq!(d.get("infected"), Some(&Value::Bool(true)));
        assert!(d.has("infected") && d.has("kind") && !d.has("other"));
        for viewer in [Some(0), Some(1), None] {
            let seen = d.as_seen_by(viewer).expect("the secret is removed");
            assert!(!seen.has("infected") && seen.has("kind"), "{viewer:?}");
        }
    }

    #[test]
    fn a_revealed_secret_shows_to_its_seats_only_until_its_value_changes() {
        let mut d = infected_card();
        d.reveal("infected", Audience::seat(1).unwrap()).unwrap();
        assert!(seen(&d, Some(1)).has("infected"));
        assert!(!seen(&d, Some(0)).has("infected"));
        // The same value again changes nothing; a new one is known to nobody.
        d.set_secret("infected", Value::Bool(true));
        assert!(seen(&d, Some(1)).has("infected"));
        d.set_secret("infected", Value::Bool(false));
        assert!(!seen(&d, Some(1)).has("infected"));
        d.reveal("infected", Audience::EVERYONE).unwrap();
        assert!(seen(&d, None).has("infected"));
        let err = d.reveal("nothing", Audience::EVERYONE).unwrap_err();
        assert!(err.contains("has no secret `nothing`"), "{err}");
    }

    #[test]
    fn a_viewer_sees_only_its_own_knowledge_and_plain_cards_are_shared() {
        let mut d = CardDef::new("engine", BTreeMap::new());
        assert!(d.as_seen_by(Some(0)).is_none(), "nothing to redact");
        d.known_to = Audience::seat(0).unwrap();
        d.known_to.add_seat(2).unwrap();
        let seen = seen(&d, Some(2));
        assert_eq!(seen.known_to, Audience::seat(2).unwrap());
        d.known_to = Audience::EVERYONE;
        assert!(
            d.as_seen_by(None).is_none(),
            "everyone's knowledge is public"
        );
    }

    #[test]
    fn a_secret_hides_a_public_property_of_its_name() {
        let mut props = BTreeMap::new();
        props.insert("x".to_string(), Value::Int(1));
        let mut d = CardDef::new("c", props);
        d.set_secret("x", Value::Int(2));
        assert_eq!(d.get("x"), Some(&Value::Int(2)));
        assert!(!seen(&d, Some(0)).has("x"));
    }

    #[test]
    fn an_older_entry_loads_with_no_secrets() {
        let d: CardDef = serde_json::from_str(r#"{"name":"a","props":{}}"#).unwrap();
        assert!(!d.has_knowledge());
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"name":"a","props":{}}"#
        );
    }
}
