//! Checks of the harness's deep points: near misses (actions that are almost legal) must be
//! refused with the state unchanged, and a match's undo and redo must give back exact states.

use boardscript_interpreter::primitives::rng::{self, GameRng};
use boardscript_interpreter::{Action, Decisions, Game, Match, PlayError, State};
use std::collections::BTreeSet;
use std::fmt;

/// Near misses tried per kind and deep point, at most: enough to reach every kind of refusal,
/// few enough that deep points stay cheap next to `check_views`.
const PER_KIND: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A listed action of another seat: played by the deciding seat (when it does not list
    /// it too), and by that other seat when it is not deciding.
    OtherSeat,
    /// A listed action with one argument changed to something not listed.
    ChangedArgument,
    /// An action listed at an earlier position and no longer listed.
    Earlier,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Kind::OtherSeat => "another seat's action",
            Kind::ChangedArgument => "a changed argument",
            Kind::Earlier => "an action from an earlier position",
        })
    }
}

const KINDS: [Kind; 3] = [Kind::OtherSeat, Kind::ChangedArgument, Kind::Earlier];

/// What the near-miss probes did, per kind (indexed by `Kind as usize`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NearMisses {
    pub tried: [usize; 3],
    /// Refused, with the state unchanged.
    pub refused: [usize; 3],
    /// Not listed, yet taken: another spelling of a listed action, or an action the game's
    /// own `accept` takes (a rescue typed by hand); either way it plays like its canonical form.
    pub accepted: [usize; 3],
}

impl NearMisses {
    pub fn total_refused(&self) -> usize {
        self.refused.iter().sum()
    }

    pub fn add(&mut self, other: &NearMisses) {
        for k in 0..KINDS.len() {
            self.tried[k] += other.tried[k];
            self.refused[k] += other.refused[k];
            self.accepted[k] += other.accepted[k];
        }
    }

    /// At least one refusal a game, and every kind that was tried refused at least once: a
    /// probe that is always accepted (or a kind never tried where it could be) checks nothing.
    pub fn check(&self, games: usize) -> Result<(), String> {
        if self.total_refused() < games {
            return Err(format!(
                "only {} near misses refused in {games} games",
                self.total_refused()
            ));
        }
        for kind in KINDS {
            let k = kind as usize;
            if self.tried[k] > 0 && self.refused[k] == 0 {
                return Err(format!(
                    "no near miss of kind {kind} was refused ({} tried, all accepted)",
                    self.tried[k]
                ));
            }
        }
        // A kind may have nothing to try in a game: single-word actions (a column, a cell) have
        // no argument to change, and in Hex or Connect Four both seats list the same moves.
        // The count of refusals above keeps the check from silently doing nothing.
        Ok(())
    }
}

/// What earlier positions listed: the decisions before the last action and at the last probe,
/// and each seat's latest list (from the last position where it decided).
#[derive(Default)]
pub struct History {
    previous: Option<Decisions>,
    at_last_probe: Option<Decisions>,
    latest: Vec<Vec<Action>>,
}

impl History {
    /// Records the decisions of the position just played from.
    pub fn push(&mut self, decisions: Decisions, probed: bool) {
        if probed {
            self.at_last_probe = Some(decisions.clone());
        }
        if let Some(old) = self.previous.replace(decisions) {
            for (seat, list) in old.seats {
                if self.latest.len() <= seat {
                    self.latest.resize(seat + 1, vec![]);
                }
                self.latest[seat] = list;
            }
        }
    }

    fn earlier(&self) -> impl Iterator<Item = &Decisions> {
        self.previous.iter().chain(&self.at_last_probe)
    }

    fn latest(&self, seat: usize) -> &[Action] {
        let previous = self.previous.as_ref().and_then(|d| {
            d.seats
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, l)| l.as_slice())
        });
        previous
            .or_else(|| self.latest.get(seat).map(Vec::as_slice))
            .unwrap_or_default()
    }
}

/// One position: the state, who decides there, and the action about to be played.
pub struct Point<'a> {
    pub game: &'a Game,
    pub state: &'a State,
    pub decisions: &'a Decisions,
    pub seat: usize,
    pub action: &'a str,
}

impl Point<'_> {
    fn listed(&self, seat: usize) -> Option<&[Action]> {
        self.decisions
            .seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, l)| l.as_slice())
    }

    fn is_listed(&self, seat: usize, text: &str) -> bool {
        self.listed(seat)
            .is_some_and(|l| l.iter().any(|a| a.as_str() == text))
    }

    /// Plays every kind of near miss here (a few of each, picked with `pick`) on scratch
    /// copies; `history` holds what earlier positions listed.
    pub fn near_misses(
        &self,
        history: &History,
        pick: &mut GameRng,
        tally: &mut NearMisses,
    ) -> Result<(), String> {
        let legal = self.listed(self.seat).unwrap_or_default();

        for other in (0..self.state.seats.len()).filter(|&o| o != self.seat) {
            // A seat that is not deciding: what the script lists for it now, else what it
            // listed when it last decided. The engine never asks such a seat for its list, so
            // a script may fail or answer nothing there.
            let theirs = match self.listed(other) {
                Some(l) => l.to_vec(),
                None => match self.game.legal_actions(self.state, other) {
                    Ok(l) if !l.is_empty() => l,
                    _ => history.latest(other).to_vec(),
                },
            };
            let deciding = self.listed(other).is_some();
            let candidates: Vec<&Action> = theirs
                .iter()
                .filter(|a| !self.is_listed(self.seat, a))
                .collect();
            for a in some(&candidates, pick) {
                self.probe(self.seat, a, Kind::OtherSeat, tally)?;
                if !deciding {
                    self.probe(other, a, Kind::OtherSeat, tally)?;
                }
            }
        }

        let mut bases = vec![self.action];
        if !legal.is_empty() {
            bases.push(&legal[rng::below(pick, legal.len())]);
        }
        for base in bases {
            let candidates = changed_arguments(base, legal);
            for text in some(&candidates, pick) {
                self.probe(self.seat, &text, Kind::ChangedArgument, tally)?;
            }
        }

        for before in history.earlier() {
            for (seat, list) in &before.seats {
                let gone: Vec<&Action> =
                    list.iter().filter(|a| !self.is_listed(*seat, a)).collect();
                for a in some(&gone, pick) {
                    self.probe(*seat, a, Kind::Earlier, tally)?;
                }
            }
        }
        Ok(())
    }

    /// Plays `text` for `seat` on a copy: refused with the copy unchanged, or taken as another
    /// spelling of a listed action or by the game's own `accept`, and then playing exactly
    /// like the canonical form it was taken as. A script error is never a refusal.
    fn probe(
        &self,
        seat: usize,
        text: &str,
        kind: Kind,
        tally: &mut NearMisses,
    ) -> Result<(), String> {
        let who = self.state.seat_name(seat);
        tally.tried[kind as usize] += 1;
        let mut scratch = self.state.clone();
        match self.game.play(&mut scratch, self.decisions, seat, text) {
            Err(PlayError::Script(e)) => Err(format!(
                "near miss ({kind}) `{text}` for {who} makes the script fail: {e}"
            )),
            Err(_) if scratch != *self.state => Err(format!(
                "refusing near miss ({kind}) `{text}` for {who} changed the state"
            )),
            Err(_) => {
                tally.refused[kind as usize] += 1;
                Ok(())
            }
            Ok(canonical) => {
                if !self.is_listed(seat, &canonical) && !self.game.rules().has_fn("accept", 3) {
                    return Err(format!(
                        "near miss ({kind}) `{text}` for {who} is taken as `{canonical}`, which \
                         is not listed, and the game has no `accept`"
                    ));
                }
                let mut again = self.state.clone();
                self.game
                    .play(&mut again, self.decisions, seat, &canonical)
                    .map_err(|e| {
                        format!(
                            "near miss ({kind}) `{text}` for {who} is taken as `{canonical}`, \
                             which is then refused: {e}"
                        )
                    })?;
                if again != scratch {
                    return Err(format!(
                        "near miss ({kind}) `{text}` for {who} plays otherwise than \
                         `{canonical}`, the action it was taken as"
                    ));
                }
                tally.accepted[kind as usize] += 1;
                Ok(())
            }
        }
    }
}

/// Up to `PER_KIND` of `items`, picked at random.
fn some<T: Clone>(items: &[T], pick: &mut GameRng) -> Vec<T> {
    if items.len() <= PER_KIND {
        return items.to_vec();
    }
    (0..PER_KIND)
        .map(|_| items[rng::below(pick, items.len())].clone())
        .collect()
}

/// Near misses of `action`, each with one argument changed and not in `listed`: each number
/// in an argument one more, one less and ten more (`a6`: `a7`, `a5`, `a16`; `rescue 9+5`:
/// `rescue 10+5`, ...), and each argument replaced by the word a listed action of the same
/// form has in its place (`attack p2 3` to `attack p3 3` when `attack p3 5` is listed). A
/// one-word action is its own argument; in a longer one the first word is the verb.
pub fn changed_arguments(action: &str, listed: &[Action]) -> Vec<String> {
    let words: Vec<&str> = action.split_whitespace().collect();
    let first = usize::from(words.len() > 1);
    let same_form: Vec<Vec<&str>> = listed
        .iter()
        .filter(|a| first > 0 && a.starts_with(words[0]))
        .map(|a| a.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == words.len() && w[0] == words[0])
        .collect();
    let mut out = BTreeSet::new();
    for i in first..words.len() {
        let with = |word: &str| {
            let mut w = words.clone();
            w[i] = word;
            w.join(" ")
        };
        for changed in numbers_changed(words[i]) {
            out.insert(with(&changed));
        }
        // A one-word action swapped for another listed one is just that listed action.
        for other in same_form.iter().filter(|_| first > 0) {
            if other[i] != words[i] {
                out.insert(with(other[i]));
            }
        }
    }
    let listed: BTreeSet<&str> = listed.iter().map(|a| a.as_str()).collect();
    out.retain(|t| !listed.contains(t.as_str()));
    out.into_iter().collect()
}

/// `word` with one of its numbers one more, one less (not below 0) or ten more.
fn numbers_changed(word: &str) -> Vec<String> {
    let mut out = vec![];
    let bytes = word.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let Ok(n) = word[start..i].parse::<u32>() else {
            continue;
        };
        for m in [n.checked_add(1), n.checked_sub(1), n.checked_add(10)]
            .into_iter()
            .flatten()
        {
            out.push(format!("{}{m}{}", &word[..start], &word[i..]));
        }
    }
    out
}

/// Plays `action` from `state` through `checker` (a match, the REPL's path): undo must give
/// back exactly `state` and redo exactly the state after, which is returned. `checker` is left
/// with no history.
pub fn undo_redo(
    checker: &mut Match,
    state: &State,
    seat: usize,
    action: &str,
) -> Result<State, String> {
    checker.state = state.clone();
    let who = state.seat_name(seat).to_string();
    checker
        .play(Some(&who), action)
        .map_err(|e| format!("through a match: {e}"))?;
    let after = checker.state.clone();
    if checker.undo(1) != 1 || checker.state != *state {
        return Err(format!(
            "undo of `{action}` does not give back the state before it"
        ));
    }
    if checker.redo(1) != 1 || checker.state != after {
        return Err(format!(
            "redo of `{action}` does not give back the state after it"
        ));
    }
    checker.undo(1);
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(l: &[&str]) -> Vec<Action> {
        l.iter().map(|&a| Action::from(a)).collect()
    }

    #[test]
    fn a_cell_changes_its_number() {
        assert_eq!(
            changed_arguments("a6", &listed(&["a6", "a7"])),
            ["a16", "a5"]
        );
    }

    #[test]
    fn arguments_change_one_at_a_time_and_never_to_a_listed_action() {
        let l = listed(&["attack p2 3", "attack p3 5", "heal 3"]);
        assert_eq!(
            changed_arguments("attack p2 3", &l),
            [
                "attack p1 3",
                "attack p12 3",
                "attack p2 13",
                "attack p2 2",
                "attack p2 4",
                "attack p2 5",
                "attack p3 3"
            ]
        );
        assert_eq!(
            changed_arguments("rescue 9+5", &[]),
            [
                "rescue 10+5",
                "rescue 19+5",
                "rescue 8+5",
                "rescue 9+15",
                "rescue 9+4",
                "rescue 9+6"
            ]
        );
        assert!(changed_arguments("pass", &[]).is_empty());
    }
}
