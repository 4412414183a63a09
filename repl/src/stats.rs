//! The statistics behind `sim --bots` and `arena`: Wilson score intervals for win rates, and
//! Elo ratings by maximum-likelihood Bradley-Terry with intervals from the Fisher information.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of a rate of `wins` in `games` (wins may be fractional,
/// draws counted as halves); (0, 1) for no games. Unlike `p ± z·se` it stays inside [0, 1]
/// and is honest at 0 or n wins.
pub fn wilson(wins: f64, games: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let p = wins / games;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / games;
    let centre = (p + z2 / (2.0 * games)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / games + z2 / (4.0 * games * games)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One pairing's games: entrant `a` scored `score` (wins + draws/2) of `games` against `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub score: f64,
    pub games: f64,
}

/// Elo ratings (entrant 0 at 0) with the half-width of each one's 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    pub elo: Vec<f64>,
    pub interval: Vec<f64>,
}

/// Elo points per natural-log unit of odds: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Maximum-likelihood Bradley-Terry ratings of `n` entrants from `pairings`, as Elo (entrant 0
/// anchored at 0). `prior_draws` virtual draws are added to every pairing played, so an entrant
/// that won (or lost) every game gets a finite rating. Intervals come from the inverse Fisher
/// information at the estimate (entrant 0's is 0: it is the anchor); an entrant no game
/// connects to entrant 0 gets an infinite interval.
pub fn elo(n: usize, pairings: &[Pairing], prior_draws: f64) -> Ratings {
    let mut wins = vec![vec![0.0; n]; n];
    let mut games = vec![vec![0.0; n]; n];
    for p in pairings.iter().filter(|p| p.games > 0.0 && p.a != p.b) {
        wins[p.a][p.b] += p.score + prior_draws / 2.0;
        wins[p.b][p.a] += p.games - p.score + prior_draws / 2.0;
        games[p.a][p.b] += p.games + prior_draws;
        games[p.b][p.a] += p.games + prior_draws;
    }
    // Minorise-maximise (Hunter 2004): r_i = W_i / sum_j n_ij / (r_i + r_j); converges to the
    // maximum whenever it is finite.
    let mut r = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        for i in 0..n {
            let total: f64 = wins[i].iter().sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (r[i] + r[j]))
                .sum();
            if denom > 0.0 && total > 0.0 {
                let next = total / denom;
                change = change.max((next.ln() - r[i].ln()).abs());
                r[i] = next;
            }
        }
        let anchor = r[0];
        r.iter_mut().for_each(|x| *x /= anchor);
        if change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = r.iter().map(|x| x.ln()).collect();
    // The information matrix of the log-likelihood in theta, entrant 0 left out (fixed).
    let m = n.saturating_sub(1);
    let mut info = vec![vec![0.0; m]; m];
    for i in 0..n {
        for j in 0..n {
            if i == j || games[i][j] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            let w = games[i][j] * p * (1.0 - p);
            if i > 0 {
                info[i - 1][i - 1] += w;
                if j > 0 {
                    info[i - 1][j - 1] -= w;
                }
            }
        }
    }
    let variance = invert(info).map(|inv| (0..m).map(|i| inv[i][i]).collect::<Vec<_>>());
    let interval = (0..n)
        .map(|i| match (i, &variance) {
            (0, _) => 0.0,
            (_, Some(v)) if v[i - 1] > 0.0 => Z95 * v[i - 1].sqrt() * ELO_PER_NAT,
            _ => f64::INFINITY,
        })
        .collect();
    Ratings {
        elo: theta.iter().map(|t| t * ELO_PER_NAT).collect(),
        interval,
    }
}

/// The inverse of a small symmetric matrix by Gauss-Jordan elimination; None when singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in (0..n).filter(|&r| r != col) {
            let f = a[row][col];
            for k in 0..n {
                a[row][k] -= f * a[col][k];
                inv[row][k] -= f * inv[col][k];
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// Wilson's interval for 5 of 10: 0.5 ± 0.2634 (from the formula by hand: centre 0.5,
    /// half-width 1.96 / 1.3841 · sqrt(0.025 + 0.00960) = 0.26340); 0 of 10: [0, 0.2775].
    #[test]
    fn wilson_matches_hand_computed_intervals() {
        let (lo, hi) = wilson(5.0, 10.0);
        assert!(
            near(lo, 0.23659, 1e-4) && near(hi, 0.76341, 1e-4),
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && near(hi, 0.27753, 1e-4), "{lo} {hi}");
        let (lo, hi) = wilson(81.0, 100.0);
        assert!(
            near(lo, 0.72221, 1e-4) && near(hi, 0.87485, 1e-4),
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    /// Two entrants, the second scoring 3 of 4: the odds are 3, so 400·log10(3) = 190.85 Elo;
    /// the information is n·p·(1-p) = 4·0.75·0.25 = 0.75 (in nats), so the interval is
    /// 1.96 / sqrt(0.75) · 173.72 = 393.2 Elo.
    #[test]
    fn elo_of_two_matches_the_odds() {
        let r = elo(
            2,
            &[Pairing {
                a: 0,
                b: 1,
                score: 1.0,
                games: 4.0,
            }],
            0.0,
        );
        assert_eq!(r.elo[0], 0.0);
        assert!(near(r.elo[1], 190.849, 1e-2), "{:?}", r);
        assert_eq!(r.interval[0], 0.0);
        assert!(near(r.interval[1], 393.15, 0.1), "{:?}", r);
        // Even games: equal ratings.
        let even = elo(
            2,
            &[Pairing {
                a: 1,
                b: 0,
                score: 5.0,
                games: 10.0,
            }],
            0.0,
        );
        assert!(near(even.elo[1], 0.0, 1e-6), "{even:?}");
    }

    /// A transitive three: B beats A 3 of 4 (odds 3), C beats B 3 of 4, C and A untried: the
    /// likelihood factors, so B = 190.85 and C = 381.70.
    #[test]
    fn elo_chains_through_a_common_opponent() {
        let p = |a, b, score| Pairing {
            a,
            b,
            score,
            games: 4.0,
        };
        let r = elo(3, &[p(1, 0, 3.0), p(2, 1, 3.0)], 0.0);
        assert!(near(r.elo[1], 190.849, 1e-2), "{r:?}");
        assert!(near(r.elo[2], 381.697, 1e-2), "{r:?}");
        assert!(r.interval[2] > r.interval[1], "{r:?}");
        // An unbeaten entrant is finite with a prior, and one no game reaches is unknown.
        let r = elo(3, &[p(1, 0, 4.0)], 1.0);
        // 4.5 of 5: odds 9.
        assert!(near(r.elo[1], 400.0 * 9f64.log10(), 1e-2), "{r:?}");
        assert!(r.interval[2].is_infinite(), "{r:?}");
    }
}
