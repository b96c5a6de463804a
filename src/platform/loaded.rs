//! A match at the table: loaded once per text (its state parsed once), played
//! on, settled (absent seats play their null move, robots' turns fall due,
//! the deadline restarts, the end is recorded), saved once, and shown to
//! every phone at it.

use chrono::Duration;
use rand::SeedableRng;

use super::ctx::Ctx;
use super::quarantine::quarantine;
use super::record::withdrawal_notation;
use super::{finish, robot_turns};
use crate::games::any::{AnyGame, AnyMatch, AnyPlayed, AnyRefusal};
use crate::games::{Effect, MatchRng, Seat, Status, Withdrawal};
use crate::store::{MatchRow, MoveKind, NewMove, Player, SeatRow, StoreError, StoreResult};

/// Moves the platform plays by itself in one go at most; a guard against a game that never settles.
const MAX_AUTOMATIC_MOVES: usize = 64;

/// A loaded match: its game, its row, its seats and its typed state.
pub(crate) struct LoadedMatch<'g> {
    pub game: &'g dyn AnyGame,
    pub record: MatchRow,
    pub seats: Vec<SeatRow>,
    /// Changed only by a move that is recorded with the state after it
    /// ([`LoadedMatch::moved_on`], [`LoadedMatch::withdraw`]): a replay depends on it.
    state: Box<dyn AnyMatch>,
    /// The state string the last recorded move left, which is the state
    /// now: the match's row is saved with it instead of writing the state
    /// out a second time.
    recorded: Option<String>,
}

pub(crate) fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

/// The game a stored match is of.
pub(crate) fn game_of<'g>(ctx: &Ctx<'g>, record: &MatchRow) -> StoreResult<&'g dyn AnyGame> {
    ctx.catalog.get(&record.game).ok_or_else(|| {
        corrupt(format!(
            "match {} is of an unknown game {}",
            record.id, record.game
        ))
    })
}

impl<'g> LoadedMatch<'g> {
    pub fn new(
        game: &'g dyn AnyGame,
        record: MatchRow,
        seats: Vec<SeatRow>,
        state: Box<dyn AnyMatch>,
    ) -> LoadedMatch<'g> {
        LoadedMatch {
            game,
            record,
            seats,
            state,
            recorded: None,
        }
    }

    /// The match, its state parsed; `None` when it would not load (or its
    /// state holds other seats than the match), in which case it has just
    /// been quarantined: ended as void, its players told.
    pub fn load(ctx: &mut Ctx<'g>, record: MatchRow) -> StoreResult<Option<LoadedMatch<'g>>> {
        let seats = ctx.tx.matches().seats(record.id)?;
        let loaded = game_of(ctx, &record).and_then(|game| {
            let state = game.load(&record.state).map_err(corrupt)?;
            // Every seat index below comes from the state or the seats: they must agree.
            if state.seats() != seats.len() {
                return Err(corrupt(format!(
                    "the state holds {} seats, the match {}",
                    state.seats(),
                    seats.len()
                )));
            }
            Ok((game, state))
        });
        match loaded {
            Ok((game, state)) => Ok(Some(LoadedMatch::new(game, record, seats, state))),
            Err(e) => {
                quarantine(ctx, record, &seats, &e.to_string())?;
                Ok(None)
            }
        }
    }

    /// The match's state.
    pub fn state(&self) -> &dyn AnyMatch {
        &*self.state
    }

    /// The seats a player holds (one phone may hold several).
    pub fn seats_of(&self, player_id: i64) -> Vec<Seat> {
        self.seats
            .iter()
            .filter(|s| s.is(player_id))
            .map(|s| s.seat)
            .collect()
    }

    /// The seat of a player's that the game waits for, or else his first.
    pub fn seat_to_move(&self, player_id: i64) -> Option<Seat> {
        let mine = self.seats_of(player_id);
        let awaited = match self.state.status() {
            Status::Awaiting(seats) => seats,
            Status::Finished(_) => Vec::new(),
        };
        mine.iter()
            .copied()
            .find(|s| awaited.contains(s))
            .or_else(|| mine.first().copied())
    }

    pub fn render(&self, seat: Seat) -> String {
        let lang = self.seats[seat]
            .player()
            .map(|p| p.lang)
            .unwrap_or_default();
        self.state.render(seat, lang)
    }

    fn rng(&self) -> MatchRng {
        let mut rng = MatchRng::seed_from_u64(self.record.seed);
        rng.set_word_pos(self.record.rng_pos);
        rng
    }

    /// Plays `text` for `seat`; on success the state, the generator and the record move on.
    pub fn play(
        &mut self,
        ctx: &mut Ctx<'_>,
        seat: Seat,
        text: &str,
    ) -> StoreResult<Result<Effect, AnyRefusal>> {
        let mut rng = self.rng();
        match self.state.play(seat, text, &mut rng) {
            Ok(played) => {
                self.moved_on(ctx, seat, MoveKind::Move, &played, rng.get_word_pos())?;
                Ok(Ok(played.effect))
            }
            Err(refusal) => Ok(Err(refusal)),
        }
    }

    /// Plays the game's null move for a seat (a missed deadline, a player
    /// away); `None` when the game has none. Returns the effect otherwise.
    pub fn play_null(&mut self, ctx: &mut Ctx<'_>, seat: Seat) -> StoreResult<Option<Effect>> {
        let mut rng = self.rng();
        match self.state.play_null(seat, &mut rng) {
            None => Ok(None),
            Some(Ok(played)) => {
                self.moved_on(ctx, seat, MoveKind::Null, &played, rng.get_word_pos())?;
                Ok(Some(played.effect))
            }
            Some(Err(refusal)) => Err(corrupt(format!(
                "match {}: the null move of seat {seat} is refused: {refusal:?}",
                self.record.id
            ))),
        }
    }

    fn moved_on(
        &mut self,
        ctx: &mut Ctx<'_>,
        seat: Seat,
        kind: MoveKind,
        played: &AnyPlayed,
        rng_pos: u128,
    ) -> StoreResult<()> {
        self.record.rng_pos = rng_pos;
        let state_after = self.state.state();
        ctx.tx.matches().record_move(
            self.record.id,
            &NewMove {
                seat,
                kind,
                notation: &played.notation,
                automatic: kind == MoveKind::Null,
                state_after: &state_after,
                rng_pos,
            },
            ctx.now,
        )?;
        self.recorded = Some(state_after);
        Ok(())
    }

    /// Which seats' players are away now; a robot never is.
    pub fn absent(&self) -> Vec<bool> {
        self.seats
            .iter()
            .map(|s| s.player().is_some_and(|p| p.away || p.opted_out))
            .collect()
    }

    /// `seat` withdraws; the game decides what follows. Recorded with the
    /// seats away at the time, so that a replay decides the same.
    pub fn withdraw(&mut self, ctx: &mut Ctx<'_>, seat: Seat, why: Withdrawal) -> StoreResult<()> {
        let absent = self.absent();
        self.state.withdraw(seat, why, &absent);
        let notation = withdrawal_notation(why, &absent);
        let state_after = self.state.state();
        ctx.tx.matches().record_move(
            self.record.id,
            &NewMove {
                seat,
                kind: MoveKind::Withdrawal,
                notation: &notation,
                automatic: why == Withdrawal::Absent,
                state_after: &state_after,
                rng_pos: self.record.rng_pos,
            },
            ctx.now,
        )?;
        self.recorded = Some(state_after);
        Ok(())
    }

    /// After any change: awaited seats whose players are away play their null
    /// move; if the turn moved on, the deadline restarts, robots' turns fall
    /// due and every phone gets its view (only the mover's, when his turn goes
    /// on over several texts); at the end the result is recorded and everyone
    /// is told. Saves the match, once.
    pub fn settle(&mut self, ctx: &mut Ctx<'_>, moved: Moved) -> StoreResult<()> {
        let mut moved = moved;
        for _ in 0..MAX_AUTOMATIC_MOVES {
            let Status::Awaiting(awaiting) = self.state.status() else {
                break;
            };
            let absent = self.absent();
            let away: Vec<Seat> = awaiting.into_iter().filter(|&s| absent[s]).collect();
            if away.is_empty() {
                break;
            }
            for seat in away {
                match self.play_null(ctx, seat)? {
                    Some(Effect::Pending) => {}
                    Some(effect) => moved = moved.and(Moved::from_effect(effect, seat)),
                    // No null move in this game: an away seat can only withdraw.
                    None => {
                        self.withdraw(ctx, seat, Withdrawal::Absent)?;
                        moved = Moved::EVERYONE;
                    }
                }
            }
        }
        // Only robots are to move: their reply brings the board, with both
        // moves on it, in one text instead of two.
        let mut robots_only = false;
        match self.state.status() {
            Status::Finished(standings) => finish::finish(
                ctx,
                self.game,
                &*self.state,
                &mut self.record,
                &mut self.seats,
                &standings,
            )?,
            Status::Awaiting(awaiting) => {
                robots_only = !awaiting.is_empty()
                    && awaiting.iter().all(|&s| self.seats[s].player().is_none());
                if moved != Moved::Nothing {
                    self.record.turn += 1;
                    self.record.deadline_at = self.deadline_for(ctx, &awaiting);
                    robot_turns::queue_turns(ctx, &self.record, &self.seats, &awaiting)?;
                }
            }
        }
        self.record.state = match self.recorded.take() {
            Some(state) => state,
            None => self.state.state(),
        };
        ctx.tx.matches().save(&self.record)?;
        match moved {
            _ if self.record.finished => self.show_everyone(ctx),
            _ if robots_only => Ok(()),
            Moved::Resolved(None) => self.show_everyone(ctx),
            Moved::Resolved(Some(mover)) => match self.state.audience(mover) {
                None => self.show_everyone(ctx),
                Some(seats) => self.show_seats(ctx, &seats),
            },
            Moved::Continues(seat) => self.show_seats(ctx, &[seat]),
            Moved::Nothing => Ok(()),
        }
    }

    /// The phones of some seats receive their views (a turn that goes on,
    /// a race's mover and the seat now on turn), each phone once.
    fn show_seats(&self, ctx: &mut Ctx<'_>, seats: &[Seat]) -> StoreResult<()> {
        let mut told: Vec<i64> = Vec::new();
        for &seat in seats {
            let Some(player) = self.seats.get(seat).and_then(|s| s.player()) else {
                continue;
            };
            if told.contains(&player.id) {
                continue;
            }
            told.push(player.id);
            let view = self.render(self.seat_to_move(player.id).unwrap_or(seat));
            let player = player.clone();
            ctx.notify(&player, view)?;
        }
        Ok(())
    }

    /// When the seats now awaited must have moved: the game's deadline, or
    /// the platform's; none when only robots are awaited.
    fn deadline_for(
        &self,
        ctx: &Ctx<'_>,
        awaiting: &[Seat],
    ) -> Option<chrono::DateTime<chrono::Utc>> {
        let humans = awaiting.iter().any(|&s| self.seats[s].player().is_some());
        humans.then(|| ctx.now + deadline(ctx, self.game))
    }

    /// Every phone at the table receives its view once: a phone that holds
    /// several seats sees the seat it is to move for.
    pub fn show_everyone(&self, ctx: &mut Ctx<'_>) -> StoreResult<()> {
        for player in self.phones() {
            if let Some(seat) = self.seat_to_move(player.id) {
                let view = self.render(seat);
                ctx.notify(player, view)?;
            }
        }
        Ok(())
    }

    /// The players at the table, each once, in seat order.
    pub fn phones(&self) -> Vec<&Player> {
        let mut seen: Vec<&Player> = Vec::new();
        for seat in &self.seats {
            if let Some(p) = seat.player()
                && !seen.iter().any(|q| q.id == p.id)
            {
                seen.push(p);
            }
        }
        seen
    }

    /// Updates the player of every seat he holds.
    pub fn set_player(&mut self, player: &Player) {
        for seat in &mut self.seats {
            if let Some(p) = seat.player_mut()
                && p.id == player.id
            {
                *p = player.clone();
            }
        }
    }
}

/// What a change did to the match, for [`LoadedMatch::settle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moved {
    /// The turn is where it was (a teammate's move is in; a withdrawal that
    /// changed nothing).
    Nothing,
    /// The same seat is still to move: a turn over several texts.
    Continues(Seat),
    /// The turn moved on, by this seat's move when it is known.
    Resolved(Option<Seat>),
}

impl Moved {
    pub fn from_effect(effect: Effect, seat: Seat) -> Moved {
        match effect {
            Effect::Pending => Moved::Nothing,
            Effect::Continues => Moved::Continues(seat),
            Effect::Resolved => Moved::Resolved(Some(seat)),
        }
    }

    /// The turn moved on, by no one move (a withdrawal, the start).
    pub const EVERYONE: Moved = Moved::Resolved(None);

    /// Both changes together: the larger (two movers: no one mover).
    pub fn and(self, other: Moved) -> Moved {
        match (self, other) {
            (Moved::Resolved(a), Moved::Resolved(b)) if a == b => Moved::Resolved(a),
            (Moved::Resolved(_), Moved::Resolved(_)) => Moved::EVERYONE,
            (Moved::Resolved(a), _) | (_, Moved::Resolved(a)) => Moved::Resolved(a),
            (Moved::Continues(s), _) | (_, Moved::Continues(s)) => Moved::Continues(s),
            _ => Moved::Nothing,
        }
    }
}

/// How long a seat of `game` has to move.
pub(crate) fn deadline(ctx: &Ctx<'_>, game: &dyn AnyGame) -> Duration {
    let secs = game
        .turn_deadline_secs()
        .unwrap_or(ctx.cfg.game.turn_deadline_secs);
    Duration::seconds(secs as i64)
}
