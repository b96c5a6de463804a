//! Every platform text a player can receive, as functions of its
//! arguments over the catalogs (`locales/<language>/platform.ftl`).
//!
//! The words live in the catalogs; what stays here is what the code decides:
//! which message, which arguments, and which shorter form where the whole
//! would cost a second SMS. Game-specific wording (boards, move errors) is
//! each game's, in its own catalog file.

use crate::lang::Lang;
use smsarena_text::locales::budget;
use smsarena_text::tr;

mod standings;
pub use standings::*;

/// The service numbers, which several texts name.
#[derive(Clone, Copy, Debug)]
pub struct Numbers<'a> {
    pub play: &'a str,
    pub game: &'a str,
}

pub fn welcome_stranger(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "welcome-stranger", game_number = n.game)
}

pub fn registered(lang: Lang, nick: &str, n: Numbers<'_>) -> String {
    tr!(lang, "registered", nick = nick, play_number = n.play)
}

pub fn renamed(lang: Lang, old: &str, nick: &str) -> String {
    tr!(lang, "renamed", old = old, nick = nick)
}

pub fn nick_unchanged(lang: Lang, nick: &str) -> String {
    tr!(lang, "nick-unchanged", nick = nick)
}

pub fn nick_taken(lang: Lang, nick: &str) -> String {
    tr!(lang, "nick-taken", nick = nick)
}

/// Whom a nick no player may take is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReservedFor {
    Staff,
    Robots,
    Commands,
}

pub fn nick_reserved(lang: Lang, nick: &str, why: ReservedFor) -> String {
    let why = match why {
        ReservedFor::Staff => "staff",
        ReservedFor::Robots => "robots",
        ReservedFor::Commands => "commands",
    };
    tr!(lang, "nick-reserved", nick = nick, why = why)
}

/// The replies to a command word with bad arguments (`ParseError::usage`).
pub fn nick_usage(lang: Lang) -> String {
    tr!(lang, "nick-usage")
}

pub fn message_usage(lang: Lang) -> String {
    tr!(lang, "message-usage")
}

pub fn lang_usage(lang: Lang) -> String {
    tr!(lang, "lang-usage")
}

/// `cmd` takes nothing after it.
pub fn bare_usage(lang: Lang, cmd: &str) -> String {
    tr!(lang, "bare-usage", cmd = cmd)
}

pub fn step_usage(lang: Lang) -> String {
    tr!(lang, "step-usage")
}

/// Fluent selects on words: a flag as the variant it picks.
fn yes_no(flag: bool) -> &'static str {
    if flag { "yes" } else { "no" }
}

/// The end of one page of `H`: which of how many, and how to ask for the one before.
pub fn history_footer(lang: Lang, page: usize, pages: usize, state_steps: bool) -> String {
    if page < pages {
        tr!(
            lang,
            "history-footer-older",
            page = page,
            pages = pages,
            next = page + 1,
            steps = yes_no(state_steps)
        )
    } else {
        tr!(lang, "history-footer", page = page, pages = pages)
    }
}

pub fn no_such_page(lang: Lang, page: usize, pages: usize) -> String {
    tr!(lang, "no-such-page", page = page, pages = pages)
}

pub fn need_registration(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "need-registration", game_number = n.game)
}

pub fn opted_out(lang: Lang) -> String {
    tr!(lang, "opted-out")
}

pub fn opted_in(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "opted-in", play_number = n.play)
}

pub fn already_opted_in(lang: Lang) -> String {
    tr!(lang, "already-opted-in")
}

pub fn language_set(lang: Lang) -> String {
    tr!(lang, "language-set")
}

pub fn unknown_text(lang: Lang) -> String {
    tr!(lang, "unknown-text")
}

/// Help for a registered player who is not in a match: the lines of the
/// commands `HELP` lists (`commands::help`), joined, leaving out the last
/// of them while the whole would go over its budget.
pub fn help_idle(lang: Lang, lines: &[String]) -> String {
    (1..=lines.len())
        .rev()
        .map(|n| tr!(lang, "help-idle", items = lines[..n].join(", ")))
        .find(|t| crate::encoding::analyse(t).parts <= budget(lang, "help-idle"))
        .unwrap_or_else(|| tr!(lang, "help-idle", items = lines.join(", ")))
}

/// One command's line in `HELP`, by the command's message.
pub fn help_line(lang: Lang, line: HelpLine, n: Numbers<'_>) -> String {
    match line {
        HelpLine::Play => tr!(lang, "help-play", play_number = n.play),
        HelpLine::Games => tr!(lang, "help-games"),
        HelpLine::Rematch => tr!(lang, "help-rematch"),
        HelpLine::Pause => tr!(lang, "help-pause"),
        HelpLine::Message => tr!(lang, "help-message"),
        HelpLine::Rename => tr!(lang, "help-rename"),
        HelpLine::Standings => tr!(lang, "help-standings"),
        HelpLine::Lang => tr!(lang, "help-lang"),
        HelpLine::Stop => tr!(lang, "help-stop"),
    }
}

/// The commands `HELP` names outside a match, each declared by its command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpLine {
    Play,
    Games,
    Rematch,
    Pause,
    Message,
    Rename,
    Standings,
    Lang,
    Stop,
}

/// Help inside a match: the game's move syntax and the match commands, in one SMS.
/// Where the whole line would take two, the commands are named shorter,
/// then without `H n`: the game's own codes are never cut.
pub fn help_in_match(lang: Lang, move_help: &str, state_steps: bool) -> String {
    let long = tr!(
        lang,
        "help-in-match",
        codes = move_help,
        steps = yes_no(state_steps)
    );
    let short = |steps: bool| {
        tr!(
            lang,
            "help-in-match-short",
            codes = move_help,
            steps = yes_no(steps)
        )
    };
    [long, short(state_steps), short(false)]
        .into_iter()
        .find(|t| crate::encoding::analyse(t).parts <= budget(lang, "help-in-match"))
        .unwrap_or_else(|| short(false))
}

/// `P` with a game while in a match: no second match starts, and the
/// player learns how to leave this one (`Q` resigns it) or see it (`B`).
/// One SMS in either language, whatever the game's name.
pub fn already_in_match(lang: Lang, game: &str) -> String {
    let vowel = game.starts_with(['A', 'E', 'I', 'O', 'U']);
    tr!(
        lang,
        "already-in-match",
        game_name = game,
        vowel = yes_no(vowel)
    )
}

pub fn timeout_taken(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "timeout-taken", play_number = n.play)
}

pub fn timeout_for_missed_turns(lang: Lang, missed: u32, n: Numbers<'_>) -> String {
    tr!(
        lang,
        "timeout-for-missed-turns",
        missed = missed,
        play_number = n.play
    )
}

/// `P ?`: one line a game, within one SMS.
pub fn games_list(lang: Lang, codes: &[(&str, &str)]) -> String {
    let lines: Vec<String> = codes
        .iter()
        .map(|(code, name)| format!("P {code} - {name}"))
        .collect();
    format!("{}\n{}", tr!(lang, "games-list-head"), lines.join("\n"))
}

/// What a player texted as a game code, cut short: a reply never echoes
/// more than a few characters of what a stranger sent.
fn echo(word: &str) -> String {
    const MOST: usize = 8;
    let mut short: String = word.chars().take(MOST).collect();
    if word.chars().count() > MOST {
        short.push_str("...");
    }
    short
}

pub fn unknown_game(lang: Lang, code: &str, codes: &[(&str, &str)]) -> String {
    let known: Vec<&str> = codes.iter().map(|(c, _)| *c).collect();
    tr!(
        lang,
        "unknown-game",
        code = echo(code),
        known = known.join(", ")
    )
}

/// Options a game refused: its reason, then what it accepts, where both
/// fit the budget (else the reason alone: `P ?` and the guide say the rest).
pub fn bad_game_options(lang: Lang, reason: &str, options_help: &str) -> String {
    let whole = tr!(
        lang,
        "bad-game-options",
        reason = reason,
        options = options_help
    );
    if crate::encoding::analyse(&whole).parts <= budget(lang, "bad-game-options") {
        whole
    } else {
        reason.to_string()
    }
}

pub fn waiting_for_players(lang: Lang) -> String {
    tr!(lang, "waiting-for-players")
}

pub fn already_waiting(lang: Lang) -> String {
    tr!(lang, "already-waiting")
}

pub fn not_in_match(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "not-in-match", play_number = n.play)
}

/// A move texted after its match ended.
pub fn match_over(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "match-over", play_number = n.play)
}

pub fn move_accepted(lang: Lang, mv: &str) -> String {
    tr!(lang, "move-accepted", move = mv)
}

/// A move the game cannot read: the reader's own reason, then the codes
/// where they still fit one SMS (else where to find them).
pub fn bad_move(lang: Lang, reason: &str, move_help: &str) -> String {
    // The reason quotes what the player sent: nothing a phone would hide or
    // act on goes back, and no more of it than a line.
    let reason: String = reason
        .chars()
        .filter(|&c| !crate::phone::is_hidden(c))
        .take(100)
        .collect();
    let head = if reason.is_empty() {
        tr!(lang, "bad-move")
    } else {
        tr!(lang, "bad-move-why", reason = reason)
    };
    let with_help = format!("{head} {move_help}");
    if crate::encoding::analyse(&with_help).parts <= budget(lang, "bad-move-why") {
        return with_help;
    }
    format!("{head} {}", tr!(lang, "bad-move-help"))
}

pub fn resigned(lang: Lang) -> String {
    tr!(lang, "resigned")
}

pub fn rematch_waiting(lang: Lang) -> String {
    tr!(lang, "rematch-waiting")
}

pub fn rematch_asked(lang: Lang, nick: &str) -> String {
    tr!(lang, "rematch-asked", nick = nick)
}

pub fn rematch_expired(lang: Lang) -> String {
    tr!(lang, "rematch-expired")
}

pub fn rematch_closed(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "rematch-closed", play_number = n.play)
}

pub fn no_rematch(lang: Lang, n: Numbers<'_>) -> String {
    tr!(lang, "no-rematch", play_number = n.play)
}

/// A relayed message: the sender's nick and his words, as they are.
pub fn message_from(nick: &str, text: &str) -> String {
    format!("{nick}: {text}")
}

/// A relayed message over its size; `room`: the characters it may have
/// (in the encoding its characters need).
pub fn message_too_long(lang: Lang, room: usize) -> String {
    tr!(lang, "message-too-long", room = room)
}

pub fn message_sent(lang: Lang, nick: &str) -> String {
    tr!(lang, "message-sent", nick = nick)
}

pub fn message_not_allowed(lang: Lang) -> String {
    tr!(lang, "message-not-allowed")
}

/// `S` between a virtual phone of the training hall and a real one, which
/// the operator keeps apart (`hall.meet_real_players`).
pub fn message_across_the_hall(lang: Lang) -> String {
    tr!(lang, "message-across-the-hall")
}

pub fn message_undeliverable(lang: Lang, nick: &str) -> String {
    tr!(lang, "message-undeliverable", nick = nick)
}

pub fn unknown_nick(lang: Lang, nick: &str) -> String {
    tr!(lang, "unknown-nick", nick = nick)
}

/// A match whose record is damaged is ended; its players may play on.
pub fn match_voided(lang: Lang) -> String {
    tr!(lang, "match-voided")
}

/// A phone over its flood limit: its texts are dropped until it slows
/// down, which at the default limit is under a second (one notice a window).
pub fn slow_down(lang: Lang) -> String {
    tr!(lang, "slow-down")
}

/// A missed deadline in a game whose null move is only a reminder.
pub fn turn_reminder(lang: Lang, missed: u32, max: u32) -> String {
    tr!(lang, "turn-reminder", missed = missed, max = max)
}

pub fn no_history(lang: Lang) -> String {
    tr!(lang, "no-history")
}

pub fn history_unavailable(lang: Lang) -> String {
    tr!(lang, "history-unavailable")
}

pub fn no_moves_yet(lang: Lang) -> String {
    tr!(lang, "no-moves-yet")
}

pub fn no_such_step(lang: Lang, step: usize) -> String {
    tr!(lang, "no-such-step", step = step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::platform::catalog::Catalog;

    /// `HELP` in a match is one SMS in every game and language (two in
    /// Cyrillic, whose SMS holds 70 characters), with the game's codes
    /// whole; so is a move the game cannot read, with the reader's reason.
    #[test]
    fn in_match_help_and_an_unreadable_move_fit_their_budgets() {
        use crate::encoding::analyse;
        let catalog = Catalog::new(&Config::default()).with_game(crate::games::trial::Trial);
        for game in catalog.games() {
            for lang in Lang::ALL {
                let most = |id| budget(lang, id);
                assert_eq!(most("help-in-match"), if lang == Lang::Cyr { 2 } else { 1 });
                let codes = game.move_help(lang);
                let help = help_in_match(lang, &codes, game.has_state_steps());
                assert!(
                    analyse(&help).parts <= most("help-in-match"),
                    "{}: {help}",
                    game.code()
                );
                assert!(help.starts_with(&codes), "{}: {help}", game.code());
                let reason = "\"k1\" is no cell on this board";
                let refusal = bad_move(lang, reason, &codes);
                assert!(
                    analyse(&refusal).parts <= most("bad-move-why"),
                    "{}: {refusal}",
                    game.code()
                );
                assert!(refusal.contains(reason), "{refusal}");
                let in_match = already_in_match(lang, game.name(lang));
                assert!(
                    analyse(&in_match).parts <= most("already-in-match"),
                    "{in_match}"
                );
            }
        }
    }

    /// `HELP` outside a match keeps `STOP` in every language, whatever the
    /// length of the play number, within its budget.
    #[test]
    fn idle_help_keeps_stop_within_its_budget() {
        use crate::encoding::analyse;
        let long = Numbers {
            play: "+700000000000000",
            game: "+700000000000001",
        };
        for lang in Lang::ALL {
            let lines: Vec<String> = [
                HelpLine::Play,
                HelpLine::Games,
                HelpLine::Rematch,
                HelpLine::Pause,
                HelpLine::Message,
                HelpLine::Rename,
                HelpLine::Lang,
                HelpLine::Stop,
                HelpLine::Standings,
            ]
            .map(|line| help_line(lang, line, long))
            .to_vec();
            let help = help_idle(lang, &lines);
            assert!(analyse(&help).parts <= budget(lang, "help-idle"), "{help}");
            assert!(help.contains("STOP"), "{help}");
        }
    }

    /// Round 3's refusals are one SMS in both languages, a nick of the
    /// longest kind included.
    #[test]
    fn a_reserved_nick_and_a_message_across_the_hall_are_one_sms() {
        use crate::encoding::analyse;
        for lang in Lang::ALL {
            for why in [
                ReservedFor::Staff,
                ReservedFor::Robots,
                ReservedFor::Commands,
            ] {
                let text = nick_reserved(lang, "Administration16", why);
                assert_eq!(analyse(&text).parts, 1, "{lang}: {text}");
            }
            let text = message_across_the_hall(lang);
            assert_eq!(analyse(&text).parts, 1, "{lang}: {text}");
        }
    }
}
