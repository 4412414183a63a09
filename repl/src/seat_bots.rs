//! The bots of a REPL or protocol session: the bot `--bot` gave each seat. The table keeps
//! the bots themselves between their seat's moves (tree reuse) and forgets them when the game
//! changes other than by play (undo, load, reload, position).

use crate::lineup;
use boardscript_interpreter::BotSpec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Ctrl-C during a search: `searching` says one runs (so Ctrl-C stops it rather than the
/// process, see `interrupt::search_flag`), `stop` is set to stop it.
#[derive(Clone, Default)]
pub struct Interrupt {
    pub stop: Arc<AtomicBool>,
    pub searching: Arc<AtomicBool>,
}

pub struct SeatBots {
    /// Per seat, the bot `--bot` gave it (a seat named, or every seat but the client's).
    configured: Vec<Option<BotSpec>>,
    /// Per seat, whether its bot answers at once when it must decide (its seat was named in
    /// god mode; every other seat in seat mode).
    pub answers: Vec<bool>,
    /// The bot `--bot SPEC` named with no seat in god mode: what `bot` uses by default.
    default: Option<BotSpec>,
    /// The Ctrl-C flags.
    interrupt: Interrupt,
}

impl SeatBots {
    /// The bots of `--bot` items (`red=mcts`, `mcts`) for a game of `seats`, the client
    /// playing `me` (`--seat`) or every seat. An unknown seat, bot or setting is refused.
    pub fn new(
        flags: &[String],
        seats: &[String],
        me: Option<usize>,
        interrupt: Interrupt,
    ) -> Result<SeatBots, String> {
        let mut items = vec![];
        for flag in flags {
            items.extend(lineup::parse_seated(flag, seats).map_err(|e| format!("--bot: {e}"))?);
        }
        for item in &items {
            lineup::check(&item.spec).map_err(|e| format!("--bot: {e}"))?;
            if let (Some(me), Some(seat)) = (me, &item.seat) {
                if seats[me] == *seat {
                    return Err(format!(
                        "--bot: {seat} is the seat this client plays (--seat); name another"
                    ));
                }
            }
        }
        let named: Vec<Option<BotSpec>> = seats
            .iter()
            .map(|seat| {
                let mine = items.iter().rev().find(|i| i.seat.as_ref() == Some(seat));
                mine.map(|i| i.spec.clone())
            })
            .collect();
        let unnamed = items.iter().rev().find(|i| i.seat.is_none());
        let configured = match me {
            // With --seat, a bot naming no seat plays every other seat.
            Some(_) => lineup::per_seat(&items, seats),
            None => named.clone(),
        };
        let answers = (0..seats.len())
            .map(|s| match me {
                Some(me) => s != me,
                None => named[s].is_some(),
            })
            .collect();
        Ok(SeatBots {
            configured,
            answers,
            default: unnamed.filter(|_| me.is_none()).map(|i| i.spec.clone()),
            interrupt,
        })
    }

    /// Whether any seat has a bot of its own: otherwise the other seats of `--seat` play as
    /// they always did (the built-in random choice).
    pub fn any_configured(&self) -> bool {
        self.configured.iter().any(Option::is_some)
    }

    /// The bot `seat` plays with when none is named: its own, else the session's default.
    pub fn spec_for(&self, seat: usize) -> Option<&BotSpec> {
        self.configured
            .get(seat)
            .and_then(Option::as_ref)
            .or(self.default.as_ref())
    }

    /// A search starts: Ctrl-C now stops it (a Ctrl-C seen before is forgotten).
    pub fn arm(&self) {
        self.interrupt.stop.store(false, Ordering::Relaxed);
        self.interrupt.searching.store(true, Ordering::Relaxed);
    }

    /// The search is over: Ctrl-C ends the process again.
    pub fn disarm(&self) {
        self.interrupt.searching.store(false, Ordering::Relaxed);
    }

    /// Whether Ctrl-C asked the search to stop.
    pub fn stopped(&self) -> bool {
        self.interrupt.stop.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats() -> Vec<String> {
        ["red", "blue", "green"].map(String::from).to_vec()
    }

    fn make(flags: &[&str], me: Option<usize>) -> SeatBots {
        let flags: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
        SeatBots::new(&flags, &seats(), me, Interrupt::default()).unwrap()
    }

    /// In god mode only the seats named answer at once; a bare bot is `bot`'s default.
    #[test]
    fn god_mode_answers_for_named_seats_only() {
        let b = make(&["blue=random", "random"], None);
        assert_eq!(b.answers, [false, true, false]);
        assert_eq!(
            b.spec_for(0).map(|s| s.to_string()).as_deref(),
            Some("random")
        );
        assert!(b.any_configured());
        let bare = make(&["random"], None);
        assert_eq!(bare.answers, [false, false, false]);
        assert!(!bare.any_configured());
        assert!(bare.spec_for(2).is_some());
        assert!(make(&[], None).spec_for(0).is_none());
    }

    /// With `--seat`, every other seat answers, a bare bot playing those not named.
    #[test]
    fn seat_mode_answers_for_every_other_seat() {
        let b = make(&["random"], Some(1));
        assert_eq!(b.answers, [true, false, true]);
        assert!(b.any_configured());
        let none = make(&[], Some(0));
        assert_eq!(none.answers, [false, true, true]);
        assert!(!none.any_configured());
        let flags = vec!["red=random".to_string()];
        let e = SeatBots::new(&flags, &seats(), Some(0), Interrupt::default())
            .err()
            .unwrap();
        assert_eq!(
            e,
            "--bot: red is the seat this client plays (--seat); name another"
        );
    }
}
