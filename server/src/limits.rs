//! The server's bounds (matches, connections, message size, message rate, how long a socket
//! may take to say who it is, how hard a bot may think) and the token bucket that keeps a
//! connection within its rate.

use boardscript_interpreter::BotSpec;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

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
    /// How long a new WebSocket may take to say `hello` before it is closed (its slot
    /// freed).
    pub hello_within: Duration,
    /// The most a match's bot may ask of each numeric setting, by name (`iters`, `time`...),
    /// whatever the bot: the server's CPU is shared by every match.
    pub bot_caps: BTreeMap<String, u64>,
}

/// The default bot caps: a search of a few seconds at most on one core or two.
pub const BOT_CAPS: &[(&str, u64)] = &[
    ("iters", 20_000),
    ("time", 5_000),
    ("threads", 2),
    ("samples", 64),
];

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            matches: 256,
            connections: 1024,
            message_bytes: 16 * 1024,
            burst: 40,
            per_second: 20.0,
            hello_within: Duration::from_secs(10),
            bot_caps: BOT_CAPS.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }
}

impl Limits {
    /// Refuses a bot setting above its cap, naming the setting and the cap. A setting that
    /// is not a whole number is left to the bot's own check.
    pub fn check_bot(&self, spec: &BotSpec) -> Result<(), String> {
        for (key, value) in &spec.params {
            let (Some(cap), Ok(asked)) = (self.bot_caps.get(key), value.parse::<u64>()) else {
                continue;
            };
            if asked > *cap {
                return Err(format!(
                    "`{key}={asked}` is over this server's cap: {key} at most {cap}"
                ));
            }
        }
        Ok(())
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
    fn a_bot_setting_over_its_cap_is_refused_by_name() {
        let limits = Limits::default();
        let check = |text: &str| limits.check_bot(&BotSpec::parse(text).unwrap());
        assert_eq!(check("mcts:iters=20000,threads=2"), Ok(()));
        assert_eq!(
            check("mcts:iters=10000000"),
            Err("`iters=10000000` is over this server's cap: iters at most 20000".into())
        );
        assert_eq!(
            check("mcts:time=5001"),
            Err("`time=5001` is over this server's cap: time at most 5000".into())
        );
        assert_eq!(
            check("greedy:samples=65"),
            Err("`samples=65` is over this server's cap: samples at most 64".into())
        );
    }

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
