//! The REPL command language: `undo 2`, `do @north pass`, `save game.json`, ...

use pest::iterators::{Pair, Pairs};
use pest::Parser;
use pest_derive::Parser;

use crate::action::parse_action;
use crate::error::GrammarError;

#[derive(Parser)]
#[grammar = "command.pest"]
struct CommandParser;

/// One parsed REPL command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `help [command]`; the command name is lowercased.
    Help(Option<String>),
    /// `show`
    Show,
    /// `actions`
    Actions,
    /// `<n>` or `pick <n>`: play the n-th listed legal action (1-based).
    Pick(usize),
    /// `do [@seat] <action>`; `action` is canonical notation (single spaces).
    Do {
        seat: Option<String>,
        action: String,
    },
    /// `undo [n]`, default 1.
    Undo(usize),
    /// `redo [n]`, default 1.
    Redo(usize),
    /// `bot [n] [bot] [-v]`: n actions (default 1) chosen by `bot` (a spec such as
    /// `mcts:iters=2000`; none: the seat's configured bot); `-v` (`--verbose`) lists every one.
    Bot {
        count: usize,
        bot: Option<String>,
        verbose: bool,
    },
    /// `hint [bot]`: the bot's reading of the current decision (none: the default bot).
    Hint(Option<String>),
    /// `log [@seat] [n]`: the whole log, or its last n entries; as `seat` reads it when one
    /// is named (the `@` dropped).
    Log {
        seat: Option<String>,
        count: Option<usize>,
    },
    /// `save <file>`; `save! <file>` or `save --force <file>` may replace an existing file.
    Save { path: String, overwrite: bool },
    /// `load <file>`; `load! <file>` or `load --force <file>` may replace a game not saved.
    Load { path: String, force: bool },
    /// `position <file>`
    Position(String),
    /// `reload`
    Reload,
    /// `eval <expression>`: the rest of the line, trimmed.
    Eval(String),
    /// `status`
    Status,
    /// `state`
    State,
    /// `view [seat]`; a leading `@` on the seat is optional and dropped.
    View(Option<String>),
    /// `quit` or `exit`
    Quit,
}

/// A command's name, usage line and one-line description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandHelp {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
}

const fn entry(name: &'static str, usage: &'static str, about: &'static str) -> CommandHelp {
    CommandHelp { name, usage, about }
}

/// Every command with its usage line and one-line help, for `help` and tab completion.
pub const COMMANDS: &[CommandHelp] = &[
    entry(
        "help",
        "help [command]",
        "list the commands, or explain one",
    ),
    entry("show", "show", "show the current position"),
    entry("actions", "actions", "list the legal actions, numbered"),
    entry("pick", "[pick] <n>", "play the n-th listed legal action"),
    entry(
        "do",
        "do [@seat] <action>",
        "play an action, optionally as another seat",
    ),
    entry(
        "undo",
        "undo [n]",
        "take back the last n actions (default 1)",
    ),
    entry("redo", "redo [n]", "replay n undone actions (default 1)"),
    entry(
        "bot",
        "bot [n] [bot] [-v]",
        "let a bot play n actions (default 1); -v lists them all",
    ),
    entry(
        "hint",
        "hint [bot]",
        "a bot's best moves for the deciding seat, with win rates",
    ),
    entry(
        "log",
        "log [@seat] [n]",
        "show the game log (as seat reads it), or its last n entries",
    ),
    entry(
        "save",
        "save[!] <file>",
        "save the game to a new file (save! replaces one)",
    ),
    entry(
        "load",
        "load[!] <file>",
        "load a saved game (load! replaces a game not saved)",
    ),
    entry(
        "position",
        "position <file>",
        "set up a position from a file",
    ),
    entry("reload", "reload", "reload the rules, keeping the game"),
    entry("eval", "eval <expression>", "evaluate a script expression"),
    entry(
        "status",
        "status",
        "show whose turn it is and the game status",
    ),
    entry("state", "state", "print the full game state"),
    entry("view", "view [seat]", "show the game as a seat sees it"),
    entry("quit", "quit", "leave"),
    entry("exit", "exit", "leave (same as quit)"),
];

/// The help entry for a command name, ignoring case.
pub fn help_for(name: &str) -> Option<&'static CommandHelp> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// Parses one REPL line; `Ok(None)` means the line was blank.
pub fn parse_command(line: &str) -> Result<Option<Command>, GrammarError> {
    let Some(head) = first_word(line) else {
        return Ok(None);
    };
    // A line starting with a digit is a bare `pick`; `save!` is `save` that may overwrite.
    let name = if head.as_str().starts_with(|c: char| c.is_ascii_digit()) {
        "pick"
    } else if head.as_str().eq_ignore_ascii_case("save!") {
        "save"
    } else if head.as_str().eq_ignore_ascii_case("load!") {
        "load"
    } else {
        head.as_str()
    };
    let help = help_for(name).ok_or_else(|| {
        let (line_no, column) = head.line_col();
        GrammarError::new(
            line_no,
            column,
            format!("unknown command `{}`; try `help`", head.as_str()),
        )
    })?;
    let usage = format!("; usage: {}", help.usage);
    let args = CommandParser::parse(rule_for(help.name), line)
        .map_err(|e| GrammarError::from_pest(e, describe_rule).with_suffix(&usage))?;
    build(help.name, args)
        .map(Some)
        .map_err(|e| e.with_suffix(&usage))
}

fn first_word(line: &str) -> Option<Pair<'_, Rule>> {
    let mut head = CommandParser::parse(Rule::head, line).expect("`head` matches any line");
    head.next()?.into_inner().next()
}

fn rule_for(name: &str) -> Rule {
    match name {
        "help" => Rule::help_line,
        "pick" => Rule::pick_line,
        "do" => Rule::do_line,
        "undo" | "redo" => Rule::count_line,
        "log" => Rule::log_line,
        "bot" => Rule::bot_line,
        "hint" => Rule::hint_line,
        "save" | "load" | "position" => Rule::path_line,
        "eval" => Rule::eval_line,
        "view" => Rule::view_line,
        _ => Rule::bare_line,
    }
}

fn describe_rule(rule: &Rule) -> String {
    match rule {
        Rule::count => "a positive number",
        Rule::topic => "a command name",
        // `seat` is optional, so what the user lacks is the action.
        Rule::seat => "an action after `do`",
        Rule::seat_name => "a seat name",
        Rule::log_seat => "`@seat`",
        Rule::path | Rule::force => "a file name",
        Rule::verbose => "`-v`",
        Rule::bot_spec => "a bot (as `mcts:iters=500`)",
        Rule::script => "an expression",
        Rule::action => "an action after `do`",
        Rule::EOI => "end of line",
        _ => "a command",
    }
    .to_owned()
}

/// Builds the command from a successful parse of its `*_line` rule.
fn build(name: &str, pairs: Pairs<Rule>) -> Result<Command, GrammarError> {
    let find = |rule| pairs.clone().flatten().find(|p| p.as_rule() == rule);
    let count = || find(Rule::count).map(|p| count_value(&p)).transpose();
    let rest = |rule| find(rule).map_or(String::new(), |p| p.as_str().trim_end().to_owned());
    let seat = || find(Rule::seat_name).map(|p| p.as_str().to_owned());

    Ok(match name {
        "help" => Command::Help(find(Rule::topic).map(|p| p.as_str().to_lowercase())),
        "show" => Command::Show,
        "actions" => Command::Actions,
        "pick" => Command::Pick(count()?.expect("grammar requires a count")),
        "do" => Command::Do {
            seat: seat(),
            action: do_action(&find(Rule::action).expect("grammar requires an action"))?,
        },
        "undo" => Command::Undo(count()?.unwrap_or(1)),
        "redo" => Command::Redo(count()?.unwrap_or(1)),
        "bot" => Command::Bot {
            count: count()?.unwrap_or(1),
            bot: find(Rule::bot_spec).map(|p| p.as_str().to_owned()),
            verbose: find(Rule::verbose).is_some(),
        },
        "hint" => Command::Hint(find(Rule::bot_spec).map(|p| p.as_str().to_owned())),
        "log" => Command::Log {
            seat: seat(),
            count: count()?,
        },
        "save" => Command::Save {
            path: rest(Rule::path),
            overwrite: find(Rule::force).is_some(),
        },
        "load" => Command::Load {
            path: rest(Rule::path),
            force: find(Rule::force).is_some(),
        },
        "position" => Command::Position(rest(Rule::path)),
        "reload" => Command::Reload,
        "eval" => Command::Eval(rest(Rule::script)),
        "status" => Command::Status,
        "state" => Command::State,
        "view" => Command::View(seat()),
        "quit" | "exit" => Command::Quit,
        other => unreachable!("no builder for command `{other}`"),
    })
}

fn count_value(pair: &Pair<Rule>) -> Result<usize, GrammarError> {
    pair.as_str().parse().map_err(|_| {
        let (line, column) = pair.line_col();
        GrammarError::new(line, column, "number too large")
    })
}

/// Checks the action notation and returns it in canonical form.
fn do_action(pair: &Pair<Rule>) -> Result<String, GrammarError> {
    let (line, column) = pair.line_col();
    parse_action(pair.as_str())
        .map(|n| n.to_string())
        .map_err(|e| e.shifted(line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> GrammarError {
        parse_command(line).expect_err(line)
    }

    #[test]
    fn blank_lines_are_none() {
        for line in ["", "   ", "\t", " \n"] {
            assert_eq!(parse_command(line), Ok(None), "line {line:?}");
        }
    }

    #[test]
    fn commands_without_arguments() {
        assert_eq!(ok("show"), Command::Show);
        assert_eq!(ok("actions"), Command::Actions);
        assert_eq!(ok("reload"), Command::Reload);
        assert_eq!(ok("status"), Command::Status);
        assert_eq!(ok("state"), Command::State);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("exit"), Command::Quit);
        assert_eq!(ok("  show  "), Command::Show);
    }

    #[test]
    fn keywords_ignore_case() {
        assert_eq!(ok("SHOW"), Command::Show);
        assert_eq!(ok("Undo 2"), Command::Undo(2));
        assert_eq!(ok("ExIt"), Command::Quit);
        assert_eq!(
            ok("DO pass"),
            Command::Do {
                seat: None,
                action: "pass".into()
            }
        );
        assert_eq!(ok("Help UNDO"), Command::Help(Some("undo".into())));
    }

    #[test]
    fn help_with_and_without_topic() {
        assert_eq!(ok("help"), Command::Help(None));
        assert_eq!(ok("help  save "), Command::Help(Some("save".into())));
        let e = err("help save load");
        assert_eq!(e.message, "expected end of line; usage: help [command]");
        assert_eq!(e.column, 11);
    }

    #[test]
    fn counts_default_to_one() {
        assert_eq!(ok("undo"), Command::Undo(1));
        assert_eq!(ok("undo 3"), Command::Undo(3));
        assert_eq!(ok("redo"), Command::Redo(1));
        assert_eq!(ok("redo 4"), Command::Redo(4));
        let bot = |count| Command::Bot {
            count,
            bot: None,
            verbose: false,
        };
        assert_eq!(ok("bot"), bot(1));
        assert_eq!(ok("bot 10"), bot(10));
        let log = |seat: Option<&str>, count| Command::Log {
            seat: seat.map(str::to_string),
            count,
        };
        assert_eq!(ok("log"), log(None, None));
        assert_eq!(ok("log 5"), log(None, Some(5)));
        assert_eq!(ok("log @p2"), log(Some("p2"), None));
        assert_eq!(ok("LOG  @north  3 "), log(Some("north"), Some(3)));
        assert_eq!(ok("undo 007"), Command::Undo(7));
    }

    #[test]
    fn bad_counts_name_the_usage() {
        for (line, column) in [("undo x", 6), ("undo 0", 6), ("undo -1", 6), ("undo 3x", 6)] {
            let e = err(line);
            assert_eq!(
                e.message, "expected a positive number or end of line; usage: undo [n]",
                "line {line:?}"
            );
            assert_eq!(e.column, column, "line {line:?}");
        }
        assert_eq!(
            err("redo 0").message,
            "expected a positive number or end of line; usage: redo [n]"
        );
        assert_eq!(
            err("bot 1 2").message,
            "expected `-v`, a bot (as `mcts:iters=500`), or end of line; usage: bot [n] [bot] [-v]"
        );
        assert_eq!(
            err("log 0").message,
            "expected `@seat`, a positive number, or end of line; usage: log [@seat] [n]"
        );
        assert_eq!(
            err("log 3 @p1").message,
            "expected end of line; usage: log [@seat] [n]"
        );
        let e = err("log @");
        assert_eq!(e.message, "expected a seat name; usage: log [@seat] [n]");
        assert_eq!(e.column, 6);

        let e = err("undo 99999999999999999999999");
        assert_eq!(e.message, "number too large; usage: undo [n]");
        assert_eq!(e.column, 6);
    }

    #[test]
    fn bare_numbers_pick() {
        assert_eq!(ok("3"), Command::Pick(3));
        assert_eq!(ok("  12 "), Command::Pick(12));
        assert_eq!(ok("pick 2"), Command::Pick(2));
        assert_eq!(
            err("0").message,
            "expected a positive number; usage: [pick] <n>"
        );
        assert_eq!(
            err("pick").message,
            "expected a positive number; usage: [pick] <n>"
        );
        assert_eq!(
            err("3 4").message,
            "expected end of line; usage: [pick] <n>"
        );
    }

    #[test]
    fn do_takes_an_action_and_optional_seat() {
        assert_eq!(
            ok("do c3"),
            Command::Do {
                seat: None,
                action: "c3".into()
            }
        );
        assert_eq!(
            ok("do   give  3\tto East  "),
            Command::Do {
                seat: None,
                action: "give 3 to East".into()
            }
        );
        assert_eq!(
            ok("do @north play card 5"),
            Command::Do {
                seat: Some("north".into()),
                action: "play card 5".into()
            }
        );
        // An `@` later in the action is part of the action.
        assert_eq!(
            ok("do play 5 @north"),
            Command::Do {
                seat: None,
                action: "play 5 @north".into()
            }
        );
    }

    #[test]
    fn do_errors() {
        let e = err("do");
        assert_eq!(
            e.message,
            "expected an action after `do`; usage: do [@seat] <action>"
        );
        assert_eq!(e.column, 3);
        assert_eq!(err("do   ").message, e.message);

        let e = err("do @");
        assert_eq!(
            e.message,
            "expected a seat name; usage: do [@seat] <action>"
        );
        assert_eq!(e.column, 5);

        let e = err("do @north");
        assert_eq!(
            e.message,
            "expected an action after `do`; usage: do [@seat] <action>"
        );
        assert_eq!(e.column, 10);

        // Action errors point into the whole line.
        let e = err("do  play 5%");
        assert_eq!(
            e.message,
            "character `%` is not allowed in an action; usage: do [@seat] <action>"
        );
        assert_eq!(e.column, 11);
    }

    #[test]
    fn file_commands_take_the_rest_of_the_line() {
        let save = |path: &str, overwrite| Command::Save {
            path: path.into(),
            overwrite,
        };
        assert_eq!(ok("save game.json"), save("game.json", false));
        assert_eq!(ok("save! game.json"), save("game.json", true));
        assert_eq!(ok("SAVE!  my game.json "), save("my game.json", true));
        assert_eq!(ok("save --force game.json"), save("game.json", true));
        assert_eq!(ok("save --forced.json"), save("--forced.json", false));
        assert_eq!(
            ok("load  saves/my game 1.json  "),
            Command::Load {
                path: "saves/my game 1.json".into(),
                force: false
            }
        );
        assert_eq!(
            ok("POSITION /tmp/p.toml"),
            Command::Position("/tmp/p.toml".into())
        );
        let e = err("save");
        assert_eq!(e.message, "expected a file name; usage: save[!] <file>");
        assert_eq!(e.column, 5);
        assert_eq!(
            err("load   ").message,
            "expected a file name; usage: load[!] <file>"
        );
    }

    #[test]
    fn eval_keeps_the_expression_verbatim() {
        assert_eq!(
            ok("eval  state.turn  +  1 "),
            Command::Eval("state.turn  +  1".into())
        );
        assert_eq!(ok("eval x.len()"), Command::Eval("x.len()".into()));
        assert_eq!(
            err("eval ").message,
            "expected an expression; usage: eval <expression>"
        );
    }

    #[test]
    fn view_takes_an_optional_seat() {
        assert_eq!(ok("view"), Command::View(None));
        assert_eq!(ok("view north"), Command::View(Some("north".into())));
        assert_eq!(ok("view @South"), Command::View(Some("South".into())));
        let e = err("view @");
        assert_eq!(e.message, "expected a seat name; usage: view [seat]");
        assert_eq!(e.column, 7);
    }

    #[test]
    fn extra_arguments_are_rejected() {
        let e = err("show me");
        assert_eq!(e.message, "expected end of line; usage: show");
        assert_eq!(e.column, 6);
        assert_eq!(err("quit now").message, "expected end of line; usage: quit");
    }

    #[test]
    fn unknown_commands_suggest_help() {
        let e = err("frobnicate 3");
        assert_eq!(e.message, "unknown command `frobnicate`; try `help`");
        assert_eq!(e.column, 1);
        assert_eq!(
            err("  shows").message,
            "unknown command `shows`; try `help`"
        );
        assert_eq!(err("  shows").column, 3);
        assert_eq!(
            err("do@north pass").message,
            "unknown command `do@north`; try `help`"
        );
    }

    #[test]
    fn every_listed_command_parses_and_has_help() {
        let samples = [
            ("help", "help", Command::Help(None)),
            ("show", "show", Command::Show),
            ("actions", "actions", Command::Actions),
            ("pick", "pick 1", Command::Pick(1)),
            (
                "do",
                "do pass",
                Command::Do {
                    seat: None,
                    action: "pass".into(),
                },
            ),
            ("undo", "undo", Command::Undo(1)),
            ("redo", "redo", Command::Redo(1)),
            (
                "bot",
                "bot",
                Command::Bot {
                    count: 1,
                    bot: None,
                    verbose: false,
                },
            ),
            ("hint", "hint", Command::Hint(None)),
            (
                "log",
                "log",
                Command::Log {
                    seat: None,
                    count: None,
                },
            ),
            (
                "save",
                "save f",
                Command::Save {
                    path: "f".into(),
                    overwrite: false,
                },
            ),
            (
                "load",
                "load f",
                Command::Load {
                    path: "f".into(),
                    force: false,
                },
            ),
            ("position", "position f", Command::Position("f".into())),
            ("reload", "reload", Command::Reload),
            ("eval", "eval 1", Command::Eval("1".into())),
            ("status", "status", Command::Status),
            ("state", "state", Command::State),
            ("view", "view", Command::View(None)),
            ("quit", "quit", Command::Quit),
            ("exit", "exit", Command::Quit),
        ];
        assert_eq!(COMMANDS.len(), samples.len());
        for (c, (name, line, expected)) in COMMANDS.iter().zip(samples) {
            assert_eq!(c.name, name);
            assert_eq!(ok(line), expected, "line {line:?}");
            assert!(c.usage.contains(name), "usage of {name}");
            assert!(!c.about.is_empty(), "about of {name}");
        }
    }

    /// Issue 23: `bot` takes a bot after its count, `hint` one alone.
    #[test]
    fn bot_and_hint_name_a_bot() {
        assert_eq!(
            ok("bot 3 mcts:iters=10 -v"),
            Command::Bot {
                count: 3,
                bot: Some("mcts:iters=10".into()),
                verbose: true
            }
        );
        assert_eq!(
            ok("BOT random"),
            Command::Bot {
                count: 1,
                bot: Some("random".into()),
                verbose: false
            }
        );
        assert_eq!(ok("hint"), Command::Hint(None));
        assert_eq!(
            ok("hint  mcts:iters=10,c=1.4 "),
            Command::Hint(Some("mcts:iters=10,c=1.4".into()))
        );
        let e = err("hint mcts random");
        assert_eq!(e.message, "expected end of line; usage: hint [bot]");
        assert_eq!(e.column, 11);
        assert_eq!(
            err("hint 3").message,
            "expected a bot (as `mcts:iters=500`) or end of line; usage: hint [bot]"
        );
        assert_eq!(
            err("bot -v 3").message,
            "expected end of line; usage: bot [n] [bot] [-v]"
        );
        assert_eq!(
            err("bot mcts 3").message,
            "expected `-v` or end of line; usage: bot [n] [bot] [-v]"
        );
    }

    #[test]
    fn help_for_ignores_case() {
        assert_eq!(help_for("UNDO").map(|c| c.usage), Some("undo [n]"));
        assert_eq!(help_for("exit").map(|c| c.name), Some("exit"));
        assert_eq!(help_for("frobnicate"), None);
    }
}
