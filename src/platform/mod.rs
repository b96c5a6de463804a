//! The platform: players, commands, lobby and matches, run inside one store transaction per inbound text.
//!
//! Everything here is synchronous and takes the time as an argument: the store
//! runs it on its writer (SQLite) or a blocking thread (PostgreSQL), and tests
//! move the clock forward instead of sleeping.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::command::Command;
use crate::config::Config;
use crate::inbound::InboundMessage;
use crate::store::{Arrival, NewText, Player, StoreResult, Tx};

mod account;
mod after_match;
pub mod catalog;
mod in_match;
mod lobby;
pub mod replay;
mod table;
pub mod texts;
mod timers;

use catalog::Catalog;

use texts::Numbers;

/// What the platform needs to know of the configuration.
#[derive(Clone, Debug)]
pub struct Platform {
    cfg: Arc<Config>,
    catalog: Arc<Catalog>,
}

/// What became of an inbound text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handled {
    /// Applied now.
    Applied,
    /// Its provider id was seen before: acknowledged, not applied again.
    Duplicate,
}

impl Platform {
    pub fn new(cfg: Arc<Config>) -> Platform {
        let catalog = Arc::new(Catalog::new(&cfg));
        Platform { cfg, catalog }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The games this gateway hosts.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub(crate) fn numbers(&self) -> Numbers<'_> {
        Numbers {
            play: &self.cfg.numbers.play,
            game: &self.cfg.numbers.game,
        }
    }

    /// Applies one inbound text: records it (once per provider id), runs its
    /// command and queues every reply, all in the caller's transaction.
    pub fn handle_inbound(
        &self,
        tx: &mut dyn Tx,
        msg: &InboundMessage,
        now: DateTime<Utc>,
    ) -> StoreResult<Handled> {
        let player = match tx.players().accept_inbound(msg)? {
            Arrival::Duplicate => return Ok(Handled::Duplicate),
            Arrival::New(player) => player,
        };
        let mut ctx = Ctx {
            platform: self,
            tx,
            now,
            reply_from: &msg.to,
        };
        let command = Command::parse(&msg.text);
        match player {
            // An opted-out number hears nothing until it opts back in.
            Some(p) if p.opted_out => {
                if command == Ok(Command::Start) {
                    account::opt_in(&mut ctx, p)?;
                }
            }
            Some(p) => self.dispatch(&mut ctx, p, command)?,
            None => account::stranger(&mut ctx, &msg.from, command)?,
        }
        Ok(Handled::Applied)
    }

    fn dispatch(
        &self,
        ctx: &mut Ctx<'_>,
        player: Player,
        command: Result<Command, crate::command::ParseError>,
    ) -> StoreResult<()> {
        let command = match command {
            Ok(c) => c,
            Err(e) => {
                let text = texts::usage(player.lang, &e);
                return ctx.reply(&player, text);
            }
        };
        match command {
            Command::Stop => {
                let player = account::opt_out(ctx, player)?;
                // Silence also means leaving the match: the piece plays null moves from now on.
                match ctx.tx.matches().active_of(player.id)? {
                    Some(record) => in_match::step_away(ctx, player, record),
                    None => Ok(()),
                }
            }
            Command::Start => {
                let text = texts::already_opted_in(player.lang);
                ctx.reply(&player, text)
            }
            Command::Lang(lang) => account::set_lang(ctx, player, lang),
            Command::Register { nick } => account::register(ctx, player, &nick),
            // A number that texted STOP/LANG first has a row but no nick yet.
            _ if player.nick.is_none() => account::need_registration(ctx, &player, command),
            command => {
                let active = ctx.tx.matches().active_of(player.id)?;
                match active {
                    Some(record) => self.in_match(ctx, player, record, command),
                    None => self.idle(ctx, player, command),
                }
            }
        }
    }
}

impl Platform {
    /// A registered player in no match.
    fn idle(&self, ctx: &mut Ctx<'_>, player: Player, command: Command) -> StoreResult<()> {
        let lang = player.lang;
        match command {
            Command::Play { game, options } => lobby::play(ctx, player, game, options),
            Command::ListGames => {
                let list = self.catalog.list(lang);
                ctx.reply(&player, texts::games_list(lang, &list))
            }
            Command::PlayAgain => after_match::play_again(ctx, player),
            Command::Send { nick, text } => after_match::send_message(ctx, player, &nick, &text),
            Command::Timeout => account::take_timeout(ctx, player).map(|_| ()),
            Command::Help => ctx.reply(&player, texts::help_idle(lang, self.numbers())),
            Command::Board | Command::Resign => {
                ctx.reply(&player, texts::not_in_match(lang, self.numbers()))
            }
            _ => ctx.reply(&player, texts::unknown_text(lang)),
        }
    }

    /// A registered player seated in an unfinished match.
    fn in_match(
        &self,
        ctx: &mut Ctx<'_>,
        player: Player,
        record: crate::store::MatchRecord,
        command: Command,
    ) -> StoreResult<()> {
        let lang = player.lang;
        match command {
            // P (also coming back from a timeout) and PA answer with the match as it stands.
            Command::Play { .. } | Command::PlayAgain => lobby::play(ctx, player, None, Vec::new()),
            Command::Board => in_match::board(ctx, player, record),
            Command::Resign => in_match::resign(ctx, player, record),
            Command::Help => in_match::help(ctx, player, record),
            Command::Timeout => {
                let player = account::take_timeout(ctx, player)?;
                in_match::step_away(ctx, player, record)
            }
            Command::ListGames => {
                let list = self.catalog.list(lang);
                ctx.reply(&player, texts::games_list(lang, &list))
            }
            Command::Send { .. } => ctx.reply(&player, texts::message_not_allowed(lang)),
            Command::Text(_) if player.away => {
                ctx.reply(&player, texts::timeout_taken(lang, self.numbers()))
            }
            Command::Text(text) => in_match::play_move(ctx, player, record, &text),
            _ => ctx.reply(&player, texts::unknown_text(lang)),
        }
    }
}

/// One inbound text's unit of work: the transaction, the time, whom to answer from.
pub(crate) struct Ctx<'a> {
    pub platform: &'a Platform,
    pub tx: &'a mut dyn Tx,
    pub now: DateTime<Utc>,
    /// A direct reply goes out from the number the player texted.
    pub reply_from: &'a str,
}

impl Ctx<'_> {
    /// Answers the sender directly (unless he opted out).
    pub fn reply(&mut self, to: &Player, body: String) -> StoreResult<()> {
        if to.opted_out {
            return Ok(());
        }
        let from = self.reply_from.to_string();
        self.queue(&from, &to.phone, body)
    }

    /// Answers a phone we may hold no row for (a stranger).
    pub fn reply_to_phone(&mut self, phone: &str, body: String) -> StoreResult<()> {
        let from = self.reply_from.to_string();
        self.queue(&from, phone, body)
    }

    /// Sends a match text from the game number, unless the player opted out or is away.
    pub fn notify(&mut self, to: &Player, body: String) -> StoreResult<()> {
        if to.opted_out || to.away {
            return Ok(());
        }
        let from = self.platform.cfg.numbers.game.clone();
        self.queue(&from, &to.phone, body)
    }

    fn queue(&mut self, from: &str, to: &str, body: String) -> StoreResult<()> {
        let text = compose_text(from, to, body, self.platform.cfg.sms.gsm_substitutions);
        self.tx.outbox().enqueue(&text, self.now)?;
        Ok(())
    }
}

/// Works out a text's encoding and parts once, when it is queued.
pub fn compose_text(from: &str, to: &str, body: String, gsm_substitutions: bool) -> NewText {
    use crate::sms::encoding;
    let body = if gsm_substitutions {
        encoding::gsm_friendly(&body).into_owned()
    } else {
        body
    };
    let analysis = encoding::analyse(&body);
    NewText {
        from: from.to_string(),
        to: to.to_string(),
        body,
        encoding: analysis.encoding.as_str(),
        parts: analysis.parts,
    }
}
