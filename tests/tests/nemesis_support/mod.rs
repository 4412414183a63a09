//! What the Nemesis test files share: a game set up for a scenario, playing an action with
//! its follow-up questions answered, and reading the state. Each test binary uses a part.
#![allow(dead_code)]

use boardscript_interpreter::State;
use boardscript_tests::Table;
use std::collections::BTreeMap;

pub const ID: &str = "nemesis";

/// A game after setup with the draft played at random, then `position`; p1 to play.
pub fn table(seats: usize, position: &str) -> Table {
    table_with(seats, &[], position)
}

/// `table` with game options besides (`("serious_wounds", "engine")`).
pub fn table_with(seats: usize, options: &[(&str, &str)], position: &str) -> Table {
    let mut b = Table::new(ID)
        .seats(seats)
        .seed(1)
        .option("draft", "random");
    for (k, v) in options {
        b = b.option(k, v);
    }
    b.position(position).start()
}

pub fn eval_int(t: &Table, expr: &str) -> i64 {
    let v = t.eval(expr);
    v.parse().unwrap_or_else(|_| panic!("{expr} gave {v}"))
}

/// Answers the questions that follow an action with their first option: which cards pay a
/// cost (`pay ...`) and, with `done_too`, the discards on passing (`done`), until the seat
/// faces a choice of another kind.
fn answer_first(t: &mut Table, seat: &str, done_too: bool) {
    loop {
        let legal = t.legal(seat);
        let next = legal
            .iter()
            .find(|a| a.starts_with("pay ") || (done_too && *a == "done"));
        match next {
            Some(a) => {
                let a = a.clone();
                t.play(seat, &a);
            }
            None => return,
        }
    }
}

/// Plays `action`, then pays its cost with the first cards offered.
pub fn act(t: &mut Table, seat: &str, action: &str) {
    t.play(seat, action);
    answer_first(t, seat, false);
}

/// Answers the cost and pass-discard questions waiting for `seat` with their first option.
pub fn settle(t: &mut Table, seat: &str) {
    answer_first(t, seat, true);
}

/// Plays `action`, then `settle`s.
pub fn act_settled(t: &mut Table, seat: &str, action: &str) {
    t.play(seat, action);
    settle(t, seat);
}

pub fn seat_counter(t: &Table, seat: &str, name: &str) -> i64 {
    eval_int(t, &format!("g.counter(\"{seat}\", \"{name}\")"))
}

pub fn zone_len(t: &Table, zone: &str, seat: &str) -> i64 {
    eval_int(t, &format!("g.zone(\"{zone}\", \"{seat}\").len"))
}

/// The Intruder miniatures in room `room` (by number), as a Rhai array of names.
pub fn intruders(t: &Table, room: i64) -> String {
    t.eval(&format!("g.zone(`room/${{room_id({room})}}`).names()"))
}

/// Whether corridor `exit` of room `room` holds noise (the technical space for an entrance).
pub fn noisy(t: &Table, room: i64, exit: i64) -> bool {
    t.eval(&format!(
        "has_noise(g, exit_edge(g, room_id({room}), {exit}))"
    )) == "true"
}

/// Once a game has ended, §15's end ran for every seat: each character's fate is tallied
/// exactly once (`victory: ...`, scripts/nemesis/victory.rhai), and the winners are exactly
/// the characters whose objective the victory check found met.
pub fn victory_checked(s: &boardscript_interpreter::State) -> Result<(), String> {
    let Some(result) = &s.result else {
        return Ok(());
    };
    let fates: i64 = s
        .tallies
        .iter()
        .filter(|(k, _)| k.starts_with("victory: "))
        .map(|(_, n)| n)
        .sum();
    let seats = s.seat_counters.len() as i64;
    if fates != seats {
        return Err(format!(
            "{fates} fates tallied for {seats} seats: {:?}",
            s.tallies
        ));
    }
    let met = s
        .tallies
        .get("victory: objective met")
        .copied()
        .unwrap_or(0);
    if met != result.winners.len() as i64 {
        return Err(format!(
            "{met} objectives met, winners {:?}",
            result.winners
        ));
    }
    Ok(())
}

/// §15.2: the ways the game ends (`g.end_game`'s reasons, scripts/nemesis/victory.rhai).
pub const ENDINGS: [&str; 8] = [
    "jump",
    "self-destruct at the jump",
    "self-destruct",
    "9th fire marker",
    "9th malfunction",
    "last character gone: jump",
    "last character gone: self-destruct",
    "everyone dead",
];

/// Passes with every seat to play (answering `done` to the discards) until the next round
/// starts or the game ends.
pub fn pass_round(t: &mut Table) {
    let round = t.eval("g.counter(\"round\")");
    for _ in 0..30 {
        if t.is_over() || t.eval("g.counter(\"round\")") != round {
            return;
        }
        let seat = t.deciding()[0].clone();
        let a = if t.legal(&seat).iter().any(|a| a == "pass") {
            "pass"
        } else {
            "done"
        };
        t.play(&seat, a);
    }
    panic!("the round did not end");
}

/// The one legal action of `seat` starting with `prefix` (item cards carry a copy number:
/// `keep red-grenade`).
pub fn the_option(t: &Table, seat: &str, prefix: &str) -> String {
    let found: Vec<String> = t
        .legal(seat)
        .into_iter()
        .filter(|a| a.starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "{prefix} in {:?}", t.legal(seat));
    found[0].clone()
}

/// The tokens of supply `name` out in play.
fn supply_placed(s: &boardscript_interpreter::State, name: &str) -> Result<u32, String> {
    s.supplies
        .iter()
        .find(|x| &*x.name == name)
        .map(|x| x.placed())
        .ok_or(format!("no supply {name}"))
}

/// Rules §2.2, §3.4, §3.5: the counted pieces hold (fire and malfunction markers, door and
/// carcass tokens match their supplies and their limits) and every card is in exactly one zone.
pub fn pieces_hold(s: &boardscript_interpreter::State) -> Result<(), String> {
    let ship = s
        .graphs
        .iter()
        .find(|g| g.name == "ship")
        .ok_or("no ship")?;
    // Rules §3.5: a room holds at most one fire and one malfunction marker, each taken from
    // its supply of 8.
    for (key, supply) in [("fire", "fire"), ("malf", "malfunctions")] {
        let placed = (0..ship.nodes.len())
            .map(|n| ship.node_value(n, key))
            .filter(|&v| v != 0)
            .try_fold(0u32, |sum, v| if v == 1 { Ok(sum + 1) } else { Err(v) })
            .map_err(|v| format!("{key} value {v} in a room"))?;
        let out = supply_placed(s, supply)?;
        if placed != out {
            return Err(format!(
                "{key}: {placed} on the board, {out} out of the supply"
            ));
        }
    }
    // Rules §2.2, §3.4: a door token stands (closed) or lies (destroyed) on a corridor, 12 in
    // all; the carcass tokens, 8, lie on floors or are held (cards named `carcass` outside
    // `box`).
    let doors = ship.edges_where("door", 1).len() + ship.edges_where("door", 2).len();
    if doors as u32 != supply_placed(s, "doors")? || doors > 12 {
        return Err(format!(
            "{doors} doors on the board, supply: {}",
            supply_placed(s, "doors")?
        ));
    }
    let floor: i32 = (0..ship.nodes.len())
        .map(|n| ship.node_value(n, "carcasses"))
        .sum();
    let held = s
        .zones
        .iter()
        .filter(|z| z.name != "box")
        .flat_map(|z| z.cards.iter())
        .filter(|c| s.cards[c.0 as usize].name == "carcass")
        .count();
    let carcasses = floor as u32 + held as u32;
    if carcasses != supply_placed(s, "carcasses")? || carcasses > 8 {
        return Err(format!(
            "carcasses: {floor} on floors, {held} held, supply: {}",
            supply_placed(s, "carcasses")?
        ));
    }
    // Every card in exactly one zone.
    let mut zone_of: Vec<Option<&str>> = vec![None; s.cards.len()];
    for z in s.zones.iter() {
        for c in &z.cards {
            match zone_of.get_mut(c.0 as usize) {
                Some(Some(other)) => {
                    return Err(format!("card {} in zones {other} and {}", c.0, z.name))
                }
                Some(slot) => *slot = Some(&z.name),
                None => return Err(format!("zone {} holds unknown card {}", z.name, c.0)),
            }
        }
    }
    if let Some(i) = zone_of.iter().position(|z| z.is_none()) {
        return Err(format!("card {i} ({}) is in no zone", s.cards[i].name));
    }
    Ok(())
}

/// Tokens by Intruder type in a bag of the state (ids read `token-<type>-<n>`).
pub fn bag_types(s: &State, name: &str) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    if let Some(bag) = s.bags.iter().find(|b| &*b.name == name) {
        for (id, n) in bag.counts() {
            let kind = id.split('-').nth(1).unwrap_or(id).to_string();
            *out.entry(kind).or_default() += n;
        }
    }
    out
}

/// Intruder tokens per type, between the bag and the supply (content §6).
const TOKENS: [(&str, u32); 6] = [
    ("adult", 12),
    ("blank", 1),
    ("breeder", 2),
    ("creeper", 3),
    ("larva", 8),
    ("queen", 1),
];
/// Edges 0-36 are corridors, 37 on the technical entrances.
const CORRIDORS: usize = 37;

/// In any state: tokens per type conserved between bag and supply, every character in one
/// room (or dead, out of the game or in an escape pod), noise only on corridors (never on a
/// technical entrance edge), the counted pieces within their supplies (`pieces_hold`), and at
/// the end the victory check (`victory_checked`).
pub fn board_holds(s: &State) -> Result<(), String> {
    let mut total = bag_types(s, "bag");
    for (k, n) in bag_types(s, "supply") {
        *total.entry(k).or_default() += n;
    }
    let want: BTreeMap<String, u32> = TOKENS.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    if total != want {
        return Err(format!("tokens {total:?} != {want:?}"));
    }
    for (i, c) in s.seat_counters.iter().enumerate() {
        let room = c.get("room").copied().unwrap_or(0);
        let dead = c.get("dead").copied().unwrap_or(0);
        // Off the board: hibernating or escaped (`out`); waiting in an escape pod (`pod`)
        // keeps or clears the room as the script likes.
        let out = c.get("out").copied().unwrap_or(0) > 0;
        let in_pod = c.get("pod").copied().unwrap_or(0) > 0;
        let drafting = s.phase == "draft";
        if !(0..=21).contains(&room)
            || ((dead == 1 || out) && room != 0)
            || (room == 0 && dead == 0 && !out && !in_pod && !drafting)
        {
            return Err(format!("seat {i}: room {room}, dead {dead}, out {out}"));
        }
    }
    let ship = s
        .graphs
        .iter()
        .find(|g| g.name == "ship")
        .ok_or("no ship")?;
    if let Some(e) = ship
        .edges_where("noise", 1)
        .into_iter()
        .find(|&e| e >= CORRIDORS)
    {
        return Err(format!("noise on technical entrance edge {e}"));
    }
    pieces_hold(s)?;
    victory_checked(s)
}
