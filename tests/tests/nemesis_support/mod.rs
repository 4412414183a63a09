//! What the Nemesis test files share: a game set up for a scenario, and reading a number.

use boardscript_tests::Table;

pub const ID: &str = "nemesis";

/// A game after setup with the draft played at random, then `position`; p1 to play.
pub fn table(seats: usize, position: &str) -> Table {
    Table::new(ID)
        .seats(seats)
        .seed(1)
        .option("draft", "random")
        .position(position)
        .start()
}

pub fn eval_int(t: &Table, expr: &str) -> i64 {
    let v = t.eval(expr);
    v.parse().unwrap_or_else(|_| panic!("{expr} gave {v}"))
}
