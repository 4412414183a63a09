//! A position's text, split between the game and the engine: a line whose first word is
//! `eval` runs its expression on the live state (every game has it, with the script's
//! functions); the lines between go to the game's own `position(g, text)`, in order.

/// One run of a position: the game's lines, or one `eval` line (numbered from 1).
#[derive(Debug, PartialEq)]
pub enum Part<'a> {
    Game(String),
    Eval { line: usize, expr: &'a str },
}

/// The parts of `text` in order. A text without an `eval` line is one part, as it was; a
/// later run of the game's lines starts with blank lines in place of those before it, so
/// that the game's errors number lines as the file does. A run of blank lines is no part.
pub fn parts(text: &str) -> Vec<Part<'_>> {
    let mut parts = vec![];
    let mut run: Vec<&str> = vec![];
    let mut start = 0;
    for (i, line) in text.split('\n').enumerate() {
        let Some(expr) = eval_expr(line) else {
            run.push(line);
            continue;
        };
        push_run(&mut parts, &mut run, start);
        parts.push(Part::Eval { line: i + 1, expr });
        start = i + 1;
    }
    if parts.is_empty() {
        return vec![Part::Game(text.to_string())];
    }
    push_run(&mut parts, &mut run, start);
    parts
}

/// The expression of an `eval` line (`eval` then whitespace), else `None`.
fn eval_expr(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("eval")?;
    match rest.chars().next() {
        Some(c) if c.is_whitespace() => Some(rest.trim()),
        _ => None,
    }
}

fn push_run<'a>(parts: &mut Vec<Part<'a>>, run: &mut Vec<&str>, start: usize) {
    if run.iter().any(|l| !l.trim().is_empty()) {
        parts.push(Part::Game(format!(
            "{}{}",
            "\n".repeat(start),
            run.join("\n")
        )));
    }
    run.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_without_eval_is_one_game_part() {
        assert_eq!(parts("a\n\nb"), vec![Part::Game("a\n\nb".into())]);
        assert_eq!(parts("evaluate 3"), vec![Part::Game("evaluate 3".into())]);
    }

    #[test]
    fn eval_lines_split_the_game_lines_which_keep_their_numbers() {
        let got = parts("a\neval g.x(1)\n  eval\tf()\nb\nc\neval 1");
        assert_eq!(
            got,
            vec![
                Part::Game("a".into()),
                Part::Eval {
                    line: 2,
                    expr: "g.x(1)"
                },
                Part::Eval {
                    line: 3,
                    expr: "f()"
                },
                Part::Game("\n\n\nb\nc".into()),
                Part::Eval { line: 6, expr: "1" },
            ]
        );
    }
}
