//! Shared test harnesses for every game: `Table` sets up exact situations for scenario tests,
//! `random_playouts` plays seeded random games checking engine-wide invariants after every
//! action (OpenSpiel's `RandomSimTest`), plus the game's own invariants, and now and then
//! near misses, undo and redo, save and views (`probes`); `hidden_information_playouts` also
//! checks every seat's view after every action.
//!
//! ```no_run
//! use boardscript_tests::Table;
//! let mut t = Table::new("virus-wars").seed(7).start();
//! t.play("blue", "a6");
//! assert_eq!(t.legal("blue"), ["a5", "a7", "b5", "b6", "b7"]);
//! ```

use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::primitives::zone::CardId;
use boardscript_interpreter::script::ScriptError;
use boardscript_interpreter::state::LogEntry;
use boardscript_interpreter::{Game, Match, PlayError, SaveFile, Setup, State};
pub use probes::NearMisses;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

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

/// Summary of a batch of random playouts.
#[derive(Debug, Default)]
pub struct PlayoutStats {
    pub games: usize,
    pub actions: usize,
    pub max_length: usize,
    pub wins: BTreeMap<String, usize>,
    /// What the near misses tried now and then did.
    pub near_misses: NearMisses,
}

/// Game-specific invariant, checked after every action: `(game, state before, state after)`.
pub type Invariant<'a> = &'a (dyn Fn(&Game, &State, &State) -> Result<(), String> + Sync);

/// Plays `games` seeded random games of `id` with `setup` (seed i from `setup.seed` and i),
/// on two threads. After every action it checks the engine's invariants (see
/// `check_engine_invariants`: cheap, no views) and `invariant`. At the first four actions
/// and twice every `deep_every` actions it tries near misses (another seat's action, a
/// changed argument, an action from an earlier position: each refused with the state
/// unchanged, see `probes`); every `deep_every` actions (and at the first) it checks the JSON
/// round trip, undo and redo through a `Match`, and every seat's view (see `check_views`). A
/// failure panics naming the seed; so do fewer refused near misses than games, or a kind of
/// them never refused, since such a probe checks nothing.
pub fn random_playouts(
    id: &str,
    setup: &Setup,
    games: usize,
    deep_every: usize,
    invariant: Invariant,
) -> PlayoutStats {
    run_playouts(id, setup, games, deep_every, false, invariant)
}

/// Like `random_playouts`, and besides checks every seat's view (and a spectator's) after
/// every action with `check_views`: the exhaustive hidden-information check, for a smaller
/// set of games since views cost far more than the game's own invariants.
pub fn hidden_information_playouts(
    id: &str,
    setup: &Setup,
    games: usize,
    invariant: Invariant,
) -> PlayoutStats {
    run_playouts(id, setup, games, 0, true, invariant)
}

fn run_playouts(
    id: &str,
    setup: &Setup,
    games: usize,
    deep_every: usize,
    views: bool,
    invariant: Invariant,
) -> PlayoutStats {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stats = std::sync::Mutex::new(PlayoutStats::default());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let game = load(id);
                // Plays the deep points' actions as the REPL does, to check its undo and redo.
                let mut checker = Match::new(load(id), setup.clone())
                    .unwrap_or_else(|e| panic!("starting {id}: {e}"));
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let seed = rng::derive_seed(setup.seed, i as u64);
                    let s = Setup {
                        seed,
                        ..setup.clone()
                    };
                    let mut near = NearMisses::default();
                    let deep = Deep {
                        every: deep_every,
                        checker: &mut checker,
                        near_misses: &mut near,
                    };
                    let (len, winners) = match playout(&game, &s, deep, views, invariant) {
                        Ok(r) => r,
                        Err(e) => panic!("{id} seed {seed} (game {i}): {e}"),
                    };
                    let mut st = stats.lock().unwrap();
                    st.near_misses.add(&near);
                    st.games += 1;
                    st.actions += len;
                    st.max_length = st.max_length.max(len);
                    for w in winners {
                        *st.wins.entry(w).or_default() += 1;
                    }
                }
            });
        }
    });
    let stats = stats.into_inner().unwrap();
    if deep_every > 0 {
        if let Err(e) = stats.near_misses.check(games) {
            panic!("{id}: {e} ({:?})", stats.near_misses);
        }
    }
    stats
}

/// The deep points of one playout: how often, the match that checks undo and redo, and the
/// tally of near misses.
struct Deep<'a> {
    every: usize,
    checker: &'a mut Match,
    near_misses: &'a mut NearMisses,
}

fn playout(
    game: &Game,
    setup: &Setup,
    deep: Deep,
    views: bool,
    invariant: Invariant,
) -> Result<(usize, Vec<String>), String> {
    let mut state = game.start(setup).map_err(|e| e.to_string())?;
    let cards = state.cards.len();
    check_engine_invariants(&state, cards).map_err(|e| format!("at the start: {e}"))?;
    if views {
        check_views(&state).map_err(|e| format!("at the start: {e}"))?;
    }
    let mut bot = rng::seeded(setup.seed ^ 0x5EED);
    // Its own generator, so that probing does not change the game the bot plays.
    let mut pick = rng::seeded(setup.seed ^ 0x9EA5);
    let mut n = 0;
    let mut before: Option<State> = None;
    let probe_every = (deep.every / 2).max(1);
    let mut history = probes::History::default();
    loop {
        let decisions = game
            .decisions(&state)
            .map_err(|e| format!("action {n}: {e}"))?;
        // Checked here, on the decisions the next action needs anyway, so it costs no call.
        if let Some(s) = decisions
            .to_decide
            .iter()
            .find(|&&s| state.turn.eliminated[s])
        {
            return Err(format!(
                "after action {}: eliminated seat {} is asked to decide",
                n.max(1) - 1,
                state.seat_name(*s)
            ));
        }
        if let Some(b) = &before {
            if let Some(s) =
                (0..state.seats.len()).find(|&s| b.turn.eliminated[s] && !state.turn.eliminated[s])
            {
                return Err(format!(
                    "after action {}: eliminated seat {} is back",
                    n - 1,
                    state.seat_name(s)
                ));
            }
        }
        let Some((seat, action)) = random::choose(&decisions, &mut bot) else {
            break;
        };
        if decisions.seats.iter().any(|(_, legal)| legal.is_empty()) {
            return Err(format!("action {n}: a deciding seat has no legal action"));
        }
        let point = probes::Point {
            game,
            state: &state,
            decisions: &decisions,
            seat,
            action: &action,
        };
        // Also the first positions, where short games spend most of their life.
        let probe_point = deep.every > 0 && (n < 4 || n % probe_every == 0);
        if probe_point {
            point
                .near_misses(&history, &mut pick, deep.near_misses)
                .map_err(|e| format!("action {n} ({action}): {e}"))?;
        }
        let mut through_match = None;
        if deep.every > 0 && n % deep.every == 0 {
            through_match = Some(
                deep_checks(&point, &mut *deep.checker)
                    .map_err(|e| format!("action {n} ({action}): {e}"))?,
            );
        }
        let b = before.insert(state.clone());
        game.play(&mut state, &decisions, seat, &action)
            .map_err(|e| format!("action {n} ({action}): {e}"))?;
        let after = |e: String| format!("after action {n} ({action}): {e}");
        if through_match.is_some_and(|m| m != state) {
            return Err(after("a match playing it reaches another state".into()));
        }
        history.push(decisions, probe_point);
        check_engine_invariants(&state, cards).map_err(after)?;
        if views {
            check_views(&state).map_err(after)?;
        }
        invariant(game, b, &state).map_err(after)?;
        n += 1;
        if n > 1_000_000 {
            return Err("no end after a million actions".into());
        }
    }
    if views {
        check_views(&state).map_err(|e| format!("at the end: {e}"))?;
    }
    let winners = game.winners(&state).map_err(|e| e.to_string())?;
    Ok((
        n,
        winners
            .iter()
            .map(|&s| state.seat_name(s).to_string())
            .collect(),
    ))
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
            // Of a zone it may not see, a seat sees exactly the cards it was shown, in place.
            for (&c, &vc) in z.cards.iter().zip(&vz.cards) {
                let known = state.cards[c.0 as usize].known_to.includes(seat);
                if vc != if known { c } else { CardId::HIDDEN } {
                    return Err(format!("{who} sees into hidden zone {}", z.name));
                }
                visible[c.0 as usize] |= known;
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

/// Expensive checks done now and then: JSON round trip, the action played through a `Match`
/// with undo and redo giving back the exact states (the state after is returned, for the
/// caller to compare with its own), and every seat's view.
fn deep_checks(point: &probes::Point, checker: &mut Match) -> Result<State, String> {
    let state = point.state;
    let json = serde_json::to_string(state).map_err(|e| e.to_string())?;
    let back: State =
        serde_json::from_str(&json).map_err(|e| format!("state does not load back: {e}"))?;
    if &back != state {
        return Err("state differs after a JSON round trip".into());
    }
    let after = probes::undo_redo(checker, state, point.seat, point.action)?;
    if &after == state {
        return Err("an applied action changed nothing".into());
    }
    let view = serde_json::to_string(&state.view(Some(point.seat))).map_err(|e| e.to_string())?;
    serde_json::from_str::<State>(&view).map_err(|e| format!("a view does not load: {e}"))?;
    check_views(state)?;
    Ok(after)
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

/// Replays `m`'s actions on a fresh match of the same game and setup: the states and the
/// saves must be byte-identical (determinism).
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
