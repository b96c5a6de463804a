//! `LAST`: the sender's last three finished matches: the game, whom he
//! played, how it came out and what it did to his rating, one SMS.

use super::words::{ParseError, bare};
use crate::platform::ctx::Ctx;
use crate::platform::texts::{self, Finish, LastLine};
use crate::ratings::Outcome;
use crate::store::{Holder, Player, StoreResult};

/// Matches `LAST` tells.
pub const LAST_MATCHES: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Last;

impl Last {
    pub(super) fn parse(rest: &str) -> Result<Last, ParseError> {
        bare(rest, "LAST").map(|()| Last)
    }

    pub(super) fn run(ctx: &mut Ctx<'_>, player: Player, _: Last) -> StoreResult<()> {
        let mut lines = Vec::with_capacity(LAST_MATCHES);
        for match_id in ctx.tx.standings().finished_of(player.id, LAST_MATCHES)? {
            let Some(record) = ctx.tx.matches().by_id(match_id)? else {
                continue;
            };
            let seats = ctx.tx.matches().seats(match_id)?;
            let Some(mine) = seats.iter().find(|s| s.is(player.id)) else {
                continue;
            };
            let my_place = mine.place.unwrap_or(u8::MAX);
            let places: Vec<u8> = seats.iter().filter_map(|s| s.place).collect();
            // Whom he played: the seats of the other sides (by the final
            // state's sides; by place, should that state not load).
            let state = ctx
                .catalog
                .get(&record.game)
                .and_then(|g| g.load(&record.state).ok());
            let side = |seat: usize| state.as_ref().map(|state| state.side(seat));
            let opponents: Vec<String> = seats
                .iter()
                .filter(|s| match (side(s.seat), side(mine.seat)) {
                    (Some(theirs), Some(own)) => theirs != own,
                    _ => s.place != mine.place,
                })
                .map(|s| match &s.holder {
                    Holder::Player(p) => p.nick.clone().unwrap_or_default(),
                    Holder::Robot(level) => format!("bot{level}"),
                })
                .collect();
            let mut sides = places.clone();
            sides.sort_unstable();
            sides.dedup();
            let finish = if sides.len() > 2 {
                Finish::Placed(my_place, sides.len())
            } else {
                match Outcome::of(my_place, &places) {
                    Outcome::Win => Finish::Won,
                    Outcome::Draw => Finish::Drew,
                    Outcome::Loss => Finish::Lost,
                }
            };
            let change = ctx.tx.standings().change(match_id, player.id)?;
            lines.push(LastLine {
                game: record.game,
                opponents,
                finish,
                change: change.map(|c| c.points()),
            });
        }
        let text = texts::last(player.lang, &lines);
        ctx.reply(&player, text)
    }
}
