//! Rhai face of `primitives::supply`: supplies by name (and seat), tokens counted, placed and
//! taken back.

use super::{budget, fail, replace_or_push, Fallible, G};
use crate::primitives::supply::{Supply, MAX_SUPPLY};
use rhai::{Dynamic, Engine, ImmutableString, INT};
use std::sync::Arc;

#[derive(Clone)]
pub struct SupplyRef {
    g: G,
    idx: usize,
}

impl SupplyRef {
    fn with<R>(&self, f: impl FnOnce(&Supply) -> R) -> R {
        self.g.read(|s| f(&s.supplies[self.idx]))
    }

    /// Changes the supply. Not `supplies_mut`: a count never changes what the state weighs.
    fn change<R>(&self, f: impl FnOnce(&mut Supply) -> R) -> R {
        self.g
            .write(|s| f(&mut Arc::make_mut(&mut s.supplies)[self.idx]))
    }

    /// A number of tokens a script passed to `what`.
    fn tokens(&self, n: INT, what: &str) -> Fallible<u32> {
        match u32::try_from(n) {
            Ok(n) if n <= MAX_SUPPLY => Ok(n),
            _ => fail(format!(
                "supply `{}`: {what} {n}: a number of tokens is 0 to {MAX_SUPPLY}",
                self.with(|s| s.name.clone())
            )),
        }
    }

    fn place(&mut self, n: INT) -> Fallible<bool> {
        let n = self.tokens(n, "place")?;
        Ok(self.change(|s| s.place(n)))
    }

    fn take_back(&mut self, n: INT) -> Fallible<()> {
        let n = self.tokens(n, "take_back")?;
        self.change(|s| s.take_back(n)).or_else(fail)
    }

    fn left(&mut self) -> INT {
        self.with(|s| s.left as INT)
    }

    fn size(&mut self) -> INT {
        self.with(|s| s.size as INT)
    }

    fn placed(&mut self) -> INT {
        self.with(|s| s.placed() as INT)
    }

    fn name(&mut self) -> ImmutableString {
        self.with(|s| (*s.name).into())
    }

    /// The seat it belongs to, or `()` for a supply shared by the table.
    fn owner(&mut self) -> Dynamic {
        match self.with(|s| s.owner) {
            Some(o) => Dynamic::from(self.g.seat_name(o)),
            None => Dynamic::UNIT,
        }
    }
}

fn supply(g: &mut G, name: &str, owner: Option<usize>) -> Fallible<SupplyRef> {
    if let Some(idx) = g.read(|s| s.supply_index(name, owner)) {
        return Ok(SupplyRef { g: g.clone(), idx });
    }
    let (shared, mine) = g.read(|s| {
        let named = |o: Option<usize>| s.supply_index(name, o).is_some();
        (named(None), s.supplies.iter().any(|x| *x.name == *name))
    });
    match (owner, shared, mine) {
        (None, _, true) => fail(format!(
            "supply `{name}` belongs to each seat: write g.supply(\"{name}\", seat)"
        )),
        (Some(_), true, _) => fail(format!(
            "supply `{name}` is shared by the table: write g.supply(\"{name}\")"
        )),
        _ => {
            let mut names: Vec<String> =
                g.read(|s| s.supplies.iter().map(|x| x.name.to_string()).collect());
            names.dedup();
            fail(format!(
                "no supply `{name}` (supplies: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        }
    }
}

pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<SupplyRef>("Supply")
        // What `eval` shows for a supply: `supply doors: 5 of 8 left`.
        .register_fn("to_debug", |r: &mut SupplyRef| {
            r.g.read(|s| s.supplies[r.idx].describe(&s.seats))
        })
        .register_fn(
            "new_supply",
            |g: &mut G, name: &str, size: INT| -> Fallible<SupplyRef> {
                budget::text(name, "new_supply")?;
                if name.is_empty() || name.chars().any(char::is_control) {
                    return fail("new_supply: a supply's name is one line of text");
                }
                let Ok(size) = u32::try_from(size) else {
                    return fail(format!(
                        "supply `{name}`: a size of {size} is not a number of tokens (0 to {MAX_SUPPLY})"
                    ));
                };
                let new = Supply::new(name, None, size).or_else(fail)?;
                let idx = g.write(|s| {
                    let at = s.supply_index(name, None);
                    replace_or_push(s.supplies_mut(), at, new)
                });
                Ok(SupplyRef { g: g.clone(), idx })
            },
        )
        .register_fn("supply", |g: &mut G, name: &str| supply(g, name, None))
        .register_fn("supply", |g: &mut G, name: &str, seat: &str| {
            let i = g.seat(seat)?;
            supply(g, name, Some(i))
        })
        .register_fn("place", |r: &mut SupplyRef| r.place(1))
        .register_fn("place", SupplyRef::place)
        .register_fn("take_back", |r: &mut SupplyRef| r.take_back(1))
        .register_fn("take_back", SupplyRef::take_back)
        .register_get("left", SupplyRef::left)
        .register_get("size", SupplyRef::size)
        .register_get("placed", SupplyRef::placed)
        .register_get("name", SupplyRef::name)
        .register_get("owner", SupplyRef::owner);
}
