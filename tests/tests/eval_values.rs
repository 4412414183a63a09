//! Issue 21: `eval` shows a card as what it is, inside arrays and maps too, never as the name
//! of a Rust type.

use boardscript_tests::Table;

#[test]
fn eval_shows_cards_in_arrays_and_maps_by_name() {
    let t = Table::new("virus-war-fr").seed(3).seats(2).start();
    let hand = t.eval(r#"g.zone("hand", "p1").cards()"#);
    assert!(hand.starts_with("[Card("), "{hand}");
    assert!(!hand.contains("boardscript_interpreter"), "{hand}");
    assert_eq!(hand.matches("Card(").count(), 6, "{hand}");
    assert_eq!(
        t.eval(r#"#{top: [g.zone("hand", "p1").cards()[0].name, ()], n: 2}"#),
        format!(
            r#"#{{"n": 2, "top": ["{}", ()]}}"#,
            t.eval(r#"g.zone("hand", "p1").cards()[0].name"#)
                .trim_matches('"')
        )
    );
}
