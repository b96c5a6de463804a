//! The hall's one page: a virtual phone's thread and what to type, each game's practice button, and its rules fetched when asked for.

use axum::response::Response;
use maud::html;

use crate::games::Level;
use crate::web;

/// A game as the page offers it.
pub struct GameCard {
    pub code: &'static str,
    pub name: &'static str,
    /// What the practice button texts to the play number, for each robot
    /// level there is to choose.
    pub starts: Vec<(Level, String)>,
}

/// What the page's script needs, as JSON in the page.
#[derive(serde::Serialize)]
struct PageConfig<'a> {
    play: &'a str,
    game: &'a str,
}

pub fn render(play: &str, game: &str, games: &[GameCard]) -> Response {
    let config = serde_json::to_string(&PageConfig { play, game })
        .expect("two strings serialise")
        // Inside a <script> element `</` would end it early.
        .replace("</", "<\\/");
    let body = html! {
        header.site {
            h1 { "smsarena · training hall" }
            span.note { "Play every game as on a phone: your phones here are virtual, your texts go the way real ones do." }
            a.nav href="/standings" { "Leaderboards" }
        }
        main.hall {
            section.phone aria-label="Virtual phone" {
                nav.phones #phone-tabs {}
                div.number #number {}
                div.status {
                    div.turn #turn {}
                    label.lang {
                        span data-say="language" { "Replies in" }
                        select #lang disabled {}
                    }
                }
                p.live-status #live-status role="status" {}
                // A short line a screen reader reads out; the thread itself
                // is not live, or every board would be read out whole.
                p.announce #hall-status role="status" {}
                div.talk {
                    ol.thread #thread aria-label="Texts" {}
                    // The match drawn from the game's state (board.js); the
                    // thread's text says the same, so readers skip it.
                    figure.board #board hidden aria-hidden="true" {
                        div.picture {}
                        figcaption { "The match as drawn from its state; the texts are the record." }
                    }
                }
                form.compose #compose {
                    select #compose-to aria-label="To" {
                        option value=(game) selected title="R, moves, B, Q, H" { "to " (game) " · game" }
                        option value=(play) title="P, PA" { "to " (play) " · play" }
                    }
                    textarea #compose-text rows="2" placeholder="Type a text, Enter sends" aria-label="Text" data-say="typeText" {}
                    button.primary #send type="submit" data-say="send" { "Send" }
                    span.count #compose-count {}
                }
            }
            aside.side {
                div.card {
                    h2 data-say="register" { "Register" }
                    div.row {
                        input #nick placeholder="nick" maxlength="16" aria-label="Nick";
                        button #register type="button" { "R nick" }
                    }
                    p.muted { "Texts R and your nick to " (game) "." }
                }
                div.card {
                    h2 data-say="practise" { "Practise against a robot" }
                    ul.games {
                        @for card in games {
                            li {
                                span.name { (card.name) }
                                @if card.starts.len() > 1 {
                                    select.level data-game=(card.code) aria-label={ (card.name) " robot level" } {
                                        @for (level, start) in &card.starts { option value=(start) { "level " (level) } }
                                    }
                                }
                                @if let Some((_, first)) = card.starts.first() {
                                    button.practice type="button" data-game=(card.code) data-start=(first)
                                        aria-label={ "Play " (card.name) " against a robot" } { "Play" }
                                }
                            }
                        }
                    }
                    p.muted { "Each button texts its game's P line to " (play) "." }
                }
                div.card {
                    h2 data-say="rules" { "Rules" }
                    select #rules-select aria-label="Rules of" {
                        @for card in games { option value=(card.code) { (card.name) } }
                    }
                    // Filled by the script from `/hall/guides/{game}`; the link
                    // is the guide without it.
                    div.rules #rules {
                        @if let Some(card) = games.first() {
                            a href={ "/hall/guides/" (card.code) } { "Rules of " (card.name) }
                        }
                    }
                }
            }
        }
        script #hall-config type="application/json" { (maud::PreEscaped(config)) }
    };
    web::page(
        "Training hall",
        &["/hall/hall.css"],
        &["/hall/hall.js", "/hall/board.js"],
        body,
    )
}

/// `/hall/guides/{game}`: a game's guide, a page of its own that the hall's
/// Rules box shows when a visitor opens it.
pub fn guide(code: &str, name: &str, markdown: &str) -> Response {
    web::page(
        &format!("{name} rules"),
        &["/hall/hall.css"],
        &[],
        html! {
            header.site {
                h1 { "smsarena · " (name) " rules" }
                a.nav href="/hall" { "Training hall" }
            }
            main.guide {
                article.rules.guide data-game=(code) { (web::guide(markdown)) }
            }
        },
    )
}

/// `/hall/hall.js`, `/hall/hall.css`.
pub async fn script() -> Response {
    web::asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/hall.js"),
    )
}

/// `/hall/board.js`: the drawn board beside the thread.
pub async fn board_script() -> Response {
    web::asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    )
}

/// `/hall/hall-worker.js`: the worker every tab of the hall shares, which
/// holds the one stream of all the browser's phones.
pub async fn worker() -> Response {
    web::asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/hall-worker.js"),
    )
}

pub async fn style() -> Response {
    web::asset("text/css; charset=utf-8", include_str!("assets/hall.css"))
}
