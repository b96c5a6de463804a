//! The row codec's tests: decoding, its errors, and the column-name check.

use super::*;

/// A row in memory.
struct Fake(Vec<Option<String>>);

impl Columns for Fake {
    fn int(&self, i: usize) -> Result<Option<i64>, String> {
        self.0[i]
            .as_deref()
            .map(|v| v.parse().map_err(|_| format!("{v} is no integer")))
            .transpose()
    }
    fn text(&self, i: usize) -> Result<Option<String>, String> {
        Ok(self.0[i].clone())
    }
    fn flag(&self, i: usize) -> Result<Option<bool>, String> {
        Ok(self.int(i)?.map(|v| v != 0))
    }
    fn real(&self, i: usize) -> Result<Option<f64>, String> {
        self.0[i]
            .as_deref()
            .map(|v| v.parse().map_err(|_| format!("{v} is no number")))
            .transpose()
    }
}

fn row(values: &[Option<&str>]) -> Fake {
    Fake(values.iter().map(|v| v.map(str::to_string)).collect())
}

fn a_match(rng_pos: &str) -> Fake {
    row(&[
        Some("7"),
        Some("FB"),
        Some(""),
        Some("state"),
        Some("-1"),
        Some(rng_pos),
        Some("3"),
        Some("0"),
        None,
        None,
        None,
        Some("1764590400000"),
        None,
        Some("opening"),
        None,
    ])
}

#[test]
fn a_match_decodes_with_its_generator_and_seed() {
    let m: MatchRow = decode(&a_match("340282366920938463463374607431768211455")).unwrap();
    assert_eq!(m.id, 7);
    assert_eq!(
        m.seed,
        u64::MAX,
        "the seed's bits survive the signed column"
    );
    assert_eq!(m.rng_pos, u128::MAX);
    assert_eq!(m.deadline_at, None);
}

#[test]
fn a_garbled_generator_position_is_an_error_naming_the_match() {
    let err = decode::<MatchRow>(&a_match("12x")).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("match 7: rng_pos"), "{text}");
}

#[test]
fn a_null_where_none_may_be_and_an_unknown_language_are_errors() {
    let no_phone = row(&[Some("3"), None, None, Some("RU"), Some("0"), Some("0")]);
    let text = decode::<Player>(&no_phone).unwrap_err().to_string();
    assert!(text.contains("player 3: phone: is null"), "{text}");
    let klingon = row(&[
        Some("3"),
        Some("+1"),
        None,
        Some("TLH"),
        Some("0"),
        Some("0"),
    ]);
    let text = decode::<Player>(&klingon).unwrap_err().to_string();
    assert!(text.contains("player 3: lang"), "{text}");
}

/// A record whose decoder reads two columns of one type in the wrong order.
struct Swapped;

impl Record for Swapped {
    const NAME: &'static str = "swapped";
    const COLUMNS: &'static [&'static str] = &["a", "b"];
    fn decode(f: &mut Fields<'_>) -> StoreResult<Swapped> {
        f.int("b")?;
        f.int("a")?;
        Ok(Swapped)
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    should_panic(expected = "read as b but listed as Some(\"a\")")
)]
fn two_swapped_reads_of_one_type_fail_loudly() {
    let _ = decode::<Swapped>(&row(&[Some("1"), Some("2")]));
}

#[test]
fn a_seat_reads_its_columns_then_its_players() {
    let seat = row(&[
        Some("9"),
        Some("2"),
        None,
        Some("1"),
        None,
        Some("1"),
        Some("1"),
        Some("12"),
        Some("4"),
        Some("+4"),
        Some("ann"),
        Some("EN"),
        Some("0"),
        Some("1"),
    ]);
    let s: SeatRow = decode(&seat).unwrap();
    assert_eq!((s.seat, s.missed, s.message_sent), (2, 1, true));
    assert_eq!((s.place, s.score), (Some(1), Some(12)));
    let player = s.player().unwrap();
    assert_eq!(player.nick.as_deref(), Some("ann"));
    assert!(player.away);
    let mut robot = row(&[
        Some("9"),
        Some("3"),
        Some("2"),
        Some("0"),
        None,
        Some("0"),
        None,
        None,
    ]);
    robot.0.extend([None, None, None, None, None, None]);
    let r: SeatRow = decode(&robot).unwrap();
    assert_eq!(r.holder, Holder::Robot(2));
    let bad = row(&[Some("9"), Some("-2"), None, Some("1"), None, Some("1")]);
    let text = decode::<SeatRow>(&bad).unwrap_err().to_string();
    assert!(text.contains("seat ?: seat: -2 is out of range"), "{text}");
}

#[test]
fn an_unknown_text_status_is_an_error() {
    let text = row(&[
        Some("5"),
        Some("1"),
        Some("+2"),
        Some("hi"),
        Some("gsm7"),
        Some("1"),
        Some("0"),
        Some("lost"),
        None,
        None,
    ]);
    let err = decode::<OutboxText>(&text).unwrap_err().to_string();
    assert!(err.contains("outbox text 5: status"), "{err}");
}

#[test]
fn column_lists_are_qualified() {
    assert_eq!(
        column_list::<Player>("p"),
        "p.id, p.phone, p.nick, p.lang, p.opted_out, p.away"
    );
    assert!(SeatRow::column_list("s", "sp").starts_with("s.match_id, s.seat, s.robot_level"));
}
