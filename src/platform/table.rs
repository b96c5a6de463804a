//! A match at the table: load it, play a seat's move, let absent seats play their null move,
//! end it, and tell every seat what it needs to know.

use chrono::Duration;
use rand::SeedableRng;

use crate::games::any::{AnyGame, AnyPlayed, AnyRefusal};
use crate::games::{Effect, MatchRng, Seat, Status};
use crate::store::{MatchRecord, NewMatch, Player, SeatRecord, StoreError, StoreResult};

use super::Ctx;

/// Moves the platform plays by itself in one go at most; a guard against a game that never settles.
const MAX_AUTOMATIC_MOVES: usize = 64;

/// A loaded match: its game, its row and its seats.
pub(crate) struct Table<'g> {
    pub game: &'g dyn AnyGame,
    pub record: MatchRecord,
    pub seats: Vec<SeatRecord>,
}

fn corrupt(e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

impl<'g> Table<'g> {
    pub fn load(ctx: &mut Ctx<'g>, record: MatchRecord) -> StoreResult<Table<'g>> {
        let game = ctx.platform.catalog.get(&record.game).ok_or_else(|| {
            corrupt(format!(
                "match {} is of an unknown game {}",
                record.id, record.game
            ))
        })?;
        let seats = ctx.tx.matches().seats(record.id)?;
        Ok(Table {
            game,
            record,
            seats,
        })
    }

    pub fn seat_of(&self, player_id: i64) -> Option<Seat> {
        self.seats.iter().position(|s| s.player.id == player_id)
    }

    pub fn status(&self) -> StoreResult<Status> {
        self.game.status(&self.record.state).map_err(corrupt)
    }

    pub fn render(&self, seat: Seat) -> StoreResult<String> {
        let lang = self.seats[seat].player.lang;
        self.game
            .render(&self.record.state, seat, lang)
            .map_err(corrupt)
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
        automatic: bool,
    ) -> StoreResult<Result<Effect, AnyRefusal>> {
        let mut rng = self.rng();
        match self.game.play(&self.record.state, seat, text, &mut rng) {
            Ok(AnyPlayed {
                state,
                effect,
                notation,
            }) => {
                self.record.state = state;
                self.record.rng_pos = rng.get_word_pos();
                ctx.tx.matches().record_move(
                    self.record.id,
                    seat,
                    &notation,
                    automatic,
                    &self.record.state,
                    ctx.now,
                )?;
                Ok(Ok(effect))
            }
            Err(AnyRefusal::CorruptState(e)) => Err(corrupt(e)),
            Err(refusal) => Ok(Err(refusal)),
        }
    }

    /// Ends the match with `seat`'s side losing.
    pub fn resign(&mut self, ctx: &mut Ctx<'_>, seat: Seat) -> StoreResult<()> {
        self.record.state = self
            .game
            .resign(&self.record.state, seat)
            .map_err(corrupt)?;
        ctx.tx
            .matches()
            .record_move(
                self.record.id,
                seat,
                "resign",
                false,
                &self.record.state,
                ctx.now,
            )
            .map(|_| ())
    }

    /// After any change: seats whose players are away play their null move, a
    /// side with nobody present loses, and then, if the turn moved on, every
    /// seat gets its view and the deadline restarts; at the end everyone gets
    /// the result. Saves the match.
    pub fn settle(&mut self, ctx: &mut Ctx<'_>, mut resolved: bool) -> StoreResult<()> {
        for _ in 0..MAX_AUTOMATIC_MOVES {
            let Status::Awaiting(awaiting) = self.status()? else {
                break;
            };
            if let Some(seat) = self.seat_of_absent_side()? {
                self.record.state = self
                    .game
                    .resign(&self.record.state, seat)
                    .map_err(corrupt)?;
                ctx.tx.matches().record_move(
                    self.record.id,
                    seat,
                    "forfeit",
                    true,
                    &self.record.state,
                    ctx.now,
                )?;
                resolved = true;
                continue;
            }
            let away: Vec<Seat> = awaiting
                .into_iter()
                .filter(|&s| self.seats[s].player.away)
                .collect();
            if away.is_empty() {
                break;
            }
            for seat in away {
                if self.play_null(ctx, seat)? {
                    resolved = true;
                }
            }
        }
        let finished = matches!(self.status()?, Status::Finished(_));
        if finished {
            self.record.finished = true;
            self.record.finished_at = Some(ctx.now);
            self.record.deadline_at = None;
        } else if resolved {
            self.record.deadline_at = Some(ctx.now + deadline(ctx));
        }
        ctx.tx.matches().save(&self.record)?;
        if resolved || finished {
            self.show_everyone(ctx)?;
        }
        Ok(())
    }

    /// Every present seat receives its own view of the board.
    pub fn show_everyone(&self, ctx: &mut Ctx<'_>) -> StoreResult<()> {
        let langs: Vec<_> = self.seats.iter().map(|s| s.player.lang).collect();
        let views = self
            .game
            .render_each(&self.record.state, &langs)
            .map_err(corrupt)?;
        for (seat, text) in self.seats.iter().zip(views) {
            ctx.notify(&seat.player, text)?;
        }
        Ok(())
    }

    /// A seat whose whole side is away, if there is such a side.
    fn seat_of_absent_side(&self) -> StoreResult<Option<Seat>> {
        let sides = self
            .game
            .sides(&self.record.state, self.seats.len())
            .map_err(corrupt)?;
        let present = |side| {
            sides
                .iter()
                .zip(&self.seats)
                .any(|(s, record)| *s == side && !record.player.away)
        };
        Ok(sides.iter().position(|&side| !present(side)))
    }

    /// Plays the game's null move for a seat (a missed deadline, a player away);
    /// returns whether that resolved the turn.
    pub fn play_null(&mut self, ctx: &mut Ctx<'_>, seat: Seat) -> StoreResult<bool> {
        let null = self
            .game
            .null_move(&self.record.state, seat)
            .map_err(corrupt)?;
        Ok(matches!(
            self.play(ctx, seat, &null, true)?,
            Ok(Effect::Resolved)
        ))
    }

    /// Updates the player of a seat everywhere the table holds him.
    pub fn set_player(&mut self, player: &Player) {
        for seat in &mut self.seats {
            if seat.player.id == player.id {
                seat.player = player.clone();
            }
        }
    }
}

pub(crate) fn deadline(ctx: &Ctx<'_>) -> Duration {
    Duration::seconds(ctx.platform.config().game.turn_deadline_secs as i64)
}

/// Starts a match for `players` in seat order, or a rematch of `previous`; everyone gets the opening board.
pub(crate) fn start_match<'g>(
    ctx: &mut Ctx<'g>,
    game: &'g dyn AnyGame,
    players: &[Player],
    previous: Option<&MatchRecord>,
) -> StoreResult<Table<'g>> {
    // The platform may draw its seeds from the OS; only the game's own draws must replay.
    let seed: u64 = rand::random();
    let mut rng = MatchRng::seed_from_u64(seed);
    let state = match previous {
        Some(prev) => game.rematch(&prev.state, &mut rng).map_err(corrupt)?,
        None => game.start(players.len(), &mut rng),
    };
    for p in players {
        ctx.tx.lobby().leave(p.id)?;
    }
    let new = NewMatch {
        game: game.code().to_string(),
        state,
        seed,
        rng_pos: rng.get_word_pos(),
        deadline_at: Some(ctx.now + deadline(ctx)),
        rematch_of: previous.map(|m| m.id),
        players: players.iter().map(|p| p.id).collect(),
    };
    let id = ctx.tx.matches().insert(&new, ctx.now)?;
    let record = ctx
        .tx
        .matches()
        .by_id(id)?
        .ok_or_else(|| corrupt("a match vanished as it was created"))?;
    let table = Table::load(ctx, record)?;
    table.show_everyone(ctx)?;
    Ok(table)
}
