//! The one table of what a sender's state lets each command do: a row per
//! command, a cell per state (stranger, opted out, no nick yet, idle, in a
//! match). A cell acts (the command's own function), answers with a fixed
//! reply, or ignores the text. The match has no fallback arm: a new command
//! does not compile until its row says what every state does with it.

use super::board::Board;
use super::help::Help;
use super::history::History;
use super::lang::SetLang;
use super::last::Last;
use super::list_games::ListGames;
use super::message::Message;
use super::parse::Command;
use super::play::Play;
use super::play_again::PlayAgain;
use super::register::Register;
use super::resign::Resign;
use super::row::Cell::{Act, Ignore, Say};
use super::row::Registered::{Anywhere, ByPlace};
use super::row::Reply::{
    AlreadyOptedIn, MessageNotAllowed, NeedRegistration, NotInMatch, Usage, WelcomeStranger,
};
use super::row::{Row, Who};
use super::start::Start;
use super::stat::Stat;
use super::stop::Stop;
use super::text::Text;
use super::timeout::Timeout;
use super::top::Top;
use super::words::ParseError;
use crate::platform::ctx::Ctx;
use crate::store::StoreResult;

/// Runs one text's command for its sender; `text` is the whole text.
pub(in crate::platform) fn route(
    ctx: &mut Ctx<'_>,
    who: Who,
    command: Command,
    text: &str,
) -> StoreResult<()> {
    match command {
        // The account's commands act on the number's row, whatever he is doing.
        Command::Register(c) => Row {
            stranger: Act(Register::run),
            opted_out: Ignore,
            unregistered: Act(Register::run),
            registered: Anywhere(Act(Register::run)),
        }
        .run(ctx, who, c, text),
        Command::Stop(c) => Row {
            stranger: Act(Stop::run),
            opted_out: Ignore,
            unregistered: Act(Stop::run),
            registered: Anywhere(Act(Stop::run)),
        }
        .run(ctx, who, c, text),
        Command::Start(c) => Row {
            stranger: Say(NeedRegistration),
            opted_out: Act(Start::run),
            unregistered: Say(AlreadyOptedIn),
            registered: Anywhere(Say(AlreadyOptedIn)),
        }
        .run(ctx, who, c, text),
        Command::Lang(c) => Row {
            stranger: Act(SetLang::run),
            opted_out: Ignore,
            unregistered: Act(SetLang::run),
            registered: Anywhere(Act(SetLang::run)),
        }
        .run(ctx, who, c, text),
        // A player's standing, whatever he is doing: no game reads these words as moves.
        Command::Top(c) => Row::for_players(Anywhere(Act(Top::run))).run(ctx, who, c, text),
        Command::Stat(c) => Row::for_players(Anywhere(Act(Stat::run))).run(ctx, who, c, text),
        Command::Last(c) => Row::for_players(Anywhere(Act(Last::run))).run(ctx, who, c, text),
        // In a match, HELP is the game's move syntax: never the game's to claim.
        Command::Help(c) => Row {
            stranger: Say(WelcomeStranger),
            opted_out: Ignore,
            unregistered: Say(WelcomeStranger),
            registered: ByPlace {
                idle: Act(Help::idle),
                in_match: Act(Help::in_match),
                game_may_claim: false,
            },
        }
        .run(ctx, who, c, text),
        // The platform's match commands, which a game may read as moves.
        Command::Play(c) => Row::for_players(ByPlace {
            idle: Act(Play::idle),
            in_match: Act(Play::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::ListGames(c) => Row::for_players(ByPlace {
            idle: Act(ListGames::idle),
            in_match: Act(ListGames::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::PlayAgain(c) => Row::for_players(ByPlace {
            idle: Act(PlayAgain::idle),
            in_match: Act(PlayAgain::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::Timeout(c) => Row::for_players(ByPlace {
            idle: Act(Timeout::idle),
            in_match: Act(Timeout::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::History(c) => Row::for_players(ByPlace {
            idle: Act(History::idle),
            in_match: Act(History::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::Send(c) => Row::for_players(ByPlace {
            idle: Act(Message::idle),
            in_match: Say(MessageNotAllowed),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::Board(c) => Row::for_players(ByPlace {
            idle: Say(NotInMatch),
            in_match: Act(Board::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::Resign(c) => Row::for_players(ByPlace {
            idle: Say(NotInMatch),
            in_match: Act(Resign::in_match),
            game_may_claim: true,
        })
        .run(ctx, who, c, text),
        Command::Text(c) => Row::for_players(ByPlace {
            idle: Act(Text::idle),
            in_match: Act(Text::in_match),
            game_may_claim: false,
        })
        .run(ctx, who, c, text),
        // A nick's right form is news to a stranger about to register; any
        // other command word is no use to him yet.
        Command::Malformed(e) => {
            let stranger = match e {
                ParseError::MissingNick | ParseError::BadNick => Say(Usage(e.clone())),
                ParseError::MissingMessage
                | ParseError::BadLang
                | ParseError::Trailing(_)
                | ParseError::BadStep
                | ParseError::BadTop
                | ParseError::BadStat => Say(NeedRegistration),
            };
            Row {
                stranger,
                opted_out: Ignore,
                unregistered: Say(NeedRegistration),
                registered: ByPlace {
                    idle: Say(Usage(e.clone())),
                    in_match: Say(Usage(e.clone())),
                    game_may_claim: true,
                },
            }
            .run(ctx, who, e, text)
        }
    }
}
