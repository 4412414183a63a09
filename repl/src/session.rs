//! One game being played: carries out REPL commands and answers each with a reply that has a
//! text form (for people) and a JSON form (for the machine protocol).

use crate::cli::GameArgs;
use crate::games;
use boardscript_grammar::{Command, COMMANDS};
use boardscript_interpreter::bots::random;
use boardscript_interpreter::log::SaveFile;
use boardscript_interpreter::primitives::rng::{self, GameRng};
use boardscript_interpreter::script::ScriptError;
use boardscript_interpreter::{Match, PlayError, Setup};
use serde_json::{json, Map, Value};

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

    fn with(mut self, key: &str, value: Value) -> Reply {
        self.json.insert(key.into(), value);
        self
    }
}

/// An error that keeps the script position, so the shell can draw a caret under it.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub script: Option<ScriptError>,
}

impl From<PlayError> for Failure {
    fn from(e: PlayError) -> Failure {
        let script = match &e {
            PlayError::Script(s) => Some(s.clone()),
            _ => None,
        };
        Failure {
            message: e.to_string(),
            script,
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            message,
            script: None,
        }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure {
            message: message.into(),
            script: None,
        }
    }
}

pub type Outcome = Result<Reply, Failure>;

pub struct Session {
    pub m: Match,
    pub args: GameArgs,
    bot_rng: GameRng,
}

impl Session {
    pub fn start(args: GameArgs, setup: Setup) -> anyhow::Result<Session> {
        let game = games::load(&args)?;
        let bot_rng = rng::seeded(setup.seed ^ 0xB07);
        let m = Match::new(game, setup).map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Session { m, args, bot_rng })
    }

    /// The seats deciding now, for prompts: `blue`, or `north, south` in a simultaneous step.
    pub fn deciding_names(&self) -> Vec<String> {
        self.m
            .game
            .deciding(&self.m.state)
            .unwrap_or_default()
            .iter()
            .map(|&s| self.m.state.seat_name(s).to_string())
            .collect()
    }

    /// Every deciding seat with its legal actions, in `to_decide` order.
    fn numbered(&self) -> Result<Vec<(String, Vec<String>)>, Failure> {
        let d = self.m.game.decisions(&self.m.state)?;
        Ok(d.seats
            .into_iter()
            .map(|(s, a)| {
                let names = a.iter().map(|x| x.to_string()).collect();
                (self.m.state.seat_name(s).to_string(), names)
            })
            .collect())
    }

    /// Legal actions of the first deciding seat (the one `actions` shows), for tab completion.
    pub fn completions(&self) -> Vec<String> {
        self.numbered()
            .map(|d| d.into_iter().take(1).flat_map(|(_, a)| a).collect())
            .unwrap_or_default()
    }

    pub fn execute(&mut self, cmd: Command) -> Outcome {
        match cmd {
            Command::Help(topic) => help(topic.as_deref()),
            Command::Show => self.show(None),
            Command::View(seat) => self.show(Some(seat)),
            Command::Actions => self.actions(),
            Command::Pick(n) => self.pick(n),
            Command::Do { seat, action } => self.act(seat.as_deref(), &action),
            Command::Undo(n) => {
                let k = self.m.undo(n);
                Ok(Reply::text(format!("undid {k} action(s)")).with("undone", json!(k)))
            }
            Command::Redo(n) => {
                let k = self.m.redo(n);
                Ok(Reply::text(format!("redid {k} action(s)")).with("redone", json!(k)))
            }
            Command::Bot(n) => self.bot(n),
            Command::Log(n) => self.log(n),
            Command::Save(path) => self.save(&path),
            Command::Load(path) => self.load(&path),
            Command::Position(path) => self.position(&path),
            Command::Reload => self.reload(),
            Command::Eval(expr) => {
                let v = self.m.game.eval(&self.m.state, &expr)?;
                Ok(Reply::text(v.clone()).with("value", json!(v)))
            }
            Command::Status => self.status(),
            Command::State => {
                let text =
                    serde_json::to_string_pretty(&self.m.state).map_err(|e| e.to_string())?;
                Ok(Reply {
                    text,
                    json: Map::from_iter([("state".into(), self.m.state.to_json())]),
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
        let st = &self.m.state;
        let idx = match seat {
            None => self.m.game.deciding(st)?.first().copied(),
            Some(None) => None,
            Some(Some(name)) => Some(
                st.seat_index(&name)
                    .ok_or_else(|| format!("no seat `{name}` (seats: {})", st.seats.join(", ")))?,
            ),
        };
        let text = self.m.game.render(st, idx)?;
        let name = idx.map_or(Value::Null, |i| json!(st.seat_name(i)));
        Ok(Reply::text(text)
            .with("seat", name)
            .with("view", st.view(idx).to_json()))
    }

    fn actions(&self) -> Outcome {
        let list = self.numbered()?;
        if list.is_empty() {
            return Ok(Reply::text("the game is over; nobody decides").with("deciding", json!({})));
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
            text.push_str(&format!("{seat} decides ({} legal):\n", acts.len()));
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
        let deciding: Map<String, Value> = list.into_iter().map(|(s, a)| (s, json!(a))).collect();
        Ok(Reply::text(text.trim_end()).with("deciding", Value::Object(deciding)))
    }

    fn pick(&mut self, n: usize) -> Outcome {
        let all: Vec<(String, String)> = self
            .numbered()?
            .into_iter()
            .take(1)
            .flat_map(|(s, acts)| acts.into_iter().map(move |a| (s.clone(), a)))
            .collect();
        let (seat, action) = all
            .get(n.wrapping_sub(1))
            .cloned()
            .ok_or_else(|| format!("no action {n}: there are {} (see `actions`)", all.len()))?;
        self.act(Some(&seat), &action)
    }

    fn act(&mut self, seat: Option<&str>, action: &str) -> Outcome {
        let played = self.m.play(seat, action)?;
        let mut text = format!("{}: {}", played.seat, played.action);
        let over = self.m.game.is_over(&self.m.state)?;
        let st = &self.m.state;
        if st
            .seat_index(&played.seat)
            .is_some_and(|i| st.pending.contains_key(&i))
        {
            text.push_str(" (held until every deciding seat has chosen)");
        }
        if over {
            text.push('\n');
            text.push_str(&self.result_line()?);
        }
        Ok(Reply::text(text)
            .with("seat", json!(played.seat))
            .with("action", json!(played.action))
            .with("over", json!(over)))
    }

    fn result_line(&self) -> Result<String, Failure> {
        let w = self.m.game.winners(&self.m.state)?;
        let names: Vec<&str> = w.iter().map(|&s| self.m.state.seat_name(s)).collect();
        Ok(match names.len() {
            0 => "game over: nobody wins".to_string(),
            1 => format!("game over: {} wins", names[0]),
            _ => format!("game over: {} win", names.join(", ")),
        })
    }

    fn bot(&mut self, n: usize) -> Outcome {
        let mut lines = vec![];
        let mut played = vec![];
        for _ in 0..n {
            let decisions = self.m.game.decisions(&self.m.state)?;
            let Some((seat, action)) = random::choose(&decisions, &mut self.bot_rng) else {
                break;
            };
            let name = self.m.state.seat_name(seat).to_string();
            self.m.play(Some(&name), &action)?;
            lines.push(format!("bot {name}: {action}"));
            played.push(json!({"seat": name, "action": action}));
        }
        if self.m.game.is_over(&self.m.state)? {
            lines.push(self.result_line()?);
        }
        Ok(Reply::text(lines.join("\n")).with("played", Value::Array(played)))
    }

    fn log(&self, n: Option<usize>) -> Outcome {
        let st = &self.m.state;
        let seat = self.m.game.deciding(st)?.first().copied();
        let view = st.view(seat);
        let skip = n.map_or(0, |n| view.log.len().saturating_sub(n));
        let lines: Vec<String> = view.log.iter().skip(skip).map(|e| e.text.clone()).collect();
        let text = if lines.is_empty() {
            "(the log is empty)".to_string()
        } else {
            lines.join("\n")
        };
        Ok(Reply::text(text).with("log", json!(lines)))
    }

    fn save(&self, path: &str) -> Outcome {
        std::fs::write(path, self.m.save_json())
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        Ok(Reply::text(format!(
            "saved {} action(s) to {path}",
            self.m.actions().len()
        ))
        .with("path", json!(path)))
    }

    fn load(&mut self, path: &str) -> Outcome {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let save =
            SaveFile::parse(&text, &self.m.game.spec.id).map_err(|e| format!("{path}: {e}"))?;
        self.m.load(&save)?;
        Ok(Reply::text(format!(
            "loaded {path}: {} action(s) replayed",
            self.m.actions().len()
        ))
        .with("actions", json!(self.m.actions().len())))
    }

    fn position(&mut self, path: &str) -> Outcome {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        self.m.set_position(&text)?;
        Ok(Reply::text(format!("position set from {path}")))
    }

    pub fn reload(&mut self) -> Outcome {
        let game = games::load(&self.args).map_err(|e| Failure {
            message: format!("{e:#}; old rules kept"),
            script: None,
        })?;
        let report = self.m.reload(game).map_err(|e| Failure {
            message: format!("{e}; old rules kept"),
            ..Failure::from(e)
        })?;
        let text = match &report.refused {
            None => format!("reloaded: {} action(s) replayed", report.replayed),
            Some((i, p, why)) => format!(
                "reloaded: action {} (`{}` by {}) is now refused: {why}\nthe game is kept up to action {}",
                i + 1,
                p.action,
                p.seat,
                report.replayed
            ),
        };
        let refused = report.refused.as_ref().map_or(
            Value::Null,
            |(i, p, why)| json!({"index": i + 1, "seat": p.seat, "action": p.action, "error": why}),
        );
        Ok(Reply::text(text)
            .with("replayed", json!(report.replayed))
            .with("refused", refused))
    }

    fn status(&self) -> Outcome {
        let st = &self.m.state;
        let over = self.m.game.is_over(st)?;
        let winners: Vec<&str> = if over {
            self.m
                .game
                .winners(st)?
                .iter()
                .map(|&s| st.seat_name(s))
                .collect()
        } else {
            vec![]
        };
        let deciding = self.deciding_names();
        let mut reply = if over {
            Reply::text(self.result_line()?)
        } else {
            Reply::text(format!(
                "{} to decide; {} action(s) played",
                deciding.join(", "),
                self.m.actions().len()
            ))
        };
        if !st.teams.is_empty() {
            let teams: Vec<Vec<&str>> = if over {
                self.m
                    .game
                    .winning_teams(st)?
                    .iter()
                    .map(|&t| st.teams[t].iter().map(|&s| st.seat_name(s)).collect())
                    .collect()
            } else {
                vec![]
            };
            reply = reply.with("winning_teams", json!(teams));
        }
        Ok(reply
            .with("over", json!(over))
            .with("winners", json!(winners))
            .with("deciding", json!(deciding)))
    }
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
