//! The classic games with OpenSpiel's rules (Connect Four, Breakthrough, Hex): their win and
//! draw conditions as positions, and random playouts with invariants. Move-for-move agreement
//! with OpenSpiel itself is `bench/peers --check`, outside `cargo test` (it needs the network).

use boardscript_interpreter::Setup;
use boardscript_tests::{Playouts, Step, Table};

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// Connect Four

/// Drops `x`'s winning piece into `column` from `position` (x to move) and checks that it wins,
/// and that the game was still on before.
fn x_wins_by_dropping(position: &str, column: &str) {
    let mut t = Table::new("connect-four").position(position).start();
    assert_eq!(t.deciding(), ["x"]);
    assert!(t.winners().is_empty(), "three in a row do not win");
    t.play("x", column);
    assert!(t.is_over());
    assert_eq!(t.winners(), ["x"]);
}

/// Four across on the bottom row win.
#[test]
fn cf_four_across_win() {
    x_wins_by_dropping(
        "
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . . . . .
2  . . o o o . .
1  . . x x x . .
   a b c d e f g",
        "f",
    );
}

/// Four up a column win.
#[test]
fn cf_four_up_win() {
    x_wins_by_dropping(
        "
6  . . . . . . .
5  . . . . . . .
4  . . . . . . .
3  . . . x . . .
2  . . . x . . .
1  . o o x o . .
   a b c d e f g",
        "d",
    );
}

/// Four on a rising diagonal win, the last one dropped in the middle of the line.
#[test]
fn cf_four_on_a_rising_diagonal_win() {
    x_wins_by_dropping(
        "
6  . . . . . . .
5  . . . . . . .
4  . . . x . . .
3  . . . x . . .
2  . x o o . . .
1  x o o x o . .
   a b c d e f g",
        "c",
    );
}

/// Four on a falling diagonal win.
#[test]
fn cf_four_on_a_falling_diagonal_win() {
    x_wins_by_dropping(
        "
6  . . . . . . .
5  . . . . . . .
4  x . . . . . .
3  o x . . . . .
2  o o x . . . .
1  x o o . x . .
   a b c d e f g",
        "d",
    );
}

/// A piece falls to the lowest empty cell; a full column is no longer a legal move; a gap
/// breaks a line.
#[test]
fn cf_pieces_fall_and_full_columns_close() {
    let mut t = Table::new("connect-four").start();
    assert_eq!(t.legal("x"), sorted("a b c d e f g"));
    for (seat, column) in [("x", "a"), ("o", "a"), ("x", "a"), ("o", "a"), ("x", "a")] {
        t.play(seat, column);
    }
    assert_eq!(t.eval(r#"g.grid("board").get("a5")"#), "\"x\"");
    t.play("o", "a");
    assert_eq!(t.legal("x"), sorted("b c d e f g"));
    let err = t.refusal("x", "a");
    assert!(
        err.starts_with("`a` is not a legal action for x"),
        "a full column: {err}"
    );
    // x on b1 c1 e1 and f1 (a gap at d1): not four in a row.
    for (seat, column) in [("x", "b"), ("o", "b"), ("x", "c"), ("o", "c"), ("x", "e")] {
        t.play(seat, column);
    }
    t.play("o", "e").play("x", "f");
    assert!(!t.is_over());
    t.play("o", "f").play("x", "d");
    assert_eq!(t.winners(), ["x"], "the gap filled");
}

/// A full board without four in a row is a draw: over, nobody wins.
#[test]
fn cf_full_board_is_a_draw() {
    let mut t = Table::new("connect-four")
        .position(
            "
6  o x o o x x .
5  x o x x o x x
4  o x o o o x o
3  x o x x x o x
2  x o o o x o o
1  x o o x x x o
   a b c d e f g",
        )
        .start();
    assert_eq!(t.deciding(), ["o"]);
    assert_eq!(t.legal("o"), ["g"]);
    t.play("o", "g");
    assert!(t.is_over());
    assert!(t.winners().is_empty());
}

/// A position must be one a game can reach: pieces rest on each other, x moved first.
#[test]
fn cf_impossible_positions_are_refused() {
    let game = boardscript_tests::load("connect-four");
    for (board, why) in [
        ("6 . . . . . . .\n5 . . . . . . .\n4 . . . . . . .\n3 . . . . . . .\n2 . . x . . . .\n1 . . . o . . .", "floats"),
        ("6 . . . . . . .\n5 . . . . . . .\n4 . . . . . . .\n3 . . . . . . .\n2 . . . . . . .\n1 o . . . . . .", "x moves first"),
    ] {
        let setup = Setup {
            position: Some(board.into()),
            ..Setup::default()
        };
        let Err(err) = game.start(&setup) else {
            panic!("a position that {why} was accepted");
        };
        let err = err.to_string();
        assert!(err.contains(why), "{err}");
    }
}

/// One piece more a move, on the lowest empty cell of its column, for the seat that moved;
/// the turn passes after every move.
fn connect_four_invariant(step: &Step) -> Result<(), String> {
    let (before, after) = (step.before, step.after);
    let (b, a) = (&before.grids[0], &after.grids[0]);
    let changed: Vec<usize> = (0..a.len()).filter(|&i| a.cells[i] != b.cells[i]).collect();
    let [cell] = changed[..] else {
        return Err(format!("{} cells changed in one move", changed.len()));
    };
    if b.symbol_at(cell) != '.' || (cell >= a.width && a.symbol_at(cell - a.width) == '.') {
        return Err(format!("a piece landed on {}", a.cell_name(cell)));
    }
    let mover = before.seat_name(before.turn.current);
    if a.symbol_at(cell).to_string() != mover {
        return Err(format!("{mover} dropped a {}", a.symbol_at(cell)));
    }
    if after.turn.current == before.turn.current {
        return Err("the turn did not pass".into());
    }
    Ok(())
}

/// Random games end by four in a row or a full board, within 42 moves: nearly all with one
/// winner, either seat, and none before x's fourth piece (move 7).
#[test]
fn cf_random_playouts() {
    let stats = Playouts::new("connect-four")
        .seed(4)
        .games(300)
        .deep_every(53)
        .max_length(42)
        .check(&connect_four_invariant)
        .run();
    stats.assert_all_end().assert_every_seat_wins();
    assert!(stats.min_length >= 7, "{stats:?}");
    let draws = stats.winner_counts.get(&0).copied().unwrap_or(0);
    assert_eq!(
        stats.winner_counts.get(&1),
        Some(&(300 - draws)),
        "{stats:?}"
    );
    assert!(draws <= 15, "{stats:?}");
}

// ---------------------------------------------------------------------------------------------
// Breakthrough

/// Black, first, has OpenSpiel's 22 opening moves: each front piece straight or diagonally.
#[test]
fn bt_opening_moves() {
    let t = Table::new("breakthrough").start();
    assert_eq!(t.deciding(), ["black"]);
    let legal = t.legal("black");
    assert_eq!(legal.len(), 22);
    assert!(legal.contains(&"a7a6".into()) && legal.contains(&"h7g6".into()));
    assert!(
        !legal.iter().any(|m| m.starts_with("a8")),
        "back-row pieces are blocked"
    );
}

/// A piece captures diagonally forward only: an enemy straight ahead blocks it.
#[test]
fn bt_captures_are_diagonal_only() {
    let mut t = Table::new("breakthrough")
        .position(
            "
8  . . . . . . . b
7  . . . . . . . .
6  . . . . . . . .
5  . . . b . . . .
4  . . w w . . . .
3  . . . . . . . .
2  . . . . . . . .
1  w . . . . . . .
   a b c d e f g h",
        )
        .start();
    assert_eq!(
        t.legal("black"),
        sorted("d5c4 d5e4 h8g7 h8h7"),
        "no d5d4: d4 is taken and straight ahead"
    );
    t.play("black", "d5c4");
    assert_eq!(t.eval(r#"g.grid("board").count("w")"#), "2");
    assert!(!t.is_over());
    // White's d4 cannot take the black piece beside it on c4: captures go forward.
    assert_eq!(t.legal("white"), sorted("a1a2 a1b2 d4c5 d4d5 d4e5"));
}

/// Reaching the far row wins at once, by a step or a capture.
#[test]
fn bt_reaching_the_far_row_wins() {
    let position = "
8  . b b . . . . .
7  . . w . . . . .
6  . . . . . . . .
5  . . . . . . . .
4  . . . . . . . .
3  . . . . . . . .
2  . . . . . . . .
1  . . . . . . . .
   a b c d e f g h
turn white";
    for (mv, left) in [("c7d8", "2"), ("c7b8", "1")] {
        let mut t = Table::new("breakthrough").position(position).start();
        assert_eq!(t.legal("white"), sorted("c7b8 c7d8"));
        t.play("white", mv);
        assert!(t.is_over());
        assert_eq!(t.winners(), ["white"]);
        assert_eq!(t.eval(r#"g.grid("board").count("b")"#), left);
    }
}

/// Capturing the last enemy piece wins, far from the far row.
#[test]
fn bt_capturing_every_piece_wins() {
    let mut t = Table::new("breakthrough")
        .position(
            "
8  . . . . . . . .
7  . . . . . . . .
6  . . . . . . . .
5  . . . . . . . .
4  . . . . b . . .
3  . . . w . . . .
2  . . . . . . . .
1  w . . . . . . .
   a b c d e f g h
turn white",
        )
        .start();
    t.play("white", "d3e4");
    assert!(t.is_over());
    assert_eq!(t.winners(), ["white"]);
}

/// One piece moves a move, at most one enemy piece is taken, and the turn passes.
fn breakthrough_invariant(step: &Step) -> Result<(), String> {
    let (before, after) = (step.before, step.after);
    let (b, a) = (&before.grids[0], &after.grids[0]);
    let changed = (0..a.len()).filter(|&i| a.cells[i] != b.cells[i]).count();
    if changed != 2 {
        return Err(format!("{changed} cells changed in one move"));
    }
    let count = |g: &boardscript_interpreter::primitives::grid::Grid, c: char| {
        (0..g.len()).filter(|&i| g.symbol_at(i) == c).count()
    };
    let (mine, theirs) = if before.seat_name(before.turn.current) == "black" {
        ('b', 'w')
    } else {
        ('w', 'b')
    };
    if count(a, mine) != count(b, mine) || count(b, theirs) - count(a, theirs) > 1 {
        return Err("pieces appeared or vanished".into());
    }
    if after.turn.current == before.turn.current {
        return Err("the turn did not pass".into());
    }
    Ok(())
}

/// Random games end with one winner, either seat: every move advances a piece, so no game
/// outlasts 2 seats x 16 pieces x 7 rows of moves.
#[test]
fn bt_random_playouts() {
    Playouts::new("breakthrough")
        .seed(8)
        .games(60)
        .deep_every(31)
        .max_length(2 * 16 * 7)
        .check(&breakthrough_invariant)
        .run()
        .assert_all_end()
        .assert_winners_each(1)
        .assert_every_seat_wins();
}

// ---------------------------------------------------------------------------------------------
// Hex

/// Plays `seat`'s `last` stone on a 5x5 `position` and says whether it won (checking that the
/// game was still on before).
fn hex_last_stone_wins(position: &str, seat: &str, last: &str) -> bool {
    let mut t = Table::new("hex")
        .option("size", "5")
        .position(position)
        .start();
    assert_eq!(t.deciding(), [seat]);
    assert!(!t.is_over());
    t.play(seat, last);
    if t.is_over() {
        assert_eq!(t.winners(), [seat]);
    }
    t.is_over()
}

/// A chain along the rhombus' short diagonal (`e1 d2 c3 b4 a5`) joins Black's rows; a line
/// along the long one (`a1 b2 c3 d4 e5`) does not, for in Hex `(x+1, y+1)` does not touch
/// `(x, y)`.
#[test]
fn hex_black_chain_wins_only_when_connected() {
    let chain = "
1 o o . . x
2 o o . x .
3 . . x . .
4 . x . . .
5 . . . . .";
    assert!(hex_last_stone_wins(chain, "black", "a5"));
    let no_chain = "
1 x . o o .
2 . x . o o
3 . . x . .
4 . . . x .
5 . . . . .";
    assert!(!hex_last_stone_wins(no_chain, "black", "e5"));
}

/// White joins columns a and e through `c3 d2 e1` (touching); `c3 d4 e5` does not touch.
#[test]
fn hex_white_chain_wins_only_when_connected() {
    let chain = "
1 x x . . .
2 . . . o .
3 o o o . .
4 . . . . .
5 x x x . .";
    assert!(hex_last_stone_wins(chain, "white", "e1"));
    let no_chain = "
1 x x . . .
2 . . . . .
3 o o o . .
4 . . . o .
5 x x x . .";
    assert!(!hex_last_stone_wins(no_chain, "white", "e5"));
}

/// Black joins rows 1 and 11 with the last stone of a chain; the game was on before it.
#[test]
fn hex_black_joins_top_and_bottom() {
    let mut rows = String::new();
    for y in 1..=11 {
        // Black down column f (rows 1-10), White down column a (rows 1-10): no chain joins
        // column a to column k.
        let mut cells = ["."; 11];
        if y <= 10 {
            cells[5] = "x";
            cells[0] = "o";
        }
        rows.push_str(&format!("{y} {}\n", cells.join(" ")));
    }
    let mut t = Table::new("hex").position(&rows).start();
    assert_eq!(t.deciding(), ["black"]);
    assert_eq!(t.legal("black").len(), 121 - 20);
    t.play("black", "g10");
    assert!(!t.is_over(), "g10 touches f10 but not row 11");
    t.play("white", "a11");
    assert!(!t.is_over(), "column a alone is one edge");
    t.play("black", "f11");
    assert!(t.is_over());
    assert_eq!(t.winners(), ["black"]);
}

/// One stone more a move, on an empty cell, of the seat that moved; the turn passes.
fn hex_invariant(step: &Step) -> Result<(), String> {
    let (before, after) = (step.before, step.after);
    let (b, a) = (&before.grids[0], &after.grids[0]);
    let changed: Vec<usize> = (0..a.cells.len())
        .filter(|&i| a.cells[i] != b.cells[i])
        .collect();
    let [node] = changed[..] else {
        return Err(format!("{} cells changed in one move", changed.len()));
    };
    let stone = if before.seat_name(before.turn.current) == "black" {
        'x'
    } else {
        'o'
    };
    if b.symbol_at(node) != '.' || a.symbol_at(node) != stone {
        return Err(format!("a bad stone on {}", a.cell_name(node)));
    }
    if after.turn.current == before.turn.current {
        return Err("the turn did not pass".into());
    }
    Ok(())
}

/// Random games on 11x11 always end with one winner, either seat, before the board is
/// over-full, and no sooner than a chain of 11 stones allows (black's 11th stone).
#[test]
fn hex_random_playouts() {
    let stats = Playouts::new("hex")
        .seed(11)
        .games(40)
        .deep_every(37)
        .max_length(121)
        .check(&hex_invariant)
        .run();
    stats
        .assert_all_end()
        .assert_winners_each(1)
        .assert_every_seat_wins();
    assert!(stats.min_length >= 21, "{stats:?}");
}
