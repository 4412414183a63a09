//! Unguessable ids and seat tokens, and comparing a token without telling, by the time taken,
//! how much of it was right.

use rand::RngCore;

/// `bytes` random bytes, as hex: rand's thread generator is a CSPRNG seeded (and reseeded)
/// from the operating system's.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat's token: 128 bits.
pub fn new_token() -> String {
    random_hex(16)
}

/// A match's id: 64 bits, enough that ids are not guessed in order (the seats' tokens guard
/// the play).
pub fn new_match_id() -> String {
    random_hex(8)
}

/// Whether `given` is `expected`, in a time that depends only on their lengths.
pub fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_hex_of_128_bits() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn same_needs_every_byte() {
        assert!(same("abcd", "abcd"));
        assert!(!same("abce", "abcd"));
        assert!(!same("abc", "abcd"));
        assert!(!same("", "abcd"));
    }
}
