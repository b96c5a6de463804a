//! `--deep-robot-matches N`: N phones that play paper soccer against the
//! level-3 robot (`P PS BOT 3`) in the second window, to keep the robot
//! pool's deep searches busy while the other phones are measured.
//!
//! A deep phone reads only the first line of a text: `Vash xod.` (its move,
//! a bounce included) is answered with one random step, a refusal with
//! another, and the end of a match with a new `P PS BOT 3`. Its play is bad
//! on purpose: what loads the gateway is the robot's search, a whole budget
//! per turn, whatever the phone plays. Its texts go through connections of
//! its own and come back on numbers of their own (another tag), so the
//! measured phones' bookkeeping never sees them.

use std::net::SocketAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Bytes;
use hyper::Method;
use tokio::sync::mpsc;

use super::client::Conn;
use super::phone::Dice;
use super::sender::{Inbound, phone_number};

/// What a deep phone texts to start a match.
const PLAY: &str = "P PS BOT 3";

/// How many connections the deep phones share.
const CONNECTIONS: usize = 4;

/// What a deep phone's text says, by its first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    MyMove,
    TheirMove,
    Over,
    /// A refused step, or anything else (a registration's answer).
    Other,
}

fn read(text: &str) -> Seen {
    let first = text.trim_start().lines().next().unwrap_or("");
    let starts = |words: &[&str]| words.iter().any(|w| first.starts_with(w));
    if starts(&["Vash xod", "Your move"]) {
        Seen::MyMove
    } else if starts(&["Xod protivnika", "Opponent's move"]) {
        Seen::TheirMove
    } else if starts(&["Vi pobedili", "Vi proigrali", "You won", "You lost"]) {
        Seen::Over
    } else {
        Seen::Other
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    Nothing,
    Step,
    Play,
}

struct Phone {
    dice: Dice,
    asked: Asked,
}

/// What the deep phones saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct DeepCounts {
    /// Boards that gave a phone its move back: most after the robot's turn.
    pub my_move: u64,
    pub steps: u64,
    pub refused: u64,
    pub finished: u64,
}

pub struct DeepPhones {
    tag: u32,
    phones: Mutex<Vec<Phone>>,
    counts: Mutex<DeepCounts>,
    running: AtomicBool,
    jobs: mpsc::UnboundedSender<(usize, &'static str, String)>,
}

impl DeepPhones {
    /// `count` phones of tag `tag` (another than the measured phones').
    pub fn start(
        tag: u32,
        count: usize,
        gateway: SocketAddr,
        numbers: (String, String),
    ) -> std::sync::Arc<DeepPhones> {
        let (tx, rx) = mpsc::unbounded_channel::<(usize, &'static str, String)>();
        let rx = std::sync::Arc::new(tokio::sync::Mutex::new(rx));
        let numbers = std::sync::Arc::new(numbers);
        for _ in 0..CONNECTIONS {
            let (rx, numbers) = (rx.clone(), numbers.clone());
            tokio::spawn(async move {
                let mut conn = Conn::new(gateway);
                let mut seq = 0u64;
                loop {
                    let job = { rx.lock().await.recv().await };
                    let Some((phone, to, text)) = job else { return };
                    seq += 1;
                    let to = if to == "play" { &numbers.0 } else { &numbers.1 };
                    let id = format!("d{tag}-{phone}-{seq}-{}", rand::random::<u32>());
                    let body = serde_json::to_vec(&Inbound {
                        id: &id,
                        from: &phone_number(tag, phone),
                        to,
                        text: &text,
                    })
                    .expect("serialisable");
                    let body = Bytes::from(body);
                    // A lost call only stops one background phone; no retry.
                    let _ = conn
                        .request(Method::POST, "/webhooks/generic", Some(body))
                        .await;
                }
            });
        }
        std::sync::Arc::new(DeepPhones {
            tag,
            phones: Mutex::new(
                (0..count)
                    .map(|i| Phone {
                        dice: Dice::new(((tag as u64) << 40) ^ i as u64),
                        asked: Asked::Nothing,
                    })
                    .collect(),
            ),
            counts: Mutex::new(DeepCounts::default()),
            running: AtomicBool::new(false),
            jobs: tx,
        })
    }

    fn send(&self, phone: &mut Phone, index: usize, asked: Asked, text: String) {
        phone.asked = asked;
        let to = if asked == Asked::Play { "play" } else { "game" };
        let _ = self.jobs.send((index, to, text));
    }

    /// Registers every deep phone.
    pub fn register(&self) {
        let mut phones = self.phones.lock().expect("deep phones");
        for (i, phone) in phones.iter_mut().enumerate() {
            self.send(phone, i, Asked::Nothing, format!("R d{:03}x{i}", self.tag));
        }
    }

    /// Starts every deep phone's first match; they go on until [`Self::stop`].
    pub fn play(&self) {
        self.running.store(true, Ordering::SeqCst);
        let mut phones = self.phones.lock().expect("deep phones");
        for (i, phone) in phones.iter_mut().enumerate() {
            self.send(phone, i, Asked::Play, PLAY.into());
        }
    }

    pub fn stop(&self) {
        self.running.store(false, Ordering::SeqCst);
    }

    pub fn counts(&self) -> DeepCounts {
        *self.counts.lock().expect("deep counts")
    }

    /// The deep phone a number belongs to, if any.
    pub fn owns(&self, number: &str) -> Option<usize> {
        let rest = number.strip_prefix(&format!("+7{:03}", self.tag))?;
        (rest.len() == 7).then(|| rest.parse().ok()).flatten()
    }

    /// A text to deep phone `index`.
    pub fn on_text(&self, index: usize, body: &str) {
        let seen = read(body);
        let mut counts = self.counts.lock().expect("deep counts");
        let mut phones = self.phones.lock().expect("deep phones");
        let Some(phone) = phones.get_mut(index) else {
            return;
        };
        match seen {
            Seen::MyMove => counts.my_move += 1,
            Seen::Over => counts.finished += 1,
            Seen::Other if phone.asked == Asked::Step => counts.refused += 1,
            Seen::TheirMove | Seen::Other => {}
        }
        if !self.running.load(Ordering::SeqCst) {
            return;
        }
        match (seen, phone.asked) {
            (Seen::MyMove, _) | (Seen::Other, Asked::Step) => {
                // Keypad directions: 1-4 and 6-9.
                let step = [1, 2, 3, 4, 6, 7, 8, 9][(phone.dice.roll() % 8) as usize];
                counts.steps += 1;
                self.send(phone, index, Asked::Step, step.to_string());
            }
            (Seen::Over, _) => self.send(phone, index, Asked::Play, PLAY.into()),
            _ => phone.asked = Asked::Nothing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_paper_soccer_texts_first_line() {
        use rand::SeedableRng;
        use smsarena::games::paper_soccer::PaperSoccer;
        use smsarena::games::{Game, Lang, MatchRng};
        let game = PaperSoccer;
        let mut rng = MatchRng::seed_from_u64(1);
        let options = "BOT 3".parse().expect("options");
        let state = game.start(&options, &mut rng);
        for lang in [Lang::Ru, Lang::En] {
            assert_eq!(read(&game.render(&state, 0, lang)), Seen::MyMove);
            assert_eq!(read(&game.render(&state, 1, lang)), Seen::TheirMove);
        }
        assert_eq!(read("Xod 5: net takogo napravleniya."), Seen::Other);
    }
}
