//! Pest grammars for Boardscript: REPL commands, action notation and integer expressions.
//!
//! Each grammar has one entry point, and all report a [`GrammarError`] with a
//! 1-based line and column and a short message in the user's words.
//!
//! ```
//! use boardscript_grammar::{parse_action, parse_command, parse_expr, Command, Ops};
//!
//! // REPL commands; a blank line is `Ok(None)`.
//! assert_eq!(parse_command("undo").unwrap(), Some(Command::Undo(1)));
//! assert_eq!(parse_command("   ").unwrap(), None);
//! let err = parse_command("frobnicate").unwrap_err();
//! assert_eq!(err.to_string(), "unknown command `frobnicate`; try `help` (column 1)");
//!
//! // Action notation: whitespace-separated tokens, printed canonically.
//! let action = parse_action("give  3 to east").unwrap();
//! assert_eq!(action.verb(), "give");
//! assert_eq!(action.to_string(), "give 3 to east");
//!
//! // Integer expressions, evaluated exactly.
//! let expr = parse_expr("(9-4)+1", Ops { mul_div: false }).unwrap();
//! assert_eq!(expr.eval(), Ok(6));
//! assert_eq!(expr.to_string(), "9-4+1");
//! assert!(parse_expr("2*3", Ops { mul_div: false }).is_err());
//! ```

mod action;
mod command;
mod error;
mod expr;

pub use action::{parse_action, Notation, MAX_ACTION_CHARS};
pub use command::{help_for, parse_command, Command, CommandHelp, COMMANDS};
pub use error::GrammarError;
pub use expr::{parse_expr, EvalError, Expr, Ops, MAX_DIGITS, MAX_EXPR_CHARS, MAX_EXPR_NESTING};
