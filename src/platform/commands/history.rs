//! `H`: a match's record in the game's own notation, in pages of one SMS,
//! newest first (`H 2`, or `H P2`, the page before; each page says which
//! of how many it is); `H n` the state after step `n` in games whose rules
//! define a state string (Intelball, where pages are `H P2`). In a match
//! and after it.

use super::words::ParseError;
use crate::encoding;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::{LoadedMatch, game_of};
use crate::platform::record::{seat_names, stored_entries};
use crate::platform::texts;
use crate::store::{MatchRow, Player, StoreResult};

/// `H` and what follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum History {
    /// `H`: the newest page of the record.
    Newest,
    /// `H P<n>` (or `H P <n>`): page `n`, counted from the newest.
    Page(usize),
    /// `H <n>`: the state after step `n` in games whose rules define one,
    /// else page `n`.
    Number(usize),
}

impl History {
    /// `H`, `H <n>` or `H P<n>`.
    pub(super) fn parse(rest: &str) -> Result<History, ParseError> {
        if rest.is_empty() {
            return Ok(History::Newest);
        }
        let page = rest
            .strip_prefix(['P', 'p', '\u{420}', '\u{440}'])
            .map(str::trim_start);
        match page {
            Some(n) => n.parse().map(History::Page),
            None => rest.parse().map(History::Number),
        }
        .map_err(|_| ParseError::BadStep)
    }

    /// After a match: of the player's most recent one.
    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, asked: History) -> StoreResult<()> {
        match ctx.tx.matches().last_of(player.id)? {
            Some(record) => reply(ctx, &player, &record, asked),
            None => ctx.reply(&player, texts::no_history(player.lang)),
        }
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        loaded: LoadedMatch<'_>,
        asked: History,
    ) -> StoreResult<()> {
        reply(ctx, &player, &loaded.record, asked)
    }
}

fn reply(ctx: &mut Ctx<'_>, player: &Player, record: &MatchRow, asked: History) -> StoreResult<()> {
    let lang = player.lang;
    let Ok(game) = game_of(ctx, record) else {
        return ctx.reply(player, texts::history_unavailable(lang));
    };
    let moves = ctx.tx.matches().moves(record.id)?;
    let names = seat_names(&ctx.tx.matches().seats(record.id)?);
    let seats = names.len();
    // A record that does not read is logged, and the player told so: his
    // text must not fail (and be retried) because of it.
    let damaged = |e: crate::games::NotationError| {
        tracing::error!(match_id = record.id, error = %e, "a match's record does not read");
        texts::history_unavailable(lang)
    };
    let entries = match stored_entries(&moves, seats) {
        Ok(entries) => entries,
        Err(e) => return ctx.reply(player, damaged(e)),
    };
    let page = match asked {
        History::Newest => 1,
        History::Page(n) => n,
        History::Number(n) if !game.has_state_steps() => n,
        History::Number(n) => {
            let text = match game.state_steps(&record.initial_state, &entries) {
                Ok(mut steps) if n < steps.len() => steps.swap_remove(n),
                Ok(_) => texts::no_such_step(lang, n),
                Err(e) => damaged(e),
            };
            return ctx.reply(player, text);
        }
    };
    let text = match game.history(&record.initial_state, &entries, &names, lang) {
        Ok(all) if all.is_empty() => texts::no_moves_yet(lang),
        Ok(all) => {
            let pages = paginate(&all, |k, n| {
                texts::history_footer(lang, k, n, game.has_state_steps())
            });
            match pages.get(page.wrapping_sub(1)) {
                Some(text) => text.clone(),
                None => texts::no_such_page(lang, page, pages.len()),
            }
        }
        Err(e) => damaged(e),
    };
    ctx.reply(player, text)
}

/// The record cut into pages of one SMS each, newest first, each page whole
/// entries (lines, or words where the record is one line; word battle's
/// words with their cells stay whole) and, when there are several, a
/// footer from `footer(page, pages)`. An entry too long for a page alone
/// (paper soccer's finished record is its header and one line of turns) is
/// paged by its words, so the newest page ends where the record does, with
/// the result; a single word too long for a page is cut to fit.
fn paginate(all: &str, footer: impl Fn(usize, usize) -> String) -> Vec<String> {
    let fits = |text: &str| encoding::analyse(text).parts <= 1;
    if fits(all) {
        return vec![all.to_string()];
    }
    let separator = if all.contains('\n') {
        "\n"
    } else if all.contains(", ") {
        ", "
    } else {
        " "
    };
    let entries: Vec<&str> = all.split(separator).collect();
    // The widest footer there could be (no more pages than words): pages
    // are laid out against it.
    let most = all.split([' ', '\n']).count();
    let widest = footer(most, most + 1);
    let fits_a_page = |body: &str| fits(&format!("{body} {widest}"));
    // Each piece with what joins it to the one before.
    let mut pieces: Vec<(&str, &str)> = Vec::new();
    for entry in entries {
        if fits_a_page(entry) || !entry.contains(' ') {
            pieces.push((separator, entry));
        } else {
            for (i, word) in entry.split(' ').enumerate() {
                pieces.push((if i == 0 { separator } else { " " }, word));
            }
        }
    }
    let join = |run: &[(&str, &str)]| {
        let mut text = String::new();
        for (i, (joiner, piece)) in run.iter().enumerate() {
            if i > 0 {
                text.push_str(joiner);
            }
            text.push_str(piece);
        }
        text
    };
    let mut bodies: Vec<String> = Vec::new();
    let mut end = pieces.len();
    while end > 0 {
        let mut start = end - 1;
        while start > 0 && fits_a_page(&join(&pieces[start - 1..end])) {
            start -= 1;
        }
        let body = join(&pieces[start..end]);
        let body = if fits_a_page(&body) {
            body
        } else {
            let room = encoding::cut_to_parts(&format!("{body} {widest}"), 1)
                .chars()
                .count()
                .saturating_sub(widest.chars().count() + 1);
            body.chars().take(room).collect()
        };
        bodies.push(body);
        end = start;
    }
    let n = bodies.len();
    bodies
        .into_iter()
        .enumerate()
        .map(|(k, body)| format!("{body} {}", footer(k + 1, n)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn footer(k: usize, n: usize) -> String {
        format!("({k}/{n})")
    }

    #[test]
    fn a_record_that_fits_is_one_page_without_a_footer() {
        assert_eq!(paginate("1:+3 2:+2", footer), ["1:+3 2:+2"]);
    }

    #[test]
    fn a_long_record_pages_newest_first_in_whole_entries_each_one_sms() {
        let moves: Vec<String> = (1..=120).map(|i| format!("{i}.{}", i % 9)).collect();
        let all = moves.join(" ");
        let pages = paginate(&all, footer);
        assert!(pages.len() > 1);
        let n = pages.len();
        for (k, page) in pages.iter().enumerate() {
            assert!(encoding::analyse(page).parts <= 1, "{page}");
            assert!(page.ends_with(&format!("({}/{n})", k + 1)), "{page}");
        }
        assert!(
            pages[0].contains("120.3 ("),
            "the newest first: {}",
            pages[0]
        );
        assert!(pages[n - 1].starts_with("1.1 2.2 "), "the oldest last");
        // Every entry once, in order, across the pages.
        let back: Vec<&str> = pages
            .iter()
            .rev()
            .flat_map(|p| p.rsplit_once(' ').unwrap().0.split(' '))
            .collect();
        assert_eq!(back, moves);
    }

    #[test]
    fn a_line_too_long_for_a_page_is_paged_by_its_words_and_the_newest_page_ends_with_it() {
        let turns: Vec<String> = (1..=90).map(|i| format!("{}", 100 + i * 7)).collect();
        let all = format!("[Game \"x\"]\n[Result \"1-0\"]\n\n{} 1-0", turns.join(" "));
        let pages = paginate(&all, footer);
        let n = pages.len();
        assert!(n > 1);
        for page in &pages {
            assert!(encoding::analyse(page).parts <= 1, "{page}");
        }
        assert!(pages[0].ends_with(&format!("1-0 (1/{n})")), "{}", pages[0]);
        assert!(
            pages[n - 1].starts_with("[Game \"x\"]\n"),
            "{}",
            pages[n - 1]
        );
        // Every turn once, in order, across the pages.
        let back: Vec<&str> = pages
            .iter()
            .rev()
            .flat_map(|p| p.rsplit_once(' ').unwrap().0.split([' ', '\n']))
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()) && !w.is_empty())
            .collect();
        assert_eq!(back, turns);
    }

    #[test]
    fn lines_and_listed_words_stay_whole() {
        let lines: Vec<String> = (1..=12)
            .map(|i| format!("L {i}: B(4,6)>L(4,5)B~L(4,5)>L(6,5)"))
            .collect();
        for page in paginate(&lines.join("\n"), footer) {
            let body = page.rsplit_once(' ').unwrap().0;
            assert!(
                body.split('\n').all(|l| lines.iter().any(|x| x == l)),
                "{page}"
            );
        }
        let words: Vec<String> = (1..=30)
            .map(|i| format!("a{i}r \u{441}\u{43b}\u{43e}\u{432}\u{43e}"))
            .collect();
        for page in paginate(&words.join(", "), footer) {
            assert!(encoding::analyse(&page).parts <= 1, "{page}");
            let body = page.rsplit_once(' ').unwrap().0;
            assert!(
                body.split(", ").all(|w| words.iter().any(|x| x == w)),
                "{page}"
            );
        }
    }
}
