//! Text from a phone -> [`Command`]: one parse function per command, independent of providers and storage.
//!
//! The first word picks the command (case-insensitive, Cyrillic look-alikes of
//! the one-letter commands accepted); each command's parser takes the rest
//! and rejects trailing junk. Text that is no command at all is
//! [`Command::Text`]: the platform routes it to the sender's match as a move,
//! or answers it with a hint.

use crate::lang::Lang;

/// Everything a player can ask of the platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `R nick`: register, or rename.
    Register { nick: String },
    /// `P [game] [options]`: join a lobby, or start against robots (no game:
    /// SMS football). The options are the game's to read, as typed.
    Play {
        game: Option<String>,
        options: String,
    },
    /// `P ?`: list the games.
    ListGames,
    /// `PA`: rematch request.
    PlayAgain,
    /// `T`: take a timeout.
    Timeout,
    /// `S nick text`: one message to a player of the last match.
    Send { nick: String, text: String },
    /// `B`: send my board again.
    Board,
    /// `Q`: resign.
    Resign,
    /// `H`: the match's moves so far; `H n`: its state at step `n`.
    History(Option<usize>),
    /// `HELP`, `?`, `INFO`.
    Help,
    /// `STOP` and its synonyms: opt out of everything.
    Stop,
    /// `START`, `UNSTOP`: opt back in.
    Start,
    /// `LANG EN|RU`.
    Lang(Lang),
    /// Anything else: a game move, or unknown text.
    Text(String),
}

/// A command word with bad arguments; the reply explains the right form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("R needs a nick")]
    MissingNick,
    #[error("a nick is 2-16 Latin letters, digits or _")]
    BadNick,
    #[error("S needs a nick and a text")]
    MissingMessage,
    #[error("LANG takes EN or RU")]
    BadLang,
    #[error("{0} takes nothing after it")]
    Trailing(&'static str),
    #[error("H takes a step number")]
    BadStep,
}

/// Words that opt a number out (carrier rules); only ever as the whole text.
const STOP_WORDS: [&str; 6] = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"];
const START_WORDS: [&str; 2] = ["START", "UNSTOP"];
const HELP_WORDS: [&str; 3] = ["HELP", "?", "INFO"];

pub const NICK_MIN: usize = 2;
pub const NICK_MAX: usize = 16;

impl Command {
    /// Parses one text. Never fails on unknown text: that is [`Command::Text`].
    pub fn parse(text: &str) -> Result<Command, ParseError> {
        let text = text.trim();
        let (head, rest) = split_word(text);
        let keyword = latinise_lookalikes(head).to_uppercase();
        match keyword.as_str() {
            "R" => parse_register(rest),
            "P" => parse_play(rest),
            "PA" => bare(rest, Command::PlayAgain, "PA"),
            "T" => bare(rest, Command::Timeout, "T"),
            "B" => bare(rest, Command::Board, "B"),
            "Q" => bare(rest, Command::Resign, "Q"),
            "H" => parse_history(rest),
            "S" => parse_send(rest),
            "LANG" => parse_lang(rest),
            word if rest.is_empty() && HELP_WORDS.contains(&word) => Ok(Command::Help),
            word if rest.is_empty() && STOP_WORDS.contains(&word) => Ok(Command::Stop),
            word if rest.is_empty() && START_WORDS.contains(&word) => Ok(Command::Start),
            _ => Ok(Command::Text(text.to_string())),
        }
    }
}

/// Splits off the first whitespace-separated word; the rest comes back trimmed.
fn split_word(text: &str) -> (&str, &str) {
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim_start()),
        None => (text, ""),
    }
}

/// Phones with a Cyrillic keyboard send Р, Т, С, А, В for P, T, S, A, B
/// (the original rules themselves write "отправьте букву Р"). Only short
/// words are mapped, so a Russian word is never mistaken for a command.
fn latinise_lookalikes(word: &str) -> String {
    if word.chars().count() > 2 {
        return word.to_string();
    }
    word.chars()
        .map(|c| match c {
            'Р' | 'р' => 'P',
            'Т' | 'т' => 'T',
            'С' | 'с' => 'S',
            'А' | 'а' => 'A',
            'В' | 'в' => 'B',
            other => other,
        })
        .collect()
}

fn bare(rest: &str, command: Command, name: &'static str) -> Result<Command, ParseError> {
    if rest.is_empty() {
        Ok(command)
    } else {
        Err(ParseError::Trailing(name))
    }
}

/// Is this a well-formed nick (2-16 of `A-Z a-z 0-9 _`)?
pub fn valid_nick(nick: &str) -> bool {
    (NICK_MIN..=NICK_MAX).contains(&nick.len())
        && nick.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn parse_register(rest: &str) -> Result<Command, ParseError> {
    let (nick, trailing) = split_word(rest);
    if nick.is_empty() {
        Err(ParseError::MissingNick)
    } else if !trailing.is_empty() || !valid_nick(nick) {
        Err(ParseError::BadNick)
    } else {
        Ok(Command::Register {
            nick: nick.to_string(),
        })
    }
}

fn parse_play(rest: &str) -> Result<Command, ParseError> {
    if rest == "?" {
        return Ok(Command::ListGames);
    }
    let (game, options) = split_word(rest);
    Ok(Command::Play {
        game: (!game.is_empty()).then(|| game.to_uppercase()),
        options: options.to_string(),
    })
}

fn parse_history(rest: &str) -> Result<Command, ParseError> {
    if rest.is_empty() {
        return Ok(Command::History(None));
    }
    rest.parse()
        .map(|n| Command::History(Some(n)))
        .map_err(|_| ParseError::BadStep)
}

impl Command {
    /// Whether this is one of the platform's commands that a game's match may
    /// leave to its own move parser (see `Game::yields_word`): every command
    /// but `STOP`, `START`, `HELP`, `R` and `LANG`, which are always the platform's.
    pub fn game_may_claim(&self) -> bool {
        !matches!(
            self,
            Command::Stop
                | Command::Start
                | Command::Help
                | Command::Register { .. }
                | Command::Lang(_)
                | Command::Text(_)
        )
    }
}

/// The first word of a text, as typed: what `Game::yields_word` is asked about.
pub fn first_word(text: &str) -> &str {
    split_word(text.trim()).0
}

fn parse_send(rest: &str) -> Result<Command, ParseError> {
    let (nick, text) = split_word(rest);
    if nick.is_empty() || text.is_empty() {
        Err(ParseError::MissingMessage)
    } else {
        Ok(Command::Send {
            nick: nick.to_string(),
            text: text.to_string(),
        })
    }
}

fn parse_lang(rest: &str) -> Result<Command, ParseError> {
    rest.parse()
        .map(Command::Lang)
        .map_err(|_| ParseError::BadLang)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Command, ParseError> {
        Command::parse(s)
    }

    fn text(s: &str) -> Result<Command, ParseError> {
        Ok(Command::Text(s.to_string()))
    }

    #[test]
    fn register_takes_exactly_one_valid_nick() {
        assert_eq!(
            parse("R ronaldo"),
            Ok(Command::Register {
                nick: "ronaldo".into()
            })
        );
        assert_eq!(
            parse("  r   Ro_9  "),
            Ok(Command::Register {
                nick: "Ro_9".into()
            })
        );
        assert_eq!(parse("R"), Err(ParseError::MissingNick));
        assert_eq!(parse("R a"), Err(ParseError::BadNick));
        assert_eq!(parse("R abcdefghijklmnopq"), Err(ParseError::BadNick));
        assert_eq!(parse("R ab cd"), Err(ParseError::BadNick));
        assert_eq!(parse("R Роналдо"), Err(ParseError::BadNick));
        assert_eq!(parse("R ab-cd"), Err(ParseError::BadNick));
    }

    #[test]
    fn play_names_a_game_and_options() {
        assert_eq!(
            parse("P"),
            Ok(Command::Play {
                game: None,
                options: String::new()
            })
        );
        assert_eq!(
            parse("p ib bot   3"),
            Ok(Command::Play {
                game: Some("IB".into()),
                options: "bot   3".into()
            })
        );
        assert_eq!(parse("P ?"), Ok(Command::ListGames));
        assert_eq!(parse("PA"), Ok(Command::PlayAgain));
        assert_eq!(parse("pa"), Ok(Command::PlayAgain));
        assert_eq!(parse("PA now"), Err(ParseError::Trailing("PA")));
    }

    #[test]
    fn one_letter_commands_reject_trailing_junk() {
        assert_eq!(parse("T"), Ok(Command::Timeout));
        assert_eq!(parse("b"), Ok(Command::Board));
        assert_eq!(parse("Q"), Ok(Command::Resign));
        assert_eq!(parse("T please"), Err(ParseError::Trailing("T")));
        assert_eq!(parse("Q 1"), Err(ParseError::Trailing("Q")));
    }

    #[test]
    fn cyrillic_lookalikes_count_as_latin_letters() {
        assert_eq!(
            parse("Р"),
            Ok(Command::Play {
                game: None,
                options: String::new()
            })
        );
        assert_eq!(
            parse("р"),
            Ok(Command::Play {
                game: None,
                options: String::new()
            })
        );
        assert_eq!(parse("РА"), Ok(Command::PlayAgain));
        assert_eq!(parse("Т"), Ok(Command::Timeout));
        assert_eq!(parse("В"), Ok(Command::Board));
        assert_eq!(
            parse("С ronaldo kruto"),
            Ok(Command::Send {
                nick: "ronaldo".into(),
                text: "kruto".into()
            })
        );
        // A Russian word is not a command.
        assert_eq!(parse("Привет"), text("Привет"));
    }

    #[test]
    fn history_takes_an_optional_step() {
        assert_eq!(parse("H"), Ok(Command::History(None)));
        assert_eq!(parse("h 3"), Ok(Command::History(Some(3))));
        assert_eq!(parse("H x"), Err(ParseError::BadStep));
        assert_eq!(parse("H -1"), Err(ParseError::BadStep));
        assert_eq!(first_word("  B(4,6)>L(4,5) "), "B(4,6)>L(4,5)");
        assert!(Command::Board.game_may_claim());
        assert!(!Command::Stop.game_may_claim());
    }

    #[test]
    fn send_needs_a_nick_and_a_text() {
        assert_eq!(
            parse("S ronaldo kruto mi ix :)"),
            Ok(Command::Send {
                nick: "ronaldo".into(),
                text: "kruto mi ix :)".into()
            })
        );
        assert_eq!(parse("S ronaldo"), Err(ParseError::MissingMessage));
        assert_eq!(parse("S"), Err(ParseError::MissingMessage));
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
            assert_eq!(parse(word), Ok(Command::Stop), "{word}");
        }
        assert_eq!(parse("stop please"), text("stop please"));
        assert_eq!(parse("START"), Ok(Command::Start));
        assert_eq!(parse("unstop"), Ok(Command::Start));
        assert_eq!(parse("start now"), text("start now"));
    }

    #[test]
    fn help_and_language() {
        for word in ["HELP", "help", "?", "INFO"] {
            assert_eq!(parse(word), Ok(Command::Help), "{word}");
        }
        assert_eq!(parse("LANG EN"), Ok(Command::Lang(Lang::En)));
        assert_eq!(parse("lang ru"), Ok(Command::Lang(Lang::Ru)));
        assert_eq!(parse("LANG"), Err(ParseError::BadLang));
        assert_eq!(parse("LANG DE"), Err(ParseError::BadLang));
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
