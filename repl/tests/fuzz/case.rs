//! A protocol fuzz case: the steps (valid and hostile lines), the model of the undo and redo
//! history, and the checks made around every line.

use super::mutate::{apply_byte_edit, byte_edit, mutate_save, save_edits, ByteEdit, SaveEdit};
use super::process::{scripts_dir, short, Proc, TRAP};
use boardscript_grammar::{parse_command, Command as Cmd};
use boardscript_interpreter::log::SaveFile;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::PathBuf;

/// A hostile line's length: "100 KB lines".
const LONG: usize = 100_000;

/// One step of a case. Indices pick among what exists at that moment (legal actions, saves,
/// seats), modulo their number, so that shrinking keeps cases meaningful.
#[derive(Debug, Clone)]
pub enum Op {
    // Valid commands.
    DoLegal { pick: usize, name_seat: bool },
    Pick(usize),
    Bot(usize),
    Undo(usize),
    Redo(usize),
    Status,
    Show,
    Actions,
    Log(usize),
    View(Option<usize>),
    Help,
    Save,
    LoadSaved(usize),
    PositionFile(usize),
    Reload,
    Eval(&'static str),
    // Hostile lines.
    Unknown(String),
    IllegalAction(String),
    DoNobody,
    DoNotDeciding(usize),
    Pick0,
    PickHuge,
    LoadMissing,
    LoadFolder,
    LoadGarbage(Vec<u8>),
    PositionGarbage(Vec<u8>),
    LoadMutated(Vec<SaveEdit>),
    PositionMutated(usize, Vec<ByteEdit>),
    Empty,
    WithNul(String),
    InvalidUtf8(Vec<u8>),
    Long(LongKind),
    Arbitrary(String),
}

/// Expressions for `eval`, accepted or refused, none of which may change the game: the
/// script sandbox's limits are tested elsewhere, so nothing here is slow or huge.
pub const EVALS: &[&str] = &[
    "g.turn()",
    "g.set(\"x\", 5); 1",
    "let a = [1, 2]; a",
    "1/0",
    "throw \"boom\"",
    "nonexistent_fn()",
    "loop {}",
    "g.seats()",
    "legal_actions(g, g.seats()[0])",
    // Issue 20: frozen values doubled, compared, walked and stored (each refused or bounded).
    "let d = freeze([1]); for i in 0..40 { d = freeze([d, d]); } d.copy()",
    "let a = freeze([1]); let b = freeze([1]); for i in 0..60 { a = freeze([a, a]); b = freeze([b, b]); } let x = freeze([a]); x[0] = b; 1",
    "let d = freeze([1]); for i in 0..12 { d = freeze([d, d]); } `${d}`.len()",
    "let d = freeze([1]); for i in 0..12 { d = freeze([d, d]); } let all = []; for i in 0..2000 { all.push(d); } g.set(\"y\", all); 1",
];

#[derive(Debug, Clone, Copy)]
pub enum LongKind {
    Do,
    Word,
    Load,
    View,
    Nul,
    Invalid,
    Spaces,
}

pub fn op() -> impl Strategy<Value = Op> {
    let garbage = prop::collection::vec(any::<u8>(), 0..200);
    let word = "[a-zA-Z_!?%$]{1,12}";
    prop_oneof![
        // Valid.
        8 => (any::<usize>(), any::<bool>())
            .prop_map(|(pick, name_seat)| Op::DoLegal { pick, name_seat }),
        2 => (0..40usize).prop_map(Op::Pick),
        2 => (1..4usize).prop_map(Op::Bot),
        3 => (1..4usize).prop_map(Op::Undo),
        2 => (1..4usize).prop_map(Op::Redo),
        1 => Just(Op::Status),
        1 => Just(Op::Show),
        1 => Just(Op::Actions),
        1 => (1..4usize).prop_map(Op::Log),
        1 => prop::option::of(0..6usize).prop_map(Op::View),
        1 => Just(Op::Help),
        2 => Just(Op::Save),
        2 => any::<usize>().prop_map(Op::LoadSaved),
        1 => any::<usize>().prop_map(Op::PositionFile),
        1 => Just(Op::Reload),
        2 => prop::sample::select(EVALS).prop_map(Op::Eval),
        // Hostile.
        1 => word.prop_map(Op::Unknown),
        2 => "[a-z0-9 ]{1,12}".prop_map(Op::IllegalAction),
        1 => Just(Op::DoNobody),
        1 => any::<usize>().prop_map(Op::DoNotDeciding),
        1 => Just(Op::Pick0),
        1 => Just(Op::PickHuge),
        1 => Just(Op::LoadMissing),
        1 => Just(Op::LoadFolder),
        1 => garbage.clone().prop_map(Op::LoadGarbage),
        1 => garbage.clone().prop_map(Op::PositionGarbage),
        4 => save_edits().prop_map(Op::LoadMutated),
        2 => (any::<usize>(), prop::collection::vec(byte_edit(), 1..4))
            .prop_map(|(i, e)| Op::PositionMutated(i, e)),
        1 => Just(Op::Empty),
        1 => "[a-z0-9 @]{0,8}".prop_map(Op::WithNul),
        1 => garbage.prop_map(Op::InvalidUtf8),
        1 => prop::sample::select(vec![
            LongKind::Do,
            LongKind::Word,
            LongKind::Load,
            LongKind::View,
            LongKind::Nul,
            LongKind::Invalid,
            LongKind::Spaces,
        ])
        .prop_map(Op::Long),
        3 => ".{0,40}".prop_map(Op::Arbitrary),
    ]
}

/// What the undo and redo lists should hold: how many actions can be undone, and redone.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct History {
    undoable: usize,
    redoable: usize,
}

impl History {
    /// Updates the model from an accepted reply, whatever line it answered: the reply's
    /// fields say which command it was.
    pub fn apply(&mut self, reply: &Value) -> Result<(), String> {
        let count = |key: &str| reply[key].as_u64().map(|n| n as usize);
        if let Some(n) = count("undone") {
            if n > self.undoable {
                return Err(format!("undid {n} of {} actions", self.undoable));
            }
            self.undoable -= n;
            self.redoable += n;
        } else if let Some(n) = count("redone") {
            if n > self.redoable {
                return Err(format!("redid {n} of {} undone actions", self.redoable));
            }
            self.redoable -= n;
            self.undoable += n;
        } else if reply.get("action").is_some() && reply.get("seat").is_some() {
            self.undoable += 1;
            self.redoable = 0;
        } else if let Some(played) = reply["played"].as_array() {
            if !played.is_empty() {
                self.undoable += played.len();
                self.redoable = 0;
            }
        } else if let Some(n) = count("actions").or_else(|| count("replayed")) {
            // `load`, `reload`: the log is replaced and the redo list cleared.
            *self = History {
                undoable: n,
                redoable: 0,
            };
        } else if reply["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("position set"))
        {
            *self = History::default();
        }
        Ok(())
    }
}

/// Lines a case must not send through `Arbitrary`: `quit` ends the case early, `eval` is the
/// script sandbox's business (fuzzed elsewhere), and a file command with a path could touch
/// files outside the case's temporary folder.
pub fn defused(line: &str) -> String {
    match parse_command(line) {
        Ok(Some(Cmd::Quit | Cmd::Eval(_))) => "status".into(),
        Ok(Some(Cmd::Save { path: p, .. } | Cmd::Load { path: p, .. } | Cmd::Position(p)))
            if p.contains(['/', '\\', '~']) || p.starts_with('.') =>
        {
            "status".into()
        }
        _ => line.to_string(),
    }
}

pub struct Case {
    p: Proc,
    game: String,
    seats: Vec<String>,
    saves: Vec<PathBuf>,
    history: History,
    /// The state with every action undone, while no load or position has changed it.
    root: Option<String>,
    /// The state now, when known without asking.
    known: Option<String>,
    files: usize,
    /// Set by an op whose line must be accepted (an action `actions` listed).
    expect_ok: bool,
    /// Set by an op that loads a mutated save: its text, which may load only if well formed.
    mutated: Option<Vec<u8>>,
}

impl Case {
    pub fn start(game: &str, seed: u64) -> Case {
        let mut p = Proc::start(game, seed);
        let root = p.state();
        let seats = serde_json::from_str::<Value>(&root).unwrap()["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        Case {
            p,
            game: game.into(),
            seats,
            saves: vec![],
            history: History::default(),
            root: Some(root.clone()),
            known: Some(root),
            files: 0,
            expect_ok: false,
            mutated: None,
        }
    }

    pub fn fail(&self, what: &str) -> ! {
        panic!("{what}; sent:\n  {}", self.p.history());
    }

    /// A new file in the case's folder holding `bytes`.
    pub fn file(&mut self, stem: &str, bytes: &[u8]) -> String {
        self.files += 1;
        let path = self.p.dir.path().join(format!("{stem}-{}", self.files));
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    }

    /// The legal `(seat, action)` pairs now, seats in name order.
    pub fn legal(&mut self) -> Vec<(String, String)> {
        let v = self.p.line("actions");
        if v["ok"] == false {
            // A script error (the trap game): nothing is listed.
            return vec![];
        }
        let Some(deciding) = v["deciding"].as_object() else {
            self.fail(&format!("`actions` gave {v}"));
        };
        deciding
            .iter()
            .flat_map(|(seat, acts)| {
                acts.as_array()
                    .unwrap()
                    .iter()
                    .map(move |a| (seat.clone(), a.as_str().unwrap().to_string()))
            })
            .collect()
    }

    pub fn positions(&self) -> Vec<PathBuf> {
        let dir = scripts_dir().join(&self.game).join("positions");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        files
    }

    /// A valid save of the game as it is now, written by the process itself.
    pub fn save_now(&mut self) -> Option<String> {
        let path = self.file("save", b"");
        std::fs::remove_file(&path).unwrap();
        let v = self.run(format!("save {path}").as_bytes(), true);
        if v["ok"] != true {
            return None;
        }
        self.saves.push(path.clone().into());
        Some(std::fs::read_to_string(&path).unwrap())
    }

    /// The line an op sends (after any preparation it needs), and whether it is a query that
    /// must change nothing even when accepted.
    pub fn line_for(&mut self, op: &Op) -> (Vec<u8>, bool) {
        let text = |s: String| (s.into_bytes(), false);
        let query = |s: &str| (s.as_bytes().to_vec(), true);
        match op {
            Op::DoLegal { pick, name_seat } => {
                let legal = self.legal();
                if legal.is_empty() {
                    return text("do a1".into());
                }
                let (seat, action) = &legal[pick % legal.len()];
                let one_seat = legal.iter().all(|(s, _)| s == seat);
                // The trap game's `apply` may throw on a listed action.
                self.expect_ok = self.game != TRAP;
                if *name_seat || !one_seat {
                    text(format!("do @{seat} {action}"))
                } else {
                    text(format!("do {action}"))
                }
            }
            Op::Pick(n) => text(format!("pick {}", n + 1)),
            Op::Bot(n) => text(format!("bot {n}")),
            Op::Undo(n) => text(format!("undo {n}")),
            Op::Redo(n) => text(format!("redo {n}")),
            Op::Status => query("status"),
            Op::Show => query("show"),
            Op::Actions => query("actions"),
            Op::Log(n) => (format!("log {n}").into_bytes(), true),
            Op::View(None) => query("view"),
            Op::View(Some(i)) => {
                let seat = self.seats.get(*i).map_or("nobody", String::as_str);
                (format!("view {seat}").into_bytes(), true)
            }
            Op::Help => query("help"),
            // The rules on disk are unchanged, so replaying the log gives the same state.
            Op::Reload => query("reload"),
            Op::Eval(expr) => (format!("eval {expr}").into_bytes(), true),
            Op::Save => {
                let path = self.file("save", b"");
                std::fs::remove_file(&path).unwrap();
                self.saves.push(path.clone().into());
                (format!("save {path}").into_bytes(), true)
            }
            Op::LoadSaved(i) => match self.saves.get(i % self.saves.len().max(1)) {
                Some(path) => text(format!("load {}", path.display())),
                None => text("load no-save-yet.json".into()),
            },
            Op::PositionFile(i) => {
                let files = self.positions();
                match files.get(i % files.len().max(1)) {
                    Some(path) => text(format!("position {}", path.display())),
                    None => text("position no-positions.txt".into()),
                }
            }
            Op::Unknown(word) => text(format!("{word}x frobnicate")),
            Op::IllegalAction(a) => text(format!("do zz{a}")),
            Op::DoNobody => text("do @nobody x".into()),
            Op::DoNotDeciding(i) => {
                let deciding: Vec<String> =
                    self.legal().into_iter().map(|(seat, _)| seat).collect();
                let others: Vec<&String> = self
                    .seats
                    .iter()
                    .filter(|s| !deciding.contains(s))
                    .collect();
                match others.get(i % others.len().max(1)) {
                    Some(seat) => text(format!("do @{seat} a1")),
                    None => text("do @nobody a1".into()),
                }
            }
            Op::Pick0 => text("pick 0".into()),
            Op::PickHuge => text("pick 99999".into()),
            Op::LoadMissing => text("load /nonexistent/save.json".into()),
            Op::LoadFolder => text(format!("load {}", self.p.dir.path().display())),
            Op::LoadGarbage(bytes) => {
                let path = self.file("garbage", bytes);
                text(format!("load {path}"))
            }
            Op::PositionGarbage(bytes) => {
                let path = self.file("garbage", bytes);
                text(format!("position {path}"))
            }
            Op::LoadMutated(edits) => {
                let Some(base) = self.save_now() else {
                    return text("load no-save.json".into());
                };
                let mutated = mutate_save(&base, edits);
                let path = self.file("mutated", &mutated);
                self.mutated = Some(mutated);
                text(format!("load {path}"))
            }
            Op::PositionMutated(i, edits) => {
                let files = self.positions();
                let mut bytes = files
                    .get(i % files.len().max(1))
                    .map(|f| std::fs::read(f).unwrap())
                    .unwrap_or_default();
                for e in edits {
                    apply_byte_edit(&mut bytes, e);
                }
                let path = self.file("position", &bytes);
                text(format!("position {path}"))
            }
            Op::Empty => text(String::new()),
            Op::WithNul(s) => text(format!("do {s}\0{s}")),
            Op::InvalidUtf8(bytes) => {
                let mut line = b"do ".to_vec();
                line.extend(bytes.iter().map(|&b| if b == b'\n' { 0xFF } else { b }));
                line.push(0xFE);
                (line, false)
            }
            Op::Long(kind) => {
                let line = match kind {
                    LongKind::Do => format!("do {}", "a".repeat(LONG)).into_bytes(),
                    LongKind::Word => "b".repeat(LONG).into_bytes(),
                    LongKind::Load => format!("load {}", "x".repeat(LONG)).into_bytes(),
                    LongKind::View => format!("view {}", "s".repeat(LONG)).into_bytes(),
                    LongKind::Nul => vec![0; LONG],
                    LongKind::Invalid => vec![0xC3; LONG],
                    LongKind::Spaces => format!("undo{}", " ".repeat(LONG)).into_bytes(),
                };
                (line, false)
            }
            Op::Arbitrary(s) => text(defused(&s.replace(['\n', '\r'], " "))),
        }
    }

    /// Sends one line and checks the contract around it; returns the reply.
    pub fn run(&mut self, line: &[u8], query: bool) -> Value {
        let before = match self.known.take() {
            Some(state) => state,
            None => self.p.state(),
        };
        let reply = self.p.send(line);
        let shown = short(&String::from_utf8_lossy(line));
        if reply["ok"] == false || query {
            let after = self.p.state();
            if after != before {
                let why = if reply["ok"] == false {
                    "refused"
                } else {
                    "a query"
                };
                self.fail(&format!(
                    "{shown} was {why} ({reply}) but the state changed"
                ));
            }
            self.known = Some(after);
        }
        if reply["ok"] == true {
            if let Err(e) = self.history.apply(&reply) {
                self.fail(&format!("{shown}: {e}"));
            }
            let replaced = reply.get("actions").is_some_and(Value::is_u64)
                || reply.get("replayed").is_some()
                || reply["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("position set"));
            if replaced {
                self.root = None;
            }
        }
        reply
    }

    pub fn step(&mut self, op: &Op) {
        self.expect_ok = false;
        self.mutated = None;
        let (line, query) = self.line_for(op);
        let reply = self.run(&line, query);
        if self.expect_ok && reply["ok"] != true {
            self.fail(&format!("a listed action was refused: {reply}"));
        }
        if let (Some(text), true) = (self.mutated.take(), reply["ok"] == true) {
            // Accepted: then it is a well-formed save of this game, all of whose actions were
            // replayed.
            let parsed = std::str::from_utf8(&text)
                .map_err(|e| e.to_string())
                .and_then(|t| SaveFile::parse(t, &self.game));
            match parsed {
                Ok(save) if reply["actions"] == json!(save.actions.len()) => {}
                other => self.fail(&format!(
                    "a mutated save was loaded ({reply}), but it parses as {other:?}"
                )),
            }
        }
    }

    /// Undo everything, then redo everything: the counts match the model, and with every
    /// action undone the game is back at its start.
    pub fn finish(mut self) {
        let want = self.history;
        let undone = self.p.line("undo 1000000000");
        if undone["undone"] != json!(want.undoable) {
            self.fail(&format!("history {want:?}, but undo all gave {undone}"));
        }
        if let Some(root) = self.root.take() {
            if self.p.state() != root {
                self.fail("with every action undone, the state is not the start");
            }
        }
        let redone = self.p.line("redo 1000000000");
        if redone["redone"] != json!(want.undoable + want.redoable) {
            self.fail(&format!("history {want:?}, but redo all gave {redone}"));
        }
        self.p.finish();
    }
}

pub fn run_case(game: &str, seed: u64, ops: &[Op]) {
    let mut case = Case::start(game, seed);
    for op in ops {
        case.step(op);
    }
    case.finish();
}
