//! Turn order: whose turn it is, direction, rounds, skips, eliminated seats, and the steps
//! (actions) of a turn when a game has several per turn.

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

    pub fn active_count(&self) -> usize {
        self.eliminated.iter().filter(|&&e| !e).count()
    }

    /// The next seat in the current direction that is still in the game, from `from`.
    pub fn next_after(&self, from: usize) -> usize {
        let n = self.eliminated.len() as i64;
        let mut i = from as i64;
        for _ in 0..n {
            i = (i + self.direction as i64).rem_euclid(n);
            if !self.eliminated[i as usize] {
                return i as usize;
            }
        }
        from
    }

    /// Passes the turn on, honouring pending skips, and counts rounds.
    pub fn advance(&mut self) {
        let before = self.current;
        let mut next = self.next_after(self.current);
        // Skipping round the whole table lands where it started: only the remainder counts.
        let skips = std::mem::take(&mut self.pending_skips) as usize % self.active_count().max(1);
        for _ in 0..skips {
            next = self.next_after(next);
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
