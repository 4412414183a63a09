//! Turn order: whose turn it is, direction, rounds, skips, eliminated seats, seats out for a
//! round, and the steps (actions) of a turn when a game has several per turn.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Index of the seat whose turn it is.
    pub current: usize,
    /// +1 clockwise (seat order), -1 after a reversal.
    pub direction: i8,
    /// Counts from 1; grows each time the turn order wraps past the first seat.
    pub round: i64,
    /// Turns taken so far, from 1.
    pub number: i64,
    pub eliminated: Vec<bool>,
    /// Seats out until the rules bring them back (a round they lost), by index, sorted. Empty
    /// (and absent from saves) when every seat is in, so the usual turn pays one length test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<usize>,
    /// Seats to pass over at the next `advance`.
    pub pending_skips: u32,
    /// Actions in each turn when the engine counts them (0: the script passes turns itself).
    #[serde(default)]
    pub steps: i64,
    /// Actions in the current turn, and how many of them are still to come.
    #[serde(default)]
    pub turn_steps: i64,
    #[serde(default)]
    pub steps_left: i64,
}

impl Turn {
    pub fn new(seats: usize) -> Turn {
        Turn {
            current: 0,
            direction: 1,
            round: 1,
            number: 1,
            eliminated: vec![false; seats],
            out: vec![],
            pending_skips: 0,
            steps: 0,
            turn_steps: 0,
            steps_left: 0,
        }
    }

    /// Every turn from now has `n` actions, this one included (0: stop counting).
    pub fn set_steps(&mut self, n: i64) {
        self.steps = n;
        self.set_turn_steps(n);
    }

    /// The current turn has `n` actions in all (say, a shorter first turn).
    pub fn set_turn_steps(&mut self, n: i64) {
        self.turn_steps = n;
        self.steps_left = n;
    }

    /// Gives the turn to seat `i` (a new turn for it when the engine counts steps).
    pub fn set_current(&mut self, i: usize) {
        self.current = i;
        self.refill_steps();
    }

    /// A new turn starts with all its steps (when the engine counts them).
    fn refill_steps(&mut self) {
        if self.steps > 0 {
            self.set_turn_steps(self.steps);
        }
    }

    /// Makes step `k` (from 1) of this turn the next one, as a position may ask; None (and
    /// nothing changed) when `k` is so far out that the count would overflow.
    pub fn set_step(&mut self, k: i64) -> Option<()> {
        self.steps_left = self.turn_steps.checked_sub(k)?.checked_add(1)?;
        Some(())
    }

    /// Which action of the turn comes next, from 1.
    pub fn step(&self) -> i64 {
        self.turn_steps
            .saturating_sub(self.steps_left)
            .saturating_add(1)
    }

    /// Counts one action of the current turn; passes the turn when it was the last. Called
    /// by the engine after each applied action, unless the action passed the turn itself.
    pub fn count_step(&mut self) {
        if self.steps > 0 {
            self.steps_left = self.steps_left.saturating_sub(1);
            if self.steps_left <= 0 {
                self.advance();
            }
        }
    }

    /// Seats that take turns: neither eliminated nor out.
    pub fn active_count(&self) -> usize {
        (0..self.eliminated.len())
            .filter(|&i| self.is_in(i))
            .count()
    }

    /// Whether seat `i` takes turns: not eliminated, and not out for the round.
    pub fn is_in(&self, i: usize) -> bool {
        !self.eliminated.get(i).copied().unwrap_or(true)
            && (self.out.is_empty() || !self.out.contains(&i))
    }

    pub fn is_out(&self, i: usize) -> bool {
        self.out.contains(&i)
    }

    /// Seat `i` sits out until brought back.
    pub fn sit_out(&mut self, i: usize) {
        if let Err(at) = self.out.binary_search(&i) {
            self.out.insert(at, i);
        }
    }

    pub fn bring_back(&mut self, i: usize) {
        self.out.retain(|&s| s != i);
    }

    pub fn bring_back_all(&mut self) {
        self.out.clear();
    }

    /// The next seat in the current direction that is in (neither eliminated nor out), from
    /// `from`; `from` itself when no other seat is.
    pub fn next_after(&self, from: usize) -> usize {
        let n = self.eliminated.len() as i64;
        let mut i = from as i64;
        for _ in 0..n {
            i = (i + self.direction as i64).rem_euclid(n);
            if self.is_in(i as usize) {
                return i as usize;
            }
        }
        from
    }

    /// Passes the turn on, honouring pending skips, and counts rounds. While seats sit out
    /// and no seat at all is in, the turn stays where it is (nobody to give it to).
    pub fn advance(&mut self) {
        let before = self.current;
        let mut next = self.next_after(self.current);
        if !self.out.is_empty() && !self.is_in(next) {
            self.pending_skips = 0;
            return;
        }
        // Skipping round the whole table lands where it started: only the remainder counts.
        let skips = std::mem::take(&mut self.pending_skips) as usize;
        if skips > 0 {
            for _ in 0..skips % self.active_count().max(1) {
                next = self.next_after(next);
            }
        }
        let wrapped = if self.direction > 0 {
            next <= before
        } else {
            next >= before
        };
        if wrapped {
            self.round = self.round.saturating_add(1);
        }
        self.current = next;
        self.number = self.number.saturating_add(1);
        self.refill_steps();
    }
}
