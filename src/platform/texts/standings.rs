//! The wording of `TOP`, `STAT` and `LAST`: each answer one SMS. Where a
//! full answer would take two, it gives up detail in a fixed order (the
//! legend first, then the lines furthest down) rather than cost a part.

use crate::encoding;
use crate::lang::Lang;
use crate::platform::results::{Finish, MatchResult};

/// A rating as players read it: provisional ones carry a `?`.
pub fn rating(points: i64, provisional: bool) -> String {
    if provisional {
        format!("{points}?")
    } else {
        points.to_string()
    }
}

/// The first text that fits one SMS; else the last, cut to one.
fn first_that_fits(variants: Vec<String>) -> String {
    let last = variants.last().cloned().unwrap_or_default();
    variants
        .into_iter()
        .find(|t| encoding::analyse(t).parts <= 1)
        .unwrap_or_else(|| encoding::cut_to_parts(&last, 1).into_owned())
}

/// One line of a leaderboard: its place (shared by ratings that read alike).
pub struct TopLine<'a> {
    pub place: i64,
    pub nick: &'a str,
    pub rating: String,
}

/// The sender on a leaderboard: his place and rating, or none yet.
pub struct OwnPlace {
    pub place: i64,
    pub rating: String,
}

pub fn top(lang: Lang, game: &str, lines: &[TopLine<'_>], own: Option<&OwnPlace>) -> String {
    if lines.is_empty() {
        return match lang {
            Lang::Ru => format!("TOP {game}: reitingovyh igr eshche net. Igrat: P {game}"),
            Lang::En => format!("TOP {game}: no rated games yet. Play: P {game}"),
        };
    }
    let you = match (lang, own) {
        (Lang::Ru, Some(o)) => format!("Vy: {} mesto, {}.", o.place, o.rating),
        (Lang::En, Some(o)) => format!("You: place {}, {}.", o.place, o.rating),
        (Lang::Ru, None) => "U vas eshche net reitinga.".to_string(),
        (Lang::En, None) => "You have no rating yet.".to_string(),
    };
    let legend = lang.pick(" ?-predvaritelnyi.", " ? = provisional.");
    let any_provisional = lines.iter().any(|l| l.rating.ends_with('?'))
        || own.is_some_and(|o| o.rating.ends_with('?'));
    let render = |n: usize, legend: &str| {
        let board: Vec<String> = lines[..n]
            .iter()
            .map(|l| format!("{} {} {}", l.place, l.nick, l.rating))
            .collect();
        format!("TOP {game}: {}. {you}{legend}", board.join(", "))
    };
    let mut variants = Vec::new();
    if any_provisional {
        variants.push(render(lines.len(), legend));
    }
    for n in (1..=lines.len()).rev() {
        variants.push(render(n, ""));
    }
    first_that_fits(variants)
}

/// One game of a player's record: won, drawn and lost, and his rating.
pub struct StatLine<'a> {
    pub game: &'a str,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// `None` when none of his games there was rated.
    pub rating: Option<String>,
}

pub fn stat(lang: Lang, nick: &str, lines: &[StatLine<'_>]) -> String {
    if lines.is_empty() {
        return match lang {
            Lang::Ru => format!("U {nick} eshche net zavershennyh igr."),
            Lang::En => format!("{nick} has no finished games yet."),
        };
    }
    let unrated = lang.pick("bez reitinga", "unrated");
    let games: Vec<String> = lines
        .iter()
        .map(|l| {
            let rating = l.rating.as_deref().unwrap_or(unrated);
            format!("{} {}-{}-{} {rating}", l.game, l.wins, l.draws, l.losses)
        })
        .collect();
    let head = match lang {
        Lang::Ru => format!("{nick} (pobedy-nichi-porazheniya, reiting)"),
        Lang::En => format!("{nick} (won-drawn-lost, rating)"),
    };
    let legend = lang.pick(" ?-menshe 10 igr v reitinge.", " ? = under 10 rated games.");
    let any_provisional = lines
        .iter()
        .any(|l| l.rating.as_deref().is_some_and(|r| r.ends_with('?')));
    let body = format!("{head}: {}.", games.join("; "));
    let short_head = lang.pick("(p-n-p)", "(w-d-l)");
    let short = format!("{nick} {short_head}: {}.", games.join("; "));
    let mut variants = Vec::new();
    if any_provisional {
        variants.push(format!("{body}{legend}"));
    }
    variants.push(body);
    variants.push(short);
    first_that_fits(variants)
}

pub fn last(lang: Lang, lines: &[MatchResult]) -> String {
    if lines.is_empty() {
        return lang
            .pick(
                "U vas eshche net zavershennyh igr. Igrat: P",
                "You have no finished games yet. Play: P",
            )
            .to_string();
    }
    let line = |l: &MatchResult, named: bool| {
        let against = match (named, l.opponents.len()) {
            (true, _) | (false, 0 | 1) => l.opponents.join(","),
            (false, n) => match lang {
                Lang::Ru => format!("{n} sopern."),
                Lang::En => format!("{n} opponents"),
            },
        };
        let finish = match (&l.finish, lang) {
            (Finish::Won, Lang::Ru) => "pobeda".to_string(),
            (Finish::Won, Lang::En) => "won".to_string(),
            (Finish::Drew, Lang::Ru) => "nichya".to_string(),
            (Finish::Drew, Lang::En) => "drew".to_string(),
            (Finish::Lost, Lang::Ru) => "porazhenie".to_string(),
            (Finish::Lost, Lang::En) => "lost".to_string(),
            (Finish::Placed(p, of), Lang::Ru) => format!("{p} mesto iz {of}"),
            (Finish::Placed(p, of), Lang::En) => format!("place {p} of {of}"),
        };
        let change = match (l.change, lang) {
            (Some(c), _) if c > 0 => format!("+{c}"),
            (Some(c), _) => c.to_string(),
            (None, Lang::Ru) => "bez reitinga".to_string(),
            (None, Lang::En) => "unrated".to_string(),
        };
        let v = lang.pick("protiv", "v");
        format!("{} {v} {against}: {finish}, {change}", l.game)
    };
    let render = |n: usize, named: bool| {
        let all: Vec<String> = lines[..n].iter().map(|l| line(l, named)).collect();
        format!("{} {}.", lang.pick("Poslednie:", "Last:"), all.join(". "))
    };
    let mut variants = vec![render(lines.len(), true), render(lines.len(), false)];
    for n in (1..lines.len()).rev() {
        variants.push(render(n, false));
    }
    first_that_fits(variants)
}

pub fn top_usage(lang: Lang) -> String {
    lang.pick(
        "TOP - luchshie v vashei igre, TOP PS - v igre PS.",
        "TOP - the best of your game, TOP PS - of the game PS.",
    )
    .to_string()
}

pub fn stat_usage(lang: Lang) -> String {
    lang.pick(
        "STAT - vasha statistika, STAT nik - igroka.",
        "STAT - your record, STAT nick - a player's.",
    )
    .to_string()
}
