//! The trial game's own rules, so that platform tests can rely on them.

use rand::SeedableRng;

use super::*;

fn rng() -> MatchRng {
    MatchRng::seed_from_u64(1)
}

fn options(text: &str) -> Options {
    text.parse().unwrap()
}

#[test]
fn options_round_trip_and_set_the_lineup() {
    for text in ["", "3", "BOT 2", "3 BOT 1", "HOT", "CHAIN", "3 HOT CHAIN"] {
        let o = options(text);
        assert_eq!(o.to_string(), text);
        assert_eq!(o.to_string().parse::<Options>(), Ok(o));
    }
    assert_eq!(options("bot").to_string(), "BOT 1");
    assert_eq!(options("3 bot 2").lineup().phones_needed(), 1);
    assert_eq!(options("3").lineup().phones_needed(), 3);
    assert_eq!(
        options("HOT").lineup(),
        Lineup(vec![Occupant::Phone(0), Occupant::Phone(0)])
    );
    assert!("4".parse::<Options>().is_err());
    assert!("BOT 9".parse::<Options>().is_err());
    assert!("HOT BOT".parse::<Options>().is_err());
}

#[test]
fn reaching_twenty_one_wins_and_turns_go_round() {
    let game = Trial;
    let mut state = game.start(&options("3"), &mut rng());
    let mut seat = 0;
    while state.winner.is_none() {
        assert_eq!(game.status(&state), Status::Awaiting(vec![seat]));
        let refused = game.play(state.clone(), (seat + 1) % 3, &Add(1), &mut rng());
        assert_eq!(
            refused.unwrap_err().state,
            state,
            "out of turn changes nothing"
        );
        state = game.play(state, seat, &Add(3), &mut rng()).unwrap().state;
        seat = (seat + 1) % 3;
    }
    assert_eq!(state.count, 21);
    let Status::Finished(standings) = game.status(&state) else {
        panic!("over")
    };
    assert_eq!(standings[state.winner.unwrap()].place, 1);
    assert_eq!(state.to_string().parse::<State>(), Ok(state));
}

#[test]
fn a_withdrawal_drops_the_seat_and_the_others_play_on() {
    let game = Trial;
    let state = game.start(&options("3"), &mut rng());
    let state = game.withdraw(state, 0, Withdrawal::Resigned, &[false; 3]);
    assert_eq!(game.status(&state), Status::Awaiting(vec![1]));
    let state = game.play(state, 1, &Add(2), &mut rng()).unwrap().state;
    assert_eq!(
        game.status(&state),
        Status::Awaiting(vec![2]),
        "seat 0 is skipped"
    );
    let state = game.withdraw(state, 2, Withdrawal::Absent, &[true, false, true]);
    let Status::Finished(standings) = game.status(&state) else {
        panic!("the last one left wins")
    };
    let places: Vec<u8> = standings.iter().map(|s| s.place).collect();
    assert_eq!(places, [3, 1, 3]);
}

#[test]
fn a_chained_turn_takes_two_texts() {
    let game = Trial;
    let state = game.start(&options("CHAIN"), &mut rng());
    let played = game.play(state, 0, &Add(1), &mut rng()).unwrap();
    assert_eq!(played.effect, Effect::Continues);
    assert_eq!(game.status(&played.state), Status::Awaiting(vec![0]));
    let played = game.play(played.state, 0, &Add(1), &mut rng()).unwrap();
    assert_eq!(played.effect, Effect::Resolved);
    assert_eq!(game.status(&played.state), Status::Awaiting(vec![1]));
}

#[test]
fn broken_states_are_refused() {
    for bad in [
        "",
        "TR1",
        "TR1 count=1 turn=5 scores=0,0 out=- chain=0 part=0 winner=-",
        "TR1 count=1 turn=0 scores=0 out=- chain=0 part=0 winner=-",
        "TR1 count=x turn=0 scores=0,0 out=- chain=0 part=0 winner=-",
    ] {
        assert!(bad.parse::<State>().is_err(), "{bad}");
    }
}

/// The texts come from the catalogs whole, as the platform's tests read
/// them: the count, a refusal, a bad option and an unreadable move.
#[test]
fn the_catalogs_word_the_count_a_refusal_and_an_unreadable_move() {
    let game = Trial;
    let state = game.start(&options(""), &mut rng());
    assert_eq!(game.render(&state, 0, Lang::Ru), "Schet 0/21. Vash xod.");
    assert_eq!(game.render(&state, 1, Lang::En), "Count 0/21. Their move.");
    let refused = game.play(state, 1, &Add(1), &mut rng()).unwrap_err();
    assert_eq!(refused.reason.text(Lang::En), "It is not your turn.");
    assert_eq!(refused.reason.text(Lang::Ru), "Seichas ne vash xod.");
    let err = "BOT 9".parse::<Options>().unwrap_err();
    assert_eq!(err.english(), "Levels are 1-3.");
    assert_eq!(err.0.text(Lang::Ru), "Uroven 1-3.");
    let unreadable = "4".parse::<Add>().unwrap_err();
    assert_eq!(
        unreadable.for_player(Lang::En).as_deref(),
        Some("not 1, 2 or 3: \"4\"")
    );
    assert_eq!(
        unreadable.for_player(Lang::Ru).as_deref(),
        Some("nuzhno 1, 2 ili 3, a ne \"4\"")
    );
    assert_eq!(game.name(Lang::Ru), "Schet do 21");
    assert_eq!(game.name(Lang::En), "Count to 21");
}
