//! The agenda: work a script has scheduled and that must happen before the game goes on, held
//! in the state so that undo, saves, replays, views and bots see it like anything else.
//!
//! A script cannot stop in the middle of a function to wait for a person, so an effect that
//! needs a decision half-way is written as steps: it schedules the rest of its work
//! (`g.then("migrate", data)`) and the questions it must ask (`g.ask(seat, options, "flee")`),
//! and returns. The engine then runs the scheduled steps in order; when it reaches a question
//! it stops, the asked seats decide (their legal actions are the question's options), and the
//! answer's function continues from there.
//!
//! Order: what one function schedules runs in the order it was scheduled, and before anything
//! scheduled earlier by others (a stack of lists, as in a recursive resolution): the effects an
//! effect sets off resolve completely, depth first, before the next effect of its parent. This
//! is the order of chain reactions and of "resolve fully, then go on" in rule texts.

use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// At most this many items wait at once (a script scheduling without end is stopped here).
pub const MAX_ITEMS: usize = 10_000;

/// At most this many steps run for one action (each within the action's time limit).
pub const MAX_STEPS_PER_ACTION: u64 = 100_000;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agenda {
    /// What is to come, the next item last.
    items: Vec<Item>,
    /// Where the running function's items go, so that they run in the order it scheduled
    /// them (None: no function may schedule now, say `legal_actions`).
    #[serde(skip)]
    insert_at: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    /// `function(g)`, or `function(g, data)`.
    Step {
        function: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        data: Option<Value>,
    },
    Question(Question),
}

/// A decision asked in the middle of an effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// The seats that answer, in the order their answers are applied; each with its options.
    pub seats: Vec<(usize, Vec<String>)>,
    /// What is asked, for people; public.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prompt: String,
    /// What is asked of each seat, when the prompt differs per seat (it may tell a seat what
    /// only it knows); in a view, the viewer's only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prompts: BTreeMap<usize, String>,
    /// `then(g, seat, answer)`, or `then(g, seat, answer, data)`, run for each answer; with
    /// `then_all`, `then(g, answers)` or `then(g, answers, data)`, run once for all of them.
    /// Either may take the parsed answer (or answers) as one parameter more.
    pub then: String,
    /// Whether `then` takes every answer at once (`g.ask(#{then_all: ...})`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub then_all: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// Who reads the answers in the log.
    #[serde(default, skip_serializing_if = "AnswerLog::is_asked")]
    pub log: AnswerLog,
    /// Answers held until every asked seat has answered (several seats answer in secret).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub answers: BTreeMap<usize, String>,
    /// The function that listed the options, `list(g, seat)` or `list(g, seat, data)`, when
    /// the script gave one (`g.ask(#{list: ...})`): a bot's sampler lists another seat's
    /// options again on each state it draws, as they depend on what that seat holds.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub list: String,
}

/// Who reads a question's answers in the log: the asked seats (the default, whatever
/// `log_actions` says: an answer may tell what only they know), everyone, the asked seats
/// and some more, or each answer only its own seat (a secret choice several seats make at
/// once).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerLog {
    #[default]
    Asked,
    All,
    Also(Vec<usize>),
    Own,
}

impl AnswerLog {
    fn is_asked(&self) -> bool {
        *self == AnswerLog::Asked
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Question {
    /// The asked seats still to answer, with their options.
    pub fn waiting(&self) -> impl Iterator<Item = &(usize, Vec<String>)> {
        self.seats
            .iter()
            .filter(|(s, _)| !self.answers.contains_key(s))
    }

    /// What the question asks `seat` (see `Agenda::prompt_for`).
    pub fn prompt_for(&self, seat: usize) -> Option<&str> {
        self.options_of(seat)?;
        let prompt = self.prompts.get(&seat).unwrap_or(&self.prompt);
        (!prompt.is_empty()).then_some(prompt.as_str())
    }

    /// The seats that read `seat`'s answer in the log (None: everyone).
    pub fn log_readers(&self, seat: usize) -> Option<Vec<usize>> {
        let mut readers: Vec<usize> = self.seats.iter().map(|(s, _)| *s).collect();
        match &self.log {
            AnswerLog::All => return None,
            AnswerLog::Own => return Some(vec![seat]),
            AnswerLog::Asked => {}
            AnswerLog::Also(more) => {
                for s in more {
                    if !readers.contains(s) {
                        readers.push(*s);
                    }
                }
            }
        }
        Some(readers)
    }

    pub fn options_of(&self, seat: usize) -> Option<&[String]> {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, o)| o.as_slice())
    }
}

impl Agenda {
    /// What is to come, the next item last.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Items from the next one on.
    pub fn upcoming(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().rev()
    }

    /// The question the game waits for, if the next item is one.
    pub fn question(&self) -> Option<&Question> {
        match self.items.last() {
            Some(Item::Question(q)) => Some(q),
            _ => None,
        }
    }

    /// What the open question asks `seat`, when `seat` is one of the seats asked and the
    /// question has a prompt for it: the prompt that seat's view shows beside its options,
    /// never that of a question put to other seats, nor another seat's own prompt.
    pub fn prompt_for(&self, seat: usize) -> Option<&str> {
        self.question()?.prompt_for(seat)
    }

    pub fn question_mut(&mut self) -> Option<&mut Question> {
        match self.items.last_mut() {
            Some(Item::Question(q)) => Some(q),
            _ => None,
        }
    }

    /// Takes the next item.
    pub fn pop(&mut self) -> Option<Item> {
        self.items.pop()
    }

    /// Lets the function about to run schedule items (they go before everything waiting now).
    pub fn open(&mut self) {
        self.insert_at = Some(self.items.len());
    }

    pub fn close(&mut self) {
        self.insert_at = None;
    }

    /// Whether the running function may schedule: Err says why not.
    pub fn check_open(&self) -> Result<usize, String> {
        self.insert_at.ok_or_else(|| {
            "nothing can be scheduled here: only `setup`, `position`, `apply` and the \
             functions the agenda runs may schedule work or ask questions"
                .into()
        })
    }

    /// Schedules `item` after what the running function scheduled before it.
    pub fn schedule(&mut self, item: Item) -> Result<(), String> {
        let at = self.check_open()?;
        if self.items.len() >= MAX_ITEMS {
            return Err(format!("more than {MAX_ITEMS} items wait on the agenda"));
        }
        self.items.insert(at.min(self.items.len()), item);
        Ok(())
    }

    /// Drops everything scheduled (the game ended, say); the running function may schedule
    /// again afterwards.
    pub fn clear(&mut self) {
        self.items.clear();
        if self.insert_at.is_some() {
            self.insert_at = Some(0);
        }
    }

    /// What `seat` (None: a spectator) may see: how many items wait, who is asked, who has
    /// answered and the prompt; the options and answers of the seat itself only; neither the
    /// names nor the data of scheduled functions (a step chosen by a hidden card would leak
    /// through its name, and data may be anyone's secret).
    pub fn view(&self, seat: Option<usize>) -> Agenda {
        let items = self
            .items
            .iter()
            .map(|item| match item {
                Item::Step { .. } => Item::Step {
                    function: String::new(),
                    data: None,
                },
                Item::Question(q) => Item::Question(q.view(seat)),
            })
            .collect();
        Agenda {
            items,
            insert_at: None,
        }
    }
}

impl Question {
    /// The question as `seat` may see it (see `Agenda::view`): that another seat has answered
    /// is public (as a held simultaneous choice), its answer is not.
    fn view(&self, seat: Option<usize>) -> Question {
        let mine = |s: usize| Some(s) == seat;
        Question {
            seats: self
                .seats
                .iter()
                .map(|(s, o)| (*s, if mine(*s) { o.clone() } else { vec![] }))
                .collect(),
            prompt: self.prompt.clone(),
            prompts: self
                .prompts
                .iter()
                .filter(|(s, _)| mine(**s))
                .map(|(s, p)| (*s, p.clone()))
                .collect(),
            then: String::new(),
            then_all: self.then_all,
            data: None,
            log: self.log.clone(),
            answers: self
                .answers
                .iter()
                .map(|(s, a)| (*s, if mine(*s) { a.clone() } else { String::new() }))
                .collect(),
            list: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(f: &str) -> Item {
        Item::Step {
            function: f.into(),
            data: None,
        }
    }

    fn next(a: &mut Agenda) -> String {
        match a.pop() {
            Some(Item::Step { function, .. }) => function,
            other => panic!("expected a step, got {other:?}"),
        }
    }

    #[test]
    fn items_run_in_the_order_scheduled_and_before_older_ones() {
        let mut a = Agenda::default();
        a.open();
        a.schedule(step("a")).unwrap();
        a.schedule(step("b")).unwrap();
        a.close();
        assert_eq!(next(&mut a), "a");
        // `a` schedules two more: they come before `b`.
        a.open();
        a.schedule(step("a1")).unwrap();
        a.schedule(step("a2")).unwrap();
        a.close();
        assert_eq!(
            [next(&mut a), next(&mut a), next(&mut a)],
            ["a1", "a2", "b"]
        );
        assert!(a.is_empty());
    }

    #[test]
    fn scheduling_is_refused_outside_a_running_function() {
        let mut a = Agenda::default();
        let err = a.schedule(step("a")).unwrap_err();
        assert!(err.starts_with("nothing can be scheduled here"), "{err}");
        assert!(a.is_empty());
    }

    #[test]
    fn a_view_hides_other_seats_options_answers_callbacks_and_all_data() {
        let mut a = Agenda::default();
        a.open();
        a.schedule(Item::Question(Question {
            seats: vec![(0, vec!["x".into()]), (1, vec!["y".into()])],
            prompt: "pick".into(),
            prompts: BTreeMap::new(),
            then: "picked".into(),
            then_all: false,
            log: AnswerLog::Asked,
            data: Some(Value::Int(7)),
            answers: BTreeMap::from([(1, "y".into())]),
            list: "listed".into(),
        }))
        .unwrap();
        let v = a.view(Some(0));
        let q = v.question().unwrap();
        assert_eq!(q.options_of(0), Some(&["x".to_string()][..]));
        assert_eq!(q.options_of(1), Some(&[][..]));
        assert_eq!(
            q.answers,
            BTreeMap::from([(1, String::new())]),
            "answered, not what"
        );
        assert_eq!(q.waiting().count(), 1);
        assert_eq!((q.then.as_str(), &q.data, q.list.as_str()), ("", &None, ""));
        assert_eq!(q.prompt, "pick");
    }

    #[test]
    fn a_prompt_is_for_the_asked_seats_only() {
        let mut a = Agenda::default();
        assert_eq!(a.prompt_for(0), None);
        a.open();
        a.schedule(Item::Question(Question {
            seats: vec![(1, vec!["y".into()])],
            prompt: "pick".into(),
            prompts: BTreeMap::new(),
            then: "picked".into(),
            then_all: false,
            log: AnswerLog::Asked,
            data: None,
            answers: BTreeMap::new(),
            list: String::new(),
        }))
        .unwrap();
        assert_eq!(a.prompt_for(1), Some("pick"));
        assert_eq!(a.prompt_for(0), None);
        assert_eq!(a.view(Some(1)).prompt_for(1), Some("pick"));
    }
}
