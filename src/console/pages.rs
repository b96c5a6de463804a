//! The console's pages, server-rendered through `maud` like the training hall's: the login form, the overview with its chart, players, a match and its replay, parked texts, the audit.

use axum::http::{HeaderValue, header};
use axum::response::Response;
use maud::{Markup, html};

use super::auth::Operator;
use super::data::{ParkedView, PlayerDetail, PlayerView, ReplayStep, SeatView, Summary};
use crate::store::AuditEntry;
use crate::web;

const STYLES: &[&str] = &["/console/console.css"];
const SCRIPTS: &[&str] = &["/console/console.js"];

/// The login form; `error` says why the last try failed.
pub fn login(error: Option<&str>) -> Response {
    let body = html! {
        header.site { h1 { "smsarena · console" } }
        main.console.narrow {
            form.card.login method="post" action="/console/login" {
                h2 { "Operator login" }
                @if let Some(error) = error { p.warn role="alert" { (error) } }
                label { "Your name (for the audit)"
                    input name="name" autocomplete="username" required maxlength="32" pattern="[A-Za-z0-9._-]+";
                }
                label { "Admin token"
                    input name="token" type="password" autocomplete="current-password" required;
                }
                button.primary type="submit" { "Log in" }
            }
        }
    };
    page("Console login", STYLES, &[], body)
}

/// A page as `web::page` makes it, but that tells its own origin where a
/// request came from: the console's forms are checked for their origin
/// (`forgery.rs`), and under `no-referrer` a browser sends `Origin: null`
/// even to the page's own origin. Other origins still learn nothing.
fn page(title: &str, styles: &[&str], scripts: &[&str], body: Markup) -> Response {
    let mut response = web::page(title, styles, scripts, body);
    response.headers_mut().insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

fn layout(operator: &Operator, title: &str, current: &str, content: Markup) -> Response {
    let nav = [
        ("/console", "Overview"),
        ("/console/players", "Players"),
        ("/console/parked", "Parked texts"),
        ("/console/audit", "Audit"),
    ];
    let body = html! {
        header.site {
            h1 { "smsarena · console" }
            nav.console-nav {
                @for (href, label) in nav {
                    @if href == current { a.current href=(href) aria-current="page" { (label) } }
                    @else { a href=(href) { (label) } }
                }
            }
            form.logout method="post" action="/console/logout" {
                span.note { (operator.name) }
                button type="submit" { "Log out" }
            }
        }
        main.console { (content) }
    };
    page(title, STYLES, SCRIPTS, body)
}

/// An inline SVG bar chart of `values`, oldest first.
fn chart(values: &[i64]) -> Markup {
    let max = values.iter().copied().max().unwrap_or(0).max(1);
    let (width, height) = (600.0_f64, 120.0_f64);
    let bar = width / values.len().max(1) as f64;
    html! {
        svg.chart viewBox={ "0 0 " (width) " " (height) } preserveAspectRatio="none" role="img"
            aria-label="Inbound texts a minute over the last hour" {
            @for (i, v) in values.iter().enumerate() {
                @let h = (*v as f64 / max as f64) * (height - 4.0);
                rect x=(format!("{:.1}", i as f64 * bar + 0.5)) y=(format!("{:.1}", height - h))
                    width=(format!("{:.1}", (bar - 1.0).max(0.5))) height=(format!("{:.1}", h)) {
                    title { (v) " texts, " (60 - i) " min ago" }
                }
            }
        }
    }
}

pub fn overview(operator: &Operator, s: &Summary) -> Response {
    let waiting = s
        .counts
        .oldest_waiting_secs
        .map_or("none waiting".to_string(), |secs| {
            format!("oldest {secs} s")
        });
    let last_minute = s.inbound_per_minute.last().copied().unwrap_or(0);
    let body = html! {
        h2 { "Overview" }
        div.counts #counts data-refresh="10" {
            div.card.count { span.n #players { (s.counts.players) } span.label { "players" } }
            div.card.count { span.n #lobbies { (s.counts.lobbies_waiting) } span.label { "waiting in lobbies" } }
            @for (game, n) in &s.counts.running {
                div.card.count { span.n data-game=(game) { (n) } span.label { (game) " matches running" } }
            }
            div.card.count { span.n #backlog { (s.counts.outbox_backlog) } span.label { "texts to send (" (waiting) ")" } }
            div.card.count { span.n #parked { (s.counts.parked) } span.label { a href="/console/parked" { "parked texts" } } }
            div.card.count { span.n #inbound { (last_minute) } span.label { "texts in, this minute" } }
        }
        section.card {
            h3 { "Texts in a minute, the last hour" }
            (chart(&s.inbound_per_minute))
        }
    };
    layout(operator, "Console", "/console", body)
}

fn player_row(p: &PlayerView) -> Markup {
    html! {
        tr {
            td { a href={ "/console/players/" (p.id) } { (p.nick.as_deref().unwrap_or("(no nick)")) } }
            td.mono { (p.phone) }
            td { (p.status) }
            td { @if let Some(m) = p.current_match { a href={ "/console/matches/" (m) } { "#" (m) } } }
        }
    }
}

pub fn players(operator: &Operator, query: &str, found: &[PlayerView]) -> Response {
    let body = html! {
        h2 { "Players" }
        form.card.search method="get" action="/console/players" {
            label { "Nick or number"
                input name="q" value=(query) autofocus;
            }
            button.primary type="submit" { "Find" }
        }
        @if !query.is_empty() {
            @if found.is_empty() { p.muted { "No player matches." } }
            @else {
                table.list {
                    thead { tr { th { "Nick" } th { "Number" } th { "Status" } th { "Match" } } }
                    tbody { @for p in found { (player_row(p)) } }
                }
            }
        }
    };
    layout(operator, "Players", "/console/players", body)
}

pub fn player(operator: &Operator, d: &PlayerDetail, whole: bool) -> Response {
    let p = &d.player;
    let body = html! {
        h2 { (p.nick.as_deref().unwrap_or("(no nick)")) }
        div.card {
            dl.facts {
                dt { "Number" } dd { span.mono { (p.phone) }
                    @if !whole { " " a href={ "/console/players/" (p.id) "?numbers=full" } { "show whole (logged)" } }
                }
                dt { "Status" } dd { (p.status) }
                dt { "Language" } dd { (p.lang) }
                dt { "Current match" } dd {
                    @if let Some(m) = p.current_match { a href={ "/console/matches/" (m) } { "#" (m) } } @else { "none" }
                }
                dt { "Last match" } dd {
                    @if let Some(m) = p.last_match { a href={ "/console/matches/" (m) } { "#" (m) } } @else { "none" }
                }
            }
        }
        div.columns {
            section.card {
                h3 { "Texts in (newest first)" }
                ol.texts { @for t in &d.texts_in {
                    li { span.muted { (t.at.format("%Y-%m-%d %H:%M:%S UTC")) " to " (t.to) } pre.sms { (t.text) } }
                } }
            }
            section.card {
                h3 { "Texts out (newest first)" }
                ol.texts { @for t in &d.texts_out {
                    li { span.muted { "#" (t.id) " from " (t.from) ", " (t.status) ", " (t.parts) " part(s), " (t.encoding) } pre.sms { (t.body) } }
                } }
            }
        }
    };
    layout(operator, "Player", "/console/players", body)
}

pub struct MatchPage<'a> {
    pub id: i64,
    pub game: &'a str,
    pub status: String,
    pub seats: &'a [SeatView],
    pub record: &'a str,
    pub replay: &'a ReplayStep,
}

pub fn match_view(operator: &Operator, m: &MatchPage<'_>) -> Response {
    let r = m.replay;
    let link = |step: usize| {
        format!(
            "/console/matches/{}?step={step}&seat={}#replay",
            m.id, r.seat
        )
    };
    let body = html! {
        h2 { "Match #" (m.id) " · " (m.game) }
        p.muted #status { (m.status) }
        div.columns {
            section.card {
                h3 { "Seats" }
                table.list {
                    thead { tr { th { "Seat" } th { "Who" } th { "Place" } th { "Score" } } }
                    tbody { @for s in m.seats {
                        tr {
                            td { (s.seat + 1) }
                            td { @if let Some(id) = s.player_id { a href={ "/console/players/" (id) } { (s.who) } } @else { (s.who) } }
                            td { @if let Some(p) = s.place { (p) } }
                            td { @if let Some(v) = s.score { (v) } }
                        }
                    } }
                }
                h3 { "Record" }
                pre.record { (m.record) }
            }
            section.card #replay {
                h3 { "Replay" }
                nav.steps {
                    a.step #first href=(link(0)) { "« start" }
                    a.step #prev href=(link(r.step.saturating_sub(1))) { "◀ back" }
                    span #position { "move " (r.step) " of " (r.steps) }
                    a.step #next href=(link((r.step + 1).min(r.steps))) { "next ▶" }
                    a.step #last href=(link(r.steps)) { "end »" }
                }
                form.seat method="get" action={ "/console/matches/" (m.id) } {
                    input type="hidden" name="step" value=(r.step);
                    label { "as seat "
                        select name="seat" {
                            @for s in m.seats {
                                // The value is the seat's index, as the game counts; people read from 1.
                                @if s.seat == r.seat { option value=(s.seat) selected { (s.seat + 1) " " (s.who) } }
                                @else { option value=(s.seat) { (s.seat + 1) " " (s.who) } }
                            }
                        }
                    }
                    button type="submit" { "Show" }
                }
                @if let Some(played) = &r.played { p.muted { "after " code { (played) } } }
                pre.sms.board #board { (r.board) }
            }
        }
    };
    layout(operator, "Match", "", body)
}

pub fn parked(operator: &Operator, texts: &[ParkedView], note: Option<&str>) -> Response {
    let body = html! {
        h2 { "Parked texts" }
        @if let Some(note) = note { p.note role="status" { (note) } }
        @if texts.is_empty() { p.muted { "No text is parked." } }
        @else {
        table.list.parked {
            thead { tr { th { "#" } th { "To" } th { "Text" } th { "Attempts" } th { "Last error" } th {} } }
            tbody { @for t in texts {
                tr {
                    td { (t.id) }
                    td.mono { (t.to) }
                    td { pre.sms { (t.body) } }
                    td { (t.attempts) }
                    td.error { (t.last_error.as_deref().unwrap_or("")) }
                    td.actions {
                        form method="post" action={ "/console/parked/" (t.id) "/retry" } {
                            button.primary type="submit" data-retry=(t.id) { "Retry" }
                        }
                        form method="post" action={ "/console/parked/" (t.id) "/drop" } {
                            button type="submit" data-drop=(t.id) { "Drop" }
                        }
                    }
                }
            } }
        }
        }
    };
    layout(operator, "Parked texts", "/console/parked", body)
}

pub fn audit(operator: &Operator, entries: &[AuditEntry]) -> Response {
    let body = html! {
        h2 { "Audit" }
        p.muted { "Every operator action, newest first." }
        table.list.audit {
            thead { tr { th { "When" } th { "Who" } th { "What" } th { "On" } th { "From" } } }
            tbody { @for e in entries {
                tr {
                    td { (e.at.format("%Y-%m-%d %H:%M UTC")) }
                    td { (e.actor) }
                    td.action { (e.action) }
                    td { (e.target) }
                    td.mono { (e.address.as_deref().unwrap_or("")) }
                }
            } }
        }
    };
    layout(operator, "Audit", "/console/audit", body)
}

/// `/console/console.css`, `/console/console.js`.
pub async fn style() -> Response {
    web::asset(
        "text/css; charset=utf-8",
        include_str!("assets/console.css"),
    )
}

pub async fn script() -> Response {
    web::asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/console.js"),
    )
}
