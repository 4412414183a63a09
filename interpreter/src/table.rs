//! The facade: a game held as a `Table`, the one type an embedder (a server, bindings for
//! another language, a bot in another program) needs to run games.
//!
//! A [`GameSource`] is a game read from its folder, plain data shared by any number of
//! threads. A [`Table`] is one running game: it owns a thread of its own, with the stack the
//! scripts need, on which it compiles the rules and keeps the game; every call is carried
//! out there and answered. So a `Table` is `Send` and `Sync`, any thread or task may hold
//! one, and no caller has to know how deep a script may recurse.
//!
//! What a table says to a seat is made for that seat: a [`View`] is built from the seat's
//! redacted view, a [`Decision`] lists the seat's own options, and an error lists only the
//! options of the seat that tried the action. Seats are [`Seat`]s, checked when made and at
//! each call: a seat the game does not have is an error, never a panic. A refused call
//! changes nothing.

mod error;
mod seat;
mod view;

pub use error::TableError;
pub use seat::Seat;
pub use view::{Decision, Outcome, View};

use crate::bots::{self, catch_panic, Bot, BotEnv, BotSpec};
use crate::game::{GameSource, Setup};
use crate::log::{Match, SaveFile};
use crate::primitives::rng;
use crate::script::SCRIPT_STACK_SIZE;
use std::collections::BTreeMap;
use std::sync::{mpsc, Arc};
use std::thread::{self, JoinHandle};

/// One running game: its rules, its state and history (undo, save), and the bots asked to
/// play in it. See the module's notes.
pub struct Table {
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    game: String,
    seats: Vec<String>,
}

/// What lives on a table's thread.
struct Seated {
    m: Match,
    source: Arc<GameSource>,
    /// Bots by seat and spec, kept between moves (their search trees carry over).
    bots: BTreeMap<(usize, String), Box<dyn Bot>>,
}

type Job = Box<dyn FnOnce(&mut Seated) + Send>;

impl Table {
    /// Starts a game of `source` set up as `setup` (seats, seed, options, position) on a
    /// thread of its own.
    pub fn new(source: &GameSource, setup: Setup) -> Result<Table, TableError> {
        let source = Arc::new(source.clone());
        let game = source.spec().id.clone();
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (ready, started) = mpsc::channel();
        let worker = thread::Builder::new()
            .name(format!("table {game}"))
            .stack_size(SCRIPT_STACK_SIZE)
            .spawn(move || {
                let opened = catch_panic(|| -> Result<Match, TableError> {
                    let rules = source
                        .compile()
                        .map_err(|e| TableError::Rules(e.to_string()))?;
                    Ok(Match::new(rules, setup)?)
                });
                let m = match opened.unwrap_or_else(|panic| Err(TableError::Stopped(panic))) {
                    Ok(m) => m,
                    Err(e) => return drop(ready.send(Err(e))),
                };
                if ready.send(Ok(m.state.seats.to_vec())).is_err() {
                    return;
                }
                let mut seated = Seated {
                    m,
                    source,
                    bots: BTreeMap::new(),
                };
                for job in inbox {
                    job(&mut seated);
                }
            })
            .map_err(|e| TableError::Stopped(format!("no thread for the table: {e}")))?;
        let seats = started
            .recv()
            .map_err(|_| TableError::Stopped("the table's thread ended".into()))??;
        Ok(Table {
            jobs: Some(jobs),
            worker: Some(worker),
            game: game.to_string(),
            seats,
        })
    }

    /// The game's id (`connect-four`, `virus-wars/blitz`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The seats' names, in turn order.
    pub fn seat_names(&self) -> &[String] {
        &self.seats
    }

    /// Every seat, in turn order.
    pub fn seats(&self) -> Vec<Seat> {
        (0..self.seats.len()).map(Seat).collect()
    }

    /// The seat called `name`.
    pub fn seat(&self, name: &str) -> Result<Seat, TableError> {
        match self.seats.iter().position(|s| s == name) {
            Some(i) => Ok(Seat(i)),
            None => Err(TableError::NoSeatNamed {
                name: crate::text::excerpt(name),
                seats: self.seats.join(", "),
            }),
        }
    }

    /// The seat at `index` in turn order (0 first).
    pub fn seat_at(&self, index: usize) -> Result<Seat, TableError> {
        self.checked(Seat(index))
    }

    /// A seat's name.
    pub fn name(&self, seat: Seat) -> Result<&str, TableError> {
        Ok(&self.seats[self.checked(seat)?.0])
    }

    /// The seats that must decide now (empty once the game is over). Public: whose turn it is.
    pub fn deciding(&self) -> Result<Vec<Seat>, TableError> {
        self.call(|t| {
            Ok(t.m
                .game
                .deciding(&t.m.state)?
                .into_iter()
                .map(Seat)
                .collect())
        })
    }

    /// What `seat` has to decide now: its options (none if it is not deciding), its prompt.
    pub fn decision(&self, seat: Seat) -> Result<Decision, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| {
            let decisions = t.m.game.decisions(&t.m.state)?;
            let options = decisions
                .seats
                .iter()
                .find(|(s, _)| *s == seat.0)
                .map_or(vec![], |(_, legal)| {
                    legal.iter().map(|a| a.to_string()).collect()
                });
            let typed = t.m.game.typed_actions(&t.m.state, seat.0, &options);
            Ok(Decision {
                seat,
                prompt: t.m.state.agenda.prompt_for(seat.0).map(str::to_string),
                typed,
                options,
                deciding: decisions.seats.iter().map(|(s, _)| Seat(*s)).collect(),
            })
        })
    }

    /// `seat` plays `action` (its notation, as listed in its options or as typed: `d4`,
    /// `move 3`). Returns the action as the game logged it.
    pub fn apply(&self, seat: Seat, action: &str) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        let action = action.to_string();
        self.call(move |t| {
            let name = t.m.state.seat_name(seat.0).to_string();
            let played = t.m.play(Some(&name), &action)?;
            Ok(played.action)
        })
    }

    /// `seat`'s view of the game.
    pub fn view(&self, seat: Seat) -> Result<View, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| Ok(View::of(&t.m.state, Some(seat))))
    }

    /// What a spectator sees: no seat's hidden cards.
    pub fn spectator_view(&self) -> Result<View, TableError> {
        self.call(|t| Ok(View::of(&t.m.state, None)))
    }

    /// The game drawn as text for `seat` (None: a spectator), by the game's `render`.
    pub fn render(&self, seat: Option<Seat>) -> Result<String, TableError> {
        let seat = seat.map(|s| self.checked(s)).transpose()?;
        self.call(move |t| Ok(t.m.game.render(&t.m.state, seat.map(Seat::index))?))
    }

    /// How the game ended; None while it goes on.
    pub fn outcome(&self) -> Result<Option<Outcome>, TableError> {
        self.call(|t| {
            if !t.m.game.is_over(&t.m.state)? {
                return Ok(None);
            }
            let o = t.m.game.outcome(&t.m.state)?;
            Ok(Some(Outcome {
                winners: o.winners.iter().map(|&s| Seat(s)).collect(),
                text: o.describe(&t.m.state.seats),
                reason: o.reason,
            }))
        })
    }

    /// Takes back the last `n` actions (fewer if fewer were played); returns how many.
    pub fn undo(&self, n: usize) -> Result<usize, TableError> {
        self.call(move |t| {
            t.bots.clear();
            Ok(t.m.undo(n))
        })
    }

    /// The game so far as a save file: the setup and every action.
    pub fn save(&self) -> Result<SaveFile, TableError> {
        self.call(|t| Ok(t.m.save()))
    }

    /// Replaces the game by a saved one of the same game, replayed action by action. Refused
    /// (the table unchanged) if the save does not replay.
    pub fn load(&self, save: SaveFile) -> Result<(), TableError> {
        self.call(move |t| {
            if save.game != t.m.save().game {
                return Err(TableError::Rules(format!(
                    "this save is for game `{}`, not `{}`",
                    crate::text::excerpt(&save.game),
                    t.m.save().game
                )));
            }
            t.m.load(&save)?;
            t.bots.clear();
            Ok(())
        })
    }

    /// Has the bot `bot` (`random`, `mcts:iters=500`, `greedy`) play `seat`'s decision, from
    /// that seat's view only; returns the action played. The bot is kept for the seat's later
    /// moves (an MCTS keeps its tree), seeded from the game's seed and the seat.
    pub fn play_bot(&self, seat: Seat, bot: &str) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        let spec = BotSpec::parse(bot).map_err(TableError::Bot)?;
        self.call(move |t| {
            let decisions = t.m.game.decisions(&t.m.state)?;
            if decisions.seats.is_empty() {
                return Err(TableError::Over);
            }
            let key = (seat.0, bot_key(&spec));
            if !t.bots.contains_key(&key) {
                let env = BotEnv {
                    source: Some(t.source.clone()),
                    ..BotEnv::new(rng::derive_seed(t.m.setup.seed, seat.0 as u64))
                };
                let made = bots::make(&spec, &env).map_err(TableError::Bot)?;
                t.bots.insert(key.clone(), made);
            }
            let bot = t.bots.get_mut(&key).expect("made above");
            let i = bots::choose_for(bot.as_mut(), &t.m.game, &t.m.state, &decisions, seat.0)
                .map_err(|e| TableError::Bot(e.to_string()))?;
            let legal = &decisions.seats.iter().find(|(s, _)| *s == seat.0);
            let action = legal.map(|(_, l)| l[i].to_string()).unwrap_or_default();
            let name = t.m.state.seat_name(seat.0).to_string();
            Ok(t.m.play(Some(&name), &action)?.action)
        })
    }

    /// `seat`, if this table has it.
    fn checked(&self, seat: Seat) -> Result<Seat, TableError> {
        match seat.0 < self.seats.len() {
            true => Ok(seat),
            false => Err(TableError::NoSeat {
                index: seat.0,
                seats: self.seats.len(),
            }),
        }
    }

    /// Runs `f` on the table's thread and waits for its answer. A call that fails, or
    /// panics (an engine bug), leaves the game as it was before the call.
    fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seated) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        let (answer, reply) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |t: &mut Seated| {
            let before = t.m.checkpoint();
            let result = catch_panic(|| f(t)).unwrap_or_else(|p| Err(TableError::Stopped(p)));
            if result.is_err() {
                t.m.restore(before);
            }
            let _ = answer.send(result);
        });
        let stopped = || TableError::Stopped("the table's thread ended".into());
        self.jobs
            .as_ref()
            .ok_or_else(stopped)?
            .send(job)
            .map_err(|_| stopped())?;
        reply.recv().map_err(|_| stopped())?
    }
}

/// A bot's identity for keeping it between moves: its name and settings.
fn bot_key(spec: &BotSpec) -> String {
    let settings: Vec<String> = spec
        .params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!("{}:{}", spec.name, settings.join(","))
}

impl Drop for Table {
    /// Closes the job queue, so the thread ends once its current call is done, and waits
    /// for it.
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// A table, a game's source and what a table answers cross threads: a server may hold them
/// in any task.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Table>();
    shared::<GameSource>();
    shared::<View>();
    shared::<Decision>();
    shared::<TableError>();
};
