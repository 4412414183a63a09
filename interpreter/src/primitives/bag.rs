//! Bags: multisets of tokens by kind, drawn at random (an opaque cloth bag of tokens).
//!
//! Kinds are kept in name order with their counts, so what a draw yields depends on the
//! contents and the RNG alone, never on the order tokens went in: a draw makes one call to
//! the game's RNG (a number below the total), and counts through the kinds in name order.

use crate::primitives::rng::{self, GameRng};
use crate::primitives::zone::Visibility;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most kinds a bag holds at once: every count and every draw walks them.
pub const MAX_KINDS: usize = 64;

/// The most tokens of one kind a bag holds.
pub const MAX_PER_KIND: u32 = 1_000_000;

/// The kind a hidden bag's view shows all of its tokens as; no real kind may use it.
pub const UNKNOWN: &str = "?";

/// How a view names tokens it shows by face alone: `?red` (no real kind starts with `?`).
pub const FACE_MARK: char = '?';

/// The most kinds a face table names (every kind a game's bags may hold).
pub const MAX_FACES: usize = 4096;

/// Per kind, its face: what everyone can tell of a token inside a hidden bag (its colour,
/// say, when the number on its back is secret), shared by the bags that use it.
pub type Faces = Arc<std::collections::BTreeMap<Arc<str>, Arc<str>>>;

/// A multiset of tokens. Cloning copies the counts and shares the kinds' names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BagData")]
pub struct Bag {
    pub name: Arc<str>,
    /// `All`: anyone sees how many of each kind are inside; `None`: only the total.
    pub visibility: Visibility,
    /// Kinds with a count above zero, in name order.
    kinds: Vec<(Arc<str>, u32)>,
    /// A hidden bag's public faces: its view counts tokens by face (`?red`), not only in
    /// total. Kinds without a face show as [`UNKNOWN`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    faces: Option<Faces>,
}

impl Bag {
    /// About the bytes it holds (`State::weigh`): its name and kinds; counts cost nothing.
    pub fn weight(&self) -> u64 {
        let kinds: u64 = self.kinds.iter().map(|(k, _)| 32 + k.len() as u64).sum();
        let faces: u64 = self
            .faces
            .iter()
            .flat_map(|f| f.iter())
            .map(|(k, f)| 64 + k.len() as u64 + f.len() as u64)
            .sum();
        32 + self.name.len() as u64 + kinds + faces
    }

    pub fn new(name: &str, visibility: Visibility) -> Result<Bag, String> {
        if visibility == Visibility::Owner {
            return Err(format!(
                "bag `{name}`: a bag is seen by all or none (it has no owner)"
            ));
        }
        Ok(Bag {
            name: name.into(),
            visibility,
            kinds: vec![],
            faces: None,
        })
    }

    /// The same bag with nothing inside (its name, visibility and faces kept).
    pub fn emptied(&self) -> Bag {
        Bag {
            kinds: vec![],
            ..self.clone()
        }
    }

    /// Sets what everyone can tell of each kind inside (see `faces`); an error, changing
    /// nothing, for a table too large or a face or kind views could not tell from theirs.
    pub fn set_faces(&mut self, faces: Faces) -> Result<(), String> {
        if faces.len() > MAX_FACES {
            return Err(format!(
                "bag `{}`: {} faces, more than the {MAX_FACES} a bag may name",
                self.name,
                faces.len()
            ));
        }
        if let Some((k, f)) = faces.iter().find(|(k, f)| {
            k.is_empty() || f.is_empty() || k.starts_with(FACE_MARK) || f.starts_with(FACE_MARK)
        }) {
            return Err(format!(
                "bag `{}`: `{k}` = `{f}` is not a kind and its face (neither may be empty or start with `{FACE_MARK}`)",
                self.name
            ));
        }
        self.faces = Some(faces);
        Ok(())
    }

    /// What everyone can tell of a token of `kind` inside this bag when hidden: its view kind,
    /// `?face`, or [`UNKNOWN`].
    pub fn face_of(&self, kind: &str) -> Arc<str> {
        match self.faces.as_ref().and_then(|f| f.get(kind)) {
            Some(face) => format!("{FACE_MARK}{face}").into(),
            None => UNKNOWN.into(),
        }
    }

    fn find(&self, kind: &str) -> Result<usize, usize> {
        self.kinds.binary_search_by(|(k, _)| (**k).cmp(kind))
    }

    pub fn count(&self, kind: &str) -> u32 {
        self.find(kind).map_or(0, |i| self.kinds[i].1)
    }

    /// How many tokens are inside.
    pub fn len(&self) -> u64 {
        self.kinds.iter().map(|&(_, n)| n as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The kinds inside with their counts, in name order.
    pub fn counts(&self) -> impl Iterator<Item = (&str, u32)> {
        self.kinds.iter().map(|(k, n)| (&**k, *n))
    }

    /// Puts `n` tokens of `kind` in; nothing changes on an error.
    pub fn add(&mut self, kind: &str, n: u32) -> Result<(), String> {
        if n == 0 {
            return Ok(());
        }
        if kind.is_empty() || kind.starts_with(FACE_MARK) {
            return Err(format!(
                "bag `{}`: `{kind}` is not a kind of token",
                self.name
            ));
        }
        match self.find(kind) {
            Ok(i) => {
                let total = self.kinds[i].1 as u64 + n as u64;
                if total > MAX_PER_KIND as u64 {
                    return Err(self.too_many(kind, total));
                }
                self.kinds[i].1 = total as u32;
            }
            Err(i) => {
                if self.kinds.len() >= MAX_KINDS {
                    return Err(format!(
                        "bag `{}` holds {MAX_KINDS} kinds of token, the most it may; `{kind}` would be one more",
                        self.name
                    ));
                }
                if n > MAX_PER_KIND {
                    return Err(self.too_many(kind, n as u64));
                }
                self.kinds.insert(i, (kind.into(), n));
            }
        }
        Ok(())
    }

    fn too_many(&self, kind: &str, total: u64) -> String {
        format!(
            "bag `{}` would hold {total} `{kind}`; a bag holds at most {MAX_PER_KIND} of a kind",
            self.name
        )
    }

    /// One line for people: `bag: 3 red, 1 blue` (a hidden bag's view: `bag: 4 ?`).
    pub fn describe(&self) -> String {
        let kinds: Vec<String> = self.counts().map(|(k, n)| format!("{n} {k}")).collect();
        format!("{}: {}", self.name, kinds.join(", "))
    }

    /// Takes `n` tokens of `kind` out; nothing changes when there are fewer.
    pub fn remove(&mut self, kind: &str, n: u32) -> Result<(), String> {
        let have = self.count(kind);
        if have < n {
            return Err(format!(
                "bag `{}` holds {have} `{kind}`, so {n} cannot be taken out",
                self.name
            ));
        }
        if n > 0 {
            let i = self.find(kind).expect("a kind with tokens is listed");
            self.kinds[i].1 -= n;
            if self.kinds[i].1 == 0 {
                self.kinds.remove(i);
            }
        }
        Ok(())
    }

    /// Takes out one token, each token inside equally likely, with one call to `rng`; None
    /// (and no call) when the bag is empty.
    pub fn draw(&mut self, rng: &mut GameRng) -> Option<Arc<str>> {
        let total = self.len();
        if total == 0 {
            return None;
        }
        let mut r = rng::below(rng, total as usize) as u64;
        let i = self
            .kinds
            .iter()
            .position(|&(_, n)| {
                if r < n as u64 {
                    true
                } else {
                    r -= n as u64;
                    false
                }
            })
            .expect("a number below the total falls in some kind");
        let kind = self.kinds[i].0.clone();
        self.remove(&kind, 1).expect("the kind drawn is inside");
        Some(kind)
    }

    /// What a seat sees of it: a hidden bag shows its tokens by face (`?red`), or all as
    /// [`UNKNOWN`] when it has no faces.
    pub fn view(&self) -> Bag {
        if !self.hides_something() {
            return self.clone();
        }
        let mut shown: std::collections::BTreeMap<Arc<str>, u32> = Default::default();
        for (kind, n) in &self.kinds {
            // Fits: at most MAX_KINDS kinds of MAX_PER_KIND each.
            *shown.entry(self.face_of(kind)).or_default() += n;
        }
        Bag {
            name: self.name.clone(),
            visibility: self.visibility,
            kinds: shown.into_iter().collect(),
            faces: self.faces.clone(),
        }
    }

    /// Whether `view` would change it: a hidden bag holding tokens of a known kind.
    pub fn hides_something(&self) -> bool {
        self.visibility == Visibility::None
            && self.kinds.iter().any(|(k, _)| !k.starts_with(FACE_MARK))
    }

    /// Whether it is a view's hidden bag, showing tokens by face or as unknown.
    pub fn is_hidden_view(&self) -> bool {
        self.visibility == Visibility::None
            && self.kinds.iter().any(|(k, _)| k.starts_with(FACE_MARK))
    }
}

/// A bag as saves hold it: `{name, visibility, kinds: [[kind, count], ...]}`; loading checks
/// it, so a bad save is an error, never a panic in a later draw.
#[derive(Deserialize)]
struct BagData {
    name: String,
    visibility: Visibility,
    kinds: Vec<(String, u32)>,
    #[serde(default)]
    faces: Option<std::collections::BTreeMap<String, String>>,
}

impl TryFrom<BagData> for Bag {
    type Error = String;

    fn try_from(d: BagData) -> Result<Bag, String> {
        let mut bag = Bag::new(&d.name, d.visibility)?;
        if let Some(faces) = d.faces {
            let table = faces
                .into_iter()
                .map(|(k, f)| (k.into(), f.into()))
                .collect();
            bag.set_faces(Arc::new(table))?;
        }
        // A view of a hidden bag saves its `?face` and `?` tokens; they load as they were.
        let viewed = |k: &str| k.starts_with(FACE_MARK);
        if d.visibility == Visibility::None && d.kinds.iter().all(|(k, _)| viewed(k)) {
            let mut kinds: Vec<(Arc<str>, u32)> = Vec::new();
            for (kind, n) in &d.kinds {
                let listed = kinds.iter().any(|(k, _)| **k == **kind);
                if listed || *n == 0 || *n > MAX_PER_KIND || kinds.len() >= MAX_KINDS {
                    return Err(format!(
                        "bag `{}`: hidden kind `{kind}` listed twice, with no tokens or too many",
                        d.name
                    ));
                }
                kinds.push((kind.as_str().into(), *n));
            }
            kinds.sort();
            bag.kinds = kinds;
            return Ok(bag);
        }
        for (kind, n) in &d.kinds {
            if bag.count(kind) > 0 || *n == 0 {
                return Err(format!(
                    "bag `{}`: kind `{kind}` listed twice or with no tokens",
                    d.name
                ));
            }
            bag.add(kind, *n)?;
        }
        Ok(bag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn bag() -> Bag {
        let mut b = Bag::new("tokens", Visibility::None).unwrap();
        b.add("red", 3).unwrap();
        b.add("blue", 2).unwrap();
        b
    }

    #[test]
    fn kinds_are_kept_in_name_order_and_removed_at_zero() {
        let mut b = bag();
        assert_eq!(b.counts().collect::<Vec<_>>(), [("blue", 2), ("red", 3)]);
        b.remove("blue", 2).unwrap();
        assert_eq!((b.len(), b.count("blue")), (3, 0));
        assert_eq!(b.counts().count(), 1);
    }

    #[test]
    fn short_removes_and_limits_change_nothing() {
        let mut b = bag();
        let before = b.clone();
        let err = b.remove("blue", 3).unwrap_err();
        assert!(
            err.contains("holds 2 `blue`") && err.contains("3 cannot"),
            "{err}"
        );
        let err = b.add("blue", MAX_PER_KIND).unwrap_err();
        assert!(err.contains("would hold 1000002 `blue`"), "{err}");
        let err = b.add(UNKNOWN, 1).unwrap_err();
        assert!(err.contains("is not a kind of token"), "{err}");
        for i in 2..MAX_KINDS {
            b.add(&format!("k{i:02}"), 1).unwrap();
        }
        assert!(b.add("one-more", 1).unwrap_err().contains("64 kinds"));
        b.remove("k02", 1).unwrap();
        b.add("one-more", 1).unwrap();
        let mut again = before.clone();
        let err = again.remove("red", 4).unwrap_err();
        assert!(err.contains("holds 3 `red`, so 4 cannot"), "{err}");
        assert_eq!(again, before);
    }

    #[test]
    fn a_draw_makes_one_rng_call() {
        let mut b = bag();
        let (mut rng, mut twin) = (rng::seeded(9), rng::seeded(9));
        let drawn = b.draw(&mut rng).unwrap();
        rng::below(&mut twin, 5);
        assert_eq!(rng, twin);
        assert_eq!(b.len(), 4);
        assert_eq!(b.count(&drawn), if &*drawn == "blue" { 1 } else { 2 });
        let mut empty = Bag::new("e", Visibility::All).unwrap();
        assert_eq!(empty.draw(&mut rng), None);
        assert_eq!(rng, twin, "no call on an empty bag");
    }

    #[test]
    fn a_hidden_bag_shows_only_its_total() {
        let v = bag().view();
        assert_eq!(v.counts().collect::<Vec<_>>(), [(UNKNOWN, 5)]);
        assert_eq!((v.count("red"), v.view()), (0, v.clone()));
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Bag>(&text).unwrap(), v);
        let mut open = bag();
        open.visibility = Visibility::All;
        assert_eq!(open.view(), open);
    }

    #[test]
    fn a_bag_with_faces_shows_them_and_hides_the_rest() {
        let mut b = bag();
        b.add("green", 1).unwrap();
        let faces: BTreeMap<Arc<str>, Arc<str>> = [
            ("red".into(), "warm".into()),
            ("blue".into(), "cold".into()),
        ]
        .into();
        b.set_faces(Arc::new(faces)).unwrap();
        let v = b.view();
        let shown: Vec<_> = v.counts().collect();
        assert_eq!(shown, [("?", 1), ("?cold", 2), ("?warm", 3)]);
        assert!(v.is_hidden_view() && !v.hides_something() && b.hides_something());
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<Bag>(&text).unwrap(), v);
        let text = serde_json::to_string(&b).unwrap();
        assert_eq!(serde_json::from_str::<Bag>(&text).unwrap(), b);
        assert!(b.add("?cold", 1).unwrap_err().contains("not a kind"));
        let bad: BTreeMap<Arc<str>, Arc<str>> = [("red".into(), "?x".into())].into();
        let before = b.clone();
        assert!(b
            .set_faces(Arc::new(bad))
            .unwrap_err()
            .contains("may be empty or start with `?`"));
        assert_eq!(b, before);
    }

    #[test]
    fn bad_saves_are_refused() {
        let text = serde_json::to_string(&bag()).unwrap();
        assert_eq!(serde_json::from_str::<Bag>(&text).unwrap(), bag());
        for (from, to, why) in [
            (
                r#"["red",3]"#,
                r#"["blue",3]"#,
                "listed twice or with no tokens",
            ),
            (
                r#"["red",3]"#,
                r#"["red",0]"#,
                "listed twice or with no tokens",
            ),
            (
                r#"["red",3]"#,
                r#"["red",1000001]"#,
                "at most 1000000 of a kind",
            ),
            (r#""none""#, r#""owner""#, "seen by all or none"),
        ] {
            assert!(text.contains(from), "{text}");
            let err = serde_json::from_str::<Bag>(&text.replace(from, to)).unwrap_err();
            assert!(err.to_string().contains(why), "{to}: {err}");
        }
    }
}
