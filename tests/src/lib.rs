//! Shared test harnesses for every game: `Table` sets up exact situations for scenario tests,
//! and `random_playouts` plays seeded random games checking engine-wide invariants after every
//! action (OpenSpiel's `RandomSimTest`), plus the game's own invariants.
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
use boardscript_interpreter::{Game, Match, PlayError, Setup, State};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The repository's `scripts/` folder.
pub fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
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
}

/// Game-specific invariant, checked after every action: `(game, state before, state after)`.
pub type Invariant<'a> = &'a (dyn Fn(&Game, &State, &State) -> Result<(), String> + Sync);

/// Plays `games` seeded random games of `id` with `setup` (seed i from `setup.seed` and i),
/// on two threads. After every action it checks the engine's invariants (see
/// `check_engine_invariants`) and `invariant`; every `deep_every` actions it also checks save/load,
/// undo and refusal of an illegal action. A failure panics naming the seed.
pub fn random_playouts(
    id: &str,
    setup: &Setup,
    games: usize,
    deep_every: usize,
    invariant: Invariant,
) -> PlayoutStats {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stats = std::sync::Mutex::new(PlayoutStats::default());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let game = load(id);
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
                    let (len, winners) = match playout(&game, &s, deep_every, invariant) {
                        Ok(r) => r,
                        Err(e) => panic!("{id} seed {seed} (game {i}): {e}"),
                    };
                    let mut st = stats.lock().unwrap();
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
    stats.into_inner().unwrap()
}

fn playout(
    game: &Game,
    setup: &Setup,
    deep_every: usize,
    invariant: Invariant,
) -> Result<(usize, Vec<String>), String> {
    let mut state = game.start(setup).map_err(|e| e.to_string())?;
    let mut bot = rng::seeded(setup.seed ^ 0x5EED);
    let mut n = 0;
    loop {
        let decisions = game
            .decisions(&state)
            .map_err(|e| format!("action {n}: {e}"))?;
        let Some((seat, action)) = random::choose(&decisions, &mut bot) else {
            break;
        };
        if decisions.seats.iter().any(|(_, legal)| legal.is_empty()) {
            return Err(format!("action {n}: a deciding seat has no legal action"));
        }
        let before = state.clone();
        if deep_every > 0 && n % deep_every == 0 {
            deep_checks(game, &state, seat, &action).map_err(|e| format!("action {n}: {e}"))?;
        }
        game.play(&mut state, &decisions, seat, &action)
            .map_err(|e| format!("action {n} ({action}): {e}"))?;
        check_engine_invariants(&state).map_err(|e| format!("after action {n} ({action}): {e}"))?;
        invariant(game, &before, &state)
            .map_err(|e| format!("after action {n} ({action}): {e}"))?;
        n += 1;
        if n > 1_000_000 {
            return Err("no end after a million actions".into());
        }
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

/// Engine-wide invariants: every card in exactly one zone, and no view shows a card its
/// seat may not see or the RNG.
pub fn check_engine_invariants(state: &State) -> Result<(), String> {
    let mut seen = vec![0u32; state.cards.len()];
    for z in state.zones.iter() {
        for c in &z.cards {
            let slot = seen
                .get_mut(c.0 as usize)
                .ok_or(format!("zone {} holds unknown card {}", z.name, c.0))?;
            *slot += 1;
        }
    }
    if let Some(i) = seen.iter().position(|&k| k > 1) {
        return Err(format!(
            "card {} ({}) is in {} zones",
            i, state.cards[i].name, seen[i]
        ));
    }
    for seat in (0..state.seats.len()).map(Some).chain([None]) {
        let v = state.view(seat);
        for (z, vz) in state.zones.iter().zip(v.zones.iter()) {
            let hidden = !z.visible_to(seat);
            if hidden && vz.cards.iter().any(|&c| c != CardId::HIDDEN) {
                return Err(format!(
                    "view of {seat:?} shows cards of hidden zone {}",
                    z.name
                ));
            }
        }
        if v.rng == state.rng && state.rng != rng::seeded(0) {
            return Err(format!("view of {seat:?} carries the RNG state"));
        }
    }
    Ok(())
}

/// Expensive checks done now and then: JSON round trip, undo, and refusal of an illegal action
/// with the state unchanged.
fn deep_checks(game: &Game, state: &State, seat: usize, action: &str) -> Result<(), String> {
    let json = serde_json::to_string(state).map_err(|e| e.to_string())?;
    let back: State =
        serde_json::from_str(&json).map_err(|e| format!("state does not load back: {e}"))?;
    if &back != state {
        return Err("state differs after a JSON round trip".into());
    }
    let mut scratch = state.clone();
    let bogus = "no-such-action-xyz";
    if game.apply(&mut scratch, seat, bogus).is_ok() {
        return Err(format!("illegal action `{bogus}` accepted"));
    }
    if &scratch != state {
        return Err("a refused action changed the state".into());
    }
    let mut after = state.clone();
    game.apply(&mut after, seat, action)
        .map_err(|e| e.to_string())?;
    if &after == state {
        return Err("an applied action changed nothing".into());
    }
    Ok(())
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
