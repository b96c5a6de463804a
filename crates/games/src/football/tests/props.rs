//! Property tests: thousands of random matches driven by random moves, each
//! checked at every step and then replayed from its seed and move list.

use proptest::prelude::*;
use rand::SeedableRng;

use super::turn::resign;
use super::validate::intent;
use super::*;
use crate::{Effect, Status};

/// Something the platform can do to a match.
#[derive(Clone, Copy, Debug)]
enum Event {
    Play(Seat, Move),
    Resign(Seat),
}

/// Applies one event; returns whether a turn resolved.
fn apply(game: &Football, state: State, event: Event, rng: &mut MatchRng) -> (State, bool) {
    match event {
        Event::Resign(seat) => (resign(state, seat), false),
        Event::Play(seat, mv) => {
            let before_rng = rng.clone();
            match game.play(state.clone(), seat, &mv, rng) {
                Ok(played) => {
                    let resolved = played.effect == Effect::Resolved;
                    if !resolved {
                        assert_eq!(*rng, before_rng, "a pending move draws nothing");
                    }
                    (played.state, resolved)
                }
                Err(refused) => {
                    assert_eq!(refused.state, state, "a refusal changes nothing");
                    assert_eq!(*rng, before_rng, "a refusal draws nothing");
                    (refused.state, false)
                }
            }
        }
    }
}

fn legal_moves(state: &State, seat: Seat) -> Vec<Move> {
    Move::all()
        .filter(|&m| intent(state.board(), seat, m).is_ok())
        .collect()
}

/// Picks the next event from one steering number: mostly a legal move of a
/// seat that still owes one, sometimes (1 in 5) any move of any seat (refusals
/// and replacements of pending moves), rarely (1 in 499) a resignation. With no steering
/// left, the seats that owe a move stand (as on a missed deadline).
fn next_event(game: &Football, state: &State, choice: Option<u16>) -> Event {
    let Status::Awaiting(waiting) = game.status(state) else {
        unreachable!("only called while playing")
    };
    let Some(c) = choice.map(usize::from) else {
        return Event::Play(
            waiting[0],
            game.null_move(state, waiting[0])
                .expect("football has a null move"),
        );
    };
    if c % 499 == 0 {
        return Event::Resign(c / 499 % 4);
    }
    if c % 5 == 0 {
        let all: Vec<Move> = Move::all().collect();
        return Event::Play(c / 5 % 4, all[c / 20 % all.len()]);
    }
    let seat = waiting[c % waiting.len()];
    let moves = legal_moves(state, seat);
    Event::Play(seat, moves[c / 2 % moves.len()])
}

/// Every invariant a reachable state must keep, checked independently of
/// `State::check` where that is cheap.
fn assert_sound(game: &Football, state: &State) {
    state.check().unwrap_or_else(|e| panic!("{state}: {e}"));
    let board = state.board();
    let mut cells: Vec<Cell> = board.players.to_vec();
    cells.push(board.ball);
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), 5, "two pieces share a cell: {state}");
    let text = state.to_string();
    assert!(text.is_ascii() && !text.contains('\n'));
    let parsed: State = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(&parsed, state);
    assert_eq!(parsed.to_string(), text);
    let [a, d] = state.moved();
    assert!(a <= state.max_rounds() && d <= state.max_rounds());
    assert_eq!(
        matches!(game.status(state), Status::Finished(_)),
        state.result().is_some()
    );
}

/// Plays a match to its end; returns the events and every state string seen.
fn drive(game: &Football, seed: u64, choices: &[u16]) -> (Vec<Event>, Vec<String>) {
    let mut rng = MatchRng::seed_from_u64(seed);
    let mut state = game.start(&Options::Players, &mut rng);
    let mut events = Vec::new();
    let mut seen = vec![state.to_string()];
    let mut resolutions = 0;
    let mut choices = choices.iter().copied();
    // Enough steps for every choice plus standing out the clock.
    let budget = choices.len() + 4 * game.max_rounds as usize + 4;
    for _ in 0..budget {
        if state.result().is_some() {
            break;
        }
        let event = next_event(game, &state, choices.next());
        let (next, resolved) = apply(game, state, event, &mut rng);
        state = next;
        resolutions += usize::from(resolved);
        events.push(event);
        assert_sound(game, &state);
        seen.push(state.to_string());
    }
    assert!(
        state.result().is_some(),
        "not finished after {resolutions} resolutions: {state}"
    );
    let limit = 2 * state.max_rounds() as usize;
    assert!(
        resolutions <= limit,
        "{resolutions} resolutions, max_rounds {}",
        state.max_rounds()
    );
    (events, seen)
}

fn replay(game: &Football, seed: u64, events: &[Event]) -> Vec<String> {
    let mut rng = MatchRng::seed_from_u64(seed);
    let mut state = game.start(&Options::Players, &mut rng);
    let mut seen = vec![state.to_string()];
    for &event in events {
        state = apply(game, state, event, &mut rng).0;
        seen.push(state.to_string());
    }
    seen
}

fn settings() -> impl Strategy<Value = Football> {
    let ricochet = prop_oneof![Just(0.0), Just(0.25), Just(1.0), 0.0..=1.0f64];
    (ricochet, 1..=10u32).prop_map(|(ricochet, max_rounds)| Football {
        ricochet,
        max_rounds,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, ..ProptestConfig::default() })]

    /// Never panics, never overlaps, always ends in time, round-trips at every
    /// step, and replays identically from seed + events.
    #[test]
    fn random_matches(
        game in settings(),
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let (events, seen) = drive(&game, seed, &choices);
        prop_assert_eq!(&replay(&game, seed, &events), &seen);
        // The rematch is sound too, and Attack moves first.
        let last: State = seen.last().unwrap().parse().unwrap();
        let again = game.rematch(&last, &Options::Players, &mut MatchRng::seed_from_u64(seed ^ 1));
        assert_sound(&game, &again);
        prop_assert_eq!(again.turn(), ATTACK);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Any short text either is refused or is a move that prints back as itself.
    #[test]
    fn move_notation_is_canonical(text in "[0-9a ]{0,3}") {
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string(), text);
        }
    }

    /// Corrupting a state string never panics the parser, and whatever still
    /// parses is a sound state.
    #[test]
    fn corrupted_state_strings_never_panic(
        seed in any::<u64>(),
        at in any::<prop::sample::Index>(),
        with in prop::sample::select(&b"0123456789.*-,=:/ ADFBxr"[..]),
    ) {
        let state = Football::default().start(&Options::Players, &mut MatchRng::seed_from_u64(seed));
        let mut bytes = state.to_string().into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = with;
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(parsed) = text.parse::<State>() {
            assert_sound(&Football::default(), &parsed);
        }
    }
}

/// How a finished match ended, to check that random play reaches every ending.
fn ending(state: &State) -> &'static str {
    match (end::goal(state.board(), &state.sides()), state.result()) {
        (Some(ATTACK), _) => "attack goal",
        (Some(_), _) => "defense goal",
        _ if state.moved().iter().all(|&m| m >= state.max_rounds()) => match state.result() {
            Some(Outcome::Won(ATTACK)) => "clock attack",
            Some(Outcome::Draw) => "clock draw",
            _ => "clock defense",
        },
        _ => "resign",
    }
}

fn steering(seed: u64, len: usize) -> Vec<u16> {
    use rand::Rng;
    let mut rng = MatchRng::seed_from_u64(seed);
    (0..len).map(|_| rng.r#gen()).collect()
}

#[test]
fn random_play_reaches_every_ending() {
    let mut counts = std::collections::BTreeMap::new();
    for seed in 0..400 {
        let game = Football::default();
        let (_, seen) = drive(&game, seed, &steering(seed, 60));
        let last: State = seen.last().unwrap().parse().unwrap();
        *counts.entry(ending(&last)).or_insert(0) += 1;
    }
    eprintln!("{counts:?}");
    assert_eq!(counts.len(), 6, "{counts:?}");
}

/// The "widen to distance 2" clause is a safeguard only: in legal play every
/// random placement finds a free cell at distance 1 (the movers always vacate
/// a neighbouring cell). Checked on every pair of legal moves in thousands of
/// reachable positions, with ricochets off.
#[test]
fn widening_is_never_needed_in_play() {
    use super::resolve::resolve;
    let mut cases = [0usize; 3]; // fights, collisions, bounces
    for seed in 0..60 {
        let game = Football::default();
        let (_, seen) = drive(&game, seed, &steering(seed, 60));
        for text in &seen {
            let state: State = text.parse().unwrap();
            if state.result().is_some() {
                continue;
            }
            let board = state.board();
            let [a, b] = state.seats_of(state.turn());
            for ma in legal_moves(&state, a) {
                for mb in legal_moves(&state, b) {
                    let ia = intent(board, a, ma).unwrap();
                    let ib = intent(board, b, mb).unwrap();
                    let next = resolve(
                        board,
                        [(a, ia), (b, ib)],
                        0.0,
                        &mut MatchRng::seed_from_u64(seed),
                    );
                    next.check().unwrap();
                    match (ia.ball_to, ib.ball_to) {
                        (Some(_), Some(_)) => {
                            assert_eq!(next.ball.distance(board.ball), 1);
                            let far = resolve(
                                board,
                                [(a, ia), (b, ib)],
                                1.0,
                                &mut MatchRng::seed_from_u64(seed),
                            );
                            assert_eq!(
                                far.ball.distance(board.ball),
                                2,
                                "a ricochet always finds room"
                            );
                            cases[0] += 1;
                        }
                        (Some(t), None) | (None, Some(t))
                            if [ia.player_to, ib.player_to].contains(&t) =>
                        {
                            assert_eq!(next.ball.distance(t), 1);
                            cases[2] += 1;
                        }
                        _ => {}
                    }
                    if ia.player_to == ib.player_to {
                        assert_eq!(next.players[a].distance(ia.player_to), 1);
                        assert_eq!(next.players[b].distance(ia.player_to), 1);
                        cases[1] += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "fights {}, collisions {}, bounces {}",
        cases[0], cases[1], cases[2]
    );
    assert!(cases.iter().all(|&n| n > 50), "{cases:?}");
}
