//! Hostile data for files: JSON values a save should not hold, edits of a save's fields and
//! of any file's bytes, applied so that shrinking keeps them meaningful (positions wrap).

use boardscript_interpreter::log::{Played, SaveFile, SAVE_FORMAT};
use boardscript_interpreter::Setup;
use proptest::prelude::*;
use serde_json::{json, Value};

/// JSON values a save field should not hold, and a few it may.
pub fn junk_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1.5)),
        Just(json!("")),
        Just(json!("nobody")),
        Just(json!("a1")),
        Just(json!("blue")),
        Just(json!("p1")),
        Just(json!("virus-wars")),
        Just(json!(SAVE_FORMAT)),
        Just(json!("a\nb")),
        Just(json!("\u{0}")),
        Just(json!("\u{feff}")),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{0,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Where in a save an edit lands.
#[derive(Debug, Clone, Copy)]
pub enum SaveField {
    Format,
    Game,
    Seats,
    Setup,
    Seed,
    SetupSeats,
    Options,
    Position,
    Actions,
    ActionSeat(usize),
    ActionText(usize),
    Action(usize),
}

pub fn save_field() -> impl Strategy<Value = SaveField> {
    prop_oneof![
        Just(SaveField::Format),
        Just(SaveField::Game),
        Just(SaveField::Seats),
        Just(SaveField::Setup),
        Just(SaveField::Seed),
        Just(SaveField::SetupSeats),
        Just(SaveField::Options),
        Just(SaveField::Position),
        Just(SaveField::Actions),
        any::<usize>().prop_map(SaveField::ActionSeat),
        any::<usize>().prop_map(SaveField::ActionText),
        any::<usize>().prop_map(SaveField::Action),
    ]
}

/// A change to a file's bytes; positions wrap around the file's length.
#[derive(Debug, Clone)]
pub enum ByteEdit {
    Flip { at: usize, mask: u8 },
    Cut { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Truncate { at: usize },
    Repeat { at: usize, len: usize },
    Bom,
}

pub fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        3 => (any::<usize>(), 1..=255u8).prop_map(|(at, mask)| ByteEdit::Flip { at, mask }),
        2 => (any::<usize>(), 1..64usize).prop_map(|(at, len)| ByteEdit::Cut { at, len }),
        2 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| ByteEdit::Insert { at, bytes }),
        1 => any::<usize>().prop_map(|at| ByteEdit::Truncate { at }),
        1 => (any::<usize>(), 1..200usize).prop_map(|(at, len)| ByteEdit::Repeat { at, len }),
        1 => Just(ByteEdit::Bom),
    ]
}

pub fn apply_byte_edit(bytes: &mut Vec<u8>, edit: &ByteEdit) {
    let at = |i: usize| i % (bytes.len() + 1);
    match edit {
        ByteEdit::Flip { at: i, mask } => {
            if !bytes.is_empty() {
                let i = i % bytes.len();
                bytes[i] ^= mask;
            }
        }
        ByteEdit::Cut { at: i, len } => {
            let i = at(*i);
            let end = (i + len).min(bytes.len());
            bytes.drain(i..end);
        }
        ByteEdit::Insert { at: i, bytes: new } => {
            let i = at(*i);
            bytes.splice(i..i, new.iter().copied());
        }
        ByteEdit::Truncate { at: i } => bytes.truncate(at(*i)),
        ByteEdit::Repeat { at: i, len } => {
            let i = at(*i);
            let end = (i + len).min(bytes.len());
            let copy = bytes[i..end].to_vec();
            bytes.splice(i..i, copy);
        }
        ByteEdit::Bom => bytes.splice(0..0, [0xEF, 0xBB, 0xBF]).for_each(drop),
    }
}

/// A change to a valid save: structured (a field set, removed or added), or to its bytes.
#[derive(Debug, Clone)]
pub enum SaveEdit {
    Set(SaveField, Value),
    Remove(SaveField),
    UnknownField(Value),
    /// A top-level key the format does not have, named as given.
    UnknownKey(String),
    DuplicateActions,
    ReverseActions,
    Bytes(Vec<ByteEdit>),
}

pub fn save_edits() -> impl Strategy<Value = Vec<SaveEdit>> {
    let edit = prop_oneof![
        4 => (save_field(), junk_value()).prop_map(|(f, v)| SaveEdit::Set(f, v)),
        2 => save_field().prop_map(SaveEdit::Remove),
        1 => junk_value().prop_map(SaveEdit::UnknownField),
        1 => ".{0,12}".prop_map(SaveEdit::UnknownKey),
        1 => Just(SaveEdit::DuplicateActions),
        1 => Just(SaveEdit::ReverseActions),
        3 => prop::collection::vec(byte_edit(), 1..4).prop_map(SaveEdit::Bytes),
    ];
    prop::collection::vec(edit, 1..4)
}

/// The slot `field` names in a save's JSON, if the save has it.
pub fn slot(
    save: &mut Value,
    field: SaveField,
) -> Option<(&mut serde_json::Map<String, Value>, String)> {
    let (parent, key): (&mut Value, String) = match field {
        SaveField::Format => (save, "format".into()),
        SaveField::Game => (save, "game".into()),
        SaveField::Seats => (save, "seats".into()),
        SaveField::Setup => (save, "setup".into()),
        SaveField::Actions => (save, "actions".into()),
        SaveField::Seed => (save.get_mut("setup")?, "seed".into()),
        SaveField::SetupSeats => (save.get_mut("setup")?, "seats".into()),
        SaveField::Options => (save.get_mut("setup")?, "options".into()),
        SaveField::Position => (save.get_mut("setup")?, "position".into()),
        SaveField::ActionSeat(i) | SaveField::ActionText(i) | SaveField::Action(i) => {
            let actions = save.get_mut("actions")?.as_array_mut()?;
            if actions.is_empty() {
                return None;
            }
            let n = actions.len();
            let action = &mut actions[i % n];
            match field {
                SaveField::ActionSeat(_) => (action, "seat".into()),
                SaveField::ActionText(_) => (action, "action".into()),
                // The whole entry: replace the array element through a one-key wrapper below.
                _ => return None,
            }
        }
    };
    Some((parent.as_object_mut()?, key))
}

/// Applies edits to a save's text; structured edits after a byte edit that broke the JSON
/// are skipped.
pub fn mutate_save(text: &str, edits: &[SaveEdit]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for edit in edits {
        if let SaveEdit::Bytes(list) = edit {
            for e in list {
                apply_byte_edit(&mut bytes, e);
            }
            continue;
        }
        let Ok(mut save) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        match edit {
            SaveEdit::Set(SaveField::Action(i), v) => {
                if let Some(actions) = save.get_mut("actions").and_then(Value::as_array_mut) {
                    if !actions.is_empty() {
                        let n = actions.len();
                        actions[i % n] = v.clone();
                    }
                }
            }
            SaveEdit::Remove(SaveField::Action(i)) => {
                if let Some(actions) = save.get_mut("actions").and_then(Value::as_array_mut) {
                    if !actions.is_empty() {
                        let n = actions.len();
                        actions.remove(i % n);
                    }
                }
            }
            SaveEdit::Set(field, v) => {
                if let Some((obj, key)) = slot(&mut save, *field) {
                    obj.insert(key, v.clone());
                }
            }
            SaveEdit::Remove(field) => {
                if let Some((obj, key)) = slot(&mut save, *field) {
                    obj.remove(&key);
                }
            }
            SaveEdit::UnknownField(v) => {
                if let Some(obj) = save.as_object_mut() {
                    obj.insert("extra".into(), v.clone());
                }
            }
            SaveEdit::UnknownKey(key) => {
                if let Some(obj) = save.as_object_mut() {
                    obj.insert(key.clone(), json!(1));
                }
            }
            SaveEdit::DuplicateActions | SaveEdit::ReverseActions => {
                if let Some(actions) = save.get_mut("actions").and_then(Value::as_array_mut) {
                    if matches!(edit, SaveEdit::ReverseActions) {
                        actions.reverse();
                    } else {
                        let copy = actions.clone();
                        actions.extend(copy);
                    }
                }
            }
            SaveEdit::Bytes(_) => unreachable!(),
        }
        bytes = serde_json::to_vec_pretty(&save).unwrap();
    }
    bytes
}

/// A valid save to mutate, as `save` writes it.
pub fn sample_save(game: &str, seats: &[&str], actions: &[(&str, &str)], seed: u64) -> String {
    let save = SaveFile {
        format: SAVE_FORMAT.into(),
        game: game.into(),
        seats: seats.iter().map(|s| s.to_string()).collect(),
        setup: Setup {
            seats: None,
            seed,
            options: [("size".to_string(), "11".to_string())].into(),
            position: None,
        },
        actions: actions
            .iter()
            .map(|(seat, action)| Played {
                seat: seat.to_string(),
                action: action.to_string(),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&save).unwrap()
}
