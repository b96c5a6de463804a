//! `STAT [nick]`: a player's games, wins, draws, losses (in races of three
//! or more, his places) and rating in every game he finished a match of
//! (the sender's own without a nick), one SMS.

use super::register::valid_nick;
use super::words::{ParseError, split_word};
use crate::platform::ctx::Ctx;
use crate::platform::texts::{self, StatLine};
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stat {
    pub nick: Option<String>,
}

impl Stat {
    pub(super) fn parse(rest: &str) -> Result<Stat, ParseError> {
        let (nick, more) = split_word(rest);
        if !more.is_empty() || (!nick.is_empty() && !valid_nick(nick)) {
            return Err(ParseError::BadStat);
        }
        Ok(Stat {
            nick: (!nick.is_empty()).then(|| nick.to_string()),
        })
    }

    pub(super) fn run(ctx: &mut Ctx<'_>, player: Player, stat: Stat) -> StoreResult<()> {
        let lang = player.lang;
        let whose = match &stat.nick {
            None => player.clone(),
            Some(nick) => match ctx.tx.players().by_nick(nick)? {
                Some(found) => found,
                None => return ctx.reply(&player, texts::unknown_nick(lang, nick)),
            },
        };
        let rows = ctx.tx.standings().of_player(whose.id)?;
        let lines: Vec<StatLine<'_>> = rows
            .iter()
            .filter(|r| r.games > 0)
            .map(|r| StatLine {
                game: &r.game,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
                places: r.places.counts(),
                rating: (r.rated_games > 0)
                    .then(|| texts::rating(r.rating.points(), r.provisional())),
            })
            .collect();
        let nick = whose.nick.as_deref().unwrap_or_default();
        let text = texts::stat(lang, nick, &lines);
        ctx.reply(&player, text)
    }
}
