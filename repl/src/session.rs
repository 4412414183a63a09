//! One game being played: carries out REPL commands and answers each with a reply that has a
//! text form (for people) and a JSON form (for the machine protocol).

use crate::cli::GameArgs;
use crate::files;
use crate::games;
use crate::seat_bots::{Interrupt, SeatBots};
use anyhow::Context;
use boardscript_grammar::{Command, COMMANDS};
use boardscript_interpreter::rng::{self, GameRng};
use boardscript_interpreter::{
    BotSpec, Decision, GameSource, Mark, Played, SaveFile, Seat, Setup, Table, TableError,
};
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A command's answer: what a person reads, and the fields of the JSON reply.
#[derive(Debug, Default)]
pub struct Reply {
    pub text: String,
    pub json: Map<String, Value>,
    pub quit: bool,
}

impl Reply {
    fn text(text: impl Into<String>) -> Reply {
        let text = text.into();
        let mut json = Map::new();
        json.insert("text".into(), Value::String(text.clone()));
        Reply {
            text,
            json,
            quit: false,
        }
    }

    /// Replaces the text, in both forms.
    fn retext(mut self, text: String) -> Reply {
        self.json.insert("text".into(), Value::String(text.clone()));
        self.text = text;
        self
    }

    fn with(mut self, key: &str, value: Value) -> Reply {
        self.json.insert(key.into(), value);
        self
    }
}

/// An error with, for a script's, its place and source line, so the shell can draw a caret
/// under it.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    /// `file:line:column` of a script's error.
    pub at: Option<String>,
    /// The source line and caret, when known where the error arose.
    pub excerpt: Option<String>,
}

impl From<TableError> for Failure {
    fn from(e: TableError) -> Failure {
        match e {
            TableError::Script {
                message,
                at,
                excerpt,
            } => Failure {
                message,
                at,
                excerpt,
            },
            other => Failure::from(other.to_string()),
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            message,
            at: None,
            excerpt: None,
        }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::from(message.to_string())
    }
}

pub type Outcome = Result<Reply, Failure>;

/// `bot n` lists the actions it plays up to this many (a screen); more are summed up, unless
/// `-v` asks for them all.
const BOT_ACTIONS_LISTED: usize = 10;

/// A bound on the bot's actions between two decisions of a seat-restricted client.
const OTHERS_MAX_ACTIONS: usize = 100_000;

/// The bot `hint` asks when none is named.
const HINT_BOT: &str = "mcts:iters=1000";

/// The most moves `hint` lists.
const HINT_MOVES: usize = 5;

/// How a bot's held simultaneous choice is reported: not what it chose.
const HELD: &str = "(chosen; held until every deciding seat has chosen)";

pub struct Session {
    /// The game, on its own thread (the library's facade: all the session knows of it).
    pub t: Table,
    /// The rules as read (title, id, declared files), for the prompt and the watcher.
    pub source: GameSource,
    /// The seats' names, in turn order.
    seats: Vec<String>,
    pub args: GameArgs,
    bot_rng: GameRng,
    /// The one seat this client plays and sees (`--seat`); `None`: every seat (god mode).
    pub seat: Option<Seat>,
    /// The numbered list `actions` last showed, as `(seat, action)`: what `<n>` picks from.
    shown: Option<Vec<(String, String)>>,
    /// First words of the actions listed so far, to know a bare action from a typo.
    verbs: RefCell<BTreeSet<String>>,
    /// The game as last saved or loaded (or as it started): `load` refuses to replace
    /// actions that are not in it.
    kept: (Setup, Vec<Played>),
    /// The log lines this client's seat read before its first decision: the bots' first
    /// actions (`--seat`), or what the seats `--bot` plays played first, shown as the game
    /// starts.
    pub opening: Vec<String>,
    /// The seats' bots (`--bot`), kept between their moves.
    bots: SeatBots,
}

/// Everything a command may change, taken before it runs and put back if it fails.
pub struct Checkpoint {
    m: Mark,
    bot_rng: GameRng,
}

/// Commands that show or change what a seat-restricted client may not see or do.
fn god_mode_only(cmd: &Command) -> Option<&'static str> {
    Some(match cmd {
        Command::State => "state",
        Command::Eval(_) => "eval",
        Command::Save { .. } => "save",
        Command::Load { .. } => "load",
        Command::Position(_) => "position",
        Command::Reload => "reload",
        Command::Undo(_) => "undo",
        Command::Redo(_) => "redo",
        Command::Bot { .. } => "bot",
        _ => return None,
    })
}

impl Session {
    /// Starts the game; with `seat`, this client plays only that seat, and the bots play the
    /// others up to the seat's first decision (`bots`, the `--bot` items, say which; the
    /// built-in random choice by default). In god mode the seats `bots` names answer at once.
    pub fn start(
        args: GameArgs,
        setup: Setup,
        seat: Option<&str>,
        bots: &[String],
        interrupt: Interrupt,
    ) -> anyhow::Result<Session> {
        let source = games::source(&args)?;
        let bot_rng = rng::seeded(setup.seed ^ 0xB07);
        let mut t = Table::new(&source, setup)
            .map_err(anyhow::Error::new)
            .with_context(|| format!("loading game {}", args.game))?;
        t.set_stop_flag(interrupt.stop.clone());
        let seats = t.seat_names().to_vec();
        let seat = match seat {
            None => None,
            Some(name) => Some(t.seat(name).map_err(|_| {
                anyhow::anyhow!(
                    "--seat: no seat `{name}` in {} (seats: {})",
                    t.game(),
                    seats.join(", ")
                )
            })?),
        };
        let bots = SeatBots::new(bots, &seats, seat.map(Seat::index), interrupt)
            .map_err(anyhow::Error::msg)?;
        let mut session = Session {
            t,
            source,
            seats,
            args,
            bot_rng,
            seat,
            shown: None,
            verbs: RefCell::new(BTreeSet::new()),
            kept: (Setup::default(), vec![]),
            opening: vec![],
            bots,
        };
        let others = session
            .play_others()
            .map_err(|f| anyhow::anyhow!("{}", f.message))?;
        match (session.seat, others.is_empty()) {
            (Some(me), false) => {
                let view = session.t.view(me)?;
                session.opening = view.log().iter().map(|l| l.to_string()).collect();
            }
            (None, false) => session.opening = bot_lines(&others),
            _ => {}
        }
        session.kept = session.kept_now()?;
        Ok(session)
    }

    /// The game as it is now, as `kept` holds it.
    fn kept_now(&self) -> Result<(Setup, Vec<Played>), TableError> {
        Ok((self.t.setup()?, self.t.actions()?))
    }

    pub fn checkpoint(&self) -> Result<Checkpoint, Failure> {
        Ok(Checkpoint {
            m: self.t.mark()?,
            bot_rng: self.bot_rng.clone(),
        })
    }

    pub fn restore(&mut self, c: Checkpoint) {
        // A table that cannot rewind has stopped: the next command says so.
        let _ = self.t.rewind(&c.m);
        self.bot_rng = c.bot_rng;
    }

    /// The game's seed (it decides every hidden card: for an all-seeing client only).
    pub fn seed(&self) -> u64 {
        self.t.setup().map_or(0, |s| s.seed)
    }

    /// A seat's name.
    pub fn seat_name(&self, seat: Seat) -> &str {
        self.name(seat)
    }

    /// A seat's name.
    fn name(&self, seat: Seat) -> &str {
        self.seats.get(seat.index()).map_or("?", String::as_str)
    }

    /// The seat called `name`, or an error listing the seats.
    fn seat_named(&self, name: &str) -> Result<Seat, Failure> {
        self.t.seat(name).map_err(|_| {
            Failure::from(format!(
                "no seat `{name}` (seats: {})",
                self.seats.join(", ")
            ))
        })
    }

    /// Lets the bots play the seats they answer for (with `--seat`, every other seat; in god
    /// mode the seats `--bot` named) until none of those must decide or the game ends;
    /// returns what they played, as `(seat, action)` (`HELD` for a held choice).
    fn play_others(&mut self) -> Result<Vec<(String, String)>, Failure> {
        if self.bots.any_configured() {
            return self.answer_bots();
        }
        let Some(me) = self.seat else {
            return Ok(vec![]);
        };
        let mut played = vec![];
        loop {
            let mut decisions = self.t.decisions()?;
            if decisions.iter().any(|d| d.seat == me) {
                // Others choosing at the same moment choose too (their choices are held).
                decisions.retain(|d| d.seat != me);
                if decisions.is_empty() {
                    return Ok(played);
                }
            }
            let Some((seat, action)) = random_choice(&decisions, &mut self.bot_rng) else {
                return Ok(played);
            };
            let p = self.t.apply(seat, &action)?;
            played.push((self.name(seat).to_string(), p));
            if played.len() > OTHERS_MAX_ACTIONS {
                return Err(format!(
                    "the other seats played {OTHERS_MAX_ACTIONS} actions without {} deciding",
                    self.name(me)
                )
                .into());
            }
        }
    }

    /// `play_others` with the seats' own bots: the first deciding seat a bot answers for
    /// plays, seat after seat (each held choice hidden from the next).
    fn answer_bots(&mut self) -> Result<Vec<(String, String)>, Failure> {
        let random = BotSpec::parse("random").expect("a bot name");
        let mut played = vec![];
        loop {
            let deciding = self.t.deciding()?;
            let Some(&seat) = deciding.iter().find(|s| self.bots.answers[s.index()]) else {
                return Ok(played);
            };
            let spec = self.bots.spec_for(seat.index()).unwrap_or(&random).clone();
            // A bot seat cannot be stopped half-way: the client's turn would never come.
            played.push(self.bot_plays(seat, &spec)?);
            if played.len() > OTHERS_MAX_ACTIONS {
                return Err(format!(
                    "the bots played {OTHERS_MAX_ACTIONS} actions without another seat deciding"
                )
                .into());
            }
        }
    }

    /// `spec`'s bot plays one action for `seat` (deciding now); returns `(seat, action)`,
    /// the action `HELD` when it is a held simultaneous choice.
    fn bot_plays(&mut self, seat: Seat, spec: &BotSpec) -> Result<(String, String), Failure> {
        let action = self
            .t
            .play_bot(seat, &spec.to_string())
            .map_err(|e| bot_failure(e, spec))?;
        let name = self.name(seat).to_string();
        let shown = if self.t.has_chosen(seat)? {
            HELD.to_string()
        } else {
            action
        };
        Ok((name, shown))
    }

    /// The seats deciding now, for prompts: `blue`, or `north, south` in a simultaneous step.
    pub fn deciding_names(&self) -> Vec<String> {
        self.t
            .deciding()
            .unwrap_or_default()
            .into_iter()
            .map(|s| self.name(s).to_string())
            .collect()
    }

    /// What the open question asks `seat`, if it is one of the seats asked.
    fn prompt_for(&self, seat: Seat) -> Option<String> {
        self.t.decision(seat).ok()?.prompt
    }

    /// `prompt_for` the seat called `name`.
    fn prompt_named(&self, name: &str) -> Option<String> {
        self.prompt_for(self.t.seat(name).ok()?)
    }

    /// The question put to the seat whose actions `actions` shows (this client's seat, or on
    /// a shared screen the first deciding one), for the REPL's prompt line.
    pub fn shown_prompt(&self) -> Option<String> {
        let seat = match self.seat {
            Some(me) => me,
            None => *self.t.deciding().ok()?.first()?,
        };
        self.prompt_for(seat)
    }

    /// Every deciding seat with its legal actions, in `to_decide` order; in seat-restricted
    /// mode only the client's own seat (the only one the table is asked about).
    fn numbered(&self) -> Result<Vec<(String, Vec<String>)>, Failure> {
        Ok(self.named(self.shown_decisions()?))
    }

    /// The decisions `numbered` lists, typed (each from its seat's own view).
    fn shown_decisions(&self) -> Result<Vec<Decision>, Failure> {
        let decisions = match self.seat {
            Some(me) => {
                let d = self.t.decision(me)?;
                match d.options.is_empty() {
                    true => vec![],
                    false => vec![d],
                }
            }
            None => self.t.decisions()?,
        };
        self.note_verbs(
            decisions
                .iter()
                .flat_map(|d| d.options.iter().map(String::as_str)),
        );
        Ok(decisions)
    }

    /// `(seat name, options)` of each decision.
    fn named(&self, decisions: Vec<Decision>) -> Vec<(String, Vec<String>)> {
        decisions
            .into_iter()
            .map(|d| (self.name(d.seat).to_string(), d.options))
            .collect()
    }

    /// What tab completion may offer now: the seats this client may name, and the deciding
    /// seats it may see the options of, with those options (the first one is the seat
    /// `actions` shows).
    pub fn completions(&self) -> Completions {
        let seats = match self.seat {
            Some(me) => vec![self.name(me).to_string()],
            None => self.seats.clone(),
        };
        Completions {
            seats,
            deciding: self.numbered().unwrap_or_default(),
        }
    }

    fn note_verbs<'a>(&self, actions: impl Iterator<Item = &'a str>) {
        let mut verbs = self.verbs.borrow_mut();
        for a in actions {
            if let Some(w) = a.split_whitespace().next() {
                if !verbs.contains(w) {
                    verbs.insert(w.to_string());
                }
            }
        }
    }

    /// Whether `word` is the first word of an action of this game: one the game declares
    /// (`verbs` in game.toml), one legal now, one listed earlier in the session, one in the
    /// game's log (played, loaded or undone), or, in a game with a grid, a word written as
    /// a cell (`z9`, even off the board: the refusal says so).
    pub fn is_action_word(&self, word: &str) -> bool {
        if self.t.reads_as_action(word).unwrap_or(false) {
            return true;
        }
        // The options of every deciding seat: a word is an action or not whoever decides
        // (it tells nothing of the options themselves).
        if let Ok(decisions) = self.t.decisions() {
            self.note_verbs(
                decisions
                    .iter()
                    .flat_map(|d| d.options.iter().map(String::as_str)),
            );
        }
        if let Ok(played) = self.t.played_verbs() {
            self.note_verbs(played.iter().map(String::as_str));
        }
        self.verbs.borrow().contains(word)
    }

    pub fn execute(&mut self, cmd: Command) -> Outcome {
        if let (Some(me), Some(name)) = (self.seat, god_mode_only(&cmd)) {
            return Err(format!(
                "`{name}` is not available to a client playing {} (--seat): it could show or change what that seat may not",
                self.name(me)
            )
            .into());
        }
        match cmd {
            Command::Help(topic) => help(topic.as_deref()),
            Command::Show => self.show(None),
            Command::View(seat) => self.show(Some(seat)),
            Command::Actions => self.actions(),
            Command::Pick(n) => self.pick(n),
            Command::Do { seat, action } => self.act(seat.as_deref(), &action),
            Command::Undo(n) => {
                let k = self.t.undo(n)?;
                Ok(Reply::text(format!("undid {k} action(s)")).with("undone", json!(k)))
            }
            Command::Redo(n) => {
                let k = self.t.redo(n)?;
                Ok(Reply::text(format!("redid {k} action(s)")).with("redone", json!(k)))
            }
            Command::Bot {
                count,
                bot,
                verbose,
            } => self.bot(count, bot.as_deref(), verbose),
            Command::Hint(bot) => self.hint(bot.as_deref()),
            Command::Log { seat, count } => self.log(seat.as_deref(), count),
            Command::Save { path, overwrite } => self.save(&path, overwrite),
            Command::Load { path, force } => self.load(&path, force),
            Command::Position(path) => self.position(&path),
            Command::Reload => self.reload(),
            Command::Eval(expr) => {
                let v = self.t.eval(&expr)?;
                Ok(Reply::text(v.clone()).with("value", json!(v)))
            }
            Command::Status => self.status(),
            Command::State => {
                let state = self.t.referee_json()?;
                let text = serde_json::to_string_pretty(&state).map_err(|e| e.to_string())?;
                Ok(Reply {
                    text,
                    json: Map::from_iter([("state".into(), state)]),
                    quit: false,
                })
            }
            Command::Quit => Ok(Reply {
                quit: true,
                ..Reply::default()
            }),
        }
    }

    /// `show`: the deciding seat's view; `view [seat]`: that seat's (no seat: a spectator's).
    fn show(&self, seat: Option<Option<String>>) -> Outcome {
        let idx = match seat {
            None if self.seat.is_some() => self.seat,
            None => self.t.deciding()?.first().copied(),
            Some(None) => None,
            Some(Some(name)) => Some(self.seat_named(&name)?),
        };
        if let (Some(me), Some(i)) = (self.seat, idx) {
            if me != i {
                return Err(
                    format!("this client sees only {}'s view (--seat)", self.name(me)).into(),
                );
            }
        }
        let text = self.t.render(idx)?;
        let name = idx.map_or(Value::Null, |i| json!(self.name(i)));
        let view = self.t.view_as(idx)?;
        Ok(Reply::text(text)
            .with("seat", name)
            .with("view", view.state_json()))
    }

    fn actions(&mut self) -> Outcome {
        let decisions = self.shown_decisions()?;
        let typed = self.typed(&decisions);
        let list = self.named(decisions);
        self.shown = Some(numbering(&list));
        if list.is_empty() {
            return Ok(Reply::text("the game is over; nobody decides")
                .with("deciding", json!({}))
                .with("prompts", json!({})));
        }
        // People share one screen: the text lists the first deciding seat's actions only; the
        // others come up in turn once it has chosen (the JSON reply lists every seat).
        let mut text = String::new();
        let mut n = 1;
        if list.len() > 1 {
            let others: Vec<&str> = list[1..].iter().map(|(s, _)| s.as_str()).collect();
            text.push_str(&format!(
                "also deciding, in turn: {} (a choice stays hidden until all have chosen)\n",
                others.join(", ")
            ));
        }
        for (seat, acts) in list.iter().take(1) {
            text.push_str(&format!("{seat} decides ({} legal):", acts.len()));
            // A question asked in the middle of an effect says what it asks.
            if let Some(prompt) = self.prompt_named(seat) {
                text.push(' ');
                text.push_str(&prompt);
            }
            text.push('\n');
            let width = acts.iter().map(|a| a.len()).max().unwrap_or(0) + 6;
            let per_line = (78 / width).max(1);
            for chunk in acts.chunks(per_line) {
                let cells: Vec<String> = chunk
                    .iter()
                    .map(|a| {
                        let cell = format!("{n:>3}. {a}");
                        n += 1;
                        format!("{cell:<width$}")
                    })
                    .collect();
                text.push_str(cells.concat().trim_end());
                text.push('\n');
            }
        }
        let prompts: Map<String, Value> = list
            .iter()
            .filter_map(|(s, _)| Some((s.clone(), json!(self.prompt_named(s)?))))
            .collect();
        let deciding: Map<String, Value> = list.into_iter().map(|(s, a)| (s, json!(a))).collect();
        Ok(Reply::text(text.trim_end())
            .with("deciding", Value::Object(deciding))
            .with("prompts", Value::Object(prompts))
            .with("typed", typed))
    }

    /// `{seat: [action typed, ...]}` for `decisions` (each typed by the table from that
    /// seat's own view).
    fn typed(&self, decisions: &[Decision]) -> Value {
        let typed: Map<String, Value> = decisions
            .iter()
            .map(|d| (self.name(d.seat).to_string(), json!(d.typed)))
            .collect();
        Value::Object(typed)
    }

    /// `<n>`: the n-th action of the list `actions` last showed, if it is still the list of
    /// the moment (a number means what the player saw, never a list they did not see).
    fn pick(&mut self, n: usize) -> Outcome {
        let Some(shown) = &self.shown else {
            return Err(format!(
                "no list to pick {n} from yet: type `actions` to number the legal actions"
            )
            .into());
        };
        if *shown != numbering(&self.numbered()?) {
            return Err(
                "the legal actions changed since `actions` numbered them: type `actions` to see them again, then pick"
                    .into(),
            );
        }
        let (seat, action) = shown
            .get(n.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| format!("no action {n}: `actions` listed {}", shown.len()))?;
        self.act(Some(&seat), &action)
    }

    fn act(&mut self, seat: Option<&str>, action: &str) -> Outcome {
        let seat = match (self.seat, seat) {
            (None, None) => None,
            (None, Some(name)) => Some(self.t.seat(name).map_err(|e| self.private(e))?),
            (Some(me), None) => Some(me),
            (Some(me), Some(name)) if name == self.name(me) => Some(me),
            (Some(me), Some(_)) => {
                return Err(format!("this client plays only for {} (--seat)", self.name(me)).into())
            }
        };
        let seen_before = self.visible_log_len()?;
        // God mode shows what the action logged as the acting seat reads it: the seat named,
        // else the one deciding (with several, the action is refused as ambiguous).
        let actor = match seat {
            Some(seat) => Some(seat),
            None => Some(self.t.deciding()?)
                .filter(|d| d.len() == 1)
                .map(|d| d[0]),
        };
        let log_before = match (self.seat, actor) {
            (None, Some(actor)) => Some(self.t.view(actor)?.log().len()),
            _ => None,
        };
        let played = self.t.play(seat, action).map_err(|e| self.private(e))?;
        // In god mode, what the action logged as the acting seat reads it, before the seats
        // `--bot` plays answer (their moves are listed as `bot` lists them).
        let own_lines = match (actor, log_before) {
            (Some(actor), Some(before)) => Some(self.log_since(actor, before)?),
            _ => None,
        };
        let others = self.play_others()?;
        let own = format!("{}: {}", played.seat, played.action);
        let mut text = own.clone();
        let over = self.t.outcome()?.is_some();
        if actor.is_some_and(|a| self.t.has_chosen(a).unwrap_or(false)) {
            text.push_str(" (held until every deciding seat has chosen)");
        }
        // What happened since, as the seat may read it: with --seat, this client's seat (the
        // others' moves too, public or not); in god mode, the seat that acted.
        let lines = match (self.seat, own_lines) {
            (Some(me), _) => self.log_since(me, seen_before)?,
            (None, Some(lines)) => lines,
            _ => vec![],
        };
        for line in lines.iter().filter(|l| **l != own) {
            text.push('\n');
            text.push_str(line);
        }
        // In god mode, what the seats `--bot` plays answered.
        let answered = match self.seat {
            None => bot_lines(&others),
            Some(_) => vec![],
        };
        for line in &answered {
            text.push('\n');
            text.push_str(line);
        }
        if over {
            text.push('\n');
            text.push_str(&self.result_line()?);
        }
        let mut reply = Reply::text(text)
            .with("seat", json!(played.seat))
            .with("action", json!(played.action))
            .with("over", json!(over))
            .with("log", json!(lines));
        if self.seat.is_some() {
            reply = reply.with("others", json!(others.len()));
        } else if !others.is_empty() {
            reply = reply.with("bots", played_json(&others));
        }
        Ok(reply)
    }

    /// The lines of `seat`'s log from the `seen`-th on.
    fn log_since(&self, seat: Seat, seen: usize) -> Result<Vec<String>, Failure> {
        let view = self.t.view(seat)?;
        Ok(view
            .log()
            .iter()
            .skip(seen)
            .map(|l| l.to_string())
            .collect())
    }

    /// How many log lines the client's seat may read now (seat-restricted mode only).
    fn visible_log_len(&self) -> Result<usize, Failure> {
        match self.seat {
            Some(me) => Ok(self.t.view(me)?.log().len()),
            None => Ok(0),
        }
    }

    /// An error as this client may read it: the legal actions an illegal action's error
    /// lists are shown only for the seat whose actions the client is shown (its own seat, or
    /// on a shared screen the first deciding seat), never another's hand.
    fn private(&self, e: TableError) -> Failure {
        if let TableError::Illegal { seat, action, .. } = &e {
            let shown = match self.seat {
                Some(me) => Some(me),
                None => self.t.deciding().ok().and_then(|d| d.first().copied()),
            };
            if shown.map(|s| self.name(s)) != Some(seat.as_str()) {
                return Failure::from(format!(
                    "`{action}` is not a legal action for {seat} (its actions are listed when it is its turn to choose)"
                ));
            }
        }
        Failure::from(e)
    }

    /// `game over: red wins (four in a row)`: the winners and, when the game gave one, why.
    fn result_line(&self) -> Result<String, Failure> {
        let outcome = self.t.outcome()?.ok_or("the game is not over")?;
        Ok(format!("game over: {}", outcome.text))
    }

    /// `bot [n] [-v]`: the bot's actions, listed when there are few (or with `-v`), else
    /// counted per seat with the last one shown.
    fn bot(&mut self, n: usize, named: Option<&str>, verbose: bool) -> Outcome {
        let named = named.map(BotSpec::parse).transpose()?;
        if let Some(spec) = &named {
            crate::lineup::check(spec)?;
        }
        self.bots.arm();
        let reply = self.bot_run(n, named, verbose);
        self.bots.disarm();
        reply
    }

    fn bot_run(&mut self, n: usize, named: Option<BotSpec>, verbose: bool) -> Outcome {
        let mut lines = vec![];
        let mut played = vec![];
        let mut per_seat = vec![0usize; self.seats.len()];
        let mut stopped = false;
        for _ in 0..n {
            if self.bots.stopped() {
                stopped = true;
                break;
            }
            let decisions = self.t.decisions()?;
            let first = decisions.first().map(|d| d.seat);
            // The deciding seat's bot: the one named, else its own (`--bot`); without either,
            // the built-in random choice, as ever.
            let spec = first.and_then(|s| {
                named
                    .clone()
                    .or_else(|| self.bots.spec_for(s.index()).cloned())
            });
            let (seat, action) = match (first, spec) {
                (Some(seat), Some(spec)) => match self.bot_plays(seat, &spec) {
                    Ok((name, action)) => (seat, (name, action)),
                    Err(_) if self.bots.stopped() => {
                        stopped = true;
                        break;
                    }
                    Err(e) => return Err(e),
                },
                _ => {
                    let Some((seat, action)) = random_choice(&decisions, &mut self.bot_rng) else {
                        break;
                    };
                    let played = self.t.apply(seat, &action)?;
                    (seat, (self.name(seat).to_string(), played))
                }
            };
            let (name, action) = action;
            per_seat[seat.index()] += 1;
            // A held simultaneous choice stays hidden until every seat has chosen.
            if self.t.has_chosen(seat)? {
                lines.push(format!(
                    "bot {name}: (chosen; held until every deciding seat has chosen)"
                ));
                played.push(json!({"seat": name, "held": true}));
            } else {
                lines.push(format!("bot {name}: {action}"));
                played.push(json!({"seat": name, "action": action}));
            }
        }
        if stopped && played.is_empty() {
            return Err("interrupted (Ctrl-C) before the bot played; the game is unchanged".into());
        }
        if lines.len() > BOT_ACTIONS_LISTED && !verbose {
            let counts: Vec<String> = per_seat
                .iter()
                .enumerate()
                .filter(|(_, &k)| k > 0)
                .map(|(s, k)| format!("{} {k}", self.seats[s]))
                .collect();
            let last = lines.pop().unwrap_or_default();
            lines = vec![
                format!(
                    "bot played {} actions ({}); `bot {n} -v` lists them",
                    played.len(),
                    counts.join(", ")
                ),
                format!("the last: {last}"),
            ];
        }
        if stopped {
            lines.push(format!(
                "interrupted (Ctrl-C) after {} action(s)",
                played.len()
            ));
        }
        if self.t.outcome()?.is_some() {
            lines.push(self.result_line()?);
        }
        let mut reply = Reply::text(lines.join("\n")).with("played", Value::Array(played));
        if stopped {
            reply = reply.with("interrupted", json!(true));
        }
        Ok(reply)
    }

    /// `hint [bot]`: `bot`'s reading of the decision of the seat deciding (this client's own
    /// seat with `--seat`), from that seat's view only; the game is left as it is.
    fn hint(&mut self, named: Option<&str>) -> Outcome {
        let spec = BotSpec::parse(named.unwrap_or(HINT_BOT))?;
        crate::lineup::check(&spec)?;
        let deciding = self.t.deciding()?;
        let seat = match (self.seat, deciding.first()) {
            (_, None) => return Err("the game is over; nobody decides".into()),
            (Some(me), Some(_)) if !deciding.contains(&me) => {
                return Err(format!(
                    "{} is not deciding now, so there is nothing to hint",
                    self.name(me)
                )
                .into())
            }
            (Some(me), Some(_)) => me,
            (None, Some(&first)) => first,
        };
        self.bots.arm();
        let analysis = self.t.hint(seat, &spec.to_string());
        self.bots.disarm();
        let analysis = analysis.map_err(|e| bot_failure(e, &spec))?;
        let name = self.name(seat).to_string();
        let shown = &analysis.moves[..analysis.moves.len().min(HINT_MOVES)];
        let mut text = format!(
            "hint for {name} ({spec}, {} iteration(s)):",
            analysis.iterations
        );
        let width = shown.iter().map(|m| m.action.len()).max().unwrap_or(0);
        for (k, m) in shown.iter().enumerate() {
            text.push_str(&format!(
                "\n  {}. {:<width$}  {:>7} visits  {:>5.1}% wins",
                k + 1,
                m.action,
                m.visits,
                100.0 * m.value
            ));
        }
        let moves: Vec<Value> = shown
            .iter()
            .map(|m| json!({"action": m.action, "visits": m.visits, "value": m.value}))
            .collect();
        Ok(Reply::text(text)
            .with("seat", json!(name))
            .with("bot", json!(spec.to_string()))
            .with("moves", Value::Array(moves))
            .with("iterations", json!(analysis.iterations)))
    }

    /// `log [@seat] [n]`: the log as `seat` reads it, else as the client's seat or the first
    /// deciding seat does.
    fn log(&self, named: Option<&str>, n: Option<usize>) -> Outcome {
        let seat = match (named, self.seat) {
            (Some(name), me) => {
                let i = self.seat_named(name)?;
                if let Some(me) = me.filter(|&me| me != i) {
                    return Err(
                        format!("this client reads only {}'s log (--seat)", self.name(me)).into(),
                    );
                }
                Some(i)
            }
            (None, Some(me)) => Some(me),
            (None, None) => self.t.deciding()?.first().copied(),
        };
        let view = self.t.view_as(seat)?;
        let log = view.log();
        let skip = n.map_or(0, |n| log.len().saturating_sub(n));
        let lines: Vec<String> = log.iter().skip(skip).map(|l| l.to_string()).collect();
        let text = if lines.is_empty() {
            "(the log is empty)".to_string()
        } else {
            lines.join("\n")
        };
        Ok(Reply::text(text).with("log", json!(lines)))
    }

    fn save(&mut self, path: &str, overwrite: bool) -> Outcome {
        let save = self.t.save()?;
        let text = serde_json::to_string_pretty(&save).map_err(|e| e.to_string())?;
        files::write_atomic(path, &text, overwrite)?;
        let n = save.actions.len();
        self.kept = (save.setup, save.actions);
        Ok(Reply::text(format!("saved {n} action(s) to {path}")).with("path", json!(path)))
    }

    fn load(&mut self, path: &str, force: bool) -> Outcome {
        let text = files::read_text(path)?;
        let save = SaveFile::parse(&text, self.t.game()).map_err(|e| format!("{path}: {e}"))?;
        let unsaved = self.unsaved()?;
        if unsaved > 0 && !force {
            return Err(format!(
                "the game has {unsaved} action(s) not saved; `save <file>` keeps them, `load! {path}` (or `load --force {path}`) replaces them"
            )
            .into());
        }
        self.t.load(save)?;
        self.kept = self.kept_now()?;
        let n = self.kept.1.len();
        Ok(Reply::text(format!("loaded {path}: {n} action(s) replayed")).with("actions", json!(n)))
    }

    /// How many of the game's actions its last save (or load, or start) does not hold: 0
    /// when the game is that one, or an earlier point of it (after `undo`).
    fn unsaved(&self) -> Result<usize, Failure> {
        let (setup, actions) = &self.kept;
        let (now_setup, now) = self.kept_now()?;
        if *setup != now_setup {
            // Another start (`position`): none of its actions is saved.
            return Ok(now.len());
        }
        let same = now.iter().zip(actions).take_while(|(a, b)| a == b).count();
        Ok(now.len() - same)
    }

    fn position(&mut self, path: &str) -> Outcome {
        let text = files::read_text(path)?;
        if let Err(e) = self.t.set_position(&text) {
            return Err(redact_quotes(Failure::from(e), &text, path));
        }
        Ok(Reply::text(format!("position set from {path}")))
    }

    /// `reload`; also the watcher's (`--watch`), which runs for a seat-restricted client too
    /// (a typed `reload` is refused there): its reply then says only what the client's seat
    /// may see, and the bots play on up to that seat's next decision, as after its actions.
    pub fn reload(&mut self) -> Outcome {
        // The error is in the new files: its excerpt is read from them (`&[]`), not from the
        // rules still running.
        let source = games::source(&self.args).map_err(|e| {
            let f = match e.downcast::<TableError>() {
                Ok(e) => Failure::from(e),
                Err(e) => Failure::from(format!("{e:#}")),
            };
            Failure {
                message: format!("{}; old rules kept", f.message),
                ..f
            }
        })?;
        let me = self.seat;
        // If the bots cannot play on under the new rules, the old ones come back with the game.
        let before = self.t.mark()?;
        let report = self.t.reload(&source).map_err(|e| match me {
            // Replaying another seat's action can fail with its hidden action or cards.
            Some(_) => Failure::from(
                "the new rules fail while replaying the game; old rules kept (a session without --seat shows the error)",
            ),
            None => {
                let f = Failure::from(e);
                Failure {
                    message: format!("{}; old rules kept", f.message),
                    ..f
                }
            }
        })?;
        let seen_before = self.visible_log_len()?;
        let others = match self.play_others() {
            Ok(others) => others,
            Err(f) => {
                self.t.rewind(&before)?;
                return Err(Failure {
                    message: format!(
                        "the other seats cannot play on under the new rules: {}; old rules kept",
                        f.message
                    ),
                    ..f
                });
            }
        };
        // A refused action of another seat is named by its place and seat only: its text, and
        // the legal actions the refusal lists, may be that seat's secret.
        let shown = report.refused.as_ref().map(|(i, p, why)| match me {
            Some(me) if self.name(me) != p.seat => (*i, p, None),
            _ => (*i, p, Some(why)),
        });
        // The bots' new actions forget the actions kept aside, as any new action does.
        let kept_aside = if others.is_empty() {
            report.kept_aside
        } else {
            0
        };
        let mut text = match &shown {
            None => format!("reloaded: {} action(s) replayed", report.replayed),
            Some((i, p, Some(why))) => format!(
                "reloaded: action {} (`{}` by {}) is now refused: {why}\nthe game is kept up to action {}",
                i + 1,
                p.action,
                p.seat,
                report.replayed,
            ),
            Some((i, p, None)) => format!(
                "reloaded: action {} (by {}) is now refused by the new rules\nthe game is kept up to action {}",
                i + 1,
                p.seat,
                report.replayed,
            ),
        };
        if shown.is_some() {
            if kept_aside > 0 {
                text.push_str(&format!(
                    "; the {kept_aside} action(s) from there are kept aside and come back at a reload whose rules accept them"
                ));
            } else if !others.is_empty() {
                text.push_str("; the other seats play on from there");
            }
        }
        let refused = match &shown {
            None => Value::Null,
            Some((i, p, Some(why))) => {
                json!({"index": i + 1, "seat": p.seat, "action": p.action, "error": why})
            }
            Some((i, p, None)) => json!({"index": i + 1, "seat": p.seat}),
        };
        let mut reply = Reply::text(text)
            .with("replayed", json!(report.replayed))
            .with("kept_aside", json!(kept_aside))
            .with("refused", refused);
        self.source = source;
        if let Some(me) = me {
            let lines = self.log_since(me, seen_before)?;
            if !lines.is_empty() {
                let text = format!("{}\n{}", reply.text, lines.join("\n"));
                reply = reply.retext(text);
            }
            reply = reply
                .with("others", json!(others.len()))
                .with("log", json!(lines));
        }
        Ok(reply)
    }

    fn status(&self) -> Outcome {
        let status = self.t.status()?;
        let over = status.outcome.is_some();
        let winners: Vec<&str> = status
            .outcome
            .iter()
            .flat_map(|o| o.winners.iter().map(|&s| self.name(s)))
            .collect();
        let deciding: Vec<&str> = status.deciding.iter().map(|&s| self.name(s)).collect();
        let mut reply = match &status.outcome {
            Some(o) => {
                Reply::text(format!("game over: {}", o.text)).with("reason", json!(o.reason))
            }
            None => {
                // A question asked in the middle of an effect says what it asks: the prompt
                // common to the asked seats, or this client's own.
                let own = self.seat.and_then(|me| self.prompt_for(me));
                let asked = match own.or(status.question.clone()) {
                    Some(p) => format!(" ({p})"),
                    None => String::new(),
                };
                Reply::text(format!(
                    "{} to decide{asked}; {} action(s) played",
                    deciding.join(", "),
                    status.actions
                ))
            }
        };
        // Seats out for a round (`g.sit_out`) are public, as whose turn it is.
        if !status.out.is_empty() {
            let out: Vec<&str> = status.out.iter().map(|&s| self.name(s)).collect();
            let text = format!("{}; out: {}", reply.text, out.join(", "));
            reply = reply.retext(text).with("out", json!(out));
        }
        if !status.teams.is_empty() {
            let teams: Vec<Vec<&str>> = status
                .outcome
                .iter()
                .flat_map(|o| o.winning_teams.iter())
                .map(|&t| status.teams[t].iter().map(|&s| self.name(s)).collect())
                .collect();
            reply = reply.with("winning_teams", json!(teams));
        }
        if self.seat.is_none() {
            // The seed decides every hidden card: only an all-seeing client may know it.
            let seed = self.t.setup()?.seed;
            let text = format!("{}; seed {seed}", reply.text);
            reply = reply.retext(text).with("seed", json!(seed));
        }
        // The legal actions typed, for the deciding seats this client may see the options of.
        let typed = self.typed(&self.shown_decisions()?);
        Ok(reply
            .with("over", json!(over))
            .with("winners", json!(winners))
            .with("deciding", json!(deciding))
            .with("typed", typed))
    }
}

/// What tab completion may offer (see `Session::completions`).
#[derive(Debug, Clone, Default)]
pub struct Completions {
    /// Seats this client may name (`@seat`): every seat, or with `--seat` its own.
    pub seats: Vec<String>,
    /// Deciding seats whose options this client may be shown, with their legal actions; the
    /// first is the seat `actions` shows.
    pub deciding: Vec<(String, Vec<String>)>,
}

/// What the bots played, as `bot` lists it: `bot red: d1`.
fn bot_lines(played: &[(String, String)]) -> Vec<String> {
    played
        .iter()
        .map(|(seat, action)| format!("bot {seat}: {action}"))
        .collect()
}

/// What the bots played, as `bot`'s JSON reply lists it.
fn played_json(played: &[(String, String)]) -> Value {
    played
        .iter()
        .map(|(seat, action)| match action.as_str() {
            HELD => json!({"seat": seat, "held": true}),
            _ => json!({"seat": seat, "action": action}),
        })
        .collect()
}

/// A bot's error as a refusal: an interrupted search says so.
fn bot_failure(e: TableError, spec: &BotSpec) -> Failure {
    match e {
        TableError::Interrupted => {
            Failure::from("interrupted (Ctrl-C) before the bot chose; the game is unchanged")
        }
        TableError::Bot(message) => Failure::from(format!("bot {spec}: {message}")),
        other => Failure::from(other),
    }
}

/// The built-in random choice of the other seats: a deciding seat at random, then one of its
/// options, from the session's own RNG (never the game's).
fn random_choice(decisions: &[Decision], rng: &mut GameRng) -> Option<(Seat, String)> {
    if decisions.is_empty() {
        return None;
    }
    let d = &decisions[rng::below(rng, decisions.len())];
    let i = rng::below(rng, d.options.len());
    Some((d.seat, d.options[i].clone()))
}

/// The numbers `actions` gives: the first deciding seat's actions, in order.
fn numbering(list: &[(String, Vec<String>)]) -> Vec<(String, String)> {
    list.iter()
        .take(1)
        .flat_map(|(s, acts)| acts.iter().map(move |a| (s.clone(), a.clone())))
        .collect()
}

/// A client may name any readable file as a position; the script's error about it must not
/// become a way to read that file. An error that quotes a line of the file says where the
/// script refused it, not what it quoted (`--position FILE` on the command line, given by
/// whoever started the process, shows the full message).
fn redact_quotes(f: Failure, text: &str, path: &str) -> Failure {
    let quotes = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() >= 3)
        .any(|l| f.message.contains(l));
    if !quotes {
        return f;
    }
    let at =
        f.at.as_ref()
            .map_or(String::new(), |at| format!(" at {at}"));
    Failure::from(format!(
        "{path} is not a position of this game: the script refused it{at} (its message quotes the file, so it is not shown; `play --position {path}` shows it)"
    ))
}

fn help(topic: Option<&str>) -> Outcome {
    match topic {
        Some(t) => match boardscript_grammar::help_for(t) {
            Some(c) => Ok(Reply::text(format!("{}\n  {}", c.usage, c.about))),
            None => Err(format!("no command `{t}`; try `help`").into()),
        },
        None => {
            let width = COMMANDS.iter().map(|c| c.usage.len()).max().unwrap_or(0);
            let lines: Vec<String> = COMMANDS
                .iter()
                .map(|c| format!("  {:<width$}  {}", c.usage, c.about))
                .collect();
            Ok(Reply::text(format!("commands:\n{}", lines.join("\n"))))
        }
    }
}
