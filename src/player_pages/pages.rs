//! The players' pages' markup, through the one layout of `web`.

use axum::response::Response;
use maud::{Markup, html};

use crate::platform::results::{Finish, MatchResult};
use crate::platform::texts::rating;
use crate::ratings::PROVISIONAL_GAMES;
use crate::store::{Holder, Leader, MatchRow, MoveRow, SeatRow, StandingRow};
use crate::web;

const STYLES: &[&str] = &["/standings.css"];

fn layout(title: &str, body: Markup) -> Response {
    web::page(
        title,
        STYLES,
        &[],
        html! {
            header.site {
                h1 { "smsarena · " (title) }
                span.note { "Ratings: Glicko's scale, a new player 1500. A ? marks a rating of fewer than 10 rated games." }
            }
            main.standings {
                nav.crumbs { a href="/standings" { "All leaderboards" } " · " a href="/hall" { "Training hall" } }
                (body)
            }
        },
    )
}

fn leader_rows(leaders: &[Leader]) -> Markup {
    html! {
        @for (leader, place) in leaders.iter().zip(Leader::places(leaders)) {
            tr {
                td.num { (place) }
                td.nick { a href={ "/players/" (leader.nick) } { (leader.nick) } }
                td.num { (rating(leader.points, leader.provisional())) }
                td.num { (leader.rated_games) }
            }
        }
    }
}

fn leader_table(leaders: &[Leader]) -> Markup {
    html! {
        div.fit {
            table.list {
                thead { tr { th.num { "#" } th { "Player" } th.num { "Rating" } th.num { "Rated games" } } }
                tbody { (leader_rows(leaders)) }
            }
        }
    }
}

/// The rule the boards keep, said where they are shown.
fn listed_rule() -> Markup {
    html! {
        p.muted {
            "Listed: ratings that rest on " (PROVISIONAL_GAMES) " rated games or more. "
            "A newer rating moves by hundreds a game and is shown with a ?, "
            "on the player's own page, until then."
        }
    }
}

pub fn all_boards(boards: &[(&str, &str, Vec<Leader>)]) -> Response {
    layout(
        "leaderboards",
        html! {
            (listed_rule())
            div.boards {
                @for (code, name, leaders) in boards {
                    div.card {
                        h2 { a href={ "/standings/" (code) } { (name) } " (" (code) ")" }
                        @if leaders.is_empty() {
                            p.muted { "No established rating yet. Text P " (code) " to play." }
                        } @else {
                            (leader_table(leaders))
                        }
                    }
                }
            }
        },
    )
}

pub fn board(code: &str, name: &str, leaders: &[Leader]) -> Response {
    layout(
        &format!("{name} leaderboard"),
        html! {
            @if leaders.is_empty() {
                p.muted { "No established rating yet. Text P " (code) " to play." }
            } @else {
                (leader_table(leaders))
            }
            (listed_rule())
            p.muted { "By SMS: TOP " (code) " for the top five and your place." }
        },
    )
}

/// Finishes by place, where there are any: `places 1-4: 2-1-0-3` (firsts
/// count among the wins too).
fn places_line(counts: &[i64]) -> Option<String> {
    if counts.is_empty() {
        return None;
    }
    let joined: Vec<String> = counts.iter().map(i64::to_string).collect();
    Some(format!("places 1-{}: {}", counts.len(), joined.join("-")))
}

fn finish(f: Finish) -> String {
    match f {
        Finish::Won => "won".into(),
        Finish::Drew => "drew".into(),
        Finish::Lost => "lost".into(),
        Finish::Placed(place, of) => format!("place {place} of {of}"),
    }
}

pub fn player(nick: &str, rows: &[StandingRow], matches: &[MatchResult]) -> Response {
    layout(
        nick,
        html! {
            h2 { "Standing" }
            @if rows.is_empty() {
                p.muted { (nick) " has no finished games yet." }
            } @else {
                div.fit { table.list {
                    thead { tr { th { "Game" } th.num { "Won" } th.num { "Drawn" } th.num { "Lost" } th.num { "Rating" } } }
                    tbody {
                        @for row in rows {
                            tr {
                                td {
                                    a href={ "/standings/" (row.game) } { (row.game) }
                                    @if let Some(line) = places_line(row.places.counts()) {
                                        br; span.muted { (line) }
                                    }
                                }
                                td.num { (row.wins) } td.num { (row.draws) } td.num { (row.losses) }
                                td.num {
                                    @if row.rated_games > 0 { (rating(row.rating.points(), row.provisional())) }
                                    @else { "unrated" }
                                }
                            }
                        }
                    }
                } }
            }
            h2 { "Last matches" }
            @if matches.is_empty() {
                p.muted { "None yet." }
            } @else {
                div.fit { table.list {
                    thead { tr { th.wide-only { "When" } th { "Game" } th { "Against" } th { "Result" } th.num { "Rating" } th { "" } } }
                    tbody {
                        @for m in matches {
                            tr {
                                td.wide-only { (m.finished_at.map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default()) }
                                td { (m.game) }
                                td {
                                    @for (i, nick) in m.opponents.iter().enumerate() {
                                        @if i > 0 { ", " }
                                        span.nick { (nick) }
                                    }
                                }
                                td { (finish(m.finish)) }
                                td.num {
                                    @match m.change {
                                        Some(c) if c > 0 => { "+" (c) }
                                        Some(c) => { (c) }
                                        None => { "unrated" }
                                    }
                                }
                                td { a href={ "/matches/" (m.match_id) } { "replay" } }
                            }
                        }
                    }
                } }
            }
            p.muted { "By SMS: STAT " (nick) ", and LAST for your own last results." }
        },
    )
}

/// What a replay page shows.
pub struct Replay<'a> {
    pub record: &'a MatchRow,
    pub name: &'a str,
    pub seats: &'a [SeatRow],
    pub moves: &'a [MoveRow],
    /// The step shown: 0 the opening, `moves.len()` the end.
    pub step: usize,
    pub board: &'a str,
    pub notation: &'a str,
}

pub fn replay(r: &Replay<'_>) -> Response {
    let id = r.record.id;
    let last = r.moves.len();
    let link = |step: usize| format!("/matches/{id}?step={step}");
    // A game without a score (paper soccer: a goal ends it) has no column
    // left empty for one.
    let scored = r.seats.iter().any(|s| s.score.is_some());
    layout(
        &format!("{} match {id}", r.name),
        html! {
            div.fit { table.list {
                thead { tr { th.num { "Seat" } th { "Player" } th.num { "Place" } @if scored { th.num { "Score" } } } }
                tbody {
                    @for seat in r.seats {
                        tr {
                            td.num { (seat.seat + 1) }
                            td.nick {
                                @match &seat.holder {
                                    Holder::Player(p) => {
                                        @let nick = p.nick.clone().unwrap_or_default();
                                        a href={ "/players/" (nick) } { (nick) }
                                    }
                                    Holder::Robot(level) => { "robot, level " (level) }
                                }
                            }
                            td.num { (seat.place.map(|p| p.to_string()).unwrap_or_default()) }
                            @if scored { td.num { (seat.score.map(|s| s.to_string()).unwrap_or_default()) } }
                        }
                    }
                }
            } }
            h2 { "Step " (r.step) " of " (last) }
            nav.steps {
                @if r.step > 0 { a href=(link(0)) { "« start" } a href=(link(r.step - 1)) { "‹ back" } }
                @if r.step < last { a href=(link(r.step + 1)) { "next ›" } a href=(link(last)) { "end »" } }
            }
            pre.board { (r.board) }
            @if r.step > 0 {
                p.muted { "Step " (r.step) ": seat " (r.moves[r.step - 1].seat + 1) ", " (r.moves[r.step - 1].notation) }
            }
            h2 { "Record" }
            p.notation { (r.notation) }
            ol.moves {
                @for (i, m) in r.moves.iter().enumerate() {
                    li class=[(i + 1 == r.step).then_some("here")] {
                        a href=(link(i + 1)) { (m.seat + 1) ": " (m.notation) }
                    }
                }
            }
        },
    )
}

pub fn missing(what: &str) -> Response {
    layout("not found", html! { p { (what) } })
}

/// `/standings.css`.
pub async fn style() -> Response {
    web::asset(
        "text/css; charset=utf-8",
        include_str!("assets/standings.css"),
    )
}
