//! The REPL's prompt line: the game, who decides, and what a question asks them.

/// `my-game (p1)> `, `my-game (over)> `, or with a question asked in the middle of an effect
/// `my-game (p1: Which card do you discard?)> `. `asked` is the question put to
/// the seat whose actions `actions` shows (never one put to another seat).
pub fn prompt_line(game: &str, deciding: &[String], asked: Option<&str>) -> String {
    let who = if deciding.is_empty() {
        "over".to_string()
    } else {
        deciding.join(",")
    };
    match asked {
        Some(question) => format!("{game} ({who}: {question})> "),
        None => format!("{game} ({who})> "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_shows_in_the_prompt_line() {
        let p1 = ["p1".to_string()];
        assert_eq!(
            prompt_line("my-game", &p1, Some("Which card do you discard?")),
            "my-game (p1: Which card do you discard?)> "
        );
        assert_eq!(prompt_line("my-game", &p1, None), "my-game (p1)> ");
        assert_eq!(prompt_line("my-game", &[], None), "my-game (over)> ");
    }
}
