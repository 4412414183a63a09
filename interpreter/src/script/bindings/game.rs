//! Rhai face of `State` itself: seats and turn order, phases, counters, script data,
//! options, the RNG and the log.

use super::{budget, fail, strings, Fallible, G};
use crate::primitives::rng;
use crate::script::ending::{self, Ended};
use crate::state::{Outcome, Var};
use crate::value::Value;
use rhai::{Array, Dynamic, Engine, ImmutableString, INT};
use std::sync::Arc;

pub fn register(engine: &mut Engine, ended: &Ended) {
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
                        .filter(|&i| s.turn.is_in(i))
                        .map(|i| s.seats[i].as_str()),
                )
            })
        })
        // Out for a round: unlike `eliminate`, until the rules bring the seat back.
        .register_fn("sit_out", |g: &mut G, seat: &str| -> Fallible<()> {
            let i = g.seat(seat)?;
            g.write(|s| s.turn.sit_out(i));
            Ok(())
        })
        .register_fn("bring_back", |g: &mut G, seat: &str| -> Fallible<()> {
            let i = g.seat(seat)?;
            if g.read(|s| s.turn.is_out(i)) {
                g.write(|s| s.turn.bring_back(i));
            }
            Ok(())
        })
        .register_fn("bring_back_all", |g: &mut G| {
            if g.read(|s| !s.turn.out.is_empty()) {
                g.write(|s| s.turn.bring_back_all());
            }
        })
        .register_fn("is_out", |g: &mut G, seat: &str| -> Fallible<bool> {
            let i = g.seat(seat)?;
            Ok(g.read(|s| s.turn.is_out(i)))
        })
        .register_fn("out_seats", |g: &mut G| {
            g.read(|s| strings(s.turn.out.iter().filter_map(|&i| s.seats.get(i))))
        })
        // Whether a seat holds a simultaneous choice or an answer not yet applied (public; the
        // choice is not).
        .register_fn("has_chosen", |g: &mut G, seat: &str| -> Fallible<bool> {
            let i = g.seat(seat)?;
            Ok(g.read(|s| s.has_chosen(i)))
        })
        .register_fn("actions_applied", |g: &mut G| {
            g.read(|s| s.actions_applied as INT)
        });
    // Phases.
    engine.register_fn("phase", |g: &mut G| {
        g.read(|s| ImmutableString::from(s.phase.as_str()))
    });
    // Until the game's declared phases are known (`Rules::compile` registers them), none.
    register_phases(engine, Arc::from([]));
    // The end of the game, as the rules decide it: stored, so that nobody decides any more.
    let (e1, e2) = (ended.clone(), ended.clone());
    engine
        .register_fn(
            "end_game",
            move |g: &mut G, winners: Array, reason: &str| -> Fallible<()> {
                end_game(g, &winners, reason, &e1)
            },
        )
        .register_fn("end_game", move |g: &mut G, reason: &str| -> Fallible<()> {
            end_game(g, &Array::new(), reason, &e2)
        })
        .register_fn("game_over", |g: &mut G| g.read(|s| s.result.is_some()))
        // The end in the words `g.end_game` was given, so that `render` never restates a rule
        // a variant may change; "" while the game goes on.
        .register_fn("end_reason", |g: &mut G| {
            g.read(|s| {
                s.result
                    .as_ref()
                    .map_or_else(ImmutableString::new, |r| r.reason.as_str().into())
            })
        })
        .register_fn("outcome", |g: &mut G| {
            g.read(|s| {
                s.result
                    .as_ref()
                    .map_or_else(ImmutableString::new, |r| r.describe(&s.seats).into())
            })
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
    // Tallies: statistics `sim` sums over its games. Written only, so that no rule depends
    // on them; no view shows them.
    engine
        .register_fn("tally", |g: &mut G, name: &str| -> Fallible<()> {
            g.write(|s| add_to(counter_slot(s.tallies_mut(), name)?, 1, name).map(drop))
        })
        .register_fn("tally", |g: &mut G, name: &str, n: INT| -> Fallible<()> {
            g.write(|s| add_to(counter_slot(s.tallies_mut(), name)?, n, name).map(drop))
        });
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
            // An absent key changes nothing, and copies nothing.
            if g.read(|s| s.vars.contains_key(key)) {
                g.write(|s| s.remove_var(key));
            }
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

/// `g.set_phase(name)`, accepting only `""` and the game's declared `phases`: a mistyped
/// phase is an error at its line, not a phase whose functions silently never run.
pub fn register_phases(engine: &mut Engine, phases: Arc<[String]>) {
    engine.register_fn("set_phase", move |g: &mut G, p: &str| -> Fallible<()> {
        if !p.is_empty() && !phases.iter().any(|d| d == p) {
            let known = if phases.is_empty() {
                "this game declares none (list them in game.toml: `phases = [...]`)".to_string()
            } else {
                phases.join(", ")
            };
            return fail(format!(
                "no phase `{}`; phases: {known}",
                crate::text::excerpt(p)
            ));
        }
        budget::text(p, "set_phase")?;
        g.write(|s| s.phase = p.to_string());
        Ok(())
    });
}

/// The longest reason `end_game` keeps: it is one line of a report.
pub const MAX_REASON_CHARS: usize = 200;

fn end_game(g: &mut G, winners: &Array, reason: &str, ended: &Ended) -> Fallible<()> {
    if let Some(done) = g.read(|s| s.result.clone()) {
        return fail(format!(
            "the game has already ended ({})",
            if done.reason.is_empty() {
                "no reason given"
            } else {
                done.reason.as_str()
            }
        ));
    }
    if reason.chars().any(char::is_control) || reason.chars().count() > MAX_REASON_CHARS {
        return fail(format!(
            "end_game: the reason is one line of at most {MAX_REASON_CHARS} characters"
        ));
    }
    budget::charge(winners.len() as u64, "end_game")?;
    let mut seats = Vec::with_capacity(winners.len());
    for name in super::string_list(winners, "winners")? {
        let seat = g.seat(&name)?;
        if seats.contains(&seat) {
            return fail(format!("end_game: seat `{name}` is listed twice"));
        }
        seats.push(seat);
    }
    budget::text(reason, "end_game")?;
    g.write(|s| {
        s.result = Some(Outcome {
            winners: seats,
            reason: reason.to_string(),
        })
    });
    // Nothing after this in the script call runs; what it did so far is kept.
    ending::end_call(ended)
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
    let var = Arc::new(Var { value, seen_by });
    g.write(|s| s.set_var(key.into(), var));
    Ok(())
}
