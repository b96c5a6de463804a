//! The platform: players, commands, seeking a match, matches, robots' turns,
//! deadlines and history, run inside one store transaction per inbound text.
//!
//! Everything here is synchronous and takes the time as an argument: the
//! store runs it on its writer, and tests move the clock forward instead of
//! sleeping. The platform knows no game: it sees them through
//! [`crate::games::any`], as listed in [`catalog`].
//!
//! Files: `account.rs` registration, opt-out, language, timeout;
//! `seeking.rs` lobbies and rematches (one state: seeking a match);
//! `in_match.rs` what a player in a match texts, in its order of precedence;
//! `table.rs` a loaded match and how it moves on; `robots.rs` robots' turns;
//! `finish.rs` the end-of-match hook; `history.rs` `H`; `messages.rs` `S`;
//! `timers.rs` deadlines and rematch windows; `replay.rs` the audit;
//! `texts.rs` every platform wording.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::command::Command;
use crate::config::Config;
use crate::inbound::InboundMessage;
use crate::store::{Arrival, NewText, Player, StoreResult, Tx};

mod account;
pub mod answer;
pub mod catalog;
mod finish;
pub(crate) mod history;
mod in_match;
mod messages;
pub mod replay;
pub mod robots;
mod seeking;
mod table;
pub mod texts;
mod timers;

pub use answer::{Answer, AnswerRule};
pub use timers::{Fired, Timer};

use catalog::Catalog;
use texts::Numbers;

/// The platform: the configuration and the games it hosts.
#[derive(Clone, Debug)]
pub struct Platform {
    cfg: Arc<Config>,
    catalog: Arc<Catalog>,
}

/// What became of an inbound text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handled {
    /// Its provider id was seen before: acknowledged, not applied again.
    pub duplicate: bool,
    /// It made a robot's turn due: the robot pool should look.
    pub robots_due: bool,
}

impl Platform {
    /// The platform with a catalogue of one's choosing (tests add the trial game).
    pub fn with_catalog(cfg: Arc<Config>, catalog: Catalog) -> Platform {
        Platform {
            cfg,
            catalog: Arc::new(catalog),
        }
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

    /// The number a reply to a text sent to `to` goes out from: that number
    /// when it is one of the two service numbers, else the game number.
    /// Never a number the inbound request named: the webhooks refuse texts
    /// to other numbers, and this holds for every other caller too.
    fn reply_number(&self, to: &str) -> &str {
        let numbers = &self.cfg.numbers;
        if to == numbers.play {
            &numbers.play
        } else {
            &numbers.game
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
        self.handle_inbound_answering(tx, msg, now, None)
            .map(|(handled, _)| handled)
    }

    /// [`Platform::handle_inbound`], where a lone reply to the sender may ride
    /// on the webhook's answer under `rule` ([`answer`]). A repeated text gets
    /// the answer given to it the first time, if there was one: the provider
    /// repeats a text whose answer it did not get.
    pub fn handle_inbound_answering(
        &self,
        tx: &mut dyn Tx,
        msg: &InboundMessage,
        now: DateTime<Utc>,
        rule: Option<&AnswerRule>,
    ) -> StoreResult<(Handled, Option<Answer>)> {
        let player = match tx.players().accept_inbound(msg)? {
            Arrival::Duplicate => {
                let answer = match rule {
                    Some(rule) => tx.outbox().answered(&rule.reference)?.map(Answer::from),
                    None => None,
                };
                let handled = Handled {
                    duplicate: true,
                    robots_due: false,
                };
                return Ok((handled, answer));
            }
            Arrival::New(player) => player,
        };
        let mut ctx = Ctx::new(self, tx, now, self.reply_number(&msg.to));
        ctx.held = rule.map(|rule| answer::Held::new(rule, &msg.from));
        let command = Command::parse(&msg.text);
        match player {
            // An opted-out number hears nothing until it opts back in.
            Some(p) if p.opted_out => {
                if command == Ok(Command::Start) {
                    account::opt_in(&mut ctx, p)?;
                }
            }
            Some(p) => self.dispatch(&mut ctx, p, &msg.text, command)?,
            None => account::stranger(&mut ctx, &msg.from, command)?,
        }
        let answer = match ctx.held.take() {
            Some(held) => held.settle(ctx.tx, now)?,
            None => None,
        };
        let handled = Handled {
            duplicate: false,
            robots_due: ctx.robots_due,
        };
        Ok((handled, answer))
    }

    /// Tells a phone over its flood limit that its texts are being dropped
    /// (once a window: the caller decides when). Nothing is recorded of the
    /// text itself; an opted-out number hears nothing.
    pub fn tell_flooding(
        &self,
        tx: &mut dyn Tx,
        phone: &str,
        reply_from: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        let player = tx.players().by_phone(phone)?;
        if player.as_ref().is_some_and(|p| p.opted_out) {
            return Ok(());
        }
        let lang = player.map(|p| p.lang).unwrap_or_default();
        let mut ctx = Ctx::new(self, tx, now, self.reply_number(reply_from));
        ctx.reply_to_phone(phone, texts::slow_down(lang))
    }

    /// A known number's text. The account's commands (`STOP`, `START`,
    /// `LANG`, `R`) come first, whatever the player is doing; then what he is
    /// doing decides (see [`in_match::handle`] for the order inside a match).
    fn dispatch(
        &self,
        ctx: &mut Ctx<'_>,
        player: Player,
        text: &str,
        command: Result<Command, crate::command::ParseError>,
    ) -> StoreResult<()> {
        match command {
            Ok(Command::Stop) => account::opt_out(ctx, player),
            Ok(Command::Start) => {
                let reply = texts::already_opted_in(player.lang);
                ctx.reply(&player, reply)
            }
            Ok(Command::Lang(lang)) => account::set_lang(ctx, player, lang),
            Ok(Command::Register { nick }) => account::register(ctx, player, &nick),
            // A number that texted STOP/LANG first has a row but no nick yet.
            _ if player.nick.is_none() => account::need_registration(ctx, &player, command),
            command => match ctx.tx.matches().active_of(player.id)? {
                Some(record) => in_match::handle(ctx, player, record, text, command),
                None => self.idle(ctx, player, command),
            },
        }
    }

    /// A registered player in no match.
    fn idle(
        &self,
        ctx: &mut Ctx<'_>,
        player: Player,
        command: Result<Command, crate::command::ParseError>,
    ) -> StoreResult<()> {
        let lang = player.lang;
        let command = match command {
            Ok(c) => c,
            Err(e) => return ctx.reply(&player, texts::usage(lang, &e)),
        };
        match command {
            Command::Play { game, options } => seeking::play(ctx, player, game, &options),
            Command::ListGames => {
                let list = self.catalog.list(lang);
                ctx.reply(&player, texts::games_list(lang, &list))
            }
            Command::PlayAgain => seeking::play_again(ctx, player),
            Command::Send { nick, text } => messages::send(ctx, player, &nick, &text),
            Command::Timeout => account::take_timeout(ctx, player).map(|_| ()),
            Command::Help => ctx.reply(&player, texts::help_idle(lang, self.numbers())),
            Command::History(step) => history::of_last_match(ctx, &player, step),
            Command::Board | Command::Resign => {
                ctx.reply(&player, texts::not_in_match(lang, self.numbers()))
            }
            _ => ctx.reply(&player, texts::unknown_text(lang)),
        }
    }
}

/// One inbound text's (or one batch of timers') unit of work: the
/// transaction, the time, whom to answer from.
pub(crate) struct Ctx<'a> {
    pub platform: &'a Platform,
    pub tx: &'a mut dyn Tx,
    pub now: DateTime<Utc>,
    /// A direct reply goes out from the number the player texted.
    pub reply_from: &'a str,
    /// A robot's turn fell due in this transaction.
    pub robots_due: bool,
    /// The sender's texts, held back for the webhook's answer.
    held: Option<answer::Held>,
}

impl<'a> Ctx<'a> {
    pub fn new(
        platform: &'a Platform,
        tx: &'a mut dyn Tx,
        now: DateTime<Utc>,
        reply_from: &'a str,
    ) -> Ctx<'a> {
        Ctx {
            platform,
            tx,
            now,
            reply_from,
            robots_due: false,
            held: None,
        }
    }

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
        let sms = &self.platform.cfg.sms;
        let mut text = compose_text(from, to, body, sms.gsm_substitutions);
        if text.parts > sms.max_parts {
            // Every text is held to its size where it is made; this is the
            // last line against one that was not, and says so.
            tracing::warn!(
                parts = text.parts,
                max_parts = sms.max_parts,
                "a text over sms.max_parts cut to it"
            );
            let cut = crate::sms::encoding::cut_to_parts(&text.body, sms.max_parts).into_owned();
            text = compose_text(from, to, cut, false);
        }
        let text = match &mut self.held {
            Some(held) => match held.hold(text) {
                Some(text) => text,
                None => return Ok(()),
            },
            None => text,
        };
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
