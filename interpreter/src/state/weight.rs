//! What a state weighs: about its bytes, in the units of a call's work budget
//! ([`Value::weight`]'s), kept up to date as the state changes so that checking it against
//! the game's state budget after every action costs little. Script data, the log and the
//! card catalogue (the parts that grow with a game) are counted entry by entry as they
//! change; the other parts are measured again whole when their `*_mut` accessor is used.
//!
//! A state also counts what was written into it since it was made ([`State::written`]):
//! earlier states kept for undo share everything else with it, so that sum bounds what its
//! history holds.

use super::{Counters, LogEntry, State, Var};
use crate::agenda::{Agenda, AnswerLog, Item};
use crate::primitives::bag::Bag;
use crate::primitives::graph::Graph;
use crate::primitives::grid::Grid;
use crate::primitives::supply::Supply;
use crate::primitives::zone::{CardDef, Zone};
use crate::value::Value;

/// What an entry weighs besides its text and values.
const NODE: u64 = 32;

/// The parts measured again whole once changed, as bits of [`Weight::stale`].
#[derive(Clone, Copy)]
pub(super) enum Part {
    Vars = 1,
    Cards = 2,
    Zones = 4,
    Grids = 8,
    Graphs = 16,
    Bags = 32,
    Counters = 64,
    Supplies = 128,
}

/// The weight of a state's parts. Bookkeeping, not position: two states that hold the same
/// position are equal whatever their `Weight` says.
#[derive(Debug, Clone, Default)]
pub struct Weight {
    /// Whether the parts below were measured (a new or deserialized state has not been).
    measured: bool,
    /// Parts changed since they were measured.
    stale: u8,
    /// Everything written so far: entries set or logged, parts copied and measured again.
    written: u64,
    /// The whole weight when last weighed.
    total: u64,
    vars: u64,
    log: u64,
    cards: u64,
    zones: u64,
    grids: u64,
    graphs: u64,
    bags: u64,
    supplies: u64,
    counters: u64,
    /// The seats' names, which never change once a state is made.
    seats: u64,
}

impl PartialEq for Weight {
    fn eq(&self, _: &Weight) -> bool {
        true
    }
}

impl Weight {
    pub(super) fn stale(&mut self, part: Part) {
        self.stale |= part as u8;
    }

    /// `vars` went from `old` to `new` weight (an entry set, replaced or removed).
    pub(super) fn vars_changed(&mut self, old: u64, new: u64) {
        self.vars = self.vars.saturating_sub(old).saturating_add(new);
        self.written = self.written.saturating_add(new);
    }

    pub(super) fn logged(&mut self, e: &LogEntry) {
        let new = log_entry(e);
        self.log = self.log.saturating_add(new);
        self.written = self.written.saturating_add(new);
    }

    pub(super) fn cards_changed(&mut self, old: u64, new: u64) {
        self.cards = self.cards.saturating_sub(old).saturating_add(new);
        self.written = self.written.saturating_add(new);
    }
}

impl State {
    /// What this state weighs, measuring only what changed since it was last weighed.
    pub fn weigh(&mut self) -> u64 {
        let stale = |part: Part, w: &Weight| !w.measured || w.stale & part as u8 != 0;
        let w = &self.weight;
        let vars = stale(Part::Vars, w).then(|| self.vars.iter().map(|(k, v)| var(k, v)).sum());
        let log = (!w.measured).then(|| self.log.iter().map(|e| log_entry(e)).sum());
        let cards = stale(Part::Cards, w).then(|| self.cards.iter().map(|d| card(d)).sum());
        let zones = stale(Part::Zones, w).then(|| self.zones.iter().map(zone).sum());
        let grids = stale(Part::Grids, w).then(|| self.grids.iter().map(grid).sum());
        let graphs = stale(Part::Graphs, w).then(|| self.graphs.iter().map(Graph::weight).sum());
        let bags = stale(Part::Bags, w).then(|| self.bags.iter().map(Bag::weight).sum());
        let supplies =
            stale(Part::Supplies, w).then(|| self.supplies.iter().map(Supply::weight).sum());
        let counters = stale(Part::Counters, w).then(|| {
            counters(&self.counters)
                + self.seat_counters.iter().map(counters).sum::<u64>()
                + counters(&self.tallies)
        });
        let w = &mut self.weight;
        let measured = w.measured;
        for (slot, fresh) in [
            (&mut w.vars, vars),
            (&mut w.log, log),
            (&mut w.cards, cards),
            (&mut w.zones, zones),
            (&mut w.grids, grids),
            (&mut w.graphs, graphs),
            (&mut w.bags, bags),
            (&mut w.supplies, supplies),
            (&mut w.counters, counters),
        ] {
            if let Some(fresh) = fresh {
                *slot = fresh;
                // A part changed after its first measure was copied whole.
                if measured {
                    w.written = w.written.saturating_add(fresh);
                }
            }
        }
        w.measured = true;
        w.stale = 0;
        // The small parts, measured every time.
        if w.seats == 0 {
            w.seats = self.seats.iter().map(|s| NODE + s.len() as u64).sum();
        }
        let pending: u64 = self.pending.values().map(|a| NODE + a.len() as u64).sum();
        let agenda = match self.agenda.is_empty() {
            true => 0,
            false => agenda(&self.agenda),
        };
        // Seats out for a round: a list entry each.
        let out = NODE * self.turn.out.len() as u64;
        let small = w.seats + pending + self.phase.len() as u64 + agenda + out;
        w.total = [
            w.vars, w.log, w.cards, w.zones, w.grids, w.graphs, w.bags, w.supplies, w.counters,
            small,
        ]
        .iter()
        .fold(0u64, |sum, x| sum.saturating_add(*x));
        w.total
    }
}

impl State {
    /// What was written into this state since it was made (see the module's notes).
    pub fn written(&self) -> u64 {
        self.weight.written
    }

    /// What `weigh` said last (0 if it never ran).
    pub fn weighed(&self) -> u64 {
        self.weight.total
    }
}

pub(super) fn var(key: &str, v: &Var) -> u64 {
    NODE + key.len() as u64 + v.value.weight() + seats(&v.seen_by)
}

fn log_entry(e: &LogEntry) -> u64 {
    NODE + e.text.len() as u64 + seats(&e.seen_by)
}

fn seats(seen_by: &Option<Vec<usize>>) -> u64 {
    seen_by.as_ref().map_or(0, |s| 8 * s.len() as u64)
}

pub(super) fn card(d: &CardDef) -> u64 {
    let props: u64 = d
        .props
        .iter()
        .map(|(k, v)| k.len() as u64 + v.weight())
        .sum();
    let secrets: u64 = d
        .secrets
        .iter()
        .map(|(k, s)| NODE + k.len() as u64 + s.value.weight())
        .sum();
    NODE + d.name.len() as u64 + props + secrets
}

fn zone(z: &Zone) -> u64 {
    NODE + z.name.len() as u64 + 2 * z.cards.len() as u64 + 8 * z.discard.is_some() as u64
}

fn grid(g: &Grid) -> u64 {
    let colors: u64 = g.colors.iter().map(|c| NODE + c.len() as u64).sum();
    NODE + g.name.len() as u64 + g.cells.len() as u64 + 4 * g.symbols.len() as u64 + colors
}

fn counters(c: &Counters) -> u64 {
    c.keys().map(|k| NODE + k.len() as u64).sum()
}

fn agenda(a: &Agenda) -> u64 {
    let data = |d: &Option<Value>| d.as_ref().map_or(0, Value::weight);
    a.items()
        .iter()
        .map(|item| match item {
            Item::Step { function, data: d } => NODE + function.len() as u64 + data(d),
            Item::Question(q) => {
                let options: u64 = q
                    .seats
                    .iter()
                    .flat_map(|(_, o)| o)
                    .map(|o| NODE + o.len() as u64)
                    .sum();
                let answers: u64 = q.answers.values().map(|a| NODE + a.len() as u64).sum();
                let readers = match &q.log {
                    AnswerLog::Also(seats) => NODE * seats.len() as u64,
                    _ => 0,
                };
                let prompts: u64 = q.prompts.values().map(|p| NODE + p.len() as u64).sum();
                NODE + (q.prompt.len() + q.then.len()) as u64
                    + prompts
                    + options
                    + answers
                    + readers
                    + data(&q.data)
            }
        })
        .sum()
}
