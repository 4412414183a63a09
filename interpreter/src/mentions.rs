//! Cards named in log lines. A word of a log line (an action's text, or a line a script
//! logged) that is the catalogue name of exactly one card names that card; each seat reads the
//! name only if it could see the card before or after the action that wrote the line, and reads
//! "a card" otherwise (`State::view`). So a script cannot leak a hidden card through the log
//! by naming it: the engine decides, not the script. A card shown only in the middle of an
//! action (turned face up, then shuffled away) is "a card" in the log too: what the rules keep
//! public after that, a script keeps in a public value or a face-up zone.
//!
//! A name several cards share (`"5"`, `"joker"`) names a kind, not a card, and is left as it
//! is: such a word says which kind was played, which the game's own rules show.

use crate::primitives::knowledge::Audience;
use crate::primitives::zone::{CardDef, CardId, Visibility, Zone};
use crate::state::{LogEntry, State};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// What a view shows in place of a card name its seat may not read.
pub const HIDDEN_CARD: &str = "a card";

/// A card named in a log line: the byte range of its name in the text, and who may read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mention {
    pub start: u32,
    pub end: u32,
    pub card: CardId,
    pub readers: Audience,
}

/// Who may see each card of the catalogue (by index) in `state`: the seats of the zone it lies
/// in, and those it was revealed to.
pub fn readers(state: &State) -> Vec<Audience> {
    readers_in(&state.zones, &state.cards)
}

fn readers_in(zones: &[Zone], cards: &[Arc<CardDef>]) -> Vec<Audience> {
    let mut readers: Vec<Audience> = cards.iter().map(|d| d.known_to).collect();
    for z in zones {
        let audience = match (z.visibility, z.owner) {
            (Visibility::All, _) => Audience::EVERYONE,
            (Visibility::Owner, Some(o)) => Audience::seat(o).unwrap_or(Audience::NOBODY),
            _ => continue,
        };
        for c in &z.cards {
            if let Some(r) = readers.get_mut(c.0 as usize) {
                r.add(audience);
            }
        }
    }
    readers
}

/// Whether any card of `state`'s catalogue has a name of its own, that a log line could name:
/// when none has, there is nothing to look for, and `readers` need not be taken before an
/// action.
pub fn any_nameable(state: &State) -> bool {
    !state.cards.is_empty() && with_index(state, |index| !index.is_empty())
}

/// Marks the card names of the log line just written (the last one), readable by nobody
/// until the action that wrote it is over (`settle`): a line written outside an action names
/// no card.
pub fn mark_last(state: &mut State) {
    if state.cards.is_empty() {
        return;
    }
    let Some(last) = state.log.back() else {
        return;
    };
    let names = with_index(state, |index| find_names(&last.text, index));
    if names.is_empty() {
        return;
    }
    let mentions = names
        .into_iter()
        .map(|(start, end, card)| Mention {
            start,
            end,
            card,
            readers: Audience::NOBODY,
        })
        .collect();
    if let Some(e) = state.log.back_mut() {
        Arc::make_mut(e).mentions = mentions;
    }
}

/// Once an action (or the setup) is over, adds to the marks of its log lines, from `from` on,
/// those who could see each card before it (`before`, from `readers`; None at setup) and
/// after it, and drops the marks every reader of their line may read.
pub fn settle(state: &mut State, from: usize, before: Option<&[Audience]>) {
    // Every action of every game passes here: nothing is allocated unless a line is marked.
    if state.cards.is_empty()
        || !(from..state.log.len())
            .any(|i| state.log.get(i).is_some_and(|e| !e.mentions.is_empty()))
    {
        return;
    }
    let marked: Vec<usize> = (from..state.log.len())
        .filter(|&i| !state.log[i].mentions.is_empty())
        .collect();
    let after = readers(state);
    for i in marked {
        let Some(e) = state.log.get_mut(i) else {
            continue;
        };
        let e = Arc::make_mut(e);
        let mut mentions = std::mem::take(&mut e.mentions);
        for m in &mut mentions {
            let c = m.card.0 as usize;
            m.readers.add(after.get(c).copied().unwrap_or_default());
            if let Some(b) = before.and_then(|b| b.get(c)) {
                m.readers.add(*b);
            }
        }
        mentions.retain(|m| !all_may_read(e, m.readers));
        e.mentions = mentions;
    }
}

/// Whether every reader of `entry` (spectators too when it is public) is in `readers`.
fn all_may_read(entry: &LogEntry, readers: Audience) -> bool {
    match &entry.seen_by {
        None => readers.is_everyone(),
        Some(seen) => seen.iter().all(|&s| readers.includes(Some(s))),
    }
}

/// `entry`'s text as `seat` may read it: the names it may not read become `HIDDEN_CARD`.
/// None when it may read them all.
pub fn redacted(entry: &LogEntry, seat: Option<usize>) -> Option<String> {
    if entry.mentions.iter().all(|m| m.readers.includes(seat)) {
        return None;
    }
    let mut text = String::with_capacity(entry.text.len());
    let mut at = 0;
    for m in entry.mentions.iter().filter(|m| !m.readers.includes(seat)) {
        let (start, end) = (m.start as usize, m.end as usize);
        // A mention outside the text or off a character boundary (a hand-edited save) hides
        // the whole line rather than cutting a character.
        let (Some(before), true) = (entry.text.get(at..start), entry.text.is_char_boundary(end))
        else {
            return Some(HIDDEN_CARD.to_string());
        };
        text.push_str(before);
        text.push_str(HIDDEN_CARD);
        at = end;
    }
    text.push_str(entry.text.get(at..).unwrap_or_default());
    Some(text)
}

/// Whether `c` may be part of a card name written in a line.
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The words of `text` that name one card, with their byte ranges. Every line of every action
/// passes here, so ASCII is read byte by byte and only the rest decoded.
fn find_names(text: &str, index: &NameIndex) -> Vec<(u32, u32, CardId)> {
    let mut found = vec![];
    let bytes = text.as_bytes();
    let mut start = None;
    let mut i = 0;
    while i <= bytes.len() {
        let (word, width) = match bytes.get(i) {
            None => (false, 1),
            Some(&b) if b.is_ascii() => (b.is_ascii_alphanumeric() || b == b'-' || b == b'_', 1),
            Some(_) => {
                let c = text[i..].chars().next().unwrap_or(' ');
                (name_char(c), c.len_utf8())
            }
        };
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if let Some(card) = index.get(&text[s..i]) {
                    found.push((s as u32, i as u32, card));
                }
                start = None;
            }
            _ => {}
        }
        i += width;
    }
    found
}

/// Card names held by one card each, and that card; most words of a line are no card's
/// name, and the lengths and first bytes of the names turn most of them away unhashed.
#[derive(Debug, Default)]
struct NameIndex {
    names: ahash::AHashMap<Box<str>, CardId>,
    /// Bit `n`: some name is `n` bytes long (63: 63 or more).
    lengths: u64,
    /// Bit `b`: some name starts with byte `b`.
    firsts: [u64; 4],
}

impl NameIndex {
    fn get(&self, word: &str) -> Option<CardId> {
        let first = *word.as_bytes().first()? as usize;
        if self.lengths & (1 << word.len().min(63)) == 0
            || self.firsts[first / 64] & (1 << (first % 64)) == 0
        {
            return None;
        }
        self.names.get(word).copied()
    }

    fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The names of one card each of a state's catalogue, found when first asked and shared by
/// the copies made after that (an empty cache costs no allocation, as views and new cards
/// make one). Cards are only ever added to a catalogue (`State::new_card` starts a new
/// cache), and no card changes its name, so the index stays true. Not saved: a loaded state
/// finds the names again when first asked. Never part of what makes two states equal.
#[derive(Debug, Clone, Default)]
pub struct NameCache(OnceLock<Arc<NameIndex>>);

impl PartialEq for NameCache {
    fn eq(&self, _: &NameCache) -> bool {
        true
    }
}

fn with_index<T>(state: &State, f: impl FnOnce(&NameIndex) -> T) -> T {
    f(state
        .name_index
        .0
        .get_or_init(|| Arc::new(unique_names(&state.cards))))
}

/// Names held by exactly one card (and made only of name characters, as only those are found).
fn unique_names(cards: &[Arc<CardDef>]) -> NameIndex {
    let mut count: HashMap<&str, (usize, CardId)> = HashMap::new();
    for (i, d) in cards.iter().enumerate() {
        let e = count
            .entry(d.name.as_str())
            .or_insert((0, CardId(i as u16)));
        e.0 += 1;
    }
    let mut index = NameIndex::default();
    for (name, (n, card)) in count {
        if n == 1 && !name.is_empty() && name.chars().all(name_char) {
            let first = name.as_bytes()[0] as usize;
            index.lengths |= 1 << name.len().min(63);
            index.firsts[first / 64] |= 1 << (first % 64);
            index.names.insert(name.into(), card);
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn words_that_name_one_card_are_found_with_their_place() {
        let def = |n: &str| Arc::new(CardDef::new(n, BTreeMap::new()));
        let index = unique_names(&[def("knife"), def("brass-key-7")]);
        let text = "p2: keep brass-key-7, drop brass-key-70 (knife…knife)";
        assert_eq!(
            find_names(text, &index),
            vec![(9, 20, CardId(1)), (41, 46, CardId(0)), (49, 54, CardId(0))]
        );
    }

    #[test]
    fn shared_names_name_no_card() {
        let def = |n: &str| Arc::new(CardDef::new(n, BTreeMap::new()));
        let cards = vec![def("5"), def("5"), def("trap3"), def("a b")];
        let index = unique_names(&cards);
        assert_eq!(index.names.len(), 1);
        assert_eq!(index.get("trap3"), Some(CardId(2)));
        assert_eq!(index.get("trap4"), None);
    }

    #[test]
    fn a_line_is_redacted_for_seats_that_may_not_read_its_card() {
        let entry = LogEntry {
            text: "p1: keep knife and axe".into(),
            seen_by: None,
            mentions: vec![
                Mention {
                    start: 9,
                    end: 14,
                    card: CardId(0),
                    readers: Audience::seat(0).unwrap(),
                },
                Mention {
                    start: 19,
                    end: 22,
                    card: CardId(1),
                    readers: Audience::EVERYONE,
                },
            ],
        };
        assert_eq!(redacted(&entry, Some(0)), None);
        assert_eq!(
            redacted(&entry, Some(1)).as_deref(),
            Some("p1: keep a card and axe")
        );
        assert_eq!(
            redacted(&entry, None).as_deref(),
            Some("p1: keep a card and axe")
        );
    }
}
