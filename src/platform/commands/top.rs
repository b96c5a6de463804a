//! `TOP [game]`: a game's five best established ratings and the sender's
//! own place (or how far his provisional rating is from one), one SMS.
//! Without a game, the game of his last match (else the default game).

use super::words::{ParseError, split_word};
use crate::platform::catalog::DEFAULT_GAME;
use crate::platform::ctx::Ctx;
use crate::platform::texts::HelpLine;
use crate::platform::texts::{self, OwnPlace, TopLine};
use crate::ratings::PROVISIONAL_GAMES;
use crate::store::{Leader, Player, StoreResult};

/// Lines of the leaderboard `TOP` shows.
pub const TOP_LINES: usize = 5;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Top {
    pub game: Option<String>,
}

impl Top {
    /// Its line in `HELP`: `TOP`, `STAT`, `LAST`: standings (one line for the three).
    pub(super) const HELP: HelpLine = HelpLine::Standings;

    pub(super) fn parse(rest: &str) -> Result<Top, ParseError> {
        let (game, more) = split_word(rest);
        if !more.is_empty() {
            return Err(ParseError::BadTop);
        }
        Ok(Top {
            game: (!game.is_empty()).then(|| game.to_uppercase()),
        })
    }

    pub(super) fn run(ctx: &mut Ctx<'_>, player: Player, top: Top) -> StoreResult<()> {
        let lang = player.lang;
        let code = match top.game {
            Some(code) => code,
            None => match ctx.tx.matches().last_of(player.id)? {
                Some(m) => m.game,
                None => DEFAULT_GAME.to_string(),
            },
        };
        let catalog = ctx.catalog;
        let Some(game) = catalog.get(&code) else {
            let list = catalog.list(lang);
            return ctx.reply(&player, texts::unknown_game(lang, &code, &list));
        };
        let code = game.code();
        let leaders = ctx.tx.standings().leaders(code, TOP_LINES)?;
        let lines: Vec<TopLine<'_>> = leaders
            .iter()
            .zip(Leader::places(&leaders))
            .map(|(leader, place)| TopLine {
                place,
                nick: &leader.nick,
                rating: texts::rating(leader.points, leader.provisional()),
            })
            .collect();
        let own = match ctx.tx.standings().of(code, player.id)? {
            Some(row) if row.rated_games > 0 && row.provisional() => OwnPlace::Provisional {
                rating: texts::rating(row.rating.points(), true),
                games: row.rated_games,
                needed: PROVISIONAL_GAMES,
            },
            Some(row) if row.rated_games > 0 => {
                let points = row.rating.points();
                OwnPlace::Placed {
                    place: ctx.tx.standings().place(code, points)?,
                    rating: texts::rating(points, false),
                }
            }
            _ => OwnPlace::Unrated,
        };
        let text = texts::top(lang, code, &lines, &own);
        ctx.reply(&player, text)
    }
}
