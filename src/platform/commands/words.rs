//! The words of a text, as every command's parser reads them: the first
//! word and the rest, the Cyrillic look-alikes of the one-letter commands,
//! and what a command word with bad arguments is answered with.

use crate::lang::Lang;
use crate::platform::texts;

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
    #[error("TOP takes a game's code")]
    BadTop,
    #[error("STAT takes a nick")]
    BadStat,
}

impl ParseError {
    /// The reply: the command's right form.
    pub fn usage(&self, lang: Lang) -> String {
        match self {
            ParseError::MissingNick | ParseError::BadNick => texts::nick_usage(lang),
            ParseError::MissingMessage => texts::message_usage(lang),
            ParseError::BadLang => texts::lang_usage(lang),
            ParseError::Trailing(cmd) => texts::bare_usage(lang, cmd),
            ParseError::BadStep => texts::step_usage(lang),
            ParseError::BadTop => texts::top_usage(lang),
            ParseError::BadStat => texts::stat_usage(lang),
        }
    }
}

/// Splits off the first whitespace-separated word; the rest comes back trimmed.
pub(super) fn split_word(text: &str) -> (&str, &str) {
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim_start()),
        None => (text, ""),
    }
}

/// The first word of a text, as typed: what `Game::yields_word` is asked about.
pub fn first_word(text: &str) -> &str {
    split_word(text.trim()).0
}

/// Phones with a Cyrillic keyboard send Р, Т, С, А, В for P, T, S, A, B
/// (the original rules themselves write "отправьте букву Р"). Only short
/// words are mapped, so a Russian word is never mistaken for a command.
pub(super) fn latinise_lookalikes(word: &str) -> String {
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

/// A command that takes nothing after its word (`name`).
pub(super) fn bare(rest: &str, name: &'static str) -> Result<(), ParseError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(ParseError::Trailing(name))
    }
}
