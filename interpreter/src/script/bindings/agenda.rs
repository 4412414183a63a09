//! Rhai face of the agenda (`crate::agenda`): `g.then` schedules the rest of an effect,
//! `g.ask` asks seats a question in the middle of one; the engine runs them in order.

use super::{budget, fail, string_list, Fallible, G};
use crate::agenda::{Item, Question};
use crate::game::returned::{check_actions, shown, ListProblem};
use crate::value::Value;
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, NativeCallContext, INT};
use std::collections::BTreeMap;

pub fn register(engine: &mut Engine) {
    engine
        .register_fn(
            "then",
            |ctx: NativeCallContext, g: &mut G, function: &str| -> Fallible<()> {
                step(&ctx, g, function, None)
            },
        )
        .register_fn(
            "then",
            |ctx: NativeCallContext, g: &mut G, function: &str, data: Dynamic| -> Fallible<()> {
                step(&ctx, g, function, Some(&data))
            },
        )
        .register_fn(
            "ask",
            |ctx: NativeCallContext, g: &mut G, seats: Dynamic, options: Dynamic, then: &str| {
                ask(&ctx, g, positional(seats, options, then, None))
            },
        )
        .register_fn(
            "ask",
            |ctx: NativeCallContext,
             g: &mut G,
             seats: Dynamic,
             options: Dynamic,
             then: &str,
             data: Dynamic| {
                ask(&ctx, g, positional(seats, options, then, Some(data)))
            },
        )
        .register_fn(
            "ask",
            |ctx: NativeCallContext, g: &mut G, spec: Map| -> Fallible<()> { ask(&ctx, g, spec) },
        )
        .register_fn("asking", asking)
        .register_fn("agenda_len", |g: &mut G| g.read(|s| s.agenda.len() as INT))
        .register_fn("clear_agenda", |g: &mut G| g.write(|s| s.agenda.clear()));
}

/// The map form of `g.ask(seat, options, then[, data])`.
fn positional(seats: Dynamic, options: Dynamic, then: &str, data: Option<Dynamic>) -> Map {
    let mut spec = Map::new();
    spec.insert("seat".into(), seats);
    spec.insert("options".into(), options);
    spec.insert("then".into(), Dynamic::from(ImmutableString::from(then)));
    if let Some(data) = data {
        spec.insert("data".into(), data);
    }
    spec
}

/// Whether the script defines `function` with `params` parameters (`g` included).
fn defined(ctx: &NativeCallContext, function: &str, params: usize) -> bool {
    ctx.iter_namespaces()
        .any(|m| m.get_script_fn(function, params).is_some())
}

fn require(ctx: &NativeCallContext, function: &str, params: &[usize], usage: &str) -> Fallible<()> {
    if params.iter().any(|&n| defined(ctx, function, n)) {
        return Ok(());
    }
    fail(format!("no function `{function}` to call as {usage}"))
}

fn data(value: Option<&Dynamic>, what: &str) -> Fallible<Option<Value>> {
    value.map(|d| budget::store(d, what)).transpose()
}

fn step(
    ctx: &NativeCallContext,
    g: &mut G,
    function: &str,
    value: Option<&Dynamic>,
) -> Fallible<()> {
    g.read(|s| s.agenda.check_open()).or_else(fail)?;
    let (params, usage) = match value {
        None => (1, format!("`{function}(g)`")),
        Some(_) => (2, format!("`{function}(g, data)`")),
    };
    require(ctx, function, &[params], &usage)?;
    budget::text(function, "g.then")?;
    let data = data(value, "g.then")?;
    let item = Item::Step {
        function: function.to_string(),
        data,
    };
    g.write(|s| s.agenda.schedule(item)).or_else(fail)
}

/// `g.ask(#{seat, options, then, data, prompt})`: `seat` one seat or an array of seats (they
/// answer at once, each in secret); `options` one array for all, or a map from seat to its
/// array; `then(g, seat, answer)` (or with `data`) runs for each answer, in the order of
/// `seat`.
fn ask(ctx: &NativeCallContext, g: &mut G, mut spec: Map) -> Fallible<()> {
    g.read(|s| s.agenda.check_open()).or_else(fail)?;
    for key in spec.keys() {
        if !["seat", "seats", "options", "then", "data", "prompt"].contains(&key.as_str()) {
            return fail(format!(
                "g.ask: unknown key `{key}` (keys: seat, options, then, data, prompt)"
            ));
        }
    }
    let seats = spec
        .remove("seat")
        .or_else(|| spec.remove("seats"))
        .map_or_else(|| fail("g.ask: which seat answers? (`seat`)"), Ok)?;
    let seats: Vec<String> = if seats.is_array() {
        string_list(&seats.cast::<Array>(), "g.ask: seats")?
    } else {
        match seats.into_string() {
            Ok(s) => vec![s],
            Err(t) => return fail(format!("g.ask: `seat` must be a seat name, not a `{t}`")),
        }
    };
    if seats.is_empty() {
        return fail("g.ask: no seat to ask");
    }
    let Some(then) = spec.remove("then").and_then(|t| t.into_string().ok()) else {
        return fail("g.ask: `then`, the function that takes the answer, is missing");
    };
    let value = spec.remove("data");
    let with_data = value.is_some();
    let usage = if with_data {
        format!("`{then}(g, seat, answer, data)`")
    } else {
        format!("`{then}(g, seat, answer)`")
    };
    require(ctx, &then, &[if with_data { 4 } else { 3 }], &usage)?;
    let prompt = match spec.remove("prompt") {
        None => String::new(),
        Some(p) => p.to_string(),
    };
    budget::text(&prompt, "g.ask")?;
    let options = spec.remove("options").map_or_else(
        || fail("g.ask: `options`, the answers to choose from, are missing"),
        Ok,
    )?;
    let mut asked = Vec::with_capacity(seats.len());
    for name in &seats {
        let seat = g.seat(name)?;
        if g.read(|s| s.turn.is_out(seat)) {
            return fail(format!("g.ask: seat `{name}` sits out (`g.sit_out`)"));
        }
        if asked.iter().any(|(s, _)| *s == seat) {
            return fail(format!("g.ask: seat `{name}` is asked twice"));
        }
        let list = if options.is_map() {
            let map = options.read_lock::<Map>().expect("a map");
            match map.get(name.as_str()) {
                Some(list) if list.is_array() => {
                    list.read_lock::<Array>().expect("an array").clone()
                }
                _ => return fail(format!("g.ask: no options for `{name}`")),
            }
        } else if options.is_array() {
            options.read_lock::<Array>().expect("an array").clone()
        } else {
            return fail("g.ask: `options` must be an array of actions, or a map from seat to one");
        };
        let list = string_list(&list, "g.ask: options")?;
        if list.is_empty() {
            return fail(format!(
                "g.ask: `{name}` has nothing to choose from (a question needs at least one option)"
            ));
        }
        if let Err(problem) = check_actions(&list) {
            let what = match problem {
                ListProblem::Malformed(i, why) => format!("{}: {why}", shown(&list[i])),
                ListProblem::Twice(i) => format!("{} twice", shown(&list[i])),
            };
            return fail(format!("g.ask: option {what}"));
        }
        for o in &list {
            budget::text(o, "g.ask")?;
        }
        asked.push((seat, list));
    }
    let question = Question {
        seats: asked,
        prompt,
        then: then.to_string(),
        data: data(value.as_ref(), "g.ask")?,
        answers: BTreeMap::new(),
    };
    g.write(|s| s.agenda.schedule(Item::Question(question)))
        .or_else(fail)
}

/// The question the game waits for, as `#{seats, prompt, options}` (options: the asking
/// script sees all), or `()` when none is open.
fn asking(g: &mut G) -> Dynamic {
    g.read(|s| {
        let Some(q) = s.agenda.question() else {
            return Dynamic::UNIT;
        };
        let mut map = Map::new();
        let seats: Array = q
            .waiting()
            .map(|(seat, _)| Dynamic::from(ImmutableString::from(s.seat_name(*seat))))
            .collect();
        let mut options = Map::new();
        for (seat, list) in q.waiting() {
            let list: Array = list
                .iter()
                .map(|o| Dynamic::from(ImmutableString::from(o.as_str())))
                .collect();
            options.insert(s.seat_name(*seat).into(), list.into());
        }
        map.insert("seats".into(), seats.into());
        map.insert(
            "prompt".into(),
            Dynamic::from(ImmutableString::from(q.prompt.as_str())),
        );
        map.insert("options".into(), options.into());
        map.insert(
            "then".into(),
            Dynamic::from(ImmutableString::from(q.then.as_str())),
        );
        map.into()
    })
}
