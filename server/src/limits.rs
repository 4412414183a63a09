//! The server's bounds (matches, connections, message size, message rate) and the token
//! bucket that keeps a connection within its rate.

use std::time::Instant;

/// What the server holds at most and accepts from a client.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Matches held at once (a finished match with nobody connected makes room).
    pub matches: usize,
    /// WebSocket connections at once, over all matches.
    pub connections: usize,
    /// The longest message a client may send, in bytes (a request's body too).
    pub message_bytes: usize,
    /// Messages a connection may send in a burst...
    pub burst: u32,
    /// ...and per second after it.
    pub per_second: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            matches: 256,
            connections: 1024,
            message_bytes: 16 * 1024,
            burst: 40,
            per_second: 20.0,
        }
    }
}

/// A token bucket: `burst` messages at once, refilled at `per_second`.
pub struct RateLimit {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(limits: &Limits) -> RateLimit {
        RateLimit {
            tokens: limits.burst as f64,
            burst: limits.burst as f64,
            per_second: limits.per_second,
            last: Instant::now(),
        }
    }

    /// Whether one more message may pass now (and counts it if so).
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_and_then_no_more_without_refill() {
        let limits = Limits {
            burst: 3,
            per_second: 0.0,
            ..Limits::default()
        };
        let mut r = RateLimit::new(&limits);
        assert_eq!(
            (0..5).map(|_| r.allow()).collect::<Vec<_>>(),
            [true, true, true, false, false]
        );
    }
}
