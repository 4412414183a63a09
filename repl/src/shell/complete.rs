//! Tab completion: what may follow the text before the cursor. It follows the seat typed
//! (`do @p2 ` completes p2's actions) and offers only what this client may be shown: never a
//! seat's options unless that seat is named or is the one `actions` shows.

use crate::session::Completions;
use boardscript_grammar::{help_for, COMMANDS};
use std::path::Path;

/// At most this many file names are offered.
const MAX_FILES: usize = 200;

/// Where the replacement starts in `before` (the line up to the cursor), and the candidates.
pub fn complete(c: &Completions, before: &str) -> (usize, Vec<String>) {
    let lead = before.len() - before.trim_start().len();
    let line = &before[lead..];
    let Some(space) = line.find(char::is_whitespace) else {
        // The first word: a command, or the start of a bare action of the seat shown.
        let mut hits: Vec<String> = COMMANDS
            .iter()
            .filter(|cmd| cmd.name.starts_with(&line.to_ascii_lowercase()))
            .map(|cmd| cmd.name.to_string())
            .collect();
        if !line.is_empty() {
            hits.extend(starting(shown_actions(c), line));
        }
        return (lead, hits);
    };
    let word = &line[..space];
    let rest_at = lead + space + (line[space..].len() - line[space..].trim_start().len());
    let rest = &before[rest_at..];
    let name = if word.eq_ignore_ascii_case("save!") {
        "save"
    } else {
        match help_for(word) {
            Some(cmd) => cmd.name,
            // Not a command: a bare action, completed as a whole.
            None => return (lead, starting(shown_actions(c), line)),
        }
    };
    match name {
        "do" => complete_do(c, rest, rest_at),
        "help" if !rest.contains(' ') => (
            rest_at,
            COMMANDS
                .iter()
                .filter(|cmd| cmd.name.starts_with(&rest.to_ascii_lowercase()))
                .map(|cmd| cmd.name.to_string())
                .collect(),
        ),
        "view" if !rest.contains(' ') => {
            let typed = rest.strip_prefix('@').unwrap_or(rest);
            let at = rest_at + (rest.len() - typed.len());
            (at, starting(&c.seats, typed))
        }
        "log" if !rest.contains(' ') && (rest.is_empty() || rest.starts_with('@')) => {
            (rest_at, at_seats(c, &rest[rest.len().min(1)..]))
        }
        "save" | "load" | "position" => (rest_at, file_names(rest)),
        _ => (before.len(), vec![]),
    }
}

/// After `do `: a seat name after `@`, then that seat's actions; without `@`, the actions of
/// the seat `actions` shows.
fn complete_do(c: &Completions, rest: &str, rest_at: usize) -> (usize, Vec<String>) {
    let Some(seat_typed) = rest.strip_prefix('@') else {
        return (rest_at, starting(shown_actions(c), rest));
    };
    let Some(end) = seat_typed.find(char::is_whitespace) else {
        return (rest_at, at_seats(c, seat_typed));
    };
    let seat = &seat_typed[..end];
    let after = &seat_typed[end..];
    let typed = after.trim_start();
    let at = rest_at + 1 + end + (after.len() - typed.len());
    let actions = c
        .deciding
        .iter()
        .find(|(s, _)| s == seat)
        .map_or(&[][..], |(_, a)| a.as_slice());
    (at, starting(actions, typed))
}

/// `@seat ` for each seat this client may name that starts with `typed`.
fn at_seats(c: &Completions, typed: &str) -> Vec<String> {
    c.seats
        .iter()
        .filter(|s| s.starts_with(typed))
        .map(|s| format!("@{s} "))
        .collect()
}

/// The actions of the seat `actions` shows (the first deciding seat this client may see).
fn shown_actions(c: &Completions) -> &[String] {
    c.deciding.first().map_or(&[], |(_, a)| a.as_slice())
}

fn starting(list: &[String], typed: &str) -> Vec<String> {
    list.iter()
        .filter(|a| a.starts_with(typed))
        .cloned()
        .collect()
}

/// Files and folders (with a `/`) whose path starts with `typed`, relative to the working
/// directory; hidden ones only when the name typed starts with a dot.
fn file_names(typed: &str) -> Vec<String> {
    let (dir, prefix) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() {
        Path::new(".")
    } else {
        Path::new(dir)
    }) else {
        return vec![];
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .take(100 * MAX_FILES)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .collect();
    names.sort();
    names.truncate(MAX_FILES);
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kr() -> Completions {
        let acts = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        Completions {
            seats: acts(&["p1", "p2", "p3"]),
            deciding: vec![
                ("p1".into(), acts(&["keep ii ii", "keep ii v"])),
                ("p2".into(), acts(&["keep i iii"])),
            ],
        }
    }

    fn hits(line: &str) -> (usize, Vec<String>) {
        complete(&kr(), line)
    }

    #[test]
    fn do_follows_the_seat_typed() {
        assert_eq!(hits("do @p2 "), (7, vec!["keep i iii".to_string()]));
        assert_eq!(hits("do @p2 keep"), (7, vec!["keep i iii".to_string()]));
        // A seat not deciding has nothing to offer, never another seat's options.
        assert_eq!(hits("do @p3 "), (7, vec![]));
        assert_eq!(
            hits("do "),
            (3, vec!["keep ii ii".into(), "keep ii v".into()])
        );
    }

    #[test]
    fn at_completes_seat_names_only() {
        assert_eq!(
            hits("do @p"),
            (3, vec!["@p1 ".into(), "@p2 ".into(), "@p3 ".into()])
        );
        assert_eq!(hits("do @p2"), (3, vec!["@p2 ".to_string()]));
        assert_eq!(
            hits("view @p"),
            (6, vec!["p1".into(), "p2".into(), "p3".into()])
        );
    }

    /// Issue 21: `log @seat` names the seat whose log to show.
    #[test]
    fn log_completes_at_seat_names() {
        assert_eq!(
            hits("log "),
            (4, vec!["@p1 ".into(), "@p2 ".into(), "@p3 ".into()])
        );
        assert_eq!(hits("log @p2"), (4, vec!["@p2 ".to_string()]));
        assert_eq!(hits("log 3"), (5, vec![]));
        assert_eq!(hits("log @p2 "), (8, vec![]));
    }

    #[test]
    fn a_seat_restricted_client_is_offered_its_own_seat_only() {
        let c = Completions {
            seats: vec!["p2".into()],
            deciding: vec![("p2".into(), vec!["keep i iii".into()])],
        };
        assert_eq!(complete(&c, "do @p"), (3, vec!["@p2 ".to_string()]));
        assert_eq!(complete(&c, "do @p1 "), (7, vec![]));
        assert_eq!(complete(&c, "do "), (3, vec!["keep i iii".to_string()]));
    }

    #[test]
    fn commands_help_topics_and_bare_actions() {
        assert_eq!(hits("sh"), (0, vec!["show".to_string()]));
        assert_eq!(hits("help re"), (5, vec!["redo".into(), "reload".into()]));
        assert_eq!(
            hits("ke"),
            (0, vec!["keep ii ii".into(), "keep ii v".into()])
        );
        assert_eq!(hits("keep ii v"), (0, vec!["keep ii v".to_string()]));
        assert_eq!(hits("undo "), (5, vec![]));
    }

    #[test]
    fn file_names_after_save_load_and_position() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game one.json"), "").unwrap();
        std::fs::create_dir(dir.path().join("games")).unwrap();
        let base = format!("{}/", dir.path().display());
        let (at, files) = hits(&format!("load {base}ga"));
        assert_eq!(at, 5);
        assert_eq!(
            files,
            vec![format!("{base}game one.json"), format!("{base}games/")]
        );
        assert_eq!(hits(&format!("save! {base}gam")).0, 6);
        assert_eq!(
            hits(&format!("position {base}games/")).1,
            Vec::<String>::new()
        );
    }
}
