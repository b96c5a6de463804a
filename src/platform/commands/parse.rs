//! Text from a phone -> [`Command`], independent of providers and storage.
//!
//! The first word picks the command (case-insensitive, Cyrillic look-alikes
//! of the one-letter commands accepted); the command's own module reads the
//! rest and rejects trailing junk ([`Command::Malformed`]). Text that is no
//! command at all is [`Command::Text`]: a move in a match, else answered
//! with a hint.

use super::board::Board;
use super::help::Help;
use super::history::History;
use super::lang::SetLang;
use super::last::Last;
use super::list_games::ListGames;
use super::message::Message;
use super::play::Play;
use super::play_again::PlayAgain;
use super::register::Register;
use super::resign::Resign;
use super::start::Start;
use super::stat::Stat;
use super::stop::Stop;
use super::text::Text;
use super::timeout::Timeout;
use super::top::Top;
use super::words::{ParseError, latinise_lookalikes, split_word};

/// Everything a player can text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `R nick`: register, or rename.
    Register(Register),
    /// `P [game] [options]`: join a lobby, or start against robots.
    Play(Play),
    /// `P ?`: list the games.
    ListGames(ListGames),
    /// `PA`: rematch request.
    PlayAgain(PlayAgain),
    /// `T`: take a timeout.
    Timeout(Timeout),
    /// `S nick text`: one message to a player of the last match.
    Send(Message),
    /// `B`: send my board again.
    Board(Board),
    /// `Q`: resign.
    Resign(Resign),
    /// `H`: the match's moves so far; `H n`: its state at step `n`.
    History(History),
    /// `TOP [game]`: a game's leaderboard and the sender's place.
    Top(Top),
    /// `STAT [nick]`: a player's record and rating per game.
    Stat(Stat),
    /// `LAST`: the sender's last results.
    Last(Last),
    /// `HELP`, `?`, `INFO`.
    Help(Help),
    /// `STOP` and its synonyms: opt out of everything.
    Stop(Stop),
    /// `START`, `UNSTOP`: opt back in.
    Start(Start),
    /// `LANG EN|RU`.
    Lang(SetLang),
    /// Anything else: a game move, or unknown text.
    Text(Text),
    /// A command word with bad arguments.
    Malformed(ParseError),
}

/// Reads a command word's arguments into its command.
type Reader = fn(&str) -> Result<Command, ParseError>;

/// The command words that take what follows them, each with its reader.
const READERS: [(&str, Reader); 12] = [
    ("R", |rest| Register::parse(rest).map(Command::Register)),
    ("P", |rest| {
        Ok(match ListGames::parse(rest) {
            Some(list) => Command::ListGames(list),
            None => Command::Play(Play::parse(rest)),
        })
    }),
    ("PA", |rest| PlayAgain::parse(rest).map(Command::PlayAgain)),
    ("T", |rest| Timeout::parse(rest).map(Command::Timeout)),
    ("B", |rest| Board::parse(rest).map(Command::Board)),
    ("Q", |rest| Resign::parse(rest).map(Command::Resign)),
    ("H", |rest| History::parse(rest).map(Command::History)),
    ("S", |rest| Message::parse(rest).map(Command::Send)),
    ("LANG", |rest| SetLang::parse(rest).map(Command::Lang)),
    ("TOP", |rest| Top::parse(rest).map(Command::Top)),
    ("STAT", |rest| Stat::parse(rest).map(Command::Stat)),
    ("LAST", |rest| Last::parse(rest).map(Command::Last)),
];

impl Command {
    /// Reads one text. Never fails: unknown text is [`Command::Text`].
    pub fn parse(text: &str) -> Command {
        let text = text.trim();
        let (head, rest) = split_word(text);
        let keyword = latinise_lookalikes(head).to_uppercase();
        let word = keyword.as_str();
        let read = match READERS.iter().find(|(known, _)| *known == word) {
            Some((_, read)) => read(rest),
            // These are commands only as the whole text.
            None if rest.is_empty() && Help::WORDS.contains(&word) => Ok(Command::Help(Help)),
            None if rest.is_empty() && Stop::WORDS.contains(&word) => Ok(Command::Stop(Stop)),
            None if rest.is_empty() && Start::WORDS.contains(&word) => Ok(Command::Start(Start)),
            None => Ok(Command::Text(Text(text.to_string()))),
        };
        read.unwrap_or_else(Command::Malformed)
    }

    /// Every word the parser reads as a command (in capitals), so that no
    /// nick can be one.
    pub fn keywords() -> impl Iterator<Item = &'static str> {
        READERS
            .iter()
            .map(|(word, _)| *word)
            .chain(Help::WORDS)
            .chain(Stop::WORDS)
            .chain(Start::WORDS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::platform::commands::first_word;

    fn parse(s: &str) -> Command {
        Command::parse(s)
    }

    fn text(s: &str) -> Command {
        Command::Text(Text(s.to_string()))
    }

    fn register(nick: &str) -> Command {
        Command::Register(Register { nick: nick.into() })
    }

    fn play(game: Option<&str>, options: &str) -> Command {
        Command::Play(Play {
            game: game.map(str::to_string),
            options: options.into(),
        })
    }

    fn bad(e: ParseError) -> Command {
        Command::Malformed(e)
    }

    #[test]
    fn register_takes_exactly_one_valid_nick() {
        assert_eq!(parse("R ronaldo"), register("ronaldo"));
        assert_eq!(parse("  r   Ro_9  "), register("Ro_9"));
        assert_eq!(parse("R"), bad(ParseError::MissingNick));
        assert_eq!(parse("R a"), bad(ParseError::BadNick));
        assert_eq!(parse("R abcdefghijklmnopq"), bad(ParseError::BadNick));
        assert_eq!(parse("R ab cd"), bad(ParseError::BadNick));
        assert_eq!(parse("R Роналдо"), bad(ParseError::BadNick));
        assert_eq!(parse("R ab-cd"), bad(ParseError::BadNick));
    }

    #[test]
    fn play_names_a_game_and_options() {
        assert_eq!(parse("P"), play(None, ""));
        assert_eq!(parse("p ib bot   3"), play(Some("IB"), "bot   3"));
        assert_eq!(parse("P ?"), Command::ListGames(ListGames));
        assert_eq!(parse("PA"), Command::PlayAgain(PlayAgain));
        assert_eq!(parse("pa"), Command::PlayAgain(PlayAgain));
        assert_eq!(parse("PA now"), bad(ParseError::Trailing("PA")));
    }

    #[test]
    fn one_letter_commands_reject_trailing_junk() {
        assert_eq!(parse("T"), Command::Timeout(Timeout));
        assert_eq!(parse("b"), Command::Board(Board));
        assert_eq!(parse("Q"), Command::Resign(Resign));
        assert_eq!(parse("T please"), bad(ParseError::Trailing("T")));
        assert_eq!(parse("Q 1"), bad(ParseError::Trailing("Q")));
    }

    #[test]
    fn cyrillic_lookalikes_count_as_latin_letters() {
        assert_eq!(parse("Р"), play(None, ""));
        assert_eq!(parse("р"), play(None, ""));
        assert_eq!(parse("РА"), Command::PlayAgain(PlayAgain));
        assert_eq!(parse("Т"), Command::Timeout(Timeout));
        assert_eq!(parse("В"), Command::Board(Board));
        assert_eq!(
            parse("С ronaldo kruto"),
            Command::Send(Message {
                nick: "ronaldo".into(),
                text: "kruto".into()
            })
        );
        // A Russian word is not a command.
        assert_eq!(parse("Привет"), text("Привет"));
    }

    #[test]
    fn history_takes_an_optional_page_or_step() {
        assert_eq!(parse("H"), Command::History(History::Newest));
        assert_eq!(parse("h 3"), Command::History(History::Number(3)));
        assert_eq!(parse("H P2"), Command::History(History::Page(2)));
        assert_eq!(parse("h p 4"), Command::History(History::Page(4)));
        assert_eq!(parse("H P"), bad(ParseError::BadStep));
        assert_eq!(parse("H x"), bad(ParseError::BadStep));
        assert_eq!(parse("H -1"), bad(ParseError::BadStep));
        assert_eq!(first_word("  B(4,6)>L(4,5) "), "B(4,6)>L(4,5)");
    }

    #[test]
    fn send_needs_a_nick_and_a_text() {
        assert_eq!(
            parse("S ronaldo kruto mi ix :)"),
            Command::Send(Message {
                nick: "ronaldo".into(),
                text: "kruto mi ix :)".into()
            })
        );
        assert_eq!(parse("S ronaldo"), bad(ParseError::MissingMessage));
        assert_eq!(parse("S"), bad(ParseError::MissingMessage));
    }

    #[test]
    fn stop_is_only_ever_a_whole_text() {
        for word in [
            "STOP",
            "stop",
            " Stop ",
            "STOPALL",
            "UNSUBSCRIBE",
            "cancel",
            "END",
            "quit",
        ] {
            assert_eq!(parse(word), Command::Stop(Stop), "{word}");
        }
        assert_eq!(parse("stop please"), text("stop please"));
        assert_eq!(parse("START"), Command::Start(Start));
        assert_eq!(parse("unstop"), Command::Start(Start));
        assert_eq!(parse("start now"), text("start now"));
    }

    #[test]
    fn help_and_language() {
        for word in ["HELP", "help", "?", "INFO"] {
            assert_eq!(parse(word), Command::Help(Help), "{word}");
        }
        assert_eq!(parse("LANG EN"), Command::Lang(SetLang(Lang::En)));
        assert_eq!(parse("lang ru"), Command::Lang(SetLang(Lang::Ru)));
        assert_eq!(parse("LANG"), bad(ParseError::BadLang));
        assert_eq!(parse("LANG DE"), bad(ParseError::BadLang));
    }

    #[test]
    fn standing_commands_take_a_game_or_a_nick_and_nothing_more() {
        assert_eq!(parse("TOP"), Command::Top(Top { game: None }));
        assert_eq!(
            parse("top ps"),
            Command::Top(Top {
                game: Some("PS".into())
            })
        );
        assert_eq!(parse("TOP PS now"), bad(ParseError::BadTop));
        assert_eq!(parse("STAT"), Command::Stat(Stat { nick: None }));
        assert_eq!(
            parse("stat Ann_2"),
            Command::Stat(Stat {
                nick: Some("Ann_2".into())
            })
        );
        assert_eq!(parse("STAT a"), bad(ParseError::BadStat), "no nick");
        assert_eq!(parse("STAT ann bob"), bad(ParseError::BadStat));
        assert_eq!(parse("LAST"), Command::Last(Last));
        assert_eq!(parse("LAST 3"), bad(ParseError::Trailing("LAST")));
    }

    #[test]
    fn every_keyword_given_out_is_read_as_a_command() {
        let words: Vec<&str> = Command::keywords().collect();
        assert!(
            words.contains(&"LAST") && words.contains(&"UNSTOP"),
            "{words:?}"
        );
        for word in words {
            assert!(
                !matches!(parse(word), Command::Text(_)),
                "{word} is a keyword but reads as text"
            );
        }
    }

    #[test]
    fn anything_else_is_text_for_the_game() {
        assert_eq!(parse("3"), text("3"));
        assert_eq!(parse(" 06 "), text("06"));
        assert_eq!(parse("B~L(4,7)>F(5,8)"), text("B~L(4,7)>F(5,8)"));
        assert_eq!(parse(""), text(""));
        assert_eq!(parse("hello there"), text("hello there"));
    }
}
