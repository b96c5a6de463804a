//! Why a code or a text is refused; the words are the catalog's
//! (`ib-why`, `ib-code-refused` and the other refusals of `intelball.ftl`).

use super::board::{BLUE, Spot};
use crate::{Lang, Reason, Side, tr};

/// Why one code cannot be played here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The code is the other side's; the side on turn is given.
    WrongSide(Side),
    OffField(Spot),
    /// No player of this side on this cell.
    NoPlayer(Side, Spot),
    /// The player on this cell passed and is blocked.
    Blocked(Spot),
    /// The player on this cell holds the ball (and cannot step away from it).
    HoldsBall(Spot),
    /// The player on this cell does not hold the ball.
    NoBallHere(Spot),
    NotNear(Spot, Spot),
    /// A player stands on this cell.
    Taken(Spot),
    /// The free ball lies on this cell (a step must be `L(a)>B(b)`).
    BallThere(Spot),
    /// The ball is not on this cell.
    NoBall(Spot),
    /// The ball on this cell is held by a player.
    BallHeld(Spot),
    NotInLine(Spot, Spot),
    /// The ball would fly over the player on this cell.
    Through(Spot),
    /// The team-mate on this cell passed and cannot receive.
    MateBlocked(Spot),
    OwnGoal(Spot),
    /// The turn already ended with the code of this number.
    AfterEnd(usize),
}

/// How a reason's text names its case and cells (`ib-why`).
struct WhyArgs {
    why: &'static str,
    cell: String,
    other: String,
    ended: usize,
}

impl Why {
    fn args(&self) -> WhyArgs {
        let side = |s: Side, blue, red| if s == BLUE { blue } else { red };
        let (why, cell, other, ended) = match *self {
            Why::WrongSide(s) => (side(s, "blue-to-move", "red-to-move"), None, None, 0),
            Why::OffField(p) => ("off-field", Some(p), None, 0),
            Why::NoPlayer(s, p) => (side(s, "no-blue-player", "no-red-player"), Some(p), None, 0),
            Why::Blocked(p) => ("blocked", Some(p), None, 0),
            Why::HoldsBall(p) => ("holds-ball", Some(p), None, 0),
            Why::NoBallHere(p) => ("no-ball-here", Some(p), None, 0),
            Why::NotNear(a, b) => ("not-near", Some(a), Some(b), 0),
            Why::Taken(p) => ("taken", Some(p), None, 0),
            Why::BallThere(p) => ("ball-there", Some(p), None, 0),
            Why::NoBall(p) => ("no-ball", Some(p), None, 0),
            Why::BallHeld(p) => ("ball-held", Some(p), None, 0),
            Why::NotInLine(a, b) => ("not-in-line", Some(a), Some(b), 0),
            Why::Through(p) => ("through", Some(p), None, 0),
            Why::MateBlocked(p) => ("mate-blocked", Some(p), None, 0),
            Why::OwnGoal(p) => ("own-goal", Some(p), None, 0),
            Why::AfterEnd(n) => ("after-end", None, None, n),
        };
        let spot = |p: Option<Spot>| p.map(|p| p.to_string()).unwrap_or_default();
        WhyArgs {
            why,
            cell: spot(cell),
            other: spot(other),
            ended,
        }
    }

    /// The reason alone, as `ib-why` words it.
    pub fn text(&self, lang: Lang) -> String {
        let w = self.args();
        tr!(
            lang,
            "ib-why",
            why = w.why,
            cell = w.cell,
            other = w.other,
            ended = w.ended,
        )
    }
}

/// Why a move (a text) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Code number `index` (from 1), as typed, cannot be played.
    Code {
        index: usize,
        typed: String,
        why: Why,
    },
    NotYourTurn,
    MatchOver,
    NotInMatch,
    NothingToUndo,
    /// This seat has already asked for a takeback.
    AlreadyAsked,
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::Code { index, typed, why } => {
                let w = why.args();
                tr!(
                    lang,
                    "ib-code-refused",
                    index = *index,
                    typed = typed,
                    why = w.why,
                    cell = w.cell,
                    other = w.other,
                    ended = w.ended,
                )
            }
            Refusal::NotYourTurn => tr!(lang, "ib-not-your-turn"),
            Refusal::MatchOver => tr!(lang, "ib-match-over"),
            Refusal::NotInMatch => tr!(lang, "ib-not-in-match"),
            Refusal::NothingToUndo => tr!(lang, "ib-nothing-to-undo"),
            Refusal::AlreadyAsked => tr!(lang, "ib-already-asked"),
        }
    }
}
