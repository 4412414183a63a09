//! Rhai face of `primitives::bag`: bags by name, tokens by kind (a string), drawn with the
//! game's RNG.

use super::{budget, fail, replace_or_push, strings, Fallible, G};
use crate::primitives::bag::{Bag, MAX_FACES, MAX_PER_KIND};
use crate::primitives::zone::Visibility;
use rhai::{Dynamic, Engine, ImmutableString, Map, INT};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone)]
pub struct BagRef {
    g: G,
    idx: usize,
}

impl BagRef {
    fn with<R>(&self, f: impl FnOnce(&Bag) -> R) -> R {
        self.g.read(|s| f(&s.bags[self.idx]))
    }

    fn change(&self, f: impl FnOnce(&mut Bag) -> Result<(), String>) -> Fallible<()> {
        self.g
            .write(|s| f(&mut s.bags_mut()[self.idx]))
            .or_else(fail)
    }

    fn add(&mut self, kind: &str, n: INT) -> Fallible<()> {
        let n = self.tokens(n, "add")?;
        if self.with(|b| b.count(kind)) == 0 {
            budget::text(kind, "add")?;
        }
        self.change(|b| b.add(kind, n))
    }

    fn remove(&mut self, kind: &str, n: INT) -> Fallible<()> {
        let n = self.tokens(n, "remove")?;
        self.change(|b| b.remove(kind, n))
    }

    /// A count of tokens a script passed.
    fn tokens(&self, n: INT, what: &str) -> Fallible<u32> {
        match u32::try_from(n) {
            Ok(n) if n <= MAX_PER_KIND => Ok(n),
            _ => fail(format!(
                "{what}: {n} is not a number of tokens (0 to {MAX_PER_KIND})"
            )),
        }
    }

    fn draw(&mut self) -> Dynamic {
        // Not `bags_mut`: a draw never makes a bag heavier, so the state's weight stays a
        // bound without measuring the bags again.
        let drawn = self
            .g
            .write(|s| Arc::make_mut(&mut s.bags)[self.idx].draw(&mut s.rng));
        drawn.map_or(Dynamic::UNIT, |k| Dynamic::from(ImmutableString::from(&*k)))
    }

    /// `bag.set_faces(#{ "red-3": "red", ... })`: what everyone can tell of each
    /// kind inside while the bag is hidden (see `Bag::set_faces`).
    fn set_faces(&mut self, table: Map) -> Fallible<()> {
        if table.len() > MAX_FACES {
            return fail(format!(
                "set_faces: {} faces, more than the {MAX_FACES} a bag may name",
                table.len()
            ));
        }
        let mut faces = BTreeMap::new();
        for (kind, face) in table {
            let Some(face) = face.read_lock::<ImmutableString>().map(|f| f.to_string()) else {
                return fail(format!(
                    "set_faces: the face of `{kind}` is a {}, not a string",
                    face.type_name()
                ));
            };
            budget::text(&kind, "set_faces")?;
            budget::text(&face, "set_faces")?;
            faces.insert(Arc::from(kind.as_str()), Arc::from(face.as_str()));
        }
        self.change(|b| b.set_faces(Arc::new(faces)))
    }

    fn len(&mut self) -> INT {
        self.with(|b| b.len() as INT)
    }

    fn count(&mut self, kind: &str) -> INT {
        self.with(|b| b.count(kind) as INT)
    }

    /// `#{ blue: 2, red: 3 }`: kinds inside with their counts (a hidden bag in a view: `?`).
    fn counts(&mut self) -> Map {
        self.with(|b| {
            b.counts()
                .map(|(k, n)| (k.into(), Dynamic::from(n as INT)))
                .collect()
        })
    }

    fn kinds(&mut self) -> rhai::Array {
        self.with(|b| strings(b.counts().map(|(k, _)| k)))
    }

    fn name(&mut self) -> ImmutableString {
        self.with(|b| (*b.name).into())
    }
}

fn bag(g: &mut G, name: &str) -> Fallible<BagRef> {
    match g.read(|s| s.bag_index(name)) {
        Some(idx) => Ok(BagRef { g: g.clone(), idx }),
        None => fail(format!("no bag `{name}`")),
    }
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<BagRef>("Bag")
        // What `eval` shows for a bag: its name and what a reader may know of its contents.
        .register_fn("to_debug", |r: &mut BagRef| {
            r.with(|b| {
                let inside: Vec<String> = b.counts().map(|(k, n)| format!("{k}: {n}")).collect();
                format!(
                    "bag `{}`: {} token(s) [{}]",
                    b.name,
                    b.len(),
                    inside.join(", ")
                )
            })
        })
        .register_fn(
            "new_bag",
            |g: &mut G, name: &str, vis: &str| -> Fallible<BagRef> {
                let v = Visibility::parse(vis).or_else(fail)?;
                budget::text(name, "new_bag")?;
                let new = Bag::new(name, v).or_else(fail)?;
                let idx = g.write(|s| {
                    let at = s.bag_index(name);
                    replace_or_push(s.bags_mut(), at, new)
                });
                Ok(BagRef { g: g.clone(), idx })
            },
        )
        .register_fn("bag", bag)
        .register_fn("add", BagRef::add)
        .register_fn("add", |r: &mut BagRef, kind: &str| r.add(kind, 1))
        .register_fn("remove", BagRef::remove)
        .register_fn("remove", |r: &mut BagRef, kind: &str| r.remove(kind, 1))
        .register_fn("draw", BagRef::draw)
        .register_fn("set_faces", BagRef::set_faces)
        .register_fn("count", BagRef::count)
        .register_fn("counts", BagRef::counts)
        .register_fn("kinds", BagRef::kinds)
        .register_fn("len", BagRef::len)
        .register_get("len", BagRef::len)
        .register_fn("is_empty", |r: &mut BagRef| r.len() == 0)
        .register_get("name", BagRef::name);
}
