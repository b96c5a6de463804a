//! The wording of `TOP`, `STAT` and `LAST`: each answer one SMS. Where a
//! full answer would take two, it gives up detail in a fixed order (the
//! legend first, then the lines furthest down) rather than cost a part.

use crate::encoding;
use crate::lang::Lang;
use crate::platform::results::{Finish, MatchResult};
use smsarena_text::tr;

/// A rating as players read it: provisional ones carry a `?`.
pub fn rating(points: i64, provisional: bool) -> String {
    if provisional {
        format!("{points}?")
    } else {
        points.to_string()
    }
}

/// The first text within message `id`'s budget in `lang`; else the last,
/// cut to it.
fn first_that_fits(lang: Lang, id: &str, variants: Vec<String>) -> String {
    let parts = smsarena_text::locales::budget(lang, id);
    let last = variants.last().cloned().unwrap_or_default();
    variants
        .into_iter()
        .find(|t| encoding::analyse(t).parts <= parts)
        .unwrap_or_else(|| encoding::cut_to_parts(&last, parts).into_owned())
}

/// One line of a leaderboard: its place (shared by ratings that read alike).
pub struct TopLine<'a> {
    pub place: i64,
    pub nick: &'a str,
    pub rating: String,
}

/// The sender against a leaderboard: his place, or how many rated games
/// his provisional rating still needs to be listed, or no rating yet.
pub enum OwnPlace {
    Placed {
        place: i64,
        rating: String,
    },
    Provisional {
        rating: String,
        games: i64,
        needed: i64,
    },
    Unrated,
}

pub fn top(lang: Lang, game: &str, lines: &[TopLine<'_>], own: &OwnPlace) -> String {
    let you = match own {
        OwnPlace::Placed { place, rating } => {
            tr!(lang, "top-you", place = *place, rating = rating)
        }
        OwnPlace::Provisional {
            rating,
            games,
            needed,
        } => tr!(
            lang,
            "top-you-provisional",
            rating = rating,
            rated = *games,
            needed = *needed
        ),
        OwnPlace::Unrated => tr!(lang, "top-you-unrated"),
    };
    if lines.is_empty() {
        return tr!(
            lang,
            "top-empty",
            game_code = game,
            needed = crate::ratings::PROVISIONAL_GAMES,
            you = you
        );
    }
    let render = |n: usize| {
        let board: Vec<String> = lines[..n]
            .iter()
            .map(|l| format!("{} {} {}", l.place, l.nick, l.rating))
            .collect();
        tr!(
            lang,
            "top",
            game_code = game,
            lines = board.join(", "),
            you = &you
        )
    };
    let variants = (1..=lines.len()).rev().map(render).collect();
    first_that_fits(lang, "top", variants)
}

/// One game of a player's record: won, drawn and lost, his finishes by
/// place in matches of three sides or more, and his rating.
pub struct StatLine<'a> {
    pub game: &'a str,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Firsts, seconds, ...: empty when he played no such match.
    pub places: &'a [i64],
    /// `None` when none of his games there was rated.
    pub rating: Option<String>,
}

/// A record line's results: `3-0-1`, `places 1-4: 2-1-0-3` when every win
/// was a first place, or both.
fn results(lang: Lang, l: &StatLine<'_>) -> String {
    let wdl = format!("{}-{}-{}", l.wins, l.draws, l.losses);
    let Some(&firsts) = l.places.first() else {
        return wdl;
    };
    let counts: Vec<String> = l.places.iter().map(i64::to_string).collect();
    let places = tr!(
        lang,
        "stat-places",
        last = l.places.len(),
        counts = counts.join("-")
    );
    if l.wins == firsts && l.draws == 0 && l.losses == 0 {
        places
    } else {
        format!("{wdl}, {places}")
    }
}

pub fn stat(lang: Lang, nick: &str, lines: &[StatLine<'_>]) -> String {
    if lines.is_empty() {
        return tr!(lang, "stat-empty", nick = nick);
    }
    let unrated = tr!(lang, "unrated");
    let games: Vec<String> = lines
        .iter()
        .map(|l| {
            let rating = l.rating.as_deref().unwrap_or(&unrated);
            format!("{} {} {rating}", l.game, results(lang, l))
        })
        .collect();
    let any_provisional = lines
        .iter()
        .any(|l| l.rating.as_deref().is_some_and(|r| r.ends_with('?')));
    let games = games.join("; ");
    let body = |legend: &str| tr!(lang, "stat", nick = nick, games = &games, legend = legend);
    let mut variants = Vec::new();
    if any_provisional {
        variants.push(body(&tr!(lang, "stat-legend")));
    }
    variants.push(body(""));
    variants.push(tr!(lang, "stat-short", nick = nick, games = &games));
    first_that_fits(lang, "stat", variants)
}

pub fn last(lang: Lang, lines: &[MatchResult]) -> String {
    if lines.is_empty() {
        return tr!(lang, "last-empty");
    }
    let line = |l: &MatchResult, named: bool| {
        let against = match (named, l.opponents.len()) {
            (true, _) | (false, 0 | 1) => l.opponents.join(","),
            (false, n) => tr!(lang, "last-opponents", count = n),
        };
        let finish = match &l.finish {
            Finish::Won => tr!(lang, "finish-won"),
            Finish::Drew => tr!(lang, "finish-drew"),
            Finish::Lost => tr!(lang, "finish-lost"),
            Finish::Placed(p, of) => tr!(lang, "finish-placed", place = *p, of = *of),
        };
        let change = match l.change {
            Some(c) if c > 0 => format!("+{c}"),
            Some(c) => c.to_string(),
            None => tr!(lang, "unrated"),
        };
        tr!(
            lang,
            "last-line",
            game_code = l.game.as_str(),
            against = against,
            finish = finish,
            change = change
        )
    };
    let render = |n: usize, named: bool| {
        let all: Vec<String> = lines[..n].iter().map(|l| line(l, named)).collect();
        tr!(lang, "last", lines = all.join(". "))
    };
    let mut variants = vec![render(lines.len(), true), render(lines.len(), false)];
    for n in (1..lines.len()).rev() {
        variants.push(render(n, false));
    }
    first_that_fits(lang, "last", variants)
}

pub fn top_usage(lang: Lang) -> String {
    tr!(lang, "top-usage")
}

pub fn stat_usage(lang: Lang) -> String {
    tr!(lang, "stat-usage")
}
