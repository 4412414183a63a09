//! Bot lists as written on the command line: `blue=mcts:iters=500,red=random` (`--bot`,
//! `sim --bots`) and `random,mcts:iters=200,c=2` (`arena --bots`).
//!
//! Items split on commas. An item `seat=bot[:k=v]` (a seat list) or `bot[:k=v]` starts a
//! spec; a bare `k=v` continues the settings of the spec before it.

use boardscript_interpreter::{check_bot, BotSpec};

/// One spec of a list, for one seat or (None) for every seat not named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub seat: Option<String>,
    pub spec: BotSpec,
}

/// A list of bots that may name seats: an item `x=y` starts a seat's spec when `x` is one of
/// `seats`, or when it is the list's first item (so a misspelt seat is refused by name).
pub fn parse_seated(text: &str, seats: &[String]) -> Result<Vec<Item>, String> {
    let mut items: Vec<Item> = vec![];
    for part in parts(text)? {
        let (head, settings) = part.split_once(':').unwrap_or((part, ""));
        let starts = match head.split_once('=') {
            // `red=mcts:iters=5`: a seat's bot with settings.
            Some((seat, name)) if !settings.is_empty() || seats.iter().any(|s| s == seat) => {
                Some((Some(seat.trim()), name.trim()))
            }
            Some((seat, name)) if items.is_empty() => Some((Some(seat.trim()), name.trim())),
            Some(_) => None,
            None => Some((None, head)),
        };
        match starts {
            Some((seat, name)) => {
                if let Some(seat) = seat.filter(|s| !seats.iter().any(|x| x == s)) {
                    return Err(format!(
                        "no seat `{seat}` in `{text}` (seats: {})",
                        seats.join(", ")
                    ));
                }
                items.push(Item {
                    seat: seat.map(str::to_string),
                    spec: BotSpec::parse(&format!("{name}:{settings}"))?,
                });
            }
            None => add_setting(&mut items, part, text)?,
        }
    }
    Ok(items)
}

/// A list of bots naming no seat (arena entrants): `random,mcts:iters=200,c=2`.
pub fn parse_plain(text: &str) -> Result<Vec<BotSpec>, String> {
    let mut items: Vec<Item> = vec![];
    for part in parts(text)? {
        let head = part.split_once(':').map_or(part, |(h, _)| h);
        if head.contains('=') {
            add_setting(&mut items, part, text)?;
        } else {
            items.push(Item {
                seat: None,
                spec: BotSpec::parse(part)?,
            });
        }
    }
    Ok(items.into_iter().map(|i| i.spec).collect())
}

fn parts(text: &str) -> Result<Vec<&str>, String> {
    let parts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err("no bot named: write one as `random` or `mcts:iters=500`".into());
    }
    Ok(parts)
}

fn add_setting(items: &mut [Item], kv: &str, text: &str) -> Result<(), String> {
    let Some(last) = items.last_mut() else {
        return Err(format!(
            "`{kv}` in `{text}`: a setting comes after its bot, as in `mcts:iters=500,c=2`"
        ));
    };
    let (k, v) = kv.split_once('=').expect("a setting has `=`");
    last.spec.params.insert(k.trim().into(), v.trim().into());
    Ok(())
}

/// Refuses an unknown bot or setting now, before any game starts.
pub fn check(spec: &BotSpec) -> Result<(), String> {
    check_bot(spec)
}

/// The spec of each seat: its own item, else the item naming no seat, else None.
pub fn per_seat(items: &[Item], seats: &[String]) -> Vec<Option<BotSpec>> {
    let all = items.iter().rev().find(|i| i.seat.is_none());
    seats
        .iter()
        .map(|seat| {
            items
                .iter()
                .rev()
                .find(|i| i.seat.as_ref() == Some(seat))
                .or(all)
                .map(|i| i.spec.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats() -> Vec<String> {
        vec!["blue".into(), "red".into()]
    }

    fn spec(text: &str) -> BotSpec {
        BotSpec::parse(text).unwrap()
    }

    #[test]
    fn seated_items_start_at_a_seat_and_settings_continue() {
        let items = parse_seated("blue=mcts:iters=500,c=2,red=random", &seats()).unwrap();
        assert_eq!(
            items,
            [
                Item {
                    seat: Some("blue".into()),
                    spec: spec("mcts:c=2,iters=500")
                },
                Item {
                    seat: Some("red".into()),
                    spec: spec("random")
                },
            ]
        );
        let one = parse_seated("mcts:iters=200,threads=2", &seats()).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].seat, None);
        assert_eq!(one[0].spec.to_string(), "mcts:iters=200,threads=2");
        let specs = per_seat(
            &parse_seated("random,red=mcts", &seats()).unwrap(),
            &seats(),
        );
        assert_eq!(specs, [Some(spec("random")), Some(spec("mcts"))]);
        assert_eq!(
            per_seat(&parse_seated("red=mcts", &seats()).unwrap(), &seats()),
            [None, Some(spec("mcts"))]
        );
    }

    #[test]
    fn bad_lists_are_refused_by_name() {
        assert_eq!(
            parse_seated("green=mcts", &seats()).unwrap_err(),
            "no seat `green` in `green=mcts` (seats: blue, red)"
        );
        assert_eq!(
            parse_seated("blue=random,green=mcts:iters=3", &seats()).unwrap_err(),
            "no seat `green` in `blue=random,green=mcts:iters=3` (seats: blue, red)"
        );
        assert_eq!(
            parse_plain("iters=3,random").unwrap_err(),
            "`iters=3` in `iters=3,random`: a setting comes after its bot, as in `mcts:iters=500,c=2`"
        );
        assert!(parse_plain(" , ").unwrap_err().starts_with("no bot named"));
        let e = check(&spec("random:iters=3")).unwrap_err();
        assert!(
            e.contains("the random bot takes no settings (`iters`)"),
            "{e}"
        );
        let e = check(&spec("alphazero")).unwrap_err();
        assert!(e.contains("no bot `alphazero`"), "{e}");
    }

    #[test]
    fn plain_items_are_entrants() {
        let specs = parse_plain("random,mcts:iters=200,c=2,mcts:iters=2000").unwrap();
        let texts: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
        assert_eq!(texts, ["random", "mcts:c=2,iters=200", "mcts:iters=2000"]);
    }
}
