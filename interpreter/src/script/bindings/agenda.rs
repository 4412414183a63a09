//! Rhai face of the agenda (`crate::agenda`): `g.then` schedules the rest of an effect,
//! `g.ask` asks seats a question in the middle of one; the engine runs them in order.

use super::{budget, fail, string_list, Fallible, G};
use crate::agenda::{AnswerLog, Item, Question};
use crate::notation::{check_actions, shown, ListProblem};
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
/// `seat`; or, in place of `then`, `then_all(g, answers)` (or with `data`) runs once after
/// the last answer, `answers` being `#{seat, answer}` in that order. Either may take one
/// parameter more, last: the answer parsed (`then_all`: every answer parsed, in that order).
fn ask(ctx: &NativeCallContext, g: &mut G, mut spec: Map) -> Fallible<()> {
    g.read(|s| s.agenda.check_open()).or_else(fail)?;
    const KEYS: [&str; 9] = [
        "seat", "seats", "options", "list", "then", "then_all", "data", "prompt", "log",
    ];
    for key in spec.keys() {
        if !KEYS.contains(&key.as_str()) {
            return fail(format!(
                "g.ask: unknown key `{key}` (keys: seat, options or list, then or then_all, data, prompt, log)"
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
    let (then, then_all) = match (spec.remove("then"), spec.remove("then_all")) {
        (Some(_), Some(_)) => {
            return fail(
                "g.ask: `then` (one call per answer) or `then_all` (one call with every answer), not both",
            )
        }
        (None, None) => {
            return fail("g.ask: `then`, the function that takes the answer, is missing")
        }
        (Some(t), None) => (t, false),
        (None, Some(t)) => (t, true),
    };
    let key = if then_all { "then_all" } else { "then" };
    let then = then
        .into_string()
        .or_else(|t| fail(format!("g.ask: `{key}` must name a function, not a `{t}`")))?;
    let value = spec.remove("data");
    let with_data = value.is_some();
    let (params, usage) = match (then_all, with_data) {
        (false, false) => (3, format!("`{then}(g, seat, answer)`")),
        (false, true) => (4, format!("`{then}(g, seat, answer, data)`")),
        (true, false) => (2, format!("`{then}(g, answers)`")),
        (true, true) => (3, format!("`{then}(g, answers, data)`")),
    };
    // An answer function may take the answer parsed too (`then_all`: every answer parsed, in
    // the order of `answers`), as one more parameter.
    require(ctx, &then, &[params, params + 1], &usage)?;
    let (prompt, prompts) = prompts(g, spec.remove("prompt"), &seats)?;
    let (options, lister) = match (spec.remove("options"), spec.remove("list")) {
        (Some(_), Some(_)) => {
            return fail("g.ask: `options` (the answers) or `list` (the function that lists them), not both")
        }
        (None, None) => {
            return fail("g.ask: `options`, the answers to choose from, are missing (or `list`, the function that lists them)")
        }
        (Some(o), None) => (o, String::new()),
        (None, Some(l)) => {
            let l = l
                .into_string()
                .or_else(|t| fail(format!("g.ask: `list` must name a function, not a `{t}`")))?;
            let (params, usage) = match with_data {
                false => (2, format!("`{l}(g, seat)`")),
                true => (3, format!("`{l}(g, seat, data)`")),
            };
            require(ctx, &l, &[params], &usage)?;
            budget::text(&l, "g.ask")?;
            (Dynamic::UNIT, l)
        }
    };
    let log = answer_log(g, spec.remove("log"))?;
    let mut asked = Vec::with_capacity(seats.len());
    for name in &seats {
        let seat = g.seat(name)?;
        if g.read(|s| s.turn.is_out(seat)) {
            return fail(format!("g.ask: seat `{name}` sits out (`g.sit_out`)"));
        }
        if asked.iter().any(|(s, _)| *s == seat) {
            return fail(format!("g.ask: seat `{name}` is asked twice"));
        }
        let listed = if !lister.is_empty() {
            let mut args = vec![
                Dynamic::from(g.clone()),
                Dynamic::from(ImmutableString::from(name.as_str())),
            ];
            args.extend(value.iter().cloned());
            let mut refs: Vec<&mut Dynamic> = args.iter_mut().collect();
            let got = ctx.call_fn_raw(&lister, false, false, &mut refs)?;
            match got.try_cast::<Array>() {
                Some(a) => a,
                None => {
                    return fail(format!(
                        "g.ask: `{lister}` must return an array of options for `{name}`"
                    ))
                }
            }
        } else if options.is_map() {
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
        let list = string_list(&listed, "g.ask: options")?;
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
        prompts,
        then,
        then_all,
        data: data(value.as_ref(), "g.ask")?,
        log,
        answers: BTreeMap::new(),
        list: lister,
    };
    g.write(|s| s.agenda.schedule(Item::Question(question)))
        .or_else(fail)
}

/// `prompt:` of `g.ask`: one text for every asked seat, or a map from seat to its own (seats
/// left out read none).
fn prompts(
    g: &G,
    prompt: Option<Dynamic>,
    asked: &[String],
) -> Fallible<(String, BTreeMap<usize, String>)> {
    let Some(prompt) = prompt else {
        return Ok(Default::default());
    };
    if !prompt.is_map() {
        let text = prompt.to_string();
        budget::text(&text, "g.ask")?;
        return Ok((text, BTreeMap::new()));
    }
    let mut out = BTreeMap::new();
    for (name, text) in prompt.cast::<Map>() {
        if !asked.iter().any(|a| a.as_str() == name.as_str()) {
            return fail(format!(
                "g.ask: a prompt for `{name}`, which is not asked (asked: {})",
                asked.join(", ")
            ));
        }
        let text = text.to_string();
        budget::text(&text, "g.ask")?;
        out.insert(g.seat(&name)?, text);
    }
    Ok((String::new(), out))
}

/// `log:` of `g.ask`: `"all"`, `"own"` (each answer read by its seat alone), or the seats
/// that read the answers besides the asked ones.
fn answer_log(g: &G, log: Option<Dynamic>) -> Fallible<AnswerLog> {
    let Some(log) = log else {
        return Ok(AnswerLog::Asked);
    };
    if log.is_array() {
        let names = string_list(&log.cast::<Array>(), "g.ask: `log` seats")?;
        let seats = names.iter().map(|n| g.seat(n)).collect::<Fallible<_>>()?;
        return Ok(AnswerLog::Also(seats));
    }
    match log.into_string() {
        Ok(all) if all == "all" => Ok(AnswerLog::All),
        Ok(own) if own == "own" => Ok(AnswerLog::Own),
        Ok(other) => fail(format!(
            "g.ask: `log` is \"all\", \"own\" or an array of seats that read the answers, not \"{other}\""
        )),
        Err(t) => fail(format!(
            "g.ask: `log` is \"all\", \"own\" or an array of seats that read the answers, not a `{t}`"
        )),
    }
}

/// The question the game waits for, as `#{seats, waiting, prompt, prompts, options}` (`seats`
/// every asked seat in asked order, `waiting` those still to answer, `options` theirs and
/// `prompts` each seat's own prompt: in a view, the viewer's only), or `()` when none is open. The same in every view and in god mode.
fn asking(g: &mut G) -> Dynamic {
    g.read(|s| {
        let Some(q) = s.agenda.question() else {
            return Dynamic::UNIT;
        };
        let name = |seat: usize| Dynamic::from(ImmutableString::from(s.seat_name(seat)));
        let seats: Array = q.seats.iter().map(|(seat, _)| name(*seat)).collect();
        let waiting: Array = q.waiting().map(|(seat, _)| name(*seat)).collect();
        let mut options = Map::new();
        for (seat, list) in q.waiting() {
            let list: Array = list
                .iter()
                .map(|o| Dynamic::from(ImmutableString::from(o.as_str())))
                .collect();
            options.insert(s.seat_name(*seat).into(), list.into());
        }
        let mut map = Map::new();
        map.insert("seats".into(), seats.into());
        map.insert("waiting".into(), waiting.into());
        map.insert(
            "prompt".into(),
            Dynamic::from(ImmutableString::from(q.prompt.as_str())),
        );
        map.insert("options".into(), options.into());
        // Each seat's own prompt (in a view, the viewer's only).
        let prompts: Map = q
            .prompts
            .iter()
            .map(|(seat, p)| {
                let text = Dynamic::from(ImmutableString::from(p.as_str()));
                (s.seat_name(*seat).into(), text)
            })
            .collect();
        map.insert("prompts".into(), prompts.into());
        map.into()
    })
}
