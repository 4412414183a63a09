//! How the engine runs the agenda (`crate::agenda`): after `setup`, `position`, an action or
//! an answer, the scheduled steps run in order until the agenda is empty or a question is
//! next; while a question is open, its seats decide and their options are the legal actions.

use super::{Action, Decisions, Game, PlayError};
use crate::agenda::{self, Item, Question};
use crate::script::ScriptError;
use crate::state::State;
use rhai::{Array, Dynamic, ImmutableString, Map};

impl Game {
    /// Who decides while a question is open: its seats that have not answered yet.
    pub(super) fn question_decisions(&self, state: &State) -> Option<Decisions> {
        let q = state.agenda.question()?;
        Some(Decisions {
            to_decide: q.seats.iter().map(|(s, _)| *s).collect(),
            seats: q
                .waiting()
                .map(|(s, options)| {
                    let legal = options.iter().map(|o| Action::from(o.as_str())).collect();
                    (*s, legal)
                })
                .collect(),
        })
    }

    /// The open question's options for `seat` listed again by its `list` function on `state`
    /// (a state a bot's sampler drew, where that seat may hold other cards); None when the
    /// question has no `list` or does not ask `seat`.
    pub fn relist(&self, state: &State, seat: usize) -> Result<Option<Vec<String>>, PlayError> {
        let Some(q) = state.agenda.question() else {
            return Ok(None);
        };
        if q.list.is_empty() || q.options_of(seat).is_none() {
            return Ok(None);
        }
        let mut args = vec![self.seat_arg(state, seat)];
        args.extend(q.data.iter().map(|v| v.to_dynamic()));
        let listed = self.rules.call_read(state, &q.list, &args)?;
        let Some(options) = listed.try_cast::<Array>() else {
            return Err(self.shape_error(&q.list, "an array of options"));
        };
        options
            .into_iter()
            .map(|o| {
                o.into_string().map_err(|t| {
                    self.returned_error(&q.list, &format!("a `{t}` among its options"))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Calls `function` with scheduling open for it; `fresh`: with a budget of its own, else
    /// on what is left of the running action's.
    pub(super) fn run_scheduling(
        &self,
        state: &mut State,
        function: &str,
        args: &[Dynamic],
        fresh: bool,
    ) -> Result<(), PlayError> {
        state.agenda.open();
        let result = if fresh {
            self.rules.call(state, function, args)
        } else {
            self.rules.call_continuing(state, function, args)
        };
        state.agenda.close();
        result.map(drop)?;
        Ok(())
    }

    /// Runs scheduled steps until the agenda is empty or a question is next.
    pub(super) fn resolve(&self, state: &mut State) -> Result<(), PlayError> {
        let mut ran = 0;
        loop {
            if state.result.is_some() {
                // The game ended: what was still to come never happens.
                state.agenda.clear();
                return Ok(());
            }
            if !matches!(state.agenda.upcoming().next(), Some(Item::Step { .. })) {
                return Ok(());
            }
            let Some(Item::Step { function, data }) = state.agenda.pop() else {
                unreachable!("the next item is a step");
            };
            ran += 1;
            if ran > agenda::MAX_STEPS_PER_ACTION {
                return Err(PlayError::Script(ScriptError::Load {
                    file: self.rules.file_of(&function).unwrap_or("script").into(),
                    message: format!(
                        "more than {} scheduled steps ran for one action, the last `{function}`; \
                         does a step schedule itself without end?",
                        agenda::MAX_STEPS_PER_ACTION
                    ),
                }));
            }
            let args: Vec<Dynamic> = data.iter().map(|v| v.to_dynamic()).collect();
            self.run_scheduling(state, &function, &args, false)?;
        }
    }

    /// Records `seat`'s answer to the open question; once every asked seat has answered, the
    /// question's function runs for each answer (in the order the seats were asked), or once
    /// for all of them (`then_all`), and the agenda goes on. `state` is a scratch copy: the
    /// caller keeps it only on success.
    pub(super) fn answer(
        &self,
        state: &mut State,
        seat: usize,
        action: &str,
    ) -> Result<(), PlayError> {
        let q = state
            .agenda
            .question_mut()
            .expect("answer is called while a question is open");
        q.answers.insert(seat, action.to_string());
        if q.waiting().next().is_some() {
            return Ok(());
        }
        let Some(Item::Question(q)) = state.agenda.pop() else {
            unreachable!("the next item is the question");
        };
        // One opening for all the answers, so that what the first one schedules runs first.
        state.agenda.open();
        let applied = match q.then_all {
            true => self.settle_all(state, &q).map_err(Some),
            false => self.settle_each(state, &q),
        };
        state.agenda.close();
        if let Err(Some(e)) = applied {
            return Err(e);
        }
        self.resolve(state)
    }

    /// `then(g, seat, answer[, data])` for each answer in asked order; Err(None): an answer
    /// ended the game, leaving the others unapplied.
    fn settle_each(&self, state: &mut State, q: &Question) -> Result<(), Option<PlayError>> {
        q.seats.iter().enumerate().try_for_each(|(i, (s, _))| {
            let answer = &q.answers[s];
            self.log_answer(state, q, *s, answer);
            let mut args = vec![
                self.seat_arg(state, *s),
                Dynamic::from(ImmutableString::from(answer.as_str())),
            ];
            args.extend(q.data.iter().map(|v| v.to_dynamic()));
            // An answer function one parameter longer takes the answer parsed too, last.
            if self.rules.has_fn(&q.then, args.len() + 2) {
                args.push(self.parsed(state, *s, answer));
            }
            let called = if i == 0 {
                self.rules.call(state, &q.then, &args)
            } else {
                self.rules.call_continuing(state, &q.then, &args)
            };
            state.actions_applied += 1;
            called.map(drop).map_err(|e| Some(PlayError::from(e)))?;
            if state.result.is_some() {
                return Err(None);
            }
            Ok(())
        })
    }

    /// `then_all(g, answers[, data][, parsed])` once, `answers` being `#{seat, answer}` in
    /// asked order and `parsed` (when the function takes one parameter more) each answer
    /// parsed, in the same order, each read for the seat that gave it.
    fn settle_all(&self, state: &mut State, q: &Question) -> Result<(), PlayError> {
        let mut answers = Array::with_capacity(q.seats.len());
        for (s, _) in &q.seats {
            let answer = &q.answers[s];
            self.log_answer(state, q, *s, answer);
            let mut entry = Map::new();
            entry.insert("seat".into(), self.seat_arg(state, *s));
            entry.insert(
                "answer".into(),
                Dynamic::from(ImmutableString::from(answer.as_str())),
            );
            answers.push(entry.into());
        }
        let mut args = vec![Dynamic::from(answers)];
        args.extend(q.data.iter().map(|v| v.to_dynamic()));
        if self.rules.has_fn(&q.then, args.len() + 2) {
            let parsed: Array = q
                .seats
                .iter()
                .map(|(s, _)| self.parsed(state, *s, &q.answers[s]))
                .collect();
            args.push(Dynamic::from(parsed));
        }
        state.actions_applied += q.seats.len() as u64;
        self.rules.call(state, &q.then, &args).map(drop)?;
        Ok(())
    }

    /// The log line of an answer, for the seats the question says (`Question::log_readers`).
    fn log_answer(&self, state: &mut State, q: &Question, seat: usize, answer: &str) {
        let line = format!("{}: {answer}", state.seat_name(seat));
        match q.log_readers(seat) {
            None => state.log_event(line),
            Some(readers) => state.log_private(line, readers),
        }
    }
}
