//! `Table::bot_choice`: what a bot would play, asked without playing it.

use super::{bot_action, not_deciding, Seat, Table, TableError};
use crate::bots::BotSpec;

impl Table {
    /// The action the bot `bot` would play for `seat` now, from that seat's view only, left
    /// unplayed: one call, so no other caller's action can slip in between a choice and its
    /// taking back. The bot is made for this choice alone, seeded as `play_bot`'s first bot
    /// for the seat (the seat's own bot, if any, is not disturbed). For callers that choose
    /// for a seat and act later (Python's `Bot.choose`).
    pub fn bot_choice(&self, seat: Seat, bot: &str) -> Result<String, TableError> {
        let seat = self.checked(seat)?;
        let spec = BotSpec::parse(bot).map_err(TableError::Bot)?;
        let stop = self.stop.clone();
        self.call(move |t| {
            let decisions = t.decisions()?;
            not_deciding::check(&t.m.state, decisions, seat)?;
            let mut bot = t.make_bot(&spec, seat, stop)?;
            bot_action(&t.m, bot.as_mut(), decisions, seat)
        })
    }
}
