//! The platform: players, commands, seeking a match, matches, robots' turns,
//! deadlines and history, run inside one store transaction per inbound text.
//!
//! Everything here is synchronous and takes the time as an argument: the
//! store runs it on its writer, and tests move the clock forward instead of
//! sleeping. The platform knows no game: it sees them through
//! [`crate::games::any`], as listed in [`catalog`].
//!
//! This file holds the entry points, one per way work comes in (a text, a
//! timer, a robot's move and its claim); the rest lies below them:
//! `commands/` what players text, one module per command and the table of
//! what each state lets each command do; `seeking.rs` lobbies and rematches
//! (one state: seeking a match); `pools.rs` who may meet whom (the hall's
//! virtual phones and real ones); `away.rs` a player going away; `loaded.rs`
//! a loaded match and how it moves on; `opening.rs` a new match;
//! `finish.rs` the end-of-match hook; `quarantine.rs` a match that will not
//! load; `robot_turns.rs` robots' turns queued and claimed;
//! `robot_move.rs` a robot's move played; `timers.rs` deadlines and rematch windows;
//! `record.rs` a match's record; `replay.rs` the audit; `export/` a
//! match as one document that replays it, what it says of its seats and
//! ending checked against the replay, and the file `smsarena replay` reads; `ctx.rs` one unit
//! of work's context; `texts.rs` every platform wording.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::inbound::InboundMessage;
use crate::store::{Arrival, RobotTurn, StoreResult, Tx};

pub mod answer;
mod away;
pub mod catalog;
pub mod commands;
pub mod counts;
mod ctx;
pub mod export;
mod finish;
mod loaded;
mod opening;
mod pools;
mod quarantine;
pub(crate) mod record;
pub mod replay;
pub mod results;
mod robot_move;
pub mod robot_turns;
mod seeking;
mod tally;
pub mod texts;
mod timers;

pub use answer::{Answer, AnswerRule};
pub use ctx::{BusyQueue, Tally, compose_text};
pub use timers::{Fired, Timer};

use catalog::Catalog;
use commands::{Command, Who};
use ctx::Ctx;
use robot_turns::{Applied, RobotJob, Searched};

/// The platform: the configuration and the games it hosts.
#[derive(Clone, Debug)]
pub struct Platform {
    cfg: Arc<Config>,
    catalog: Arc<Catalog>,
}

/// What became of an inbound text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// Its provider id was seen before: acknowledged, not applied again.
    pub duplicate: bool,
    /// It made a robot's turn due: the robot pool should look.
    pub robots_due: bool,
    /// The matches it started and finished.
    pub tally: Tally,
    /// Lobby queues to match again now that it has committed
    /// ([`Platform::match_queue`]): another instance was matching them.
    pub queues_to_match: Vec<BusyQueue>,
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

    fn ctx<'a>(&'a self, tx: &'a mut dyn Tx, now: DateTime<Utc>, from: &'a str) -> Ctx<'a> {
        Ctx::new(&self.cfg, &self.catalog, tx, now, from)
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

    /// A text: applies it (once per provider id), running its command and
    /// queuing every reply, all in the caller's transaction.
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
                    tally: Tally::default(),
                    queues_to_match: Vec::new(),
                };
                return Ok((handled, answer));
            }
            Arrival::New(player) => player,
        };
        let mut ctx = self.ctx(tx, now, self.reply_number(&msg.to));
        if let Some(rule) = rule {
            ctx.hold_for(rule, &msg.from);
        }
        let who = Who::of(player, &msg.from);
        commands::route(&mut ctx, who, Command::parse(&msg.text), &msg.text)?;
        let answer = ctx.release_held()?;
        let handled = Handled {
            duplicate: false,
            robots_due: ctx.robots_due,
            tally: std::mem::take(&mut ctx.tally),
            queues_to_match: std::mem::take(&mut ctx.queues_to_match),
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
        let mut ctx = self.ctx(tx, now, self.reply_number(reply_from));
        ctx.reply_to_phone(phone, texts::slow_down(lang))
    }

    /// A timer: the ones due at `now`, a batch at most (the caller asks again).
    pub fn due_timers(&self, tx: &mut dyn Tx, now: DateTime<Utc>) -> StoreResult<Vec<Timer>> {
        timers::due(tx, now)
    }

    /// Fires one timer, in a transaction of its own: one that fails (a bug)
    /// stops no other deadline.
    pub fn fire(&self, tx: &mut dyn Tx, timer: Timer, now: DateTime<Utc>) -> StoreResult<Fired> {
        let mut ctx = self.ctx(tx, now, &self.cfg.numbers.game);
        timers::fire(&mut ctx, timer)?;
        Ok(Fired {
            timers: 1,
            robots_due: ctx.robots_due,
            tally: std::mem::take(&mut ctx.tally),
            queues_to_match: std::mem::take(&mut ctx.queues_to_match),
        })
    }

    /// Matches a lobby queue again after a commit that joined it while
    /// another instance was matching it, and tells those it left waiting to
    /// wait: run where the store waits for that one's turn
    /// ([`crate::store::Store::run_solo`]). Says whether a robot's turn fell
    /// due, what matches started, and the queue again should it be busy still.
    pub fn match_queue(
        &self,
        tx: &mut dyn Tx,
        queue: &BusyQueue,
        now: DateTime<Utc>,
    ) -> StoreResult<(bool, Tally, Vec<BusyQueue>)> {
        let mut ctx = self.ctx(tx, now, &self.cfg.numbers.game);
        seeking::match_queue(&mut ctx, queue)?;
        let tally = std::mem::take(&mut ctx.tally);
        let still_busy = std::mem::take(&mut ctx.queues_to_match);
        Ok((ctx.robots_due, tally, still_busy))
    }

    /// Fires every timer due at `now` in the caller's one transaction (tests, tools).
    pub fn fire_due(&self, tx: &mut dyn Tx, now: DateTime<Utc>) -> StoreResult<Fired> {
        let mut fired = Fired::default();
        for timer in self.due_timers(tx, now)? {
            let one = self.fire(tx, timer, now)?;
            fired.timers += one.timers;
            fired.robots_due |= one.robots_due;
            fired.tally.started.extend(one.tally.started);
            fired.tally.finished.extend(one.tally.finished);
            fired.queues_to_match.extend(one.queues_to_match);
        }
        Ok(fired)
    }

    /// A robot's turn, first half: claims the turns of robots of `levels`
    /// that are due, with what computing them needs (the search runs off the
    /// writer).
    pub fn claim_robot_turns(
        &self,
        tx: &mut dyn Tx,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        levels: std::ops::RangeInclusive<crate::games::Level>,
        limit: usize,
    ) -> StoreResult<Vec<RobotJob>> {
        robot_turns::claim(tx, now, lease_until, levels, limit)
    }

    /// A robot's turn, second half: plays what the search made of `turn`,
    /// unless the match has moved on; says too whether another robot's turn
    /// fell due.
    pub fn apply_robot_move(
        &self,
        tx: &mut dyn Tx,
        turn: &RobotTurn,
        searched: &Searched,
        now: DateTime<Utc>,
    ) -> StoreResult<(Applied, bool, Tally)> {
        let mut ctx = self.ctx(tx, now, &self.cfg.numbers.game);
        let applied = robot_move::apply(&mut ctx, turn, searched)?;
        Ok((applied, ctx.robots_due, std::mem::take(&mut ctx.tally)))
    }
}
