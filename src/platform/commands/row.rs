//! What one row of the state table is ([`super::states`]) and how a text
//! runs through it: the sender's state picks the cell, and the cell acts
//! (the command's own function) or answers (a fixed reply), or nothing
//! happens at all.

use super::text::Text;
use super::words::{ParseError, first_word};
use crate::lang::Lang;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

/// Where the sender of a text stands, as far as his row says.
pub(in crate::platform) enum Who {
    /// A number we hold no row for.
    Stranger(String),
    /// `STOP`: silence until `START`.
    OptedOut(Player),
    /// A row (from `LANG`, or `STOP` and then `START`) but no nick yet.
    Unregistered(Player),
    /// A player: idle (seeking a match included) or in a match, which only
    /// the rows that tell them apart look up.
    Registered(Player),
}

impl Who {
    pub fn of(player: Option<Player>, phone: &str) -> Who {
        match player {
            None => Who::Stranger(phone.to_string()),
            Some(p) if p.opted_out => Who::OptedOut(p),
            Some(p) if p.nick.is_none() => Who::Unregistered(p),
            Some(p) => Who::Registered(p),
        }
    }
}

/// A command's act on a number's row (a stranger's is created first).
pub(super) type OnRow<C> = fn(&mut Ctx<'_>, Player, C) -> StoreResult<()>;
/// A command's act on a player in his match, loaded.
pub(super) type InMatch<C> =
    for<'c, 'g> fn(&'c mut Ctx<'g>, Player, LoadedMatch<'g>, C) -> StoreResult<()>;

/// What a command does for a sender in one state.
pub(super) enum Cell<F> {
    /// The command's own act.
    Act(F),
    /// Only this reply: the command is not for this state.
    Say(Reply),
    /// Nothing, and no reply (an opted-out number).
    Ignore,
}

/// The replies a cell may give instead of acting.
pub(super) enum Reply {
    NeedRegistration,
    /// `HELP` before a nick: how to register.
    WelcomeStranger,
    AlreadyOptedIn,
    NotInMatch,
    MessageNotAllowed,
    /// A command word with bad arguments: its right form.
    Usage(ParseError),
}

impl Reply {
    fn text(&self, ctx: &Ctx<'_>, lang: Lang) -> String {
        let numbers = ctx.numbers();
        match self {
            Reply::NeedRegistration => texts::need_registration(lang, numbers),
            Reply::WelcomeStranger => texts::welcome_stranger(lang, numbers),
            Reply::AlreadyOptedIn => texts::already_opted_in(lang),
            Reply::NotInMatch => texts::not_in_match(lang, numbers),
            Reply::MessageNotAllowed => texts::message_not_allowed(lang),
            Reply::Usage(error) => error.usage(lang),
        }
    }
}

/// A registered player's cells.
pub(super) enum Registered<C> {
    /// The same wherever he is; his match is not looked up (the account's
    /// commands, which act on his row whatever he is doing).
    Anywhere(Cell<OnRow<C>>),
    /// Idle (seeking a match included), or at his unfinished match's table.
    /// A command the game may claim is, in a match whose game keeps its
    /// first word (`Game::yields_word`), read as a move instead.
    ByPlace {
        idle: Cell<OnRow<C>>,
        in_match: Cell<InMatch<C>>,
        game_may_claim: bool,
    },
}

/// One command's row: what it does in every state.
pub(super) struct Row<C> {
    pub stranger: Cell<OnRow<C>>,
    pub opted_out: Cell<OnRow<C>>,
    pub unregistered: Cell<OnRow<C>>,
    pub registered: Registered<C>,
}

impl<C> Row<C> {
    /// A command for registered players: a stranger and a number with no
    /// nick are told to register first, an opted-out number hears nothing.
    pub fn for_players(registered: Registered<C>) -> Row<C> {
        Row {
            stranger: Cell::Say(Reply::NeedRegistration),
            opted_out: Cell::Ignore,
            unregistered: Cell::Say(Reply::NeedRegistration),
            registered,
        }
    }

    /// Runs `command` for `who`, by the cell of his state; `text` is the
    /// whole text, for a game that reads it as a move.
    pub fn run(self, ctx: &mut Ctx<'_>, who: Who, command: C, text: &str) -> StoreResult<()> {
        match who {
            Who::Stranger(phone) => match self.stranger {
                Cell::Act(act) => {
                    let player = ctx.tx.players().create(&phone, ctx.now)?;
                    act(ctx, player, command)
                }
                Cell::Say(reply) => {
                    let body = reply.text(ctx, Lang::default());
                    ctx.reply_to_phone(&phone, body)
                }
                Cell::Ignore => Ok(()),
            },
            Who::OptedOut(player) => on_row(self.opted_out, ctx, player, command),
            Who::Unregistered(player) => on_row(self.unregistered, ctx, player, command),
            Who::Registered(player) => match self.registered {
                Registered::Anywhere(cell) => on_row(cell, ctx, player, command),
                Registered::ByPlace {
                    idle,
                    in_match,
                    game_may_claim,
                } => match ctx.tx.matches().active_of(player.id)? {
                    None => on_row(idle, ctx, player, command),
                    Some(record) => {
                        let Some(loaded) = LoadedMatch::load(ctx, record)? else {
                            // It would not load and was just ended as void; he was told.
                            return Ok(());
                        };
                        if game_may_claim && !loaded.game.yields_word(first_word(text)) {
                            return Text::in_match(ctx, player, loaded, Text::of(text));
                        }
                        match in_match {
                            Cell::Act(act) => act(ctx, player, loaded, command),
                            Cell::Say(reply) => say(ctx, &player, &reply),
                            Cell::Ignore => Ok(()),
                        }
                    }
                },
            },
        }
    }
}

fn on_row<C>(
    cell: Cell<OnRow<C>>,
    ctx: &mut Ctx<'_>,
    player: Player,
    command: C,
) -> StoreResult<()> {
    match cell {
        Cell::Act(act) => act(ctx, player, command),
        Cell::Say(reply) => say(ctx, &player, &reply),
        Cell::Ignore => Ok(()),
    }
}

fn say(ctx: &mut Ctx<'_>, player: &Player, reply: &Reply) -> StoreResult<()> {
    let body = reply.text(ctx, player.lang);
    ctx.reply(player, body)
}
