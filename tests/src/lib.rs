//! Shared test harnesses for every game: `Table` sets up exact situations for scenario tests;
//! `Playouts` (in `playouts`) plays seeded random games checking engine-wide invariants and
//! the game's own after every action (OpenSpiel's `RandomSimTest`), now and then near
//! misses, undo and redo, save and views (`probes`), and tallies how the games ended.
//!
//! ```no_run
//! use boardscript_tests::Table;
//! let mut t = Table::new("virus-wars").seed(7).start();
//! t.play("blue", "a6");
//! assert_eq!(t.legal("blue"), ["a5", "a7", "b5", "b6", "b7"]);
//! ```

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::primitives::zone::{CardId, Visibility};
use boardscript_interpreter::script::ScriptError;
use boardscript_interpreter::state::LogEntry;
use boardscript_interpreter::{Game, Match, PlayError, SaveFile, Setup, State};
pub use playouts::{Check, PlayoutStats, Playouts, Step};
pub use probes::NearMisses;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub mod playouts;
pub mod probes;

/// The repository's `scripts/` folder.
pub fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

/// Writes a game folder `id` (its `game.toml` and one `rules.rhai`) into a temp folder and
/// loads it: small games written inside a test. The folder lives as long as the `TempDir`.
pub fn inline_game(
    id: &str,
    manifest: &str,
    rules: &str,
) -> (tempfile::TempDir, Result<Game, ScriptError>) {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join(id);
    std::fs::create_dir_all(&g).unwrap();
    std::fs::write(g.join("game.toml"), manifest).unwrap();
    std::fs::write(g.join("rules.rhai"), rules).unwrap();
    let game = Game::load(&g, id);
    (dir, game)
}

pub fn load(id: &str) -> Game {
    Game::find(&scripts_dir(), id).unwrap_or_else(|e| panic!("loading {id}: {e}"))
}

/// Builds a `Table`: game, seed, seats, options, and an optional position text.
pub struct TableBuilder {
    id: String,
    setup: Setup,
}

impl TableBuilder {
    pub fn seed(mut self, seed: u64) -> Self {
        self.setup.seed = seed;
        self
    }

    pub fn seats(mut self, n: usize) -> Self {
        self.setup.seats = Some(n);
        self
    }

    pub fn option(mut self, key: &str, value: &str) -> Self {
        self.setup.options.insert(key.into(), value.into());
        self
    }

    pub fn position(mut self, text: &str) -> Self {
        self.setup.position = Some(text.into());
        self
    }

    pub fn start(self) -> Table {
        let game = load(&self.id);
        let m =
            Match::new(game, self.setup).unwrap_or_else(|e| panic!("starting {}: {e}", self.id));
        Table { m }
    }
}

/// A game in progress, driven by seat names and notation, as a scenario reads.
pub struct Table {
    pub m: Match,
}

impl Table {
    #[allow(clippy::new_ret_no_self)]
    pub fn new(id: &str) -> TableBuilder {
        TableBuilder {
            id: id.into(),
            setup: Setup::default(),
        }
    }

    pub fn state(&self) -> &State {
        &self.m.state
    }

    fn seat(&self, name: &str) -> usize {
        self.m
            .state
            .seat_index(name)
            .unwrap_or_else(|| panic!("no seat {name}"))
    }

    /// Legal actions of `seat`, sorted as strings (the references list them so).
    pub fn legal(&self, seat: &str) -> Vec<String> {
        let mut l = self
            .m
            .game
            .legal_actions(&self.m.state, self.seat(seat))
            .expect("legal_actions")
            .into_iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>();
        l.sort();
        l
    }

    pub fn deciding(&self) -> Vec<String> {
        let d = self.m.game.deciding(&self.m.state).expect("deciding");
        d.iter()
            .map(|&s| self.m.state.seat_name(s).to_string())
            .collect()
    }

    /// Plays an action that must be legal; panics with the engine's message otherwise.
    pub fn play(&mut self, seat: &str, action: &str) -> &mut Self {
        if let Err(e) = self.m.play(Some(seat), action) {
            panic!("{seat} {action}: {e}");
        }
        self
    }

    pub fn try_play(&mut self, seat: &str, action: &str) -> Result<(), PlayError> {
        self.m.play(Some(seat), action).map(|_| ())
    }

    /// Plays an action that must be refused, checks that the state is unchanged, and returns
    /// the refusal's text for the caller to match against the refusal it means.
    pub fn refusal(&mut self, seat: &str, action: &str) -> String {
        let before = self.m.state.clone();
        let err = match self.m.play(Some(seat), action) {
            Ok(_) => panic!("{seat} {action} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(
            self.m.state == before,
            "{seat} {action}: refused ({err}) but changed the state"
        );
        err
    }

    pub fn is_over(&self) -> bool {
        self.m.game.is_over(&self.m.state).expect("is_over")
    }

    pub fn winners(&self) -> Vec<String> {
        let w = self.m.game.winners(&self.m.state).expect("winners");
        w.iter()
            .map(|&s| self.m.state.seat_name(s).to_string())
            .collect()
    }

    /// A Rhai expression on the state (`g`), e.g. `g.grid("board").get("c3")`.
    pub fn eval(&self, expr: &str) -> String {
        self.m
            .game
            .eval(&self.m.state, expr)
            .unwrap_or_else(|e| panic!("eval {expr}: {e}"))
    }
}

/// Engine-wide invariants, cheap enough for every action: the catalogue still holds `cards`
/// cards and every one of them is in exactly one zone.
pub fn check_engine_invariants(state: &State, cards: usize) -> Result<(), String> {
    if state.cards.len() != cards {
        return Err(format!(
            "the catalogue holds {} cards, not {cards}",
            state.cards.len()
        ));
    }
    let mut seen = vec![0u32; state.cards.len()];
    for z in state.zones.iter() {
        for c in &z.cards {
            let slot = seen
                .get_mut(c.0 as usize)
                .ok_or(format!("zone {} holds unknown card {}", z.name, c.0))?;
            *slot += 1;
        }
    }
    if let Some(i) = seen.iter().position(|&k| k != 1) {
        return Err(format!(
            "card {} ({}) is in {} zones",
            i, state.cards[i].name, seen[i]
        ));
    }
    Ok(())
}

/// The exhaustive hidden-information check, for every seat and a spectator. In the view:
/// every zone has its true count, zones the viewer may see show their true cards and the
/// others only `CardId::HIDDEN` but for the cards revealed to the viewer, in place; a card's
/// secrets appear only where revealed to the viewer; every card the viewer sees nowhere has a blank catalogue entry
/// (`?`, no properties) and its identity appears nowhere in the view's JSON (its number in no
/// zone, and, for a card whose name no other card shares, the name nowhere at all); the RNG is
/// replaced; script data, log lines and held choices meant for others are absent.
pub fn check_views(state: &State) -> Result<(), String> {
    let mut name_count: BTreeMap<&str, usize> = BTreeMap::new();
    for d in state.cards.iter() {
        *name_count.entry(d.name.as_str()).or_default() += 1;
    }
    for seat in (0..state.seats.len()).map(Some).chain([None]) {
        let who = seat.map_or("a spectator".to_string(), |s| {
            state.seat_name(s).to_string()
        });
        let back = state.view(seat);
        // The log is compared line by line below; the rest is searched as text.
        let mut rest = back.clone();
        rest.log = Default::default();
        let json = serde_json::to_string(&rest).map_err(|e| e.to_string())?;
        if back.zones.len() != state.zones.len() || back.cards.len() != state.cards.len() {
            return Err(format!("the view of {who} has other zones or catalogue"));
        }
        let mut visible = vec![false; state.cards.len()];
        for (z, vz) in state.zones.iter().zip(back.zones.iter()) {
            if vz.cards.len() != z.cards.len() {
                return Err(format!("the view of {who} miscounts zone {}", z.name));
            }
            if z.visible_to(seat) {
                if vz.cards != z.cards {
                    return Err(format!("the view of {who} changes visible zone {}", z.name));
                }
                z.cards.iter().for_each(|c| visible[c.0 as usize] = true);
                continue;
            }
            // Of a zone it may not see, a seat sees exactly the cards it was shown, in place;
            // in another seat's hand, those first in id order (a hand's order is its own).
            let mut expected: Vec<CardId> = z
                .cards
                .iter()
                .map(
                    |&c| match state.cards[c.0 as usize].known_to.includes(seat) {
                        true => c,
                        false => CardId::HIDDEN,
                    },
                )
                .collect();
            let knowledge = state.cards.iter().any(|d| d.has_knowledge());
            if knowledge && z.visibility == Visibility::Owner {
                expected.sort_unstable();
            }
            if vz.cards != expected {
                return Err(format!("{who} sees into hidden zone {}", z.name));
            }
            for &c in expected.iter().filter(|&&c| c != CardId::HIDDEN) {
                visible[c.0 as usize] = true;
            }
        }
        for (i, def) in state.cards.iter().enumerate() {
            let shown = &back.cards[i];
            if visible[i] {
                // Its face and the secrets shown to the seat; of who else knows, nothing.
                let secrets = def
                    .secrets
                    .iter()
                    .filter(|(_, s)| s.known_to.includes(seat))
                    .map(|(k, s)| (k, &s.value, s.known_to.as_seen_by(seat)));
                let shown_secrets = shown.secrets.iter().map(|(k, s)| (k, &s.value, s.known_to));
                if shown.name != def.name
                    || shown.props != def.props
                    || !secrets.eq(shown_secrets)
                    || shown.known_to != def.known_to.as_seen_by(seat)
                {
                    return Err(format!("{who} sees a wrong entry for card {i}"));
                }
                continue;
            }
            if shown.name != "?" || !shown.props.is_empty() || shown.has_knowledge() {
                return Err(format!(
                    "{who} reads hidden card {i} ({}) in the catalogue",
                    def.name
                ));
            }
            if back
                .zones
                .iter()
                .any(|z| z.cards.contains(&CardId(i as u16)))
            {
                return Err(format!("{who} sees hidden card {i} in a zone"));
            }
            let unique = name_count[def.name.as_str()] == 1 && def.name != "?";
            if unique && json.contains(&format!("\"{}\"", def.name)) {
                return Err(format!(
                    "the view of {who} names hidden card {i} ({})",
                    def.name
                ));
            }
        }
        if state.rng != rng::seeded(0) && back.rng == state.rng {
            return Err(format!("the view of {who} carries the RNG state"));
        }
        let may = |seen_by: &Option<Vec<usize>>| match (seen_by, seat) {
            (None, _) => true,
            (Some(list), Some(s)) => list.contains(&s),
            (Some(_), None) => false,
        };
        if let Some(k) = back.vars.iter().find(|(_, var)| !may(&var.seen_by)) {
            return Err(format!("{who} reads hidden script data {}", k.0));
        }
        let kept = state.vars.iter().filter(|(_, var)| may(&var.seen_by));
        if !kept.eq(back.vars.iter()) {
            return Err(format!("the view of {who} loses or changes script data"));
        }
        let lines: Vec<_> = state.log.iter().filter(|e| may(&e.seen_by)).collect();
        let same = |(e, v): (&&Arc<LogEntry>, &Arc<LogEntry>)| {
            v.seen_by == e.seen_by
                && v.mentions.is_empty()
                && names_withheld(&e.text, &v.text, &name_count)
        };
        if lines.len() != back.log.len() || !lines.iter().zip(back.log.iter()).all(same) {
            return Err(format!("the view of {who} has other log lines"));
        }
        if back
            .pending
            .iter()
            .any(|(&s, c)| Some(s) != seat && !c.is_empty())
        {
            return Err(format!("{who} sees another seat's held choice"));
        }
    }
    Ok(())
}

/// Each seat's (and a spectator's) log lines written by one action name only cards that seat
/// saw in its view before the action or sees after it (a word that is the name of exactly one
/// card names that card). Checked against the views alone, whatever the engine records.
/// Returns how many names it checked.
pub fn check_log_names(before: &State, after: &State) -> Result<usize, String> {
    let mut count: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, d) in after.cards.iter().enumerate() {
        count.entry(d.name.as_str()).or_default().push(i);
    }
    let seen = |v: &State, c: usize| v.cards.get(c).is_some_and(|d| d.name != "?");
    let mut checked = 0;
    for seat in (0..after.seats.len()).map(Some).chain([None]) {
        let (then, now) = (before.view(seat), after.view(seat));
        let who = seat.map_or("a spectator".to_string(), |s| {
            after.seat_name(s).to_string()
        });
        for line in now.log.iter().skip(then.log.len()) {
            let words = line
                .text
                .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'));
            for word in words {
                let Some([c]) = count.get(word).map(Vec::as_slice) else {
                    continue;
                };
                checked += 1;
                if !seen(&then, *c) && !seen(&now, *c) {
                    return Err(format!(
                        "{who} reads `{}`, naming card {c} ({word}), which it neither saw nor sees",
                        line.text
                    ));
                }
            }
        }
    }
    Ok(checked)
}

/// Whether `shown` is the log line `text` with some names of unique cards (one card each in
/// `name_count`) written as "a card": a view withholds names, and changes nothing else.
fn names_withheld(text: &str, shown: &str, name_count: &BTreeMap<&str, usize>) -> bool {
    let word_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut rest = shown;
    let mut at = 0;
    while at < text.len() {
        let len = text[at..]
            .find(|c: char| !word_char(c))
            .unwrap_or(text.len() - at);
        if len == 0 {
            let c = text[at..].chars().next().unwrap();
            let Some(r) = rest.strip_prefix(c) else {
                return false;
            };
            rest = r;
            at += c.len_utf8();
            continue;
        }
        let word = &text[at..at + len];
        rest = match rest.strip_prefix(word) {
            Some(r) => r,
            None if name_count.get(word) == Some(&1) => match rest.strip_prefix("a card") {
                Some(r) => r,
                None => return false,
            },
            None => return false,
        };
        at += len;
    }
    rest.is_empty()
}

/// Plays up to `n` random actions on `m` (bot seeded with `seed`), stopping early when the
/// game ends or `stop(m)` holds.
pub fn play_random(m: &mut Match, n: usize, seed: u64, stop: impl Fn(&Match) -> bool) {
    let mut bot = rng::seeded(seed);
    for _ in 0..n {
        if stop(m) {
            return;
        }
        let d = m.game.decisions(&m.state).expect("decisions");
        let Some((seat, action)) = random::choose(&d, &mut bot) else {
            return;
        };
        let name = m.state.seat_name(seat).to_string();
        m.play(Some(&name), &action)
            .unwrap_or_else(|e| panic!("{name} {action}: {e}"));
    }
}

/// Saves `a` where it stands, loads the save into a fresh match of the same game, and checks
/// that both hold the same state with the same seats deciding, then that both play on to the
/// same end under the same bot.
pub fn assert_save_load_resumes(a: &mut Match) {
    let id = a.game.spec.id.clone();
    let text = a.save_json();
    let mut b = Match::new(load(&id), Setup::default()).expect("start");
    b.load(&SaveFile::parse(&text, &id).expect("parse the save"))
        .expect("load the save");
    assert_eq!(a.state, b.state);
    assert_eq!(
        a.game.deciding(&a.state).unwrap(),
        b.game.deciding(&b.state).unwrap(),
        "the same seats decide after loading"
    );
    play_random(a, 100_000, 5, |_| false);
    play_random(&mut b, 100_000, 5, |_| false);
    assert_eq!(a.state, b.state);
    assert!(a.game.is_over(&a.state).unwrap(), "the game ends");
}

/// Replays `m`'s actions on a fresh match of the same game and setup: the states and the
/// saves must be byte-identical (determinism).
pub fn assert_replays_identically(m: &Match) {
    let mut b = Match::new(load(&m.game.spec.id), m.setup.clone()).expect("start");
    for p in m.actions().to_vec() {
        b.play(Some(&p.seat), &p.action)
            .unwrap_or_else(|e| panic!("replaying {}: {e}", p.action));
    }
    assert_eq!(
        serde_json::to_string(&m.state).unwrap(),
        serde_json::to_string(&b.state).unwrap()
    );
    assert_eq!(m.save_json(), b.save_json());
}

/// The numbers of an array as `Table::eval` prints it (`[0.5, 1.0]`), as a test reads a
/// script's result.
pub fn numbers(text: &str) -> Vec<f64> {
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or_else(|| panic!("{text} is not an array"));
    inner
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("in {text}: `{v}` is not a number"))
        })
        .collect()
}

/// The game's `evaluate(g)` after every `every`-th action of a playout (None after the others
/// and once the game is over), checked to give one value per seat, each in [0, 1].
pub fn evaluated_every(step: &Step, every: usize) -> Result<Option<Vec<f64>>, String> {
    let over = step.game.is_over(step.after).map_err(|e| e.to_string())?;
    if !step.number.is_multiple_of(every) || over {
        return Ok(None);
    }
    let text = step
        .game
        .eval(step.after, "evaluate(g)")
        .map_err(|e| e.to_string())?;
    let v = numbers(&text);
    let seats = step.after.seats.len();
    if v.len() != seats {
        return Err(format!("{} values for {seats} seats: {text}", v.len()));
    }
    if v.iter().any(|x| !(0.0..=1.0).contains(x)) {
        return Err(format!("a value outside [0, 1]: {text}"));
    }
    Ok(Some(v))
}
