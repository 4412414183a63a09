//! Turn order: whose turn it is, direction, rounds, skips and eliminated seats.

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
        for _ in 0..std::mem::take(&mut self.pending_skips) {
            next = self.next_after(next);
        }
        let wrapped = if self.direction > 0 {
            next <= before
        } else {
            next >= before
        };
        if wrapped {
            self.round += 1;
        }
        self.current = next;
        self.number += 1;
    }
}
