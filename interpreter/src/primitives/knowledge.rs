//! Knowledge of cards: which seats were shown a card's face, or one of its secret properties,
//! whatever zone the card lies in.

use crate::value::Value;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most seats an `Audience` can name: one bit each (the same as the manifest's limit).
pub const MAX_AUDIENCE_SEATS: usize = 64;

/// Who was shown something: some seats, or everyone (spectators included). Saved as `"all"`
/// or as the list of seat indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Audience {
    everyone: bool,
    /// Bit `i`: seat `i`.
    seats: u64,
}

impl Audience {
    pub const NOBODY: Audience = Audience {
        everyone: false,
        seats: 0,
    };
    pub const EVERYONE: Audience = Audience {
        everyone: true,
        seats: 0,
    };

    pub fn seat(i: usize) -> Result<Audience, String> {
        let mut a = Audience::NOBODY;
        a.add_seat(i)?;
        Ok(a)
    }

    pub fn is_nobody(&self) -> bool {
        *self == Audience::NOBODY
    }

    pub fn is_everyone(&self) -> bool {
        self.everyone
    }

    /// Whether `viewer` (None: a spectator) is in this audience.
    pub fn includes(&self, viewer: Option<usize>) -> bool {
        self.everyone
            || viewer.is_some_and(|i| i < MAX_AUDIENCE_SEATS && self.seats & (1 << i) != 0)
    }

    pub fn add_seat(&mut self, i: usize) -> Result<(), String> {
        if i >= MAX_AUDIENCE_SEATS {
            return Err(format!(
                "seat {i}: at most {MAX_AUDIENCE_SEATS} seats can be shown a card"
            ));
        }
        if !self.everyone {
            self.seats |= 1 << i;
        }
        Ok(())
    }

    /// Adds everyone in `other`; knowledge only grows until it is forgotten as a whole.
    /// Everyone is kept with no seat bits, so that equal audiences save alike.
    pub fn add(&mut self, other: Audience) {
        if self.everyone || other.everyone {
            *self = Audience::EVERYONE;
        } else {
            self.seats |= other.seats;
        }
    }

    /// The seats among the first `count` that are in this audience (all of them for everyone).
    pub fn seats(&self, count: usize) -> impl Iterator<Item = usize> + '_ {
        (0..count.min(MAX_AUDIENCE_SEATS)).filter(move |&i| self.includes(Some(i)))
    }

    /// What `viewer` may learn of this audience: whether everyone knows, else only whether the
    /// viewer itself knows. Who else was shown a card is their own business.
    pub fn as_seen_by(&self, viewer: Option<usize>) -> Audience {
        match viewer {
            _ if self.everyone => Audience::EVERYONE,
            Some(i) if self.includes(viewer) => Audience {
                everyone: false,
                seats: 1 << i,
            },
            _ => Audience::NOBODY,
        }
    }
}

impl Serialize for Audience {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.everyone {
            s.serialize_str("all")
        } else {
            s.collect_seq(self.seats(MAX_AUDIENCE_SEATS))
        }
    }
}

impl<'de> Deserialize<'de> for Audience {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Audience, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Saved {
            Word(String),
            Seats(Vec<usize>),
        }
        match Saved::deserialize(d)? {
            Saved::Word(w) if w == "all" => Ok(Audience::EVERYONE),
            Saved::Word(w) => Err(serde::de::Error::custom(format!(
                "an audience is \"all\" or a list of seat indices, not `{}`",
                crate::text::excerpt(&w)
            ))),
            Saved::Seats(list) => {
                let mut a = Audience::NOBODY;
                for i in list {
                    a.add_seat(i).map_err(serde::de::Error::custom)?;
                }
                Ok(a)
            }
        }
    }
}

/// A card property no view shows, except to the seats it was revealed to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secret {
    pub value: Value,
    #[serde(default, skip_serializing_if = "Audience::is_nobody")]
    pub known_to: Audience,
}

impl Secret {
    /// A value nobody was shown yet.
    pub fn hidden(value: Value) -> Secret {
        Secret {
            value,
            known_to: Audience::NOBODY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_audience_includes_its_seats_and_everyone_its_spectators() {
        let mut a = Audience::seat(2).unwrap();
        assert!(a.includes(Some(2)) && !a.includes(Some(1)) && !a.includes(None));
        a.add(Audience::seat(0).unwrap());
        assert_eq!(a.seats(3).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(a.seats(2).collect::<Vec<_>>(), [0], "only seats that exist");
        a.add(Audience::EVERYONE);
        assert!(a.includes(None) && a.includes(Some(5)));
        a.add_seat(1).unwrap();
        assert_eq!(a, Audience::EVERYONE, "one everyone, saved as one");
        let err = Audience::seat(MAX_AUDIENCE_SEATS).unwrap_err();
        assert!(
            err.contains("at most 64 seats can be shown a card"),
            "{err}"
        );
        assert!(!Audience::NOBODY.includes(Some(0)) && Audience::NOBODY.is_nobody());
    }

    #[test]
    fn a_viewer_learns_only_whether_it_knows_or_everyone_does() {
        let mut a = Audience::seat(0).unwrap();
        a.add_seat(3).unwrap();
        assert_eq!(a.as_seen_by(Some(3)), Audience::seat(3).unwrap());
        assert_eq!(a.as_seen_by(Some(1)), Audience::NOBODY);
        assert_eq!(a.as_seen_by(None), Audience::NOBODY);
        assert_eq!(Audience::EVERYONE.as_seen_by(None), Audience::EVERYONE);
    }

    #[test]
    fn audiences_save_as_all_or_seat_indices_and_refuse_others() {
        let mut a = Audience::seat(4).unwrap();
        a.add_seat(1).unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,4]");
        assert_eq!(
            serde_json::to_string(&Audience::EVERYONE).unwrap(),
            "\"all\""
        );
        for text in ["[1,4]", "\"all\"", "[]"] {
            let back: Audience = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text);
        }
        let untagged = "did not match any variant";
        for (bad, why) in [
            ("[64]", "seat 64: at most 64 seats"),
            ("[1,99999999999]", "seat 99999999999: at most 64 seats"),
            ("\"some\"", "not `some`"),
            ("[-1]", untagged),
            ("3", untagged),
        ] {
            let err = serde_json::from_str::<Audience>(bad).unwrap_err();
            assert!(err.to_string().contains(why), "{bad}: {err}");
        }
    }
}
