//! Rhai face of `State` itself: seats and turn order, phases, counters, script data,
//! options, the RNG and the log.

use super::{budget, fail, strings, Fallible, G};
use crate::primitives::rng;
use crate::state::Var;
use crate::value::Value;
use rhai::{Array, Dynamic, Engine, ImmutableString, INT};

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<G>("Game");
    // What `eval g` shows: where the game stands, not a Rust type name.
    engine.register_fn("to_debug", |g: &mut G| {
        g.read(|s| {
            let phase = if s.phase.is_empty() {
                String::new()
            } else {
                format!(", phase {}", s.phase)
            };
            format!(
                "game: turn {} ({}), round {}{phase}, {} action(s) applied",
                s.turn.number, s.seats[s.turn.current], s.turn.round, s.actions_applied
            )
        })
    });
    // Seats and turn order.
    engine
        .register_fn("seats", |g: &mut G| {
            g.read(|s| strings(s.seats.iter().map(String::as_str)))
        })
        .register_fn("seat_count", |g: &mut G| g.read(|s| s.seats.len() as INT))
        .register_fn("seat_index", |g: &mut G, seat: &str| {
            g.seat(seat).map(|i| i as INT)
        })
        .register_fn(
            "seat_at",
            |g: &mut G, i: INT| -> Fallible<ImmutableString> {
                let n = g.read(|s| s.seats.len()) as INT;
                if n == 0 {
                    return fail("no seats");
                }
                Ok(g.seat_name(i.rem_euclid(n) as usize))
            },
        )
        .register_fn("turn", |g: &mut G| g.seat_name(g.read(|s| s.turn.current)))
        .register_fn("set_turn", |g: &mut G, seat: &str| -> Fallible<()> {
            let i = g.seat(seat)?;
            g.write(|s| s.turn.set_current(i));
            Ok(())
        })
        .register_fn("next_turn", |g: &mut G| g.write(|s| s.turn.advance()))
        .register_fn(
            "next_seat",
            |g: &mut G, seat: &str| -> Fallible<ImmutableString> {
                let i = g.seat(seat)?;
                Ok(g.seat_name(g.read(|s| s.turn.next_after(i))))
            },
        )
        .register_fn("reverse", |g: &mut G| {
            g.write(|s| s.turn.direction = -s.turn.direction)
        })
        .register_fn("direction", |g: &mut G| g.read(|s| s.turn.direction as INT))
        .register_fn("skip", |g: &mut G| {
            g.write(|s| s.turn.pending_skips = s.turn.pending_skips.saturating_add(1))
        })
        .register_fn("round", |g: &mut G| g.read(|s| s.turn.round))
        .register_fn("set_round", |g: &mut G, r: INT| {
            g.write(|s| s.turn.round = r)
        })
        .register_fn("turn_number", |g: &mut G| g.read(|s| s.turn.number))
        // Steps: several actions a turn, counted by the engine, which passes the turn after
        // the last one (a script may still pass it earlier with `next_turn`).
        .register_fn("set_steps", |g: &mut G, n: INT| {
            g.write(|s| s.turn.set_steps(n))
        })
        .register_fn("set_turn_steps", |g: &mut G, n: INT| {
            g.write(|s| s.turn.set_turn_steps(n))
        })
        .register_fn("steps", |g: &mut G| g.read(|s| s.turn.steps))
        .register_fn("turn_steps", |g: &mut G| g.read(|s| s.turn.turn_steps))
        .register_fn("steps_left", |g: &mut G| g.read(|s| s.turn.steps_left))
        .register_fn("step", |g: &mut G| g.read(|s| s.turn.step()))
        .register_fn("set_step", |g: &mut G, k: INT| -> Fallible<()> {
            g.write(|s| s.turn.set_step(k))
                .ok_or(())
                .or_else(|_| fail(format!("set_step({k}): no such step")))
        })
        .register_fn("eliminate", |g: &mut G, seat: &str| -> Fallible<()> {
            let i = g.seat(seat)?;
            g.write(|s| s.turn.eliminated[i] = true);
            Ok(())
        })
        .register_fn("is_eliminated", |g: &mut G, seat: &str| -> Fallible<bool> {
            let i = g.seat(seat)?;
            Ok(g.read(|s| s.turn.eliminated[i]))
        })
        .register_fn("active_seats", |g: &mut G| {
            g.read(|s| {
                strings(
                    (0..s.seats.len())
                        .filter(|&i| !s.turn.eliminated[i])
                        .map(|i| s.seats[i].as_str()),
                )
            })
        })
        .register_fn("actions_applied", |g: &mut G| {
            g.read(|s| s.actions_applied as INT)
        });
    // Phases.
    engine
        .register_fn("phase", |g: &mut G| {
            g.read(|s| ImmutableString::from(s.phase.as_str()))
        })
        .register_fn("set_phase", |g: &mut G, p: &str| -> Fallible<()> {
            budget::text(p, "set_phase")?;
            g.write(|s| s.phase = p.to_string());
            Ok(())
        });
    // Counters: global, and per seat.
    engine
        .register_fn("counter", |g: &mut G, name: &str| {
            g.read(|s| s.counters.get(name).copied().unwrap_or(0))
        })
        .register_fn(
            "set_counter",
            |g: &mut G, name: &str, v: INT| -> Fallible<()> {
                g.write(|s| counter_slot(s.counters_mut(), name).map(|c| *c = v))
            },
        )
        .register_fn(
            "add_counter",
            |g: &mut G, name: &str, d: INT| -> Fallible<INT> {
                g.write(|s| add_to(counter_slot(s.counters_mut(), name)?, d, name))
            },
        )
        .register_fn(
            "counter",
            |g: &mut G, seat: &str, name: &str| -> Fallible<INT> {
                let i = g.seat(seat)?;
                Ok(g.read(|s| s.seat_counters[i].get(name).copied().unwrap_or(0)))
            },
        )
        .register_fn(
            "set_counter",
            |g: &mut G, seat: &str, name: &str, v: INT| -> Fallible<()> {
                let i = g.seat(seat)?;
                g.write(|s| counter_slot(&mut s.seat_counters_mut()[i], name).map(|c| *c = v))
            },
        )
        .register_fn(
            "add_counter",
            |g: &mut G, seat: &str, name: &str, d: INT| -> Fallible<INT> {
                let i = g.seat(seat)?;
                g.write(|s| add_to(counter_slot(&mut s.seat_counters_mut()[i], name)?, d, name))
            },
        );
    // Script data: any plain value, public or seen only by some seats.
    engine
        .register_fn("get", |g: &mut G, key: &str| {
            g.read(|s| {
                s.vars
                    .get(key)
                    .map_or(Dynamic::UNIT, |v| v.value.to_dynamic())
            })
        })
        .register_fn("has", |g: &mut G, key: &str| {
            g.read(|s| s.vars.contains_key(key))
        })
        .register_fn("remove", |g: &mut G, key: &str| {
            g.write(|s| s.vars_mut().remove(key));
        })
        .register_fn("set", |g: &mut G, key: &str, v: Dynamic| {
            set_var(g, key, &v, None)
        })
        .register_fn(
            "set_private",
            |g: &mut G, key: &str, seat: &str, v: Dynamic| -> Fallible<()> {
                let i = g.seat(seat)?;
                set_var(g, key, &v, Some(vec![i]))
            },
        )
        .register_fn("set_hidden", |g: &mut G, key: &str, v: Dynamic| {
            set_var(g, key, &v, Some(vec![]))
        });
    // Options from game.toml and the command line.
    engine.register_fn("option", |g: &mut G, name: &str| -> Fallible<Dynamic> {
        match g.read(|s| s.options.get(name).map(Value::to_dynamic)) {
            Some(v) => Ok(v),
            None => {
                let known = g.read(|s| s.options.keys().cloned().collect::<Vec<_>>().join(", "));
                fail(format!("no option `{name}` (options: {known})"))
            }
        }
    });
    // Teams.
    engine
        .register_fn("set_teams", |g: &mut G, teams: Array| -> Fallible<()> {
            budget::charge(teams.len() as u64, "set_teams")?;
            let mut out = vec![];
            for t in teams {
                let Some(members) = t.try_cast::<Array>() else {
                    return fail("teams are arrays of seats");
                };
                let names = super::string_list(&members, "team members")?;
                out.push(
                    names
                        .iter()
                        .map(|n| g.seat(n))
                        .collect::<Fallible<Vec<_>>>()?,
                );
            }
            g.write(|s| s.teams = out);
            Ok(())
        })
        .register_fn("team_of", |g: &mut G, seat: &str| -> Fallible<INT> {
            let i = g.seat(seat)?;
            Ok(g.read(|s| {
                s.teams
                    .iter()
                    .position(|t| t.contains(&i))
                    .map_or(-1, |t| t as INT)
            }))
        })
        .register_fn("partners", |g: &mut G, seat: &str| -> Fallible<Array> {
            let i = g.seat(seat)?;
            Ok(g.read(|s| {
                let team = s
                    .teams
                    .iter()
                    .find(|t| t.contains(&i))
                    .cloned()
                    .unwrap_or_default();
                strings(
                    team.into_iter()
                        .filter(|&j| j != i)
                        .map(|j| s.seats[j].clone()),
                )
            }))
        });
    // Randomness: only through the game's seeded RNG.
    engine
        .register_fn("roll", |g: &mut G, sides: INT| -> Fallible<INT> {
            if sides < 1 {
                return fail("a die needs at least one side");
            }
            Ok(g.write(|s| rng::roll(&mut s.rng, sides)))
        })
        .register_fn("random", |g: &mut G, n: INT| -> Fallible<INT> {
            if n < 1 {
                return fail("random(n) needs n >= 1");
            }
            Ok(g.write(|s| rng::below(&mut s.rng, n as usize) as INT))
        })
        .register_fn("pick", |g: &mut G, arr: Array| -> Fallible<Dynamic> {
            if arr.is_empty() {
                return fail("cannot pick from an empty array");
            }
            let i = g.write(|s| rng::below(&mut s.rng, arr.len()));
            Ok(arr[i].clone())
        })
        .register_fn("roll_die", |g: &mut G, faces: Array| -> Fallible<Dynamic> {
            if faces.is_empty() {
                return fail("a die needs at least one face");
            }
            let i = g.write(|s| rng::below(&mut s.rng, faces.len()));
            Ok(faces[i].clone())
        })
        .register_fn("shuffled", |g: &mut G, mut arr: Array| -> Fallible<Array> {
            budget::charge(arr.len() as u64, "shuffled")?;
            g.write(|s| rng::shuffle(&mut s.rng, &mut arr));
            Ok(arr)
        });
    // The game log, for people.
    engine
        .register_fn("log", |g: &mut G, text: &str| -> Fallible<()> {
            budget::text(text, "log")?;
            g.write(|s| s.log_event(text));
            Ok(())
        })
        // A line only `seat` reads (its view keeps it, others' drop it).
        .register_fn(
            "log_to",
            |g: &mut G, seat: &str, text: &str| -> Fallible<()> {
                let i = g.seat(seat)?;
                budget::text(text, "log_to")?;
                g.write(|s| s.log_private(text, vec![i]));
                Ok(())
            },
        );
}

/// The counter named `name`, created at 0 (its name paid for); allocates the name only the
/// first time.
fn counter_slot<'m>(map: &'m mut crate::state::Counters, name: &str) -> Fallible<&'m mut INT> {
    if !map.contains_key(name) {
        budget::text(name, "a counter's name")?;
        map.insert(name.into(), 0);
    }
    Ok(map.get_mut(name).expect("just inserted"))
}

/// Adds `d` to a counter; overflowing is a script error, never a wrap or a panic.
fn add_to(c: &mut INT, d: INT, name: &str) -> Fallible<INT> {
    match c.checked_add(d) {
        Some(v) => {
            *c = v;
            Ok(v)
        }
        None => fail(format!("counter `{name}`: {c} + {d} overflows")),
    }
}

fn set_var(g: &mut G, key: &str, v: &Dynamic, seen_by: Option<Vec<usize>>) -> Fallible<()> {
    budget::text(key, "a key")?;
    let value = budget::store(v, &format!("cannot store `{key}`"))?;
    g.write(|s| s.vars_mut().insert(key.to_string(), Var { value, seen_by }));
    Ok(())
}
