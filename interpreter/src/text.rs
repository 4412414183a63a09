//! Text from outside (a file, a script's value) as an error message may quote it: one line,
//! cut short, so no file or script can forge lines of output or flood a reply.

/// How many characters of a quoted text a message shows.
const EXCERPT_CHARS: usize = 60;

/// `text` with control characters escaped and cut after 60 characters, the cut marked with
/// the full length: `abc... (100 characters)`.
pub fn excerpt(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(EXCERPT_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    let chars = text.chars().count();
    if chars > EXCERPT_CHARS {
        out.push_str(&format!("... ({chars} characters)"));
    }
    out
}

/// `text` on one short line, as people write it: control characters escaped (`\n`), quotes
/// and backslashes left alone, cut as `excerpt` cuts. For text printed on its own, such as a
/// game's end reason in `sim`'s table, not quoted inside a message.
pub fn short_line(text: &str) -> String {
    let chars = text.chars().count();
    let mut out = one_line(&text.chars().take(EXCERPT_CHARS).collect::<String>());
    if chars > EXCERPT_CHARS {
        out.push_str(&format!("... ({chars} characters)"));
    }
    out
}

/// A whole message as one line for people, whatever it quotes: control characters are
/// written as escapes (`\n`), nothing else changes.
pub fn one_line(message: &str) -> String {
    if !message.contains(char::is_control) {
        return message.to_string();
    }
    let mut out = String::with_capacity(message.len() + 8);
    for c in message.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_one_short_line() {
        assert_eq!(excerpt("a\nb"), "a\\nb");
        assert_eq!(
            excerpt(&"x".repeat(100)),
            format!("{}... (100 characters)", "x".repeat(60))
        );
        assert_eq!(one_line("error: a\nb\r"), "error: a\\nb\\r");
        assert_eq!(one_line("plain `text`"), "plain `text`");
        assert_eq!(
            short_line(r#"the Princess's "heart"\"#),
            r#"the Princess's "heart"\"#
        );
        assert_eq!(short_line("a\nb"), "a\\nb");
        assert_eq!(
            short_line(&"é".repeat(61)),
            format!("{}... (61 characters)", "é".repeat(60))
        );
    }
}
