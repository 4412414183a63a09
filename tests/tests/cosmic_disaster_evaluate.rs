//! Cosmic Disaster's `evaluate(g)` (scripts/cosmic-disaster/evaluate.rhai, issue 23): each
//! seat's estimated chance to win. Positions start at step 2 (`step move`), so no
//! proliferation runs before the value is read.

use boardscript_tests::playouts::{Playouts, Step};
use boardscript_tests::Table;

/// Every way to play the game: the base and its variants (each inherits the evaluation).
const IDS: [&str; 5] = [
    "cosmic-disaster",
    "cosmic-disaster/blame",
    "cosmic-disaster/chosen-proliferation",
    "cosmic-disaster/paid-movement",
    "cosmic-disaster/special-cards",
];

fn values(id: &str, seats: usize, options: &[(&str, &str)], position: &str) -> Vec<f64> {
    let mut b = Table::new(id).seed(1).seats(seats);
    for (k, v) in options {
        b = b.option(k, v);
    }
    let t = b.position(&format!("step move\n{position}")).start();
    boardscript_tests::numbers(&t.eval("evaluate(g)"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// §5: the most rescued wins; with hardly a star in danger the shares split one win (less
/// the small risk of a disaster, which is nobody's).
#[test]
fn the_leader_scores_above_the_others_and_the_shares_sum_to_one() {
    for id in IDS {
        let v = values(id, 3, &[], "tokens 8:2\nscore p1 10\nscore p2 4");
        assert!(v[0] > v[1] && v[1] > v[2], "{id}: {v:?}");
        let sum: f64 = v.iter().sum();
        assert!(sum <= 1.0 && sum > 0.999, "{id}: {v:?}");
    }
}

/// §5 E1: a cosmic disaster is everybody's loss: stars lost lower every seat's value, the
/// last seat's too (it has no draw to hope for).
#[test]
fn destroyed_stars_lower_every_seat() {
    let safe = values(
        "cosmic-disaster",
        3,
        &[],
        "tokens 8:2\nscore p1 10\nscore p2 4",
    );
    let lost = values(
        "cosmic-disaster",
        3,
        &[],
        "tokens 8:2\nscore p1 10\nscore p2 4\ndestroyed 2 3 4 5 6 9",
    );
    assert!(lost[0] < safe[0], "leader: {safe:?} then {lost:?}");
    assert!(lost[2] < safe[2], "last: {safe:?} then {lost:?}");
    assert!(lost.iter().all(|x| (0.0..=1.0).contains(x)), "{lost:?}");
}

/// §4.5: a star at its capacity dies at the next token: it counts toward the risk.
#[test]
fn a_star_at_its_capacity_adds_to_the_risk() {
    // Star 12 holds 3 (copies 4, capacity 3); star 10 holds 1 of 5.
    let calm = values(
        "cosmic-disaster",
        2,
        &[],
        "tokens 8:2 10:1\nscore p1 6\ndestroyed 2 3",
    );
    let brink = values(
        "cosmic-disaster",
        2,
        &[],
        "tokens 8:2 12:3\nscore p1 6\ndestroyed 2 3",
    );
    assert!(brink[0] < calm[0], "leader: calm {calm:?}, brink {brink:?}");
}

/// §6 solo: a win unless the stars run out; the value falls as the stars fill up and with
/// every star lost, and rises toward the target.
#[test]
fn solo_is_the_chance_the_stars_last() {
    let fresh = values("cosmic-disaster", 1, &[], "tokens 8:2");
    let hurt = values("cosmic-disaster", 1, &[], "tokens 8:2\ndestroyed 2 3 4 5 6");
    let near = values(
        "cosmic-disaster",
        1,
        &[],
        "tokens 8:2\ndestroyed 2 3 4 5 6\nscore p1 22",
    );
    let crowded = values("cosmic-disaster", 1, &[], "tokens 8:6");
    assert!(fresh[0] > 0.99, "2 Earthlings on Earth: {fresh:?}");
    assert!(
        crowded[0] < fresh[0],
        "6 of Earth's 7: {crowded:?} below {fresh:?}"
    );
    assert!(hurt[0] < fresh[0], "{hurt:?}");
    assert!(near[0] > hurt[0], "near the target {near:?} above {hurt:?}");
}

/// §6 team game: partners share one value; the team ahead scores above the other.
#[test]
fn partners_share_their_team_value() {
    let v = values(
        "cosmic-disaster",
        4,
        &[("team", "true")],
        "tokens 8:2\nscore p1 10\nscore p3 5\nscore p2 8",
    );
    assert!(close(v[0], v[2]) && close(v[1], v[3]), "{v:?}");
    assert!(v[0] > v[1], "p1+p3 (15) above p2+p4 (8): {v:?}");
    // The two teams' shares of the win sum to 1; the draw's 1/4 each takes the rest.
    assert!(v[0] + v[1] <= 1.0 + 1e-9, "{v:?}");
}

/// Every few actions of random games: one value per seat, each in [0, 1], partners equal.
fn evaluate_in_range(step: &Step) -> Result<(), String> {
    let Some(v) = boardscript_tests::evaluated_every(step, 3)? else {
        return Ok(());
    };
    if v.len() == 4
        && step
            .game
            .eval(step.after, "g.option(\"team\")")
            .map_err(|e| e.to_string())?
            == "true"
        && !(close(v[0], v[2]) && close(v[1], v[3]))
    {
        return Err(format!("partners differ: {v:?}"));
    }
    Ok(())
}

/// A game or variant, its seats and options.
type Setup = (&'static str, usize, &'static [(&'static str, &'static str)]);

#[test]
fn evaluate_fits_every_game_along_random_playouts() {
    let setups: [Setup; 8] = [
        ("cosmic-disaster", 1, &[]),
        ("cosmic-disaster", 2, &[]),
        ("cosmic-disaster", 3, &[]),
        ("cosmic-disaster", 4, &[("team", "true")]),
        ("cosmic-disaster/blame", 3, &[]),
        ("cosmic-disaster/chosen-proliferation", 3, &[]),
        ("cosmic-disaster/paid-movement", 3, &[]),
        ("cosmic-disaster/special-cards", 3, &[]),
    ];
    for (id, seats, options) in setups {
        Playouts::new(id)
            .seats(seats)
            .options(options)
            .seed(23)
            .games(4)
            .deep_every(0)
            .max_length(5_000)
            .check(&evaluate_in_range)
            .run()
            .assert_all_end();
    }
}
