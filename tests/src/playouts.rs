//! The one playout harness every game's tests call (OpenSpiel's `RandomSimTest`): seeded
//! random games, checked after every action, tallied into `PlayoutStats` for the caller to
//! assert on how the games ended.
//!
//! ```no_run
//! use boardscript_tests::Playouts;
//! Playouts::new("connect-four")
//!     .seed(4)
//!     .games(300)
//!     .max_length(42)
//!     .run()
//!     .assert_all_end()
//!     .assert_every_seat_wins();
//! ```

use crate::{check_engine_invariants, check_log_names, check_views, load, probes, NearMisses};
use boardscript_interpreter::bots::random;
use boardscript_interpreter::primitives::rng;
use boardscript_interpreter::{Game, Match, Setup, State};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// One action just played, as a per-action check sees it.
pub struct Step<'a> {
    pub game: &'a Game,
    pub before: &'a State,
    pub after: &'a State,
    pub seat: usize,
    pub action: &'a str,
    /// The action's number in its game, from 0.
    pub number: usize,
}

/// A check run after every action: `Err` says what broke (the harness adds the seed, the
/// game and the action).
pub type Check<'a> = dyn Fn(&Step) -> Result<(), String> + Sync + 'a;

/// An engine-wide check, knowing no game.
pub type EngineCheck = fn(&Step) -> Result<(), String>;

/// The checks every game's playouts run after every action, whatever the game: the place for
/// a new engine-wide check. They must stay cheap (no views: those are `Playouts::views`).
pub const EVERY_ACTION: &[EngineCheck] = &[cards_stay_in_one_zone];

/// The catalogue keeps its size and every card is in exactly one zone.
fn cards_stay_in_one_zone(step: &Step) -> Result<(), String> {
    check_engine_invariants(step.after, step.before.cards.len())
}

/// A batch of seeded random games of one game and setup: built with the methods below, then
/// `run`. Game `i` is seeded from the setup's seed and `i`, and the bot from the game's seed.
pub struct Playouts<'a> {
    id: String,
    setup: Setup,
    games: usize,
    deep_every: usize,
    views: bool,
    max_length: usize,
    checks: Vec<&'a Check<'a>>,
}

impl<'a> Playouts<'a> {
    /// 100 games of `id` (a game or `game/variant`) with its default setup, deep points every
    /// 97 actions, cut at 100,000 actions.
    pub fn new(id: &str) -> Playouts<'a> {
        Playouts {
            id: id.into(),
            setup: Setup::default(),
            games: 100,
            deep_every: 97,
            views: false,
            max_length: 100_000,
            checks: vec![],
        }
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.setup.seed = seed;
        self
    }

    pub fn seats(mut self, seats: usize) -> Self {
        self.setup.seats = Some(seats);
        self
    }

    pub fn options(mut self, options: &[(&str, &str)]) -> Self {
        for (k, v) in options {
            self.setup.options.insert(k.to_string(), v.to_string());
        }
        self
    }

    /// Every game starts from this position text.
    pub fn position(mut self, text: &str) -> Self {
        self.setup.position = Some(text.into());
        self
    }

    pub fn games(mut self, games: usize) -> Self {
        self.games = games;
        self
    }

    /// How often the expensive checks run: at the first four actions and twice every `n`
    /// actions near misses (another seat's action, a changed argument, an action from an
    /// earlier position: each refused with the state unchanged, see `probes`); at the first
    /// and every `n` actions the JSON round trip, the action played through a `Match` with
    /// undo and redo, and every seat's view. 0: none of them (then `views` should be set).
    pub fn deep_every(mut self, n: usize) -> Self {
        self.deep_every = n;
        self
    }

    /// Also every seat's view (and a spectator's) after every action, with `check_views`: the
    /// exhaustive hidden-information check, for a smaller set of games since views cost far
    /// more than the game's own invariants. Turns the deep points off.
    pub fn views(mut self) -> Self {
        self.views = true;
        self.deep_every = 0;
        self
    }

    /// A game still going after `n` actions is cut there and counted in `PlayoutStats::cut`,
    /// not failed: give the rules' longest game, and assert that none was cut.
    pub fn max_length(mut self, n: usize) -> Self {
        self.max_length = n;
        self
    }

    /// A check of the game's own, run after every action (after `EVERY_ACTION`).
    pub fn check(mut self, check: &'a Check<'a>) -> Self {
        self.checks.push(check);
        self
    }

    /// Plays the games on two threads. Panics, naming the seed and the action, at the first
    /// error of the engine or failed check; so do fewer refused near misses than games, or a
    /// kind of them never refused, since such a probe checks nothing. How the games ended is
    /// the caller's to assert on the returned tally.
    pub fn run(self) -> PlayoutStats {
        let next = AtomicUsize::new(0);
        let stats = Mutex::new(PlayoutStats::default());
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| self.run_thread(&next, &stats));
            }
        });
        let stats = stats.into_inner().unwrap();
        if self.deep_every > 0 {
            if let Err(e) = stats.near_misses.check(self.games) {
                panic!("{}: {e} ({:?})", self.id, stats.near_misses);
            }
        }
        stats
    }

    fn run_thread(&self, next: &AtomicUsize, stats: &Mutex<PlayoutStats>) {
        let id = &self.id;
        let game = load(id);
        // Plays the deep points' actions as the REPL does, to check its undo and redo.
        let mut checker = Match::new(load(id), self.setup.clone())
            .unwrap_or_else(|e| panic!("starting {id}: {e}"));
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= self.games {
                break;
            }
            let setup = Setup {
                seed: rng::derive_seed(self.setup.seed, i as u64),
                ..self.setup.clone()
            };
            let mut near = NearMisses::default();
            let deep = Deep {
                every: self.deep_every,
                checker: &mut checker,
                near_misses: &mut near,
            };
            let (end, seats) = self
                .playout(&game, &setup, deep)
                .unwrap_or_else(|e| panic!("{id} seed {} (game {i}): {e}", setup.seed));
            let mut st = stats.lock().unwrap();
            st.near_misses.add(&near);
            st.seats = seats.to_vec();
            st.add(&end);
        }
    }

    /// One game: how it stopped, and its seats.
    fn playout(
        &self,
        game: &Game,
        setup: &Setup,
        deep: Deep,
    ) -> Result<(GameEnd, Arc<Vec<String>>), String> {
        let mut state = game.start(setup).map_err(|e| e.to_string())?;
        check_engine_invariants(&state, state.cards.len())
            .map_err(|e| format!("at the start: {e}"))?;
        if self.views {
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
                .find(|&&s| state.turn.eliminated[s] || state.turn.is_out(s))
            {
                let why = match state.turn.eliminated[*s] {
                    true => "eliminated",
                    false => "out for the round",
                };
                return Err(format!(
                    "after action {}: seat {} is asked to decide while {why}",
                    n.max(1) - 1,
                    state.seat_name(*s)
                ));
            }
            if let Some(b) = &before {
                if let Some(s) = (0..state.seats.len())
                    .find(|&s| b.turn.eliminated[s] && !state.turn.eliminated[s])
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
            if n >= self.max_length {
                return Ok((GameEnd::Cut, state.seats));
            }
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
            let step = Step {
                game,
                before: b,
                after: &state,
                seat,
                action: &action,
                number: n,
            };
            for check in EVERY_ACTION {
                check(&step).map_err(after)?;
            }
            if self.views {
                check_views(&state).map_err(after)?;
                check_log_names(b, &state).map_err(after)?;
            }
            for check in &self.checks {
                check(&step).map_err(after)?;
            }
            n += 1;
        }
        if self.views {
            check_views(&state).map_err(|e| format!("at the end: {e}"))?;
        }
        let outcome = game.outcome(&state).map_err(|e| e.to_string())?;
        let end = GameEnd::Over {
            length: n,
            winners: outcome
                .winners
                .iter()
                .map(|&s| state.seat_name(s).to_string())
                .collect(),
            reason: outcome.reason,
        };
        Ok((end, state.seats))
    }
}

/// How one game stopped.
enum GameEnd {
    /// Nobody left to decide, after `length` actions.
    Over {
        length: usize,
        winners: Vec<String>,
        reason: String,
    },
    /// Still going at the length cap.
    Cut,
}

/// What a batch of random playouts did, for the caller to assert on: a game that breaks
/// (never ends, ends too late, always ends the same way) shows here.
#[derive(Debug, Default)]
pub struct PlayoutStats {
    /// The game's seats (the same in every game of a batch).
    pub seats: Vec<String>,
    pub games: usize,
    /// Games cut at the length cap, still going.
    pub cut: usize,
    /// Actions played in the games that ended.
    pub actions: usize,
    /// The shortest and longest games that ended, in actions.
    pub min_length: usize,
    pub max_length: usize,
    /// Games won, per seat name (several seats may win one game).
    pub wins: BTreeMap<String, usize>,
    /// Games that ended, by how many seats won them (0: nobody, a draw or a shared loss).
    pub winner_counts: BTreeMap<usize, usize>,
    /// Games that ended, by the reason the rules gave (`g.end_game`; "" when the game ended
    /// because nobody could act).
    pub endings: BTreeMap<String, usize>,
    /// What the near misses tried now and then did.
    pub near_misses: NearMisses,
}

impl PlayoutStats {
    fn add(&mut self, end: &GameEnd) {
        self.games += 1;
        let GameEnd::Over {
            length,
            winners,
            reason,
        } = end
        else {
            self.cut += 1;
            return;
        };
        let first = self.games == self.cut + 1;
        self.min_length = if first {
            *length
        } else {
            self.min_length.min(*length)
        };
        self.max_length = self.max_length.max(*length);
        self.actions += length;
        for w in winners {
            *self.wins.entry(w.clone()).or_default() += 1;
        }
        *self.winner_counts.entry(winners.len()).or_default() += 1;
        *self.endings.entry(reason.clone()).or_default() += 1;
    }

    /// Games that ended (not cut at the length cap).
    pub fn ended(&self) -> usize {
        self.games - self.cut
    }

    /// Every game ended within the length cap (`Playouts::max_length`).
    pub fn assert_all_end(&self) -> &Self {
        assert!(
            self.games > 0 && self.cut == 0,
            "{} of {} games still going at the length cap: {self:?}",
            self.cut,
            self.games
        );
        self
    }

    /// Every game that ended has exactly `n` winners.
    pub fn assert_winners_each(&self, n: usize) -> &Self {
        let all = BTreeMap::from([(n, self.ended())]);
        assert_eq!(self.winner_counts, all, "{n} winner(s) a game: {self:?}");
        self
    }

    /// Every game that ended gave one of `reasons` (`g.end_game`'s): none ended without a
    /// reason, by nobody being able to act.
    pub fn assert_endings_among(&self, reasons: &[&str]) -> &Self {
        for reason in self.endings.keys() {
            assert!(
                reasons.contains(&reason.as_str()),
                "a game ended with reason {reason:?}, not one of {reasons:?}: {self:?}"
            );
        }
        self
    }

    /// Every seat wins at least one game: random play reaches every seat's way to win.
    pub fn assert_every_seat_wins(&self) -> &Self {
        for seat in &self.seats {
            assert!(self.wins.contains_key(seat), "{seat} never wins: {self:?}");
        }
        self
    }
}

/// The deep points of one playout: how often, the match that checks undo and redo, and the
/// tally of near misses.
struct Deep<'a> {
    every: usize,
    checker: &'a mut Match,
    near_misses: &'a mut NearMisses,
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
