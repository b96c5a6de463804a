//! Why a code or a text is refused, in the words a player reads (RU and EN).

use super::board::{BLUE, Spot};
use crate::{Lang, Reason, Side};

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

fn side_ru(side: Side) -> &'static str {
    if side == BLUE { "sinix" } else { "krasnyx" }
}

fn side_en(side: Side) -> &'static str {
    if side == BLUE { "Blue" } else { "Red" }
}

impl Why {
    pub fn text(&self, lang: Lang) -> String {
        let (ru, en) = match self {
            Why::WrongSide(s) => (
                format!("seichas xod {}", side_ru(*s)),
                format!("it is {}'s turn", side_en(*s)),
            ),
            Why::OffField(p) => (
                format!("kletki {p} net na pole (ryady 1-7, stolbcy 1-12)"),
                format!("{p} is off the field (rows 1-7, columns 1-12)"),
            ),
            Why::NoPlayer(s, p) => (
                format!("na {p} net igroka {}", side_ru(*s)),
                format!("no {} player on {p}", side_en(*s)),
            ),
            Why::Blocked(p) => (
                format!("igrok na {p} otdal pas i zablokirovan"),
                format!("the player on {p} has passed and is blocked"),
            ),
            Why::HoldsBall(p) => (
                format!("igrok na {p} s myachom: B&..(shag s myachom), B~..(udar, pas)"),
                format!("the player on {p} has the ball: use B&.. to step with it, B~.. to kick"),
            ),
            Why::NoBallHere(p) => (
                format!("u igroka na {p} net myacha"),
                format!("the player on {p} does not have the ball"),
            ),
            Why::NotNear(a, b) => (
                format!("{b} ne ryadom s {a}"),
                format!("{b} is not next to {a}"),
            ),
            Why::Taken(p) => (
                format!("Kletka na kotoruyu vy hoteli vstat zanyata: {p}"),
                format!("the cell {p} is taken"),
            ),
            Why::BallThere(p) => (
                format!("na {p} myach: shag k myachu pishetsya ..>B{p}"),
                format!("the ball is on {p}: a step onto it is written ..>B{p}"),
            ),
            Why::NoBall(p) => (
                format!("na {p} net myacha"),
                format!("the ball is not on {p}"),
            ),
            Why::BallHeld(p) => (
                format!("myach na {p} u igroka: otbor pishetsya B~..{p}>.."),
                format!("the ball on {p} is held: take it with B~..{p}>.."),
            ),
            Why::NotInLine(a, b) => (
                format!("{a} i {b} ne na odnoi pryamoi ili diagonali"),
                format!("{a} and {b} are not on one straight line or diagonal"),
            ),
            Why::Through(p) => (
                format!("Vy ne mozhete peredvinut myach: na puti igrok {p}"),
                format!("the ball cannot pass over the player on {p}"),
            ),
            Why::MateBlocked(p) => (
                format!("igrok na {p} zablokirovan i ne mozhet prinyat pas"),
                format!("the player on {p} is blocked and cannot receive a pass"),
            ),
            Why::OwnGoal(p) => (
                format!("{p} - vashi vorota"),
                format!("{p} is your own goal"),
            ),
            Why::AfterEnd(n) => (
                format!("xod uzhe pereshel k soperniku posle koda {n}"),
                format!("your turn already ended with code {n}"),
            ),
        };
        lang.pick(&ru, &en).to_string()
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
            Refusal::Code { index, typed, why } => match lang {
                Lang::Ru => format!("Kod {index} {typed}: {}.", why.text(lang)),
                Lang::En => format!("Code {index} {typed}: {}.", why.text(lang)),
            },
            Refusal::NotYourTurn => lang
                .pick("Seichas xod protivnika.", "It is not your turn.")
                .into(),
            Refusal::MatchOver => lang
                .pick("Match uzhe zakonchen.", "The match is over.")
                .into(),
            Refusal::NotInMatch => lang
                .pick(
                    "Vy ne igraete v etom matche.",
                    "You are not playing in this match.",
                )
                .into(),
            Refusal::NothingToUndo => lang.pick("Nechego otmenyat.", "Nothing to undo.").into(),
            Refusal::AlreadyAsked => lang
                .pick(
                    "Vy uzhe poprosili vernut xod. Zhdite otveta.",
                    "You have already asked for a takeback; wait for the answer.",
                )
                .into(),
        }
    }
}
