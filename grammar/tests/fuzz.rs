//! Fuzzing the grammars with proptest: whatever a client types, the command, action and
//! expression parsers answer `Ok` or a one-line error, never panic, and what they accept has
//! a canonical form that parses back to itself.
//!
//! Cases are bounded (`PROPTEST_CASES` overrides the default below) and the seed is fixed so
//! CI is reproducible; `PROPTEST_RNG_SEED=<n>` explores other cases. Failures are not
//! persisted to files: proptest prints the minimal failing input, which becomes a test here.

use boardscript_grammar::{
    parse_action, parse_command, parse_expr, Command, GrammarError, Ops, COMMANDS, MAX_ACTION_CHARS,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Cases per property unless `PROPTEST_CASES` says otherwise; the grammar is fast, so these
/// are cheap.
const DEFAULT_CASES: u32 = 512;

fn config(default_cases: u32) -> Config {
    fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok()?.parse().ok()
    }
    Config {
        cases: env("PROPTEST_CASES").unwrap_or(default_cases),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x5EED_0009)),
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Generators

/// Characters a hostile client may type: any scalar value, with the awkward ones (controls,
/// NUL, odd whitespace, marks, symbols the grammars use) made likely.
fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        2 => prop::sample::select(vec![
            '\0', '\u{1}', '\u{7}', '\u{8}', '\t', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{7f}',
            '\u{85}', '\u{a0}', '\u{200b}', '\u{2028}', '\u{2029}', '\u{3000}', '\u{feff}',
            '\u{301}', '\u{fffd}', '\u{10ffff}',
        ]),
        3 => prop::sample::select(vec![
            ' ', '@', '#', '(', ')', '+', '-', '*', '/', '×', '÷', '.', ':', ',', '=', '\'', '!',
            '_', '`', '%', '"', '\\', '$', '{', '}', '0', '1', '9', 'a', 'Z', 'é', 'ж', '中',
        ]),
    ]
}

/// Keywords in random case, numbers that do and do not fit a `usize`, seats, and noise.
fn hostile_piece() -> impl Strategy<Value = String> {
    let keyword = (prop::sample::select(COMMANDS), any::<u64>()).prop_map(|(c, mask)| {
        c.name
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                if mask >> (i % 64) & 1 == 1 {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                }
            })
            .collect::<String>()
    });
    prop_oneof![
        4 => hostile_char().prop_map(String::from),
        2 => keyword,
        2 => number_text(),
        1 => "@[a-z0-9_-]{0,6}",
        1 => prop::sample::select(vec![" ", "  ", "\t", "\u{a0}", " \t "]).prop_map(String::from),
    ]
}

/// Decimal numbers: small, around the limits of `u64`/`usize`, far beyond, zero-padded.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..100).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just(u64::MAX.to_string()),
        Just("18446744073709551616".to_string()),
        Just("99999999999999999999".to_string()),
        "0{0,5}[0-9]{1,40}",
    ]
}

/// An arbitrary line: pieces glued together, up to a few hundred characters.
fn hostile_line() -> impl Strategy<Value = String> {
    prop::collection::vec(hostile_piece(), 0..40).prop_map(|p| p.concat())
}

/// A command keyword (random case) followed by random arguments: lines shaped like commands,
/// so the parser gets past the first word and into each command's own rule.
fn command_shaped_line() -> impl Strategy<Value = String> {
    let keyword = prop::sample::select(COMMANDS).prop_map(|c| c.name);
    let upper = any::<bool>();
    let lead = prop::sample::select(vec!["", " ", "\t", "  "]);
    let arg = prop_oneof![
        number_text(),
        "@?[a-z]{1,6}",
        "[a-k][0-9]{1,2}",
        hostile_char().prop_map(String::from),
        Just("-1".to_string()),
        Just("+3".to_string()),
    ];
    let args = prop::collection::vec(
        (
            prop::sample::select(vec![" ", "  ", "\t", "\u{a0}", ""]),
            arg,
        ),
        0..4,
    );
    (lead, keyword, upper, args).prop_map(|(lead, kw, upper, args)| {
        let mut line = lead.to_string();
        line.push_str(&if upper {
            kw.to_uppercase()
        } else {
            kw.to_string()
        });
        for (gap, arg) in args {
            line.push_str(gap);
            line.push_str(&arg);
        }
        line
    })
}

/// Action-like text: tokens of permitted characters between runs of whitespace, with a bad
/// character now and then.
fn action_like() -> impl Strategy<Value = String> {
    let token_char = prop_oneof![
        8 => prop::sample::select(vec![
            'a', 'Z', 'q', 'é', 'ж', '中', '0', '7', '_', '-', '+', '*', '/', '(', ')', '.', ':',
            ',', '#', '@', '=', '\'', '!', '×', '÷', '\u{301}',
        ]),
        1 => hostile_char(),
    ];
    let token = prop::collection::vec(token_char, 1..10).prop_map(String::from_iter);
    let gap = prop::sample::select(vec![" ", "  ", "\t", "\n", "\u{a0}", "\u{3000}", " \r\n "]);
    (
        prop::option::of(gap.clone()),
        prop::collection::vec((token, gap), 1..8),
    )
        .prop_map(|(lead, parts)| {
            let mut text = lead.unwrap_or_default().to_string();
            for (token, gap) in parts {
                text.push_str(&token);
                text.push_str(gap);
            }
            text
        })
}

// ---------------------------------------------------------------------------------------------
// Properties

/// A refusal is one line with a position inside (or just past) the text.
fn check_error(text: &str, e: &GrammarError) {
    let shown = e.to_string();
    assert!(!e.message.is_empty(), "empty error for {text:?}");
    assert!(
        !shown.contains('\n') && !shown.contains('\r'),
        "error for {text:?} is not one line: {shown:?}"
    );
    let lines = text.split('\n').count();
    assert!(
        e.line >= 1 && e.line <= lines,
        "line {} of {text:?}",
        e.line
    );
    assert!(e.column >= 1, "column {} of {text:?}", e.column);
}

/// What `parse_command` accepted must make sense: counts are positive, `do` carries an action
/// in canonical form, names carry no whitespace.
fn check_command(line: &str, cmd: &Command) {
    match cmd {
        Command::Pick(n) | Command::Undo(n) | Command::Redo(n) | Command::Bot { count: n, .. } => {
            assert!(*n >= 1, "{line:?} gave count {n}")
        }
        Command::Log { seat, count } => {
            if let Some(n) = count {
                assert!(*n >= 1, "{line:?} gave count {n}");
            }
            if let Some(seat) = seat {
                assert!(!seat.is_empty() && !seat.contains(char::is_whitespace));
            }
        }
        Command::Do { seat, action } => {
            if let Some(seat) = seat {
                assert!(!seat.is_empty() && !seat.contains(char::is_whitespace));
            }
            let canonical = parse_action(action)
                .unwrap_or_else(|e| panic!("{line:?} gave action {action:?}, which fails: {e}"));
            assert_eq!(&canonical.to_string(), action, "{line:?}: not canonical");
            assert!(!action.starts_with('@'), "{line:?}: action names a seat");
        }
        Command::Save { path: p, .. }
        | Command::Load { path: p, .. }
        | Command::Position(p)
        | Command::Eval(p) => {
            assert!(!p.is_empty() && p.trim_end() == p, "{line:?} gave {p:?}")
        }
        Command::View(Some(seat)) => {
            assert!(!seat.is_empty() && !seat.starts_with('@') && !seat.contains(' '))
        }
        _ => {}
    }
}

fn command_never_panics(line: &str) {
    match parse_command(line) {
        Ok(Some(cmd)) => check_command(line, &cmd),
        Ok(None) => assert!(line.trim().is_empty(), "{line:?} read as blank"),
        Err(e) => check_error(line, &e),
    }
}

/// An accepted action prints canonically, and the canonical text parses to the same tokens
/// (also inside a `do` line, with or without a seat).
fn action_round_trips(text: &str) {
    match parse_action(text) {
        Ok(n) => {
            let canonical = n.to_string();
            assert!(!n.tokens().is_empty());
            for t in n.tokens() {
                assert!(
                    !t.is_empty() && !t.contains(char::is_whitespace),
                    "token {t:?}"
                );
            }
            assert!(canonical.chars().count() <= MAX_ACTION_CHARS);
            assert_eq!(parse_action(&canonical).as_ref(), Ok(&n), "{text:?}");
            if !canonical.starts_with('@') {
                for (line, seat) in [
                    (format!("do {text}"), None),
                    (format!("do @north {canonical}"), Some("north".to_string())),
                ] {
                    let expected = Command::Do {
                        seat,
                        action: canonical.clone(),
                    };
                    assert_eq!(parse_command(&line), Ok(Some(expected)), "{line:?}");
                }
            }
        }
        Err(e) => check_error(text, &e),
    }
}

proptest! {
    #![proptest_config(config(DEFAULT_CASES))]

    #[test]
    fn command_parser_never_panics_on_arbitrary_lines(line in hostile_line()) {
        command_never_panics(&line);
    }

    #[test]
    fn command_parser_never_panics_on_arbitrary_unicode(line in any::<String>()) {
        command_never_panics(&line);
    }

    #[test]
    fn command_shaped_lines_parse_or_are_refused(line in command_shaped_line()) {
        command_never_panics(&line);
    }

    /// A count is taken exactly when it fits and is positive; otherwise refused, never wrapped.
    #[test]
    fn counts_are_exact_or_refused(
        kw in prop::sample::select(vec!["undo", "redo", "bot", "log", "pick", ""]),
        digits in number_text(),
    ) {
        let line = format!("{kw} {digits}");
        let value: Option<usize> = digits.parse().ok().filter(|&n: &usize| n >= 1);
        let parsed = parse_command(&line);
        let got = match &parsed {
            Ok(Some(
                Command::Undo(n)
                | Command::Redo(n)
                | Command::Bot { count: n, .. }
                | Command::Pick(n),
            ))
            | Ok(Some(Command::Log {
                seat: None,
                count: Some(n),
            })) => Some(*n),
            Ok(other) => panic!("{line:?} gave {other:?}"),
            Err(e) => {
                check_error(&line, e);
                None
            }
        };
        prop_assert_eq!(got, value, "{:?} gave {:?}", line, parsed);
    }

    #[test]
    fn action_parser_never_panics_and_round_trips(text in action_like()) {
        action_round_trips(&text);
    }

    #[test]
    fn action_parser_handles_arbitrary_lines(text in hostile_line()) {
        action_round_trips(&text);
    }

    /// Whatever is accepted evaluates without panicking, and its canonical form parses to an
    /// expression with the same value.
    #[test]
    fn expression_parser_never_panics(
        text in prop::collection::vec(
            prop_oneof![
                4 => prop::sample::select(vec!["(", ")", "+", "-", "*", "/", " ", "0"])
                    .prop_map(String::from),
                3 => number_text(),
                1 => hostile_char().prop_map(String::from),
            ],
            0..30,
        ).prop_map(|p| p.concat()),
        mul_div in any::<bool>(),
    ) {
        match parse_expr(&text, Ops { mul_div }) {
            Ok(expr) => {
                let value = expr.eval();
                let again = parse_expr(&expr.to_string(), Ops { mul_div })
                    .unwrap_or_else(|e| panic!("{text:?} printed as {expr} fails: {e}"));
                prop_assert_eq!(again.eval(), value);
            }
            Err(e) => check_error(&text, &e),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed hostile inputs, so the worst cases run every time whatever the seed.

#[test]
fn overflowing_and_zero_counts_are_refused() {
    for line in [
        "undo 99999999999999999999",
        "redo 18446744073709551616",
        "bot 18446744073709551616",
        "log 340282366920938463463374607431768211456",
        "pick 0",
        "0",
        "pick 000",
        "99999999999999999999999999",
        "bot -1",
        "undo +1",
    ] {
        let e = parse_command(line).expect_err(line);
        check_error(line, &e);
    }
    assert_eq!(
        parse_command("bot 18446744073709551615"),
        Ok(Some(Command::Bot {
            count: usize::MAX,
            bot: None,
            verbose: false
        }))
    );
}

#[test]
fn very_long_lines_are_answered() {
    let long = 100_000;
    for line in [
        "a".repeat(long),
        format!("do {}", "a".repeat(long)),
        format!("do {}", "a ".repeat(long)),
        format!("do @{} x", "n".repeat(long)),
        format!("undo {}", "9".repeat(long)),
        "1".repeat(long),
        format!("load {}", "x".repeat(long)),
        format!("eval {}", "(".repeat(long)),
        format!("help {}", "\u{301}".repeat(long)),
        " ".repeat(long),
        "\0".repeat(long),
        format!("show{}", " ".repeat(long)),
    ] {
        command_never_panics(&line);
        action_round_trips(&line);
    }
    for text in [
        "(".repeat(long),
        format!("{}1{}", "(".repeat(500), ")".repeat(500)),
    ] {
        if let Err(e) = parse_expr(&text, Ops::ALL) {
            check_error(&text, &e);
        }
    }
}

#[test]
fn nul_and_control_characters_are_refused_by_name() {
    for line in ["do a1\0", "\0", "do \u{1b}[31m", "show\0", "undo \0"] {
        command_never_panics(line);
    }
    let e = parse_action("a1\0").unwrap_err();
    assert_eq!(
        e.message,
        "control character U+0000 is not allowed in an action"
    );
}
