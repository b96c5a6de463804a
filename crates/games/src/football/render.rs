//! What each seat receives: its view of the board and the status line, in RU or EN.

use super::ATTACK;
use super::end::Outcome;
use super::state::State;
use crate::{Lang, Seat, tr};

/// How the other three players are drawn. The rules' prose and the seed's
/// prose say "`1` your partner, `2` the opponents", but every board printed in
/// the seed (the opening, the worked example and the goal example, five
/// Defense views among them) numbers the teams instead: `1` is Attack, `2` is
/// Defense, so a defender sees his partner as `2`. The two agree for
/// attackers only. The rules also demand that the seed's example reproduce
/// exactly, and its goal example is only a legal position when read as
/// teams; so [`LEGEND`] follows the boards. Flip it to follow the prose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legend {
    /// `1` an Attack player, `2` a Defense player (the seed's boards).
    Teams,
    /// `1` the partner, `2` an opponent (the seed's and the rules' prose).
    Partner,
}

/// The legend [`render`] uses; see [`Legend`] for why.
pub const LEGEND: Legend = Legend::Teams;

/// The seat's text: 5 rows of 5 characters (`Y` the seat, `1`/`2` the others
/// as [`LEGEND`] says, `0` the ball, `.` empty), a blank line, the status
/// line; after the end, the result line and the rematch hint. No trailing
/// newline.
///
/// # Panics
///
/// If `seat` is not 0-3.
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    render_with(state, seat, lang, LEGEND)
}

/// [`render`] with an explicit legend.
pub fn render_with(state: &State, seat: Seat, lang: Lang, legend: Legend) -> String {
    let rows = board_rows(state, seat, legend);
    let mut text = String::with_capacity(96);
    // ASCII, every byte of it.
    text.push_str(std::str::from_utf8(&rows).unwrap_or_default());
    text.push_str("\n\n");
    push_status(&mut text, state, seat, lang);
    text
}

/// The board's five rows as `seat` reads them, joined by `\n`: the SMS
/// text's and the drawn board's one source.
pub(super) fn board_rows(state: &State, seat: Seat, legend: Legend) -> Vec<u8> {
    let sides = state.sides();
    let rows = state.board().picture(b'\n', b'0', |other| {
        let first = match legend {
            Legend::Teams => sides[other] == ATTACK,
            Legend::Partner => sides[other] == sides[seat],
        };
        match (other == seat, first) {
            (true, _) => b'Y',
            (false, true) => b'1',
            (false, false) => b'2',
        }
    });
    rows.to_vec()
}

fn push_status(text: &mut String, state: &State, seat: Seat, lang: Lang) {
    let side = state.sides()[seat];
    match state.result() {
        None if state.turn() == side => text.push_str(&tr!(lang, "fb-your-move")),
        None => text.push_str(&tr!(lang, "fb-opponents-move")),
        Some(outcome) => {
            let result = match outcome {
                Outcome::Won(s) if s == side => "won",
                Outcome::Won(_) => "lost",
                Outcome::Draw => "draw",
            };
            text.push_str(&tr!(lang, "fb-result", result = result));
            text.push('\n');
            text.push_str(&tr!(lang, "fb-after-match"));
        }
    }
}

/// Keypad help, one SMS in either language.
pub fn move_help(lang: Lang) -> String {
    tr!(lang, "fb-move-help")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters of the GSM 03.38 basic set that are also ASCII, minus the
    /// ones that need an escape (and so cost two).
    fn gsm_single(text: &str) -> bool {
        text.chars()
            .all(|c| c == '\n' || (c.is_ascii_graphic() || c == ' ') && !"[]{}|~^\\`".contains(c))
    }

    #[test]
    fn help_fits_one_sms() {
        for lang in [Lang::Ru, Lang::En] {
            let help = move_help(lang);
            assert!(help.len() <= 160, "{} chars: {help}", help.len());
            assert!(gsm_single(&help));
        }
    }

    #[test]
    fn every_text_is_gsm_and_short() {
        let state =
            State::from_board(["...23", ".....", ".....", "..*..", ".0.1."], "AADD").unwrap();
        let finished: State = state
            .to_string()
            .replace("result=-", "result=A")
            .parse()
            .unwrap();
        for s in [&state, &finished] {
            for seat in 0..4 {
                for lang in [Lang::Ru, Lang::En] {
                    let text = render(s, seat, lang);
                    assert!(gsm_single(&text) && text.len() <= 160, "{text}");
                }
            }
        }
    }
}
