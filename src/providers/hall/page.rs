//! The hall's one page: a virtual phone's thread and what to type, each game's practice button, and its rules fetched when asked for.

use std::collections::BTreeMap;

use axum::response::Response;
use maud::html;

use crate::games::Level;
use crate::web;

/// A game as the page offers it.
pub struct GameCard {
    pub code: &'static str,
    /// Its name in each language `LANG` offers (by code), the first as served.
    pub names: Vec<(&'static str, &'static str)>,
    /// What the practice button texts to the play number, for each robot
    /// level there is to choose.
    pub starts: Vec<(Level, String)>,
}

impl GameCard {
    fn name(&self) -> &'static str {
        self.names.first().map_or(self.code, |(_, name)| name)
    }
}

/// What the page's script needs, as JSON in the page.
#[derive(serde::Serialize)]
struct PageConfig<'a> {
    play: &'a str,
    game: &'a str,
    /// Each game's name by language, for the page's words in that language.
    names: BTreeMap<&'a str, BTreeMap<&'a str, &'a str>>,
}

/// The page as served, in English; every word the page says itself carries
/// `data-say` (text), `data-say-label` (its accessible name) or
/// `data-say-placeholder`, the key of its words in each language
/// (`assets/words.js`), so the page speaks the shown phone's language.
/// `data-arg` or `data-game` is what fills a word that takes one.
pub fn render(play: &str, game: &str, games: &[GameCard]) -> Response {
    let names = games
        .iter()
        .map(|card| (card.code, card.names.iter().copied().collect()))
        .collect();
    let config = serde_json::to_string(&PageConfig { play, game, names })
        .expect("strings serialise")
        // Inside a <script> element `</` would end it early.
        .replace("</", "<\\/");
    let body = html! {
        header.site {
            h1 data-say="title" { "smsarena · training hall" }
            span.note data-say="intro" { "Play every game as on a phone: your phones here are virtual, your texts go the way real ones do." }
            a.nav href="/standings" data-say="leaderboards" { "Leaderboards" }
        }
        main.hall {
            section.phone aria-label="Virtual phone" data-say-label="virtualPhone" {
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
                    ol.thread #thread aria-label="Texts" data-say-label="texts" {}
                    // The match drawn from the game's state (board.js); the
                    // thread's text says the same, so readers skip it.
                    figure.board #board hidden aria-hidden="true" {
                        div.picture {}
                        figcaption data-say="boardCaption" { "The match as drawn from its state; the texts are the record." }
                    }
                }
                form.compose #compose {
                    select #compose-to aria-label="To" data-say-label="to" {
                        option value=(game) selected title="R, moves, B, Q, H" data-say="toGame" data-arg=(game) { "to " (game) " · game" }
                        option value=(play) title="P, PA" data-say="toPlay" data-arg=(play) { "to " (play) " · play" }
                    }
                    textarea #compose-text rows="2" placeholder="Type a text, Enter sends" aria-label="Text"
                        data-say-placeholder="typeText" data-say-label="text" {}
                    button.primary #send type="submit" data-say="send" { "Send" }
                    span.count #compose-count {}
                }
            }
            aside.side {
                div.card {
                    h2 data-say="register" { "Register" }
                    div.row {
                        input #nick placeholder="nick" maxlength="16" aria-label="Nick"
                            data-say-placeholder="nick" data-say-label="nickLabel";
                        button #register type="button" { "R nick" }
                    }
                    p.muted data-say="registerHint" data-arg=(game) { "Texts R and your nick to " (game) "." }
                }
                div.card {
                    h2 data-say="practise" { "Practise against a robot" }
                    ul.games {
                        @for card in games {
                            li {
                                span.name data-say="gameName" data-game=(card.code) { (card.name()) }
                                @if card.starts.len() > 1 {
                                    select.level data-game=(card.code) aria-label={ (card.name()) " robot level" } data-say-label="levelOf" {
                                        @for (level, start) in &card.starts {
                                            option value=(start) data-say="level" data-arg=(level) { "level " (level) }
                                        }
                                    }
                                }
                                @if let Some((_, first)) = card.starts.first() {
                                    button.practice type="button" data-game=(card.code) data-start=(first)
                                        aria-label={ "Play " (card.name()) " against a robot" } data-say-label="playAgainst"
                                        data-say="play" { "Play" }
                                }
                            }
                        }
                    }
                    p.muted data-say="practiceHint" data-arg=(play) { "Each button texts its game's P line to " (play) "." }
                }
                div.card {
                    h2 data-say="rules" { "Rules" }
                    select #rules-select aria-label="Rules of" data-say-label="rulesOf" {
                        @for card in games { option value=(card.code) data-say="gameName" data-game=(card.code) { (card.name()) } }
                    }
                    // Filled by the script from `/hall/guides/{game}`; the link
                    // is the guide without it.
                    div.rules #rules {
                        @if let Some(card) = games.first() {
                            a href={ "/hall/guides/" (card.code) } { "Rules of " (card.name()) }
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
        &["/hall/words.js", "/hall/hall.js", "/hall/board.js"],
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

/// `/hall/words.js`: the page's own words in each language.
pub async fn words_script() -> Response {
    web::asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/words.js"),
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
