//! `State`: the whole serializable position of a game (seats, zones, boards, RNG, phase, log,
//! script data). It is plain data: `Game` gives it meaning through the scripts.

use crate::agenda::Agenda;
use crate::mentions::{self, Mention, NameCache};
use crate::primitives::bag::Bag;
use crate::primitives::graph::Graph;
use crate::primitives::grid::Grid;
use crate::primitives::rng::{self, GameRng};
use crate::primitives::supply::Supply;
use crate::primitives::turn::Turn;
use crate::primitives::whereabouts::Whereabouts;
use crate::primitives::zone::{CardDef, CardId, Visibility, Zone};
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use weight::Part;
pub use weight::Weight;
pub use witness::Witness;

mod weight;
mod witness;

/// Named counters; names are shared so copying a changed map allocates no text.
pub type Counters = BTreeMap<Arc<str>, i64>;

/// Script data by key. Persistent: a clone shares everything, and a write copies one path of
/// the tree (entries are shared pointers, so even that copies no text or values).
pub type Vars = imbl::OrdMap<Arc<str>, Arc<Var>>;

/// One line of the game log, with the seats allowed to read it (None: everyone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Vec<usize>>,
    /// Cards named in `text` that not every reader may see (`mentions`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<Mention>,
}

/// A script value with the seats allowed to see it in a view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Var {
    pub value: Value,
    /// `None`: everyone; `Some(seats)`: only these (empty: nobody).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_by: Option<Vec<usize>>,
}

/// How a game ended, as the script declared it with `g.end_game`: who won (none: nobody
/// wins, as in a co-operative loss or a draw) and why, in the game's words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winners: Vec<usize>,
    pub reason: String,
}

impl Outcome {
    /// The outcome in words, as `status` and scripts (`g.outcome()`) say it: `x wins (four
    /// in a row)`, `p1, p3 win`, `nobody wins (8 stars destroyed)`.
    pub fn describe(&self, seats: &[String]) -> String {
        let names: Vec<&str> = self
            .winners
            .iter()
            .map(|&s| seats.get(s).map_or("?", String::as_str))
            .collect();
        let mut text = match names.len() {
            0 => "nobody wins".to_string(),
            1 => format!("{} wins", names[0]),
            _ => format!("{} win", names.join(", ")),
        };
        if !self.reason.is_empty() {
            text.push_str(&format!(" ({})", self.reason));
        }
        text
    }
}

/// Collections sit behind `Arc`s and are copied on first write (`*_mut`), so the clones that
/// protocol calls and undo make cost a few reference counts, not a deep copy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seats: Arc<Vec<String>>,
    /// Seats grouped in teams (indices); empty when every seat plays alone.
    #[serde(default)]
    pub teams: Vec<Vec<usize>>,
    pub options: Arc<BTreeMap<String, Value>>,
    pub turn: Turn,
    pub phase: String,
    pub counters: Arc<Counters>,
    pub seat_counters: Arc<Vec<Counters>>,
    /// Tallies (`g.tally`): what a game counts for `sim`'s statistics, never read by its
    /// rules and dropped from every view, so that a tally cannot leak a secret.
    #[serde(default, skip_serializing_if = "Counters::is_empty")]
    pub tallies: Counters,
    pub vars: Vars,
    /// The card catalogue, shared between clones; entries are shared too, so a view's redacted
    /// copy costs reference counts, not copies of names and properties.
    pub cards: Arc<Vec<Arc<CardDef>>>,
    /// Which names belong to one card each (a cache of `cards`, for `mentions`).
    #[serde(skip)]
    pub name_index: NameCache,
    pub zones: Arc<Vec<Zone>>,
    /// Where each card in a zone hidden from someone may lie, as the public can tell
    /// (`cards_moved`); absent in saves made before it and in games that hide no card.
    #[serde(default, skip_serializing_if = "no_whereabouts")]
    pub whereabouts: Arc<Whereabouts>,
    pub grids: Arc<Vec<Grid>>,
    pub graphs: Arc<Vec<Graph>>,
    /// Bags of tokens drawn at random; absent in saves made before bags existed.
    #[serde(default, skip_serializing_if = "no_bags")]
    pub bags: Arc<Vec<Bag>>,
    /// Bounded supplies of tokens, public in every view; absent in saves made before them.
    #[serde(default, skip_serializing_if = "no_supplies")]
    pub supplies: Arc<Vec<Supply>>,
    pub rng: GameRng,
    /// Choices made in a simultaneous decision, held secret until every deciding seat chose.
    pub pending: BTreeMap<usize, String>,
    /// Work scheduled by scripts and questions asked in the middle of an effect.
    #[serde(default, skip_serializing_if = "Agenda::is_empty")]
    pub agenda: Agenda,
    /// Events for people to read; persistent, so cloning a long game stays cheap.
    pub log: imbl::Vector<Arc<LogEntry>>,
    /// Actions applied so far (held simultaneous choices count when they resolve).
    pub actions_applied: u64,
    /// Set by `g.end_game`: the game is over, whatever `to_decide` says. Absent in saves
    /// made before it existed, and in games still going.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
    /// What the state weighs, kept up to date for the state budget (see `weigh`).
    #[serde(skip)]
    weight: Weight,
    /// Card moves recorded for a check (off in play).
    #[serde(skip)]
    pub witness: Witness,
}

impl State {
    pub fn new(seats: Vec<String>, options: BTreeMap<String, Value>, seed: u64) -> State {
        let n = seats.len();
        State {
            turn: Turn::new(n),
            seat_counters: Arc::new(vec![BTreeMap::new(); n]),
            seats: Arc::new(seats),
            teams: vec![],
            options: Arc::new(options),
            phase: String::new(),
            counters: Arc::default(),
            tallies: Counters::new(),
            vars: Vars::new(),
            cards: Arc::new(vec![]),
            name_index: NameCache::default(),
            zones: Arc::default(),
            whereabouts: Arc::default(),
            grids: Arc::default(),
            graphs: Arc::default(),
            bags: Arc::default(),
            supplies: Arc::default(),
            rng: rng::seeded(seed),
            pending: BTreeMap::new(),
            agenda: Agenda::default(),
            log: imbl::Vector::new(),
            actions_applied: 0,
            result: None,
            weight: Weight::default(),
            witness: Witness::default(),
        }
    }

    /// Forgets what the state weighs, so the next `weigh` measures all of it (after a change
    /// made field by field, as views and samplers make).
    pub fn reweigh_all(&mut self) {
        self.weight = Weight::default();
    }

    pub fn counters_mut(&mut self) -> &mut Counters {
        self.weight.stale(Part::Counters);
        Arc::make_mut(&mut self.counters)
    }

    pub fn seat_counters_mut(&mut self) -> &mut Vec<Counters> {
        self.weight.stale(Part::Counters);
        Arc::make_mut(&mut self.seat_counters)
    }

    pub fn tallies_mut(&mut self) -> &mut Counters {
        self.weight.stale(Part::Counters);
        &mut self.tallies
    }

    /// All the script data, for a change `set_var` and `remove_var` do not make (the whole
    /// of it is weighed again).
    pub fn vars_mut(&mut self) -> &mut Vars {
        self.weight.stale(Part::Vars);
        &mut self.vars
    }

    /// Sets script data `key`, weighing only the entry it replaces.
    pub fn set_var(&mut self, key: Arc<str>, var: Arc<Var>) {
        let new = weight::var(&key, &var);
        let old = self.vars.insert(key.clone(), var);
        let old = old.map_or(0, |v| weight::var(&key, &v));
        self.weight.vars_changed(old, new);
    }

    pub fn remove_var(&mut self, key: &str) {
        if let Some(old) = self.vars.remove(key) {
            self.weight.vars_changed(weight::var(key, &old), 0);
        }
    }

    /// Changes card `i` of the catalogue (copying only that entry and the list of pointers),
    /// weighing only it.
    pub fn edit_card<R>(&mut self, i: usize, f: impl FnOnce(&mut CardDef) -> R) -> R {
        let def = Arc::make_mut(&mut Arc::make_mut(&mut self.cards)[i]);
        let old = weight::card(def);
        let out = f(def);
        let new = weight::card(def);
        self.weight.cards_changed(old, new);
        out
    }

    /// The card catalogue, for a change `new_card` and `edit_card` do not make.
    pub fn cards_mut(&mut self) -> &mut Vec<Arc<CardDef>> {
        self.weight.stale(Part::Cards);
        Arc::make_mut(&mut self.cards)
    }

    pub fn zones_mut(&mut self) -> &mut Vec<Zone> {
        self.weight.stale(Part::Zones);
        Arc::make_mut(&mut self.zones)
    }

    pub fn grids_mut(&mut self) -> &mut Vec<Grid> {
        self.weight.stale(Part::Grids);
        Arc::make_mut(&mut self.grids)
    }

    pub fn graphs_mut(&mut self) -> &mut Vec<Graph> {
        self.weight.stale(Part::Graphs);
        Arc::make_mut(&mut self.graphs)
    }

    pub fn bags_mut(&mut self) -> &mut Vec<Bag> {
        self.weight.stale(Part::Bags);
        Arc::make_mut(&mut self.bags)
    }

    pub fn supplies_mut(&mut self) -> &mut Vec<Supply> {
        self.weight.stale(Part::Supplies);
        Arc::make_mut(&mut self.supplies)
    }

    /// Records in `whereabouts` that `cards` went from zone `from` (None: new cards) to `to`,
    /// after the move. Free in a game whose zones everyone sees.
    pub fn cards_moved(&mut self, cards: &[CardId], from: Option<usize>, to: usize) {
        self.witness.saw(cards, to);
        let public =
            |z: Option<usize>| z.is_none_or(|z| self.zones[z].visibility == Visibility::All);
        let (from_public, to_public) = (public(from), public(Some(to)));
        // Into a zone everyone sees, only the cards that had an entry change: most moves of
        // a card game (a card played face up) copy nothing.
        if to_public && cards.iter().all(|c| self.whereabouts.of(c.0).is_none()) {
            self.forget_emptied(from);
            return;
        }
        let cards_known = &self.cards;
        let known = |c: CardId| {
            cards_known
                .get(c.0 as usize)
                .is_some_and(|d| d.known_to.is_everyone())
        };
        let w = Arc::make_mut(&mut self.whereabouts);
        let mut unseen_move = false;
        for &c in cards {
            match (to_public, from_public || known(c)) {
                (true, _) => w.forget(c.0),
                (false, true) => w.pin(c.0, to as u16),
                (false, false) => {
                    w.add(c.0, to as u16);
                    unseen_move = true;
                }
            }
        }
        if let (true, Some(from)) = (unseen_move, from) {
            if from != to {
                w.spread(from as u16, to as u16);
            }
        }
        self.forget_emptied(from);
    }

    /// Sizes are public: no card may lie in a zone left empty.
    fn forget_emptied(&mut self, from: Option<usize>) {
        if let Some(from) = from.filter(|&f| self.zones[f].cards.is_empty()) {
            if self.whereabouts.names_zone(from as u16) {
                Arc::make_mut(&mut self.whereabouts).leave(from as u16);
            }
        }
    }

    pub fn supply_index(&self, name: &str, owner: Option<usize>) -> Option<usize> {
        self.supplies
            .iter()
            .position(|s| *s.name == *name && s.owner == owner)
    }

    pub fn bag_index(&self, name: &str) -> Option<usize> {
        self.bags.iter().position(|b| *b.name == *name)
    }

    pub fn seat_index(&self, name: &str) -> Option<usize> {
        self.seats.iter().position(|s| s == name)
    }

    pub fn seat_name(&self, index: usize) -> &str {
        &self.seats[index]
    }

    /// Whether `seat` holds a choice not yet applied: in a simultaneous decision, or as its
    /// answer to an open question asked of several seats (public; the choice is not).
    pub fn has_chosen(&self, seat: usize) -> bool {
        self.pending.contains_key(&seat)
            || self
                .agenda
                .question()
                .is_some_and(|q| q.answers.contains_key(&seat))
    }

    /// The catalogue names of the cards in zone `z`, in order (`?` for a hidden card).
    pub fn card_names(&self, z: usize) -> Vec<&str> {
        self.zones[z]
            .cards
            .iter()
            .map(|c| {
                self.cards
                    .get(c.0 as usize)
                    .map_or("?", |d| d.name.as_str())
            })
            .collect()
    }

    pub fn zone_index(&self, name: &str, owner: Option<usize>) -> Option<usize> {
        self.zones
            .iter()
            .position(|z| z.name == name && z.owner == owner)
    }

    pub fn add_zone(&mut self, name: &str, owner: Option<usize>, visibility: Visibility) -> usize {
        match self.zone_index(name, owner) {
            Some(i) => i,
            None => {
                self.zones_mut().push(Zone::new(name, owner, visibility));
                self.zones.len() - 1
            }
        }
    }

    pub fn grid_index(&self, name: &str) -> Option<usize> {
        self.grids.iter().position(|g| *g.name == *name)
    }

    pub fn graph_index(&self, name: &str) -> Option<usize> {
        self.graphs.iter().position(|g| g.name == name)
    }

    pub fn new_card(&mut self, def: CardDef) -> Result<CardId, String> {
        if self.cards.len() >= CardId::HIDDEN.0 as usize {
            return Err("too many cards".into());
        }
        self.weight.cards_changed(0, weight::card(&def));
        let cards = Arc::make_mut(&mut self.cards);
        cards.push(Arc::new(def));
        self.name_index = NameCache::default();
        Ok(CardId(cards.len() as u16 - 1))
    }

    /// A log line everyone may read, but for the names of cards a reader may not see
    /// (`mentions`).
    pub fn log_event(&mut self, text: impl Into<String>) {
        self.log_entry(LogEntry {
            text: text.into(),
            seen_by: None,
            mentions: vec![],
        });
    }

    /// A log line only `seats` may read.
    pub fn log_private(&mut self, text: impl Into<String>, seats: Vec<usize>) {
        self.log_entry(LogEntry {
            text: text.into(),
            seen_by: Some(seats),
            mentions: vec![],
        });
    }

    fn log_entry(&mut self, e: LogEntry) {
        self.weight.logged(&e);
        self.log.push_back(Arc::new(e));
        mentions::mark_last(self);
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a state always serializes")
    }

    /// What `seat` may see (None: a spectator): other seats' hidden cards become
    /// `CardId::HIDDEN` (but for cards revealed to the seat), zones nobody sees lose their
    /// order (but for where those revealed cards lie), card secrets not revealed to the seat
    /// are dropped, private script data is dropped, other seats' held choices are blanked,
    /// hidden bags show only their totals, and the RNG is replaced so its state cannot leak.
    ///
    /// Built for every seat after every action by tests and bots, so it copies only what it
    /// redacts: collections with nothing to hide stay shared with `self`.
    pub fn view(&self, seat: Option<usize>) -> State {
        let mut v = self.clone();
        // Most games have no secrets and reveal no card: then one look at the catalogue, and
        // nothing is looked up card by card.
        let knowledge = self.cards.iter().any(|d| d.has_knowledge());
        // A card revealed to the seat (`g.reveal_card`) stays at its slot; the others become
        // hidden ones.
        let hide = |c: CardId| {
            c != CardId::HIDDEN
                && !(knowledge
                    && self
                        .cards
                        .get(c.0 as usize)
                        .is_some_and(|d| d.known_to.includes(seat)))
        };
        if knowledge
            || self
                .zones
                .iter()
                .any(|z| !z.visible_to(seat) && z.cards.iter().any(|&c| hide(c)))
        {
            for z in v.zones_mut().iter_mut().filter(|z| !z.visible_to(seat)) {
                if knowledge {
                    z.cards
                        .iter_mut()
                        .filter(|c| hide(**c))
                        .for_each(|c| *c = CardId::HIDDEN);
                    // The order of another seat's hand is its own: where a known card lies
                    // among hidden ones would tell which of them was played.
                    if z.visibility == Visibility::Owner {
                        z.cards.sort_unstable();
                    }
                } else {
                    z.cards.fill(CardId::HIDDEN);
                }
            }
        }
        // A hidden bag shows its total, not what is inside.
        if self.bags.iter().any(Bag::hides_something) {
            v.bags = Arc::new(self.bags.iter().map(Bag::view).collect());
        }
        // Removing what the seat may not see copies only those entries' paths.
        for (key, _) in self
            .vars
            .iter()
            .filter(|(_, var)| !may_see(&var.seen_by, seat))
        {
            v.vars.remove(key);
        }
        // The log is persistent: keep the longest prefix every line of which the seat may
        // read as it is (shared), and filter and redact only the rest.
        // A view keeps no marks: who else may read a card is not the seat's business.
        let as_is = |e: &LogEntry| may_see(&e.seen_by, seat) && e.mentions.is_empty();
        if let Some(first) = self.log.iter().position(|e| !as_is(e)) {
            let rest = v.log.split_off(first);
            for e in rest.into_iter().filter(|e| may_see(&e.seen_by, seat)) {
                v.log.push_back(match e.mentions.is_empty() {
                    true => e,
                    false => Arc::new(LogEntry {
                        text: mentions::redacted(&e, seat).unwrap_or_else(|| e.text.clone()),
                        seen_by: e.seen_by.clone(),
                        mentions: vec![],
                    }),
                });
            }
        }
        // That a seat has chosen is public (a card laid face down); what it chose is not.
        for (s, choice) in v.pending.iter_mut() {
            if Some(*s) != seat {
                choice.clear();
            }
        }
        if !self.agenda.is_empty() {
            v.agenda = self.agenda.view(seat);
        }
        v.rng = rng::seeded(0);
        // Public, but a sampler's business (`Unseen`), not a reader's.
        v.whereabouts = Arc::default();
        // Tallies are statistics for `sim`: one might count what only the rules know.
        v.tallies = Counters::new();
        v.cards = self.catalogue_view(&v.zones, seat, knowledge);
        // Its names are the seat's, some blanked: they are looked up anew if ever needed.
        v.name_index = NameCache::default();
        v
    }

    /// The catalogue as `seat` may read it, keeping its indices: entries of cards it sees in
    /// none of `shown` (the view's zones) and was not shown are blanked, and the others lose
    /// the secrets not revealed to it (`CardDef::as_seen_by`). Shared when nothing changes.
    /// `knowledge`: whether any entry has secrets or was revealed (`CardDef::has_knowledge`).
    fn catalogue_view(
        &self,
        shown: &[Zone],
        seat: Option<usize>,
        knowledge: bool,
    ) -> Arc<Vec<Arc<CardDef>>> {
        let mut seen = match knowledge {
            false => vec![false; self.cards.len()],
            true => self
                .cards
                .iter()
                .map(|d| d.known_to.includes(seat))
                .collect(),
        };
        for c in shown
            .iter()
            .flat_map(|z| &z.cards)
            .filter(|c| **c != CardId::HIDDEN)
        {
            seen[c.0 as usize] = true;
        }
        if !knowledge && seen.iter().all(|&s| s) {
            return self.cards.clone();
        }
        let blank = Arc::new(CardDef::new("?", BTreeMap::new()));
        let cards = self
            .cards
            .iter()
            .zip(&seen)
            .map(|(d, &s)| match s {
                false => blank.clone(),
                true if !knowledge => d.clone(),
                true => d.as_seen_by(seat).map_or_else(|| d.clone(), Arc::new),
            })
            .collect();
        Arc::new(cards)
    }
}

fn no_whereabouts(w: &Arc<Whereabouts>) -> bool {
    w.is_empty()
}

fn no_bags(bags: &Arc<Vec<Bag>>) -> bool {
    bags.is_empty()
}

fn no_supplies(supplies: &Arc<Vec<Supply>>) -> bool {
    supplies.is_empty()
}

fn may_see(seen_by: &Option<Vec<usize>>, seat: Option<usize>) -> bool {
    match (seen_by, seat) {
        (None, _) => true,
        (Some(seen), Some(s)) => seen.contains(&s),
        (Some(_), None) => false,
    }
}
