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
use crate::store::{NewText, Player, StoreResult, Tx};

mod account;
pub mod texts;

use texts::Numbers;

/// What the platform needs to know of the configuration.
#[derive(Clone, Debug)]
pub struct Platform {
    cfg: Arc<Config>,
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
        Platform { cfg }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
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
        if !tx.record_inbound(msg)? {
            return Ok(Handled::Duplicate);
        }
        let mut ctx = Ctx {
            platform: self,
            tx,
            now,
            reply_from: &msg.to,
        };
        let player = ctx.tx.player_by_phone(&msg.from)?;
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
            Command::Stop => account::opt_out(ctx, player),
            Command::Start => {
                let text = texts::already_opted_in(player.lang);
                ctx.reply(&player, text)
            }
            Command::Lang(lang) => account::set_lang(ctx, player, lang),
            Command::Register { nick } => account::register(ctx, player, &nick),
            // A number that texted STOP/LANG first has a row but no nick yet.
            _ if player.nick.is_none() => account::need_registration(ctx, &player, command),
            Command::Help => {
                let text = texts::help_idle(player.lang, self.numbers());
                ctx.reply(&player, text)
            }
            Command::Timeout => account::take_timeout(ctx, player),
            Command::Play { .. }
            | Command::ListGames
            | Command::PlayAgain
            | Command::Send { .. }
            | Command::Board
            | Command::Resign
            | Command::Text(_) => {
                let text = texts::unknown_text(player.lang);
                ctx.reply(&player, text)
            }
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
    #[allow(dead_code)]
    pub fn notify(&mut self, to: &Player, body: String) -> StoreResult<()> {
        if to.opted_out || to.away {
            return Ok(());
        }
        let from = self.platform.cfg.numbers.game.clone();
        self.queue(&from, &to.phone, body)
    }

    fn queue(&mut self, from: &str, to: &str, body: String) -> StoreResult<()> {
        let text = compose_text(from, to, body, self.platform.cfg.sms.gsm_substitutions);
        self.tx.enqueue_text(&text, self.now)?;
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
