//! Fibs (`scripts/fibs/README.md`, cited as §): the example game of the designer's API. Scenario
//! tests from positions, hidden information (hands, the tale pile, peeks, secret answers, the
//! teller's own line), refusals, random playouts with invariants at every seat count (every
//! view checked in some), determinism and save/load in the middle of a doubt.

use boardscript_interpreter::{Match, Setup, State};
use boardscript_tests::{
    assert_replays_identically, assert_save_load_resumes, load, play_random, PlayoutStats,
    Playouts, Step, Table,
};

const ID: &str = "fibs";

/// Three seats, p1 to tell with 2 5 6, p2 holding 1 3 4 and p3 holding 6 6 4; 15 chips.
const TELL: &str = "turn p1\nhand p1 2 5 6\nhand p2 1 3 4\nhand p3 6 6 4";

fn table(position: &str) -> Table {
    Table::new(ID).seats(3).seed(1).position(position).start()
}

fn num(t: &Table, expr: &str) -> i64 {
    let v = t.eval(expr);
    v.parse().unwrap_or_else(|_| panic!("{expr} is {v}"))
}

fn chips(t: &Table, seat: &str) -> i64 {
    num(t, &format!(r#"g.counter("{seat}", "chips")"#))
}

fn is_out(t: &Table, seat: &str) -> bool {
    t.eval(&format!(r#"g.is_out("{seat}")"#)) == "true"
}

fn seat_of(state: &State, seat: &str) -> usize {
    state.seat_index(seat).unwrap()
}

/// `expr` on what `seat` sees.
fn seen(t: &Table, seat: &str, expr: &str) -> String {
    let view = t.state().view(Some(seat_of(t.state(), seat)));
    t.m.game
        .eval(&view, expr)
        .unwrap_or_else(|e| panic!("eval {expr} as {seat}: {e}"))
}

/// The log as `seat` reads it (None: a spectator), one line each.
fn log_of(state: &State, seat: Option<&str>) -> Vec<String> {
    let view = state.view(seat.map(|s| seat_of(state, s)));
    view.log.iter().map(|e| e.text.clone()).collect()
}

fn render(t: &Table, seat: &str) -> String {
    t.m.game
        .render(t.state(), Some(seat_of(t.state(), seat)))
        .unwrap()
}

/// §4.1, §5.1: a tell lays the card face down, makes the claim the one to beat, and asks
/// every other seat in the round, all at once, to believe or doubt.
#[test]
fn s4_1_a_tell_asks_every_other_seat_at_once() {
    let mut t = table(TELL);
    assert_eq!(t.deciding(), ["p1"]);
    assert!(t.legal("p1").contains(&"tell 5 as 6".to_string()));
    assert!(t.legal("p1").contains(&"tell 2 as 1".to_string()));
    t.play("p1", "tell 5 as 5");
    assert_eq!(t.deciding(), ["p2", "p3"]);
    assert_eq!(t.legal("p2"), ["believe", "doubt"]);
    assert_eq!(t.eval(r#"g.zone("tale").names()"#), r#"["5"]"#);
    assert_eq!(t.eval(r#"g.zone("hand", "p1").names()"#), r#"["2", "6"]"#);
    assert_eq!(num(&t, r#"g.counter("claim")"#), 5);
}

/// §5.2: nobody doubts: the card stays face down and p2 tells next, from 5 up.
#[test]
fn s5_2_nobody_doubts_the_card_stays_face_down() {
    let mut t = table(TELL);
    t.play("p1", "tell 2 as 5")
        .play("p2", "believe")
        .play("p3", "believe");
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(num(&t, r#"g.zone("tale").len"#), 1);
    assert_eq!(num(&t, r#"g.zone("discard").len"#), 0);
    let tells: Vec<String> = t
        .legal("p2")
        .into_iter()
        .filter(|a| a.starts_with("tell 1 "))
        .collect();
    assert_eq!(tells, ["tell 1 as 5", "tell 1 as 6"], "§5.4: 5 to beat");
    assert!(log_of(t.state(), None).contains(&"everyone believes p1".to_string()));
}

/// §5.3: a true tale doubted by one seat: the card is turned up, the doubter is out for the
/// round and passed over, the teller takes a chip.
#[test]
fn s5_3_a_true_tale_puts_the_doubter_out() {
    let mut t = table(TELL);
    t.play("p1", "tell 6 as 5")
        .play("p2", "doubt")
        .play("p3", "believe");
    assert_eq!(t.eval(r#"g.zone("discard").names()"#), r#"["6"]"#);
    assert_eq!(num(&t, r#"g.zone("tale").len"#), 0);
    assert!(is_out(&t, "p2") && !is_out(&t, "p1") && !is_out(&t, "p3"));
    assert_eq!(t.eval(r#"g.is_eliminated("p2")"#), "false");
    assert_eq!((chips(&t, "p1"), chips(&t, "p2")), (1, 0));
    assert_eq!(num(&t, r#"g.supply("bank").left"#), 14);
    assert_eq!(t.deciding(), ["p3"], "§3.4: out p2 is passed over");
    let log = log_of(t.state(), Some("p3"));
    let answers = ["p2: doubt".to_string(), "p3: believe".to_string()];
    assert!(log.windows(2).any(|w| w == answers), "{log:?}");
    assert!(log.contains(&"p1 told a 6: a true tale; p2 out for the round".to_string()));
    // The round goes on without p2: p3's tell asks p1 alone.
    t.play("p3", "tell 4 as 5");
    assert_eq!(t.deciding(), ["p1"]);
}

/// §5.3: a fib doubted by both: the teller is out, each doubter takes a chip, the turn passes
/// from the teller to p2, and the claim to beat stays at 6 (§5.4).
#[test]
fn s5_3_a_fib_puts_the_teller_out_and_pays_each_doubter() {
    let mut t = table(TELL);
    t.play("p1", "tell 2 as 6")
        .play("p2", "doubt")
        .play("p3", "doubt");
    assert!(is_out(&t, "p1"));
    assert_eq!(
        (chips(&t, "p1"), chips(&t, "p2"), chips(&t, "p3")),
        (0, 1, 1)
    );
    assert_eq!(t.deciding(), ["p2"]);
    assert_eq!(
        t.legal("p2"),
        [
            "fold",
            "peek p3",
            "tell 1 as 6",
            "tell 3 as 6",
            "tell 4 as 6"
        ]
    );
}

/// §5.3, §6.1-6.3: a true tale doubted by both others ends the round: the teller takes a chip
/// per doubter and one per card told; the next round starts with p2, everyone back in, hands
/// filled again, eyes back.
#[test]
fn s6_1_the_last_seat_in_wins_the_round() {
    let mut t = table(&format!("{TELL}\ntold 2\ntale 1\npeeked p1 p3"));
    t.play("p1", "tell 5 as 4")
        .play("p2", "doubt")
        .play("p3", "doubt");
    assert_eq!(chips(&t, "p1"), 2 + 3, "2 doubters, then 3 cards told");
    assert_eq!(num(&t, r#"g.supply("bank").left"#), 10);
    assert_eq!(num(&t, r#"g.counter("round")"#), 2);
    assert_eq!(t.deciding(), ["p2"], "§6.3: p1 started round 1");
    for seat in ["p1", "p2", "p3"] {
        assert!(!is_out(&t, seat), "{seat} is back");
        assert_eq!(num(&t, &format!(r#"g.zone("hand", "{seat}").len"#)), 3);
        assert_eq!(num(&t, &format!(r#"g.supply("eye", "{seat}").left"#)), 1);
    }
    assert_eq!(num(&t, r#"g.counter("claim")"#), 1);
    assert_eq!(num(&t, r#"g.zone("tale").len"#), 0, "§6.2");
    assert!(log_of(t.state(), None).contains(&"p1 wins round 1".to_string()));
}

/// §4.3, §6.1: folding leaves the round; the last seat in takes at least one chip even when
/// nothing was told.
#[test]
fn s4_3_folding_leaves_the_round() {
    let mut t = table(TELL);
    t.play("p1", "fold");
    assert!(is_out(&t, "p1"));
    assert_eq!(t.deciding(), ["p2"]);
    t.play("p2", "fold");
    assert_eq!(chips(&t, "p3"), 1);
    assert_eq!(num(&t, r#"g.counter("round")"#), 2);
    assert_eq!(t.deciding(), ["p2"]);
}

/// §6.2: the tale pile goes back into the draw pile unseen: its teller, who knew its cards,
/// and a peeker forget them.
#[test]
fn s6_2_the_tale_pile_is_mixed_back_and_forgotten() {
    let mut t = Table::new(ID)
        .seats(2)
        .position("turn p1\nhand p1 5 6\nhand p2 4")
        .start();
    t.play("p1", "tell 5 as 3").play("p2", "believe");
    t.play("p2", "tell 4 as 3").play("p1", "believe");
    let tale = t.eval(r#"g.zone("tale").cards().map(|c| c.id)"#);
    assert_eq!(seen(&t, "p1", r#"g.zone("tale").names()"#), r#"["5", "?"]"#);
    assert_eq!(seen(&t, "p2", r#"g.zone("tale").names()"#), r#"["?", "4"]"#);
    t.play("p1", "fold");
    assert_eq!(chips(&t, "p2"), 2);
    assert_eq!(num(&t, r#"g.zone("tale").len"#), 0);
    let known = t.eval(&format!(
        "let k = []; for id in {tale} {{ k += g.card_known_by(g.card(id)); }} k"
    ));
    assert_eq!(known, "[]", "nobody remembers the tale's cards");
}

/// §4.2: a peek places the eye and shows one card of the other's hand to the peeker alone,
/// and only once a round.
#[test]
fn s4_2_a_peek_shows_one_card_to_the_peeker_only() {
    let mut t = table(TELL);
    assert!(t.legal("p1").contains(&"peek p2".to_string()));
    t.play("p1", "peek p2");
    assert_eq!(num(&t, r#"g.supply("eye", "p1").left"#), 0);
    assert_eq!(t.deciding(), ["p2"]);
    let p2_hand = r#"g.zone("hand", "p2").names().filter(|n| n != "?").len()"#;
    assert_eq!(seen(&t, "p1", p2_hand), "1", "p1 sees one card of p2's");
    assert_eq!(seen(&t, "p3", p2_hand), "0");
    assert_eq!(seen(&t, "p2", p2_hand), "3", "p2 sees its own hand");
    let peeked: Vec<String> = log_of(t.state(), Some("p1"))
        .into_iter()
        .filter(|l| l.starts_with("you see a "))
        .collect();
    assert_eq!(peeked.len(), 1);
    assert!(peeked[0].ends_with(" in p2's hand"), "{peeked:?}");
    for other in [Some("p2"), Some("p3"), None] {
        let log = log_of(t.state(), other);
        assert!(log.iter().all(|l| !l.starts_with("you see")), "{log:?}");
    }
    assert!(log_of(t.state(), Some("p3")).contains(&"p1: peek p2".to_string()));
    // Once a round: p1's eye is placed.
    t.play("p2", "tell 1 as 1")
        .play("p1", "believe")
        .play("p3", "believe");
    t.play("p3", "tell 6 as 1")
        .play("p1", "believe")
        .play("p2", "believe");
    assert!(t.legal("p1").iter().all(|a| !a.starts_with("peek")));
    let err = t.refusal("p1", "peek p3");
    assert!(
        err.contains("`peek p3` is not a legal action for p1"),
        "{err}"
    );
}

/// §4.2: a peeked card stays seen by its peeker when told onto the tale pile, and by nobody
/// else; its teller knows it too.
#[test]
fn s4_2_a_peeked_card_stays_seen_on_the_tale_pile() {
    let mut t = table("turn p1\nhand p1 2\nhand p2 4\nhand p3 6");
    t.play("p1", "peek p2");
    t.play("p2", "tell 4 as 6");
    assert_eq!(seen(&t, "p1", r#"g.zone("tale").names()"#), r#"["4"]"#);
    assert_eq!(seen(&t, "p2", r#"g.zone("tale").names()"#), r#"["4"]"#);
    assert_eq!(seen(&t, "p3", r#"g.zone("tale").names()"#), r#"["?"]"#);
    let r1 = render(&t, "p1");
    assert!(r1.contains("tale pile: 1 face down  (you know: 4)"), "{r1}");
    let r3 = render(&t, "p3");
    assert!(r3.contains("tale pile: 1 face down\n"), "{r3}");
    assert!(
        r3.contains("p3, p1 to believe or doubt p2's tale of 6 or better"),
        "{r3}"
    );
}

/// §5.1: the answers are secret until all are in: while p3 still chooses, nothing of p2's
/// answer shows in p3's view or log; afterwards everyone reads both.
#[test]
fn s5_1_answers_stay_secret_until_all_are_in() {
    let mut t = table(TELL);
    t.play("p1", "tell 2 as 5");
    let (before_p1, before_p3) = (log_of(t.state(), Some("p1")), log_of(t.state(), Some("p3")));
    t.play("p2", "doubt");
    assert_eq!(t.deciding(), ["p3"]);
    assert_eq!(log_of(t.state(), Some("p3")), before_p3);
    assert_eq!(log_of(t.state(), Some("p1")), before_p1);
    // The state holds p2's answer; p3's view knows only that p2 has answered.
    let answers = |state: &State| {
        let json = serde_json::to_value(state).unwrap();
        json["agenda"]["items"][0]["Question"]["answers"].to_string()
    };
    assert_eq!(answers(t.state()), r#"{"1":"doubt"}"#);
    let p3 = t.state().view(Some(seat_of(t.state(), "p3")));
    assert_eq!(answers(&p3), r#"{"1":""}"#, "p3's view holds p2's answer");
    assert_eq!(seen(&t, "p3", r#"g.has_chosen("p2")"#), "true");
    t.play("p3", "believe");
    // §5.1 "then all are told": every seat and a spectator read both answers, in seat order.
    let answers = ["p2: doubt".to_string(), "p3: believe".to_string()];
    for seat in [Some("p1"), Some("p2"), Some("p3"), None] {
        let log = log_of(t.state(), seat);
        assert!(log.windows(2).any(|w| w == answers), "{seat:?}: {log:?}");
    }
}

/// §4.1: the tell's own line names the card laid and is the teller's alone; everyone reads
/// the claim. The teller's view shows its card on the tale pile; nobody else's does.
#[test]
fn s4_1_which_card_was_told_is_the_tellers_alone() {
    let mut t = table(TELL);
    t.play("p1", "tell 2 as 6");
    assert!(log_of(t.state(), Some("p1")).contains(&"p1: tell 2 as 6".to_string()));
    for seat in [Some("p2"), Some("p3"), None] {
        let log = log_of(t.state(), seat);
        assert!(
            log.iter().all(|l| !l.contains("tell 2")),
            "{seat:?}: {log:?}"
        );
        assert!(log.contains(&"p1 tells a tale of 6 or better".to_string()));
    }
    assert_eq!(seen(&t, "p1", r#"g.zone("tale").names()"#), r#"["2"]"#);
    assert_eq!(seen(&t, "p2", r#"g.zone("tale").names()"#), r#"["?"]"#);
    let r2 = render(&t, "p2");
    assert!(r2.contains("p2  chips 0  cards 3: 1 3 4"), "{r2}");
    assert!(r2.contains("p1  chips 0  cards 2\n"), "{r2}");
}

/// §7.1: the last chip ends the game at once, in the middle of paying the doubters: p2 takes
/// it, p3 none, and p3 wins on the chips held before.
#[test]
fn s7_1_the_last_chip_ends_the_game_at_once() {
    let mut t = table(&format!("{TELL}\nbank 1\nchips p3 4\nchips p2 3"));
    t.play("p1", "tell 2 as 6")
        .play("p2", "doubt")
        .play("p3", "doubt");
    assert!(t.is_over());
    assert_eq!((chips(&t, "p2"), chips(&t, "p3")), (4, 4));
    assert_eq!(t.winners(), ["p2", "p3"], "a tie shares the win");
    assert_eq!(t.eval("g.end_reason()"), r#""the bank is empty""#);
    assert_eq!(num(&t, r#"g.supply("bank").left"#), 0);
    let r = render(&t, "p1");
    assert!(r.ends_with("p2, p3 win (the bank is empty)"), "{r}");
}

/// §3.2: an empty draw pile takes in the discard pile, shuffled, when a round's hands are
/// filled.
#[test]
fn s3_2_an_empty_draw_pile_takes_in_the_discard_pile() {
    let all_but_two = "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 6 6 6";
    let mut t = Table::new(ID)
        .seats(2)
        .position(&format!(
            "turn p2\nhand p1 6\nhand p2 5\ndiscard {all_but_two}"
        ))
        .start();
    assert_eq!(num(&t, r#"g.zone("deck").len"#), 0);
    t.play("p2", "fold");
    assert_eq!(num(&t, r#"g.zone("hand", "p1").len"#), 3);
    assert_eq!(num(&t, r#"g.zone("hand", "p2").len"#), 3);
    assert_eq!(num(&t, r#"g.zone("discard").len"#), 0);
    assert_eq!(num(&t, r#"g.zone("deck").len"#), 18);
}

/// Refusals change nothing: a card not in hand, a claim under the one to beat or over the
/// top, peeking at oneself or at a seat out of the round, answering out of turn.
#[test]
fn refusals_leave_the_game_unchanged() {
    let mut t = table(&format!("{TELL}\nclaim 3\nout p3"));
    for bad in [
        "tell 3 as 4",
        "tell 5 as 2",
        "tell 5 as 7",
        "peek p1",
        "peek p3",
        "doubt",
    ] {
        let err = t.refusal("p1", bad);
        assert!(
            err.contains(&format!("`{bad}` is not a legal action for p1")),
            "{err}"
        );
    }
    let err = t.refusal("p2", "fold");
    assert!(err.contains("`p2` is not deciding now"), "{err}");
    t.play("p1", "tell 5 as 5");
    assert_eq!(t.deciding(), ["p2"], "p3 is out: not asked");
    let err = t.refusal("p1", "doubt");
    assert!(err.contains("`p1` is not deciding now"), "{err}");
    let err = t.refusal("p2", "fold");
    assert!(err.contains("`fold` is not a legal action for p2"), "{err}");
}

/// The position reader refuses what it cannot set up, naming it.
#[test]
fn a_bad_position_is_refused_with_its_line() {
    for (text, says) in [
        ("hand p1 7", "too few cards 7 left in the draw pile"),
        ("hand p1 6 6 6 6 6", "too few cards 6 left in the draw pile"),
        ("bank 16", "the bank holds at most 15 chips"),
        ("colour p1 red", "unknown position line `colour p1 red`"),
    ] {
        let setup = Setup {
            position: Some(text.into()),
            ..Setup::default()
        };
        let err = match Match::new(load(ID), setup) {
            Ok(_) => panic!("{text}: accepted"),
            Err(e) => format!("{e:#}"),
        };
        assert!(err.contains(says), "{text}: {err}");
        assert!(err.contains("table.rhai:"), "{text}: {err}");
    }
}

/// Invariants after every action: the deck keeps its cards; chips only leave the bank and
/// every chip taken is someone's; the claim to beat never falls within a round; a seat out
/// never decides; between questions, exactly the seats in the round decide one at a time.
fn invariant(step: &Step) -> Result<(), String> {
    let (game, before, after) = (step.game, step.before, step.after);
    let eval = |s: &State, e: &str| -> Result<i64, String> {
        let v = game.eval(s, e).map_err(|e| e.to_string())?;
        v.parse().map_err(|_| format!("{e} is {v}"))
    };
    let sum = "let n = 0; for s in g.seats() { n += g.counter(s, \"chips\"); } n";
    let chips = eval(after, sum)?;
    let (bank, bank_before) = (
        eval(after, "g.supply(\"bank\").left")?,
        eval(before, "g.supply(\"bank\").left")?,
    );
    let size = eval(after, "g.supply(\"bank\").size")?;
    if chips + bank != size || bank > bank_before {
        return Err(format!(
            "chips {chips} + bank {bank} (was {bank_before}) != {size}"
        ));
    }
    let deck = eval(after, "g.option(\"top\") * g.option(\"copies\")")?;
    if after.cards.len() as i64 != deck {
        return Err(format!("{} cards, not {deck}", after.cards.len()));
    }
    let round = |s: &State| eval(s, "g.counter(\"round\")");
    let claim = |s: &State| eval(s, "g.counter(\"claim\")");
    if round(after)? == round(before)? && claim(after)? < claim(before)? {
        return Err("the claim to beat fell within a round".into());
    }
    if !game.is_over(after).map_err(|e| e.to_string())? {
        for s in game.deciding(after).map_err(|e| e.to_string())? {
            let name = after.seat_name(s);
            if eval(
                after,
                &format!("if g.is_out(\"{name}\") {{ 1 }} else {{ 0 }}"),
            )? == 1
            {
                return Err(format!("{name} is out and decides"));
            }
        }
    }
    Ok(())
}

fn playouts(p: Playouts) -> PlayoutStats {
    let stats = p.check(&invariant).run();
    stats
        .assert_all_end()
        .assert_endings_among(&["the bank is empty"]);
    assert!(!stats.winner_counts.contains_key(&0), "{stats:?}");
    stats
}

/// 200 seeded random games at each seat count, 2 to 5; every game ends with the bank empty
/// and every seat wins some.
#[test]
fn random_playouts_at_every_seat_count() {
    for seats in 2..=5 {
        let p = Playouts::new(ID).seed(seats as u64).seats(seats).games(200);
        playouts(p.deep_every(23).max_length(2000)).assert_every_seat_wins();
    }
}

/// The harness's exhaustive hidden-information check (every seat's view and log after every
/// action), at every seat count.
#[test]
fn hidden_information_after_every_action() {
    for seats in 2..=5 {
        playouts(
            Playouts::new(ID)
                .seed(40 + seats as u64)
                .seats(seats)
                .games(25)
                .views(),
        );
    }
}

/// Small and large options play out: a deck of 2 values, hands of 1, a bank of 1; and a long
/// game.
#[test]
fn random_playouts_with_options() {
    let sets: [&[(&str, &str)]; 3] = [
        &[("top", "2"), ("copies", "2"), ("hand", "1"), ("chips", "1")],
        &[("top", "3"), ("copies", "2"), ("hand", "2"), ("chips", "5")],
        &[
            ("top", "9"),
            ("copies", "8"),
            ("hand", "6"),
            ("chips", "99"),
        ],
    ];
    for (i, opts) in sets.iter().enumerate() {
        let p = Playouts::new(ID).seed(70 + i as u64).seats(5).options(opts);
        playouts(p.games(40).deep_every(31).max_length(20000));
    }
}

fn random_match(seed: u64, actions: usize, stop: impl Fn(&Match) -> bool) -> Match {
    let setup = Setup {
        seed,
        seats: Some(4),
        ..Setup::default()
    };
    let mut m = Match::new(load(ID), setup).unwrap();
    play_random(&mut m, actions, seed ^ 7, stop);
    m
}

/// The same seed and actions give byte-identical states and saves.
#[test]
fn determinism_same_actions_same_bytes() {
    for seed in [3, 8] {
        let m = random_match(seed, 100_000, |_| false);
        assert!(m.game.is_over(&m.state).unwrap());
        assert_replays_identically(&m);
    }
}

/// Save and load in the middle of a doubt (one answer held) and between turns resume the
/// same game.
#[test]
fn save_load_mid_doubt_resumes() {
    let mid_doubt = |m: &Match| {
        m.actions().len() > 20
            && m.game
                .eval(&m.state, "g.has_chosen(\"p2\")")
                .ok()
                .as_deref()
                == Some("true")
    };
    let mut a = random_match(11, 100_000, mid_doubt);
    assert!(!a.game.is_over(&a.state).unwrap(), "stopped mid-doubt");
    assert_save_load_resumes(&mut a);
    let mut b = random_match(12, 37, |_| false);
    assert_save_load_resumes(&mut b);
}

/// The example position of the README ("Positions") sets up what its comments say.
#[test]
fn the_readme_position_sets_up_what_it_says() {
    let readme =
        std::fs::read_to_string(boardscript_tests::scripts_dir().join("fibs/README.md")).unwrap();
    let start = readme.find("```text\nround 2").expect("the example") + "```text\n".len();
    let text = &readme[start..start + readme[start..].find("```").unwrap()];
    let t = table(text);
    assert_eq!(t.deciding(), ["p2"]);
    for (expr, value) in [
        (r#"g.counter("round")"#, "2"),
        (r#"g.get("starter")"#, r#""p1""#),
        (r#"g.counter("claim")"#, "4"),
        (r#"g.counter("told")"#, "2"),
        (r#"g.supply("bank").left"#, "12"),
        (r#"g.counter("p1", "chips")"#, "3"),
        (r#"g.zone("hand", "p1").names()"#, r#"["1", "5", "6"]"#),
        (r#"g.zone("hand", "p2").len"#, "3"),
        (r#"g.zone("tale").names()"#, r#"["2", "5"]"#),
        (r#"g.zone("discard").names()"#, r#"["3", "3"]"#),
        (
            r#"g.zone("deck").cards().extract(-2).map(|c| c.name)"#,
            r#"["2", "6"]"#,
        ),
        (r#"g.out_seats()"#, r#"["p3"]"#),
        (r#"g.supply("eye", "p2").left"#, "0"),
    ] {
        assert_eq!(t.eval(expr), value, "{expr}");
    }
}
