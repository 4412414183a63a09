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
//!
//! A table's [`fork`](Table::fork) is a second table on the same thread, sharing the
//! compiled rules: a copy made in microseconds, for a search that tries many lines of play.

mod bot_choice;
mod error;
mod not_deciding;
mod options;
mod returns;
mod seat;
mod view;

pub use error::TableError;
pub use seat::Seat;
pub use view::{Decision, Hint, HintMove, Outcome, Status, View};

pub use crate::log::Played;

use crate::bots::{self, catch_panic, Bot, BotEnv, BotSpec};
use crate::game::{Decisions, Game, GameSource, PlayError, Setup};
use crate::log::{Checkpoint, Match, ReloadReport, SaveFile};
use crate::primitives::rng;
use crate::script::{excerpt_in_message, SCRIPT_STACK_SIZE};
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::{self, JoinHandle};

/// One running game: its rules, its state and history (undo, save), and the bots asked to
/// play in it. See the module's notes.
pub struct Table {
    /// This table among the games its thread holds (itself and its forks).
    id: u64,
    jobs: Option<mpsc::Sender<Job>>,
    worker: Arc<Worker>,
    game: String,
    seats: Vec<String>,
    /// Stops a bot's search (`stop_flag`).
    stop: Arc<AtomicBool>,
    next_mark: AtomicU64,
}

/// A point to come back to (`Table::mark`); forgotten by the table when dropped.
pub struct Mark {
    table: u64,
    id: u64,
    jobs: Option<mpsc::Sender<Job>>,
}

impl Drop for Mark {
    fn drop(&mut self) {
        let (table, id) = (self.table, self.id);
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Box::new(move |host: &mut Host| {
                if let Some(t) = host.get_mut(&table) {
                    t.marks.remove(&id);
                }
            }));
        }
    }
}

/// The thread a table and its forks run on, joined when the last of them is dropped.
struct Worker(Option<JoinHandle<()>>);

impl Drop for Worker {
    /// Every table's job queue is closed by now, so the thread ends once its current call
    /// is done.
    fn drop(&mut self) {
        if let Some(worker) = self.0.take() {
            let _ = worker.join();
        }
    }
}

/// What a table's thread holds: the games of the table and its forks, by table id.
type Host = HashMap<u64, Seated>;

/// Table ids, unique in the process (a fork's game sits beside its table's).
static NEXT_TABLE: AtomicU64 = AtomicU64::new(0);

/// One game on a table's thread.
struct Seated {
    m: Match,
    source: Arc<GameSource>,
    /// Bots by seat and spec, kept between moves (their search trees carry over).
    bots: BTreeMap<(usize, String), Box<dyn Bot>>,
    /// The game as it was at each live `Mark`, with the rules' generation then.
    marks: BTreeMap<u64, (Checkpoint, u64)>,
    /// How many times the rules were replaced (`reload`).
    generation: u64,
    /// The rules the last `reload` replaced, for a `rewind` to a mark taken before it.
    replaced: Option<(Rc<Game>, Arc<GameSource>)>,
    /// Who decides now and their legal actions, listed on first need and forgotten at any
    /// change (`Seated::changed`): a caller that asks who decides, then a seat's options,
    /// then plays one (a step through the bindings) has the script list them once.
    now: OnceCell<Decisions>,
    /// A position drawn for a seat (`fork_seen_by`), not played from its setup: it has no
    /// save and cannot be replayed.
    drawn: bool,
}

/// Why a drawn position refuses a call that replays the game from its setup.
fn drawn_refusal(what: &str) -> TableError {
    TableError::Rules(format!(
        "this game's position was drawn for a seat (`fork_seen_by`), not played from its \
         setup: it has no {what}"
    ))
}

type Job = Box<dyn FnOnce(&mut Host) + Send>;

impl Table {
    /// Starts a game of `source` set up as `setup` (seats, seed, options, position) on a
    /// thread of its own.
    pub fn new(source: &GameSource, setup: Setup) -> Result<Table, TableError> {
        let source = Arc::new(source.clone());
        let game = source.spec().id.clone();
        let id = NEXT_TABLE.fetch_add(1, Ordering::Relaxed);
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (ready, started) = mpsc::channel();
        let worker = thread::Builder::new()
            .name(format!("table {game}"))
            .stack_size(SCRIPT_STACK_SIZE)
            .spawn(move || {
                let opened = catch_panic(|| -> Result<Match, TableError> {
                    let rules = source
                        .compile()
                        .map_err(|e| TableError::from_script(&e, Some(&[])))?;
                    match Match::new(rules, setup) {
                        Ok(m) => Ok(m),
                        Err(PlayError::Script(e)) => {
                            let sources = source.sources();
                            Err(TableError::from_script(&e, Some(sources)))
                        }
                        Err(e) => Err(e.into()),
                    }
                });
                let m = match opened.unwrap_or_else(|panic| Err(TableError::Stopped(panic))) {
                    Ok(m) => m,
                    Err(e) => return drop(ready.send(Err(e))),
                };
                if ready.send(Ok(m.state.seats.to_vec())).is_err() {
                    return;
                }
                let mut host = Host::new();
                host.insert(id, Seated::new(m, source));
                for job in inbox {
                    job(&mut host);
                }
            })
            .map_err(|e| TableError::Stopped(format!("no thread for the table: {e}")))?;
        let seats = started
            .recv()
            .map_err(|_| TableError::Stopped("the table's thread ended".into()))??;
        Ok(Table {
            id,
            jobs: Some(jobs),
            worker: Arc::new(Worker(Some(worker))),
            game: game.to_string(),
            seats,
            stop: Arc::default(),
            next_mark: AtomicU64::new(0),
        })
    }

    /// A new table whose game is a copy of this one's as it is now, made on this table's
    /// thread from the live game: the same rules (shared, not compiled again, so the same
    /// limits), the state with every hidden card, deck order and the RNG (so the two go on
    /// alike given the same actions), and the history: the fork's `actions` and `save` hold
    /// what was played before it, and its `undo` takes those back too. Later calls on one
    /// never change the other. Not copied: the bots kept for seats (the fork makes its own
    /// when asked, seeded as this table's first were), marks, the rules a `reload` replaced,
    /// the stop flag.
    ///
    /// The fork runs on this table's thread, so calls on the two take turns: for games that
    /// should run in parallel, start a new `Table` and `load` a `save` into it instead.
    pub fn fork(&self) -> Result<Table, TableError> {
        self.fork_with(|t| Ok(t.fork()))
    }

    /// A fork whose hidden information is drawn anew, as `seat` could believe it: what its
    /// view does not show (other seats' hidden cards, a deck's order, secrets, bags) dealt at
    /// random among what the view allows, seeded by `seed`, with a fresh RNG. It is made
    /// from the seat's view alone, as the engine's bots sample their worlds, so nothing the
    /// seat cannot see leaks into it: an information-set search (OpenSpiel's IS-MCTS) plays
    /// on such forks. The fork has no history (nothing to undo), and its `save` and `reload`
    /// are refused: a drawn position does not replay from a setup (a `load` or
    /// `set_position` makes it a played game again).
    pub fn fork_seen_by(&self, seat: Seat, seed: u64) -> Result<Table, TableError> {
        let seat = self.seat_at(seat.index())?;
        self.fork_with(move |t| {
            let view = bots::SeatView::of(&t.m.state, seat.index());
            let state = bots::sample::determinize(&t.m.game, &view, &mut rng::seeded(seed))
                .map_err(|e| TableError::Bot(e.to_string()))?;
            let mut drawn = Seated::new(t.m.from_drawn(state, seed), t.source.clone());
            drawn.drawn = true;
            Ok(drawn)
        })
    }

    /// A new table beside this one on its thread, holding what `copy` makes of this one's
    /// game.
    fn fork_with(
        &self,
        copy: impl FnOnce(&Seated) -> Result<Seated, TableError> + Send + 'static,
    ) -> Result<Table, TableError> {
        let (from, id) = (self.id, NEXT_TABLE.fetch_add(1, Ordering::Relaxed));
        self.on_thread(move |host| {
            let copy = copy(host.get(&from).ok_or_else(gone)?)?;
            host.insert(id, copy);
            Ok(())
        })?;
        Ok(Table {
            id,
            jobs: self.jobs.clone(),
            worker: self.worker.clone(),
            game: self.game.clone(),
            seats: self.seats.clone(),
            stop: Arc::default(),
            next_mark: AtomicU64::new(0),
        })
    }

    /// The game's id (its folder name; `game/variant` for a variant).
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
        self.call(|t| Ok(t.decisions()?.seats.iter().map(|(s, _)| Seat(*s)).collect()))
    }

    /// What `seat` has to decide now: its options (none if it is not deciding), its prompt.
    /// More options than the game's `[actions] max` is a fault of its rules (`Rules`): a
    /// caller sizing an action space by that bound would drop some.
    pub fn decision(&self, seat: Seat) -> Result<Decision, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| {
            let options = t.options(seat)?;
            let typed = t.m.game.typed_actions(&t.m.state, seat.0, &options);
            Ok(Decision {
                seat,
                prompt: t.m.state.agenda.prompt_for(seat.0).map(str::to_string),
                typed,
                options,
                deciding: t.decisions()?.seats.iter().map(|(s, _)| Seat(*s)).collect(),
            })
        })
    }

    /// `seat` plays `action` (its notation, as listed in its options or as typed: `d4`,
    /// `move 3`). Returns the action as the game logged it.
    pub fn apply(&self, seat: Seat, action: &str) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        let action = action.to_string();
        self.call_step(move |t| {
            let name = t.m.state.seat_name(seat.0).to_string();
            let decisions = t.take_decisions()?;
            Ok(t.m.play_decided(&decisions, Some(&name), &action)?.action)
        })
    }

    /// `apply` for a caller that may act for any seat (a referee, a shared screen): `seat`
    /// None plays for the one seat deciding now (refused when several decide). Returns who
    /// played and the action as logged.
    pub fn play(&self, seat: Option<Seat>, action: &str) -> Result<Played, TableError> {
        let seat = seat.map(|s| self.checked(s)).transpose()?;
        let action = action.to_string();
        self.call_step(move |t| {
            let name = seat.map(|s| t.m.state.seat_name(s.0).to_string());
            let decisions = t.take_decisions()?;
            Ok(t.m.play_decided(&decisions, name.as_deref(), &action)?)
        })
    }

    /// For a referee or a shared screen only, never for a seat: every deciding seat with its
    /// options, in the game's order.
    pub fn decisions(&self) -> Result<Vec<Decision>, TableError> {
        self.call(|t| {
            let d = t.decisions()?;
            let deciding: Vec<Seat> = d.seats.iter().map(|(s, _)| Seat(*s)).collect();
            Ok(d.seats
                .iter()
                .map(|&(s, ref legal)| Decision {
                    seat: Seat(s),
                    prompt: t.m.state.agenda.prompt_for(s).map(str::to_string),
                    // Each seat's options typed from its own view.
                    typed: t.m.game.typed_actions(&t.m.state, s, legal),
                    options: legal.iter().map(|a| a.to_string()).collect(),
                    deciding: deciding.clone(),
                })
                .collect())
        })
    }

    /// The actions played so far, oldest first.
    pub fn actions(&self) -> Result<Vec<Played>, TableError> {
        self.call(|t| Ok(t.m.actions().to_vec()))
    }

    /// How the game was set up (seats, seed, options, position). The seed decides every
    /// hidden card: a seat must not be told it.
    pub fn setup(&self) -> Result<Setup, TableError> {
        self.call(|t| Ok(t.m.setup.clone()))
    }

    /// Whether a typed word starts an action of this game as declared (`verbs` in its
    /// manifest) or is written as a grid cell in a game with a grid (`d4`).
    pub fn reads_as_action(&self, word: &str) -> Result<bool, TableError> {
        let word = word.to_string();
        self.call(move |t| {
            Ok(t.m.game.spec.verbs.contains(&word)
                || (!t.m.state.grids.is_empty()
                    && crate::primitives::grid::Grid::is_cell_shaped(&word)))
        })
    }

    /// The first word of each action played so far, each once: what a caller needs to tell
    /// an action from a command, without copying the log ([`Table::actions`]).
    pub fn played_verbs(&self) -> Result<BTreeSet<String>, TableError> {
        self.call(|t| {
            let mut verbs = BTreeSet::new();
            for p in t.m.actions() {
                match p.action.split_whitespace().next() {
                    Some(w) if !verbs.contains(w) => {
                        verbs.insert(w.to_string());
                    }
                    _ => {}
                }
            }
            Ok(verbs)
        })
    }

    /// Marks the game as it is now (state, history, setup), for [`Table::rewind`]: a caller
    /// that carries out several calls as one command puts everything back if one fails.
    pub fn mark(&self) -> Result<Mark, TableError> {
        let id = self.next_mark.fetch_add(1, Ordering::Relaxed);
        self.call(move |t| {
            t.marks.insert(id, (t.m.checkpoint(), t.generation));
            Ok(())
        })?;
        Ok(Mark {
            table: self.id,
            id,
            jobs: self.jobs.clone(),
        })
    }

    /// Puts the game back as it was at `mark` (bots kept on the table are forgotten).
    pub fn rewind(&self, mark: &Mark) -> Result<(), TableError> {
        let id = mark.id;
        self.call(move |t| {
            let (c, generation) = t.marks.get(&id).cloned().ok_or_else(|| {
                TableError::Stopped("a mark of another table, or one already forgotten".into())
            })?;
            // Rules reloaded since the mark go back too (those of the last reload).
            if generation != t.generation {
                if let Some((rules, source)) = t.replaced.take() {
                    t.m.game = rules;
                    t.source = source;
                    t.generation = generation;
                }
            }
            t.m.restore(c);
            t.changed();
            t.bots.clear();
            Ok(())
        })
    }

    /// `seat`'s view of the game.
    pub fn view(&self, seat: Seat) -> Result<View, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| Ok(View::of(&t.m.state, Some(seat))))
    }

    /// What a spectator sees: no seat's hidden cards.
    pub fn spectator_view(&self) -> Result<View, TableError> {
        self.view_as(None)
    }

    /// `view` of `seat`, or a spectator's for None.
    pub fn view_as(&self, seat: Option<Seat>) -> Result<View, TableError> {
        let seat = seat.map(|s| self.checked(s)).transpose()?;
        self.call(move |t| Ok(View::of(&t.m.state, seat)))
    }

    /// The game drawn as text for `seat` (None: a spectator), by the game's `render`.
    pub fn render(&self, seat: Option<Seat>) -> Result<String, TableError> {
        let seat = seat.map(|s| self.checked(s)).transpose()?;
        self.call(move |t| Ok(t.m.game.render(&t.m.state, seat.map(Seat::index))?))
    }

    /// How the game ended; None while it goes on.
    pub fn outcome(&self) -> Result<Option<Outcome>, TableError> {
        self.call(|t| t.outcome())
    }

    /// The public facts of the moment: who decides, the question asked, seats out, teams,
    /// actions played, and the outcome once over.
    pub fn status(&self) -> Result<Status, TableError> {
        self.call(|t| {
            let st = &t.m.state;
            let deciding = t.decisions()?.seats.iter().map(|(s, _)| Seat(*s)).collect();
            let question = st
                .agenda
                .question()
                .map(|q| q.prompt.clone())
                .filter(|p| !p.is_empty());
            Ok(Status {
                deciding,
                question,
                out: st.turn.out.iter().map(|&s| Seat(s)).collect(),
                teams: st
                    .teams
                    .iter()
                    .map(|team| team.iter().map(|&s| Seat(s)).collect())
                    .collect(),
                actions: t.m.actions().len(),
                outcome: t.outcome()?,
            })
        })
    }

    /// Takes back the last `n` actions (fewer if fewer were played); returns how many.
    pub fn undo(&self, n: usize) -> Result<usize, TableError> {
        self.call_mut(move |t| {
            t.bots.clear();
            Ok(t.m.undo(n))
        })
    }

    /// The game so far as a save file: the setup and every action.
    pub fn save(&self) -> Result<SaveFile, TableError> {
        self.call(|t| match t.drawn {
            true => Err(drawn_refusal("save")),
            false => Ok(t.m.save()),
        })
    }

    /// Replaces the game by a saved one of the same game, replayed action by action. Refused
    /// (the table unchanged) if the save does not replay.
    pub fn load(&self, save: SaveFile) -> Result<(), TableError> {
        self.call_mut(move |t| {
            let id = &t.m.game.spec.id;
            if save.game != *id {
                return Err(TableError::Rules(format!(
                    "this save is for game `{}`, not `{id}`",
                    crate::text::excerpt(&save.game),
                )));
            }
            t.m.load(&save)?;
            t.bots.clear();
            t.drawn = false;
            Ok(())
        })
    }

    /// Has the bot `bot` (`random`, `mcts:iters=500`, `greedy`) play `seat`'s decision, from
    /// that seat's view only; returns the action played. The bot is kept for the seat's later
    /// moves (an MCTS keeps its tree), seeded from the game's seed and the seat.
    pub fn play_bot(&self, seat: Seat, bot: &str) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        let spec = BotSpec::parse(bot).map_err(TableError::Bot)?;
        let stop = self.stop.clone();
        self.call_mut(move |t| {
            let decisions = t.take_decisions()?;
            not_deciding::check(&t.m.state, &decisions, seat)?;
            let key = (seat.0, bot_key(&spec));
            if !t.bots.contains_key(&key) {
                let made = t.make_bot(&spec, seat, stop)?;
                t.bots.insert(key.clone(), made);
            }
            let bot = t.bots.get_mut(&key).expect("made above");
            let action = bot_action(&t.m, bot.as_mut(), &decisions, seat)?;
            let name = t.m.state.seat_name(seat.0).to_string();
            Ok(t.m.play_decided(&decisions, Some(&name), &action)?.action)
        })
    }

    /// Plays again the last `n` actions taken back (fewer if fewer were); returns how many.
    pub fn redo(&self, n: usize) -> Result<usize, TableError> {
        self.call_mut(move |t| {
            t.bots.clear();
            Ok(t.m.redo(n))
        })
    }

    /// Starts again from a position text (the game's own notation, read by its `position`
    /// function), keeping the seed and options; the history is forgotten.
    pub fn set_position(&self, text: &str) -> Result<(), TableError> {
        let text = text.to_string();
        self.call_mut(move |t| {
            t.m.set_position(&text)?;
            t.bots.clear();
            t.drawn = false;
            Ok(())
        })
    }

    /// Swaps in new rules (the same game edited: `source` read again) and replays the game
    /// on them up to the first action they refuse (kept aside for the next reload). If the
    /// new rules do not compile or cannot set the game up, nothing changes.
    pub fn reload(&self, source: &GameSource) -> Result<ReloadReport, TableError> {
        let source = Arc::new(source.clone());
        self.call_mut(move |t| {
            if t.drawn {
                return Err(drawn_refusal("history to replay on new rules"));
            }
            let rules = source
                .compile()
                .map_err(|e| TableError::from_script(&e, Some(&[])))?;
            let (report, old) = t.m.swap_rules(rules).map_err(|e| match e {
                PlayError::Script(e) => TableError::from_script(&e, Some(source.sources())),
                e => e.into(),
            })?;
            let old_source = std::mem::replace(&mut t.source, source);
            t.replaced = Some((old, old_source));
            t.generation += 1;
            t.bots.clear();
            Ok(report)
        })
    }

    /// Whether `seat` holds a simultaneous choice not yet revealed (public: that it chose,
    /// not what).
    pub fn has_chosen(&self, seat: Seat) -> Result<bool, TableError> {
        let seat = self.checked(seat)?;
        self.call(move |t| Ok(t.m.state.has_chosen(seat.0)))
    }

    /// The bot `bot`'s reading of `seat`'s decision, best first, from that seat's view only
    /// (a bot made for this reading alone: the seat's own bot is not disturbed).
    pub fn hint(&self, seat: Seat, bot: &str) -> Result<Hint, TableError> {
        let seat = self.checked(seat)?;
        let spec = BotSpec::parse(bot).map_err(TableError::Bot)?;
        let stop = self.stop.clone();
        self.call(move |t| {
            let decisions = t.decisions()?;
            let mut bot = t.make_bot(&spec, seat, stop)?;
            let a = bots::analyse_for(bot.as_mut(), &t.m.game, &t.m.state, decisions, seat.0)?;
            Ok(Hint {
                moves: a
                    .moves
                    .into_iter()
                    .map(|m| HintMove {
                        action: m.action.to_string(),
                        visits: m.visits,
                        value: m.value,
                    })
                    .collect(),
                iterations: a.iterations,
            })
        })
    }

    /// A flag that, set from any thread, stops the search of a bot playing or reading on
    /// this table (`play_bot`, `hint`): it then plays the best move found so far. Cleared
    /// by the caller.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Uses `flag` as the table's stop flag (`stop_flag`), one the caller already watches
    /// (a Ctrl-C handler).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// For a referee or a debugger only, never for a seat: the whole state as JSON, hidden
    /// cards, deck order and RNG included.
    pub fn referee_json(&self) -> Result<serde_json::Value, TableError> {
        self.call(|t| Ok(t.m.state.to_json()))
    }

    /// For a referee or a debugger only, never for a seat: a Rhai expression evaluated on the
    /// whole state (`g.counter("round")`), read-only.
    pub fn eval(&self, expr: &str) -> Result<String, TableError> {
        let expr = expr.to_string();
        self.call(move |t| Ok(t.m.game.eval(&t.m.state, &expr)?))
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

    /// Runs `f` on the table's thread and waits for its answer: a call that reads.
    fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seated) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        self.run(Change::None, f)
    }

    /// `call` for a call that changes the game: if it fails, or panics (an engine bug), the
    /// game is put back as it was before the call. (Reads need no such copy: a long game's
    /// history makes it cost.)
    fn call_mut<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seated) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        self.run(Change::Any, f)
    }

    /// `call_mut` for a call that plays one action through `Match`, which changes nothing
    /// when it fails: no copy of the game (and its history) is taken first.
    fn call_step<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seated) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        self.run(Change::Step, f)
    }

    fn run<R: Send + 'static>(
        &self,
        change: Change,
        f: impl FnOnce(&mut Seated) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        let id = self.id;
        self.on_thread(move |host| {
            let t = host.get_mut(&id).ok_or_else(gone)?;
            let before = (change == Change::Any).then(|| t.m.checkpoint());
            let mut result = catch_panic(|| f(t)).unwrap_or_else(|p| Err(TableError::Stopped(p)));
            if change != Change::None {
                t.changed();
            }
            // A script's error shows its line from the rules that ran.
            if let Err(TableError::Script {
                message, excerpt, ..
            }) = &mut result
            {
                if excerpt.is_none() {
                    *excerpt = excerpt_in_message(message, t.m.game.rules().sources());
                }
            }
            if let (Err(_), Some(before)) = (&result, before) {
                t.m.restore(before);
            }
            result
        })
    }

    /// Runs `f` on the table's thread, over all the games it holds, and waits for its
    /// answer; a panic in `f` is an error.
    fn on_thread<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host) -> Result<R, TableError> + Send + 'static,
    ) -> Result<R, TableError> {
        let (answer, reply) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |host: &mut Host| {
            let result = catch_panic(|| f(host)).unwrap_or_else(|p| Err(TableError::Stopped(p)));
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

/// What a call on a table may change (see `Table::run`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    None,
    /// Plays one action, all or nothing.
    Step,
    Any,
}

/// The error for a table whose game its thread no longer holds (it cannot happen while the
/// table lives: its game goes only when it is dropped).
fn gone() -> TableError {
    TableError::Stopped("the table's game is gone from its thread".into())
}

impl Seated {
    fn new(m: Match, source: Arc<GameSource>) -> Seated {
        Seated {
            m,
            source,
            bots: BTreeMap::new(),
            marks: BTreeMap::new(),
            generation: 0,
            replaced: None,
            now: OnceCell::new(),
            drawn: false,
        }
    }

    /// Who decides now and their legal actions (kept until the game changes).
    fn decisions(&self) -> Result<&Decisions, TableError> {
        if let Some(d) = self.now.get() {
            return Ok(d);
        }
        let d = self.m.game.decisions(&self.m.state)?;
        Ok(self.now.get_or_init(|| d))
    }

    /// `decisions`, taken from the table for a call about to change the game.
    fn take_decisions(&mut self) -> Result<Decisions, TableError> {
        match self.now.take() {
            Some(d) => Ok(d),
            None => Ok(self.m.game.decisions(&self.m.state)?),
        }
    }

    /// Forgets what was known of the game as it was: called after every call that may
    /// have changed it.
    fn changed(&mut self) {
        self.now = OnceCell::new();
    }

    /// `seat`'s legal actions now, as text; more than the game's `[actions] max` is a fault
    /// of its rules (`Rules`): a caller sizing an action space by that bound would drop some.
    fn options(&self, seat: Seat) -> Result<Vec<String>, TableError> {
        let decisions = self.decisions()?;
        let listed = decisions.seats.iter().find(|(s, _)| *s == seat.0);
        let options: Vec<String> = listed.map_or(vec![], |(_, legal)| {
            legal.iter().map(|a| a.to_string()).collect()
        });
        if let Some(max) = self.m.game.spec.max_actions {
            if options.len() > max {
                return Err(TableError::Rules(format!(
                    "{} has {} legal actions, more than the game's `[actions] max = {max}`",
                    self.m.state.seat_name(seat.0),
                    options.len()
                )));
            }
        }
        Ok(options)
    }

    /// A copy of this game for a fork (see `Table::fork`).
    fn fork(&self) -> Seated {
        Seated {
            drawn: self.drawn,
            ..Seated::new(self.m.fork(), self.source.clone())
        }
    }

    fn outcome(&self) -> Result<Option<Outcome>, TableError> {
        if !self.decisions()?.seats.is_empty() {
            return Ok(None);
        }
        let o = self.m.game.outcome(&self.m.state)?;
        Ok(Some(Outcome {
            winners: o.winners.iter().map(|&s| Seat(s)).collect(),
            text: o.describe(&self.m.state.seats),
            reason: o.reason,
            winning_teams: self.m.game.winning_teams(&self.m.state)?,
        }))
    }

    /// A new bot `spec` for `seat`, seeded from the game's seed and the seat.
    fn make_bot(
        &self,
        spec: &BotSpec,
        seat: Seat,
        stop: Arc<AtomicBool>,
    ) -> Result<Box<dyn Bot>, TableError> {
        let env = BotEnv {
            source: Some(self.source.clone()),
            seed: rng::derive_seed(self.m.setup.seed, seat.0 as u64),
            stop,
        };
        bots::make(spec, &env).map_err(TableError::Bot)
    }
}

/// The action `bot` chooses for `seat` among its legal actions in `decisions`, from the
/// seat's view only.
fn bot_action(
    m: &Match,
    bot: &mut dyn Bot,
    decisions: &Decisions,
    seat: Seat,
) -> Result<String, TableError> {
    let i = bots::choose_for(bot, &m.game, &m.state, decisions, seat.0)?;
    let legal = decisions.seats.iter().find(|(s, _)| *s == seat.0);
    Ok(legal.map(|(_, l)| l[i].to_string()).unwrap_or_default())
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
    /// Drops this table's game from its thread and closes its job queue. The last of a
    /// table and its forks to go ends the thread (see `Worker`), once its current call is
    /// done, and waits for it.
    fn drop(&mut self) {
        let id = self.id;
        if let Some(jobs) = self.jobs.take() {
            let _ = jobs.send(Box::new(move |host: &mut Host| {
                host.remove(&id);
            }));
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
