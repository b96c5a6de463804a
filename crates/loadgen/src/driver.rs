//! The phones: what each one waits for, how it answers the texts the capture
//! server hands it, and the bookkeeping that lets the run verify every text.
//!
//! A phone has at most one request in flight, and the answer to it is the
//! next text it receives: the gateway texts a phone in the order the texts
//! were written, and a phone only ever writes in reply to a text. So the
//! latency of a request is the time from its webhook call to its phone's next
//! text. Every other text a phone receives must be a board (a match started
//! by someone else's `P`, a turn resolved by someone else's move), and every
//! board comes in a set of four, so at the end
//! `boards received = 4 x (requests answered by a board)`.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use hdrhistogram::Histogram;
use tokio::sync::mpsc;

use super::phone::{Dice, Text, Turn, classify};

/// What a phone asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Register,
    Play,
    Move,
    /// `P FB BOT`, from a phone that plays against robots.
    RobotPlay,
    /// A move of a phone that plays against robots.
    RobotMove,
}

/// How many kinds there are, for arrays indexed by [`Kind::index`].
pub const KINDS: usize = 5;

impl Kind {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Register => "R nick",
            Kind::Play => "P",
            Kind::Move => "move",
            Kind::RobotPlay => "P FB BOT",
            Kind::RobotMove => "move against robots",
        }
    }
}

/// What a phone against robots texts to start a match.
const ROBOT_PLAY: &str = "P FB BOT";

/// One webhook call to make.
#[derive(Debug)]
pub struct Job {
    pub phone: usize,
    pub kind: Kind,
    pub text: Cow<'static, str>,
}

struct Waiting {
    kind: Kind,
    sent_at: Option<Instant>,
}

struct Phone {
    nick: String,
    waiting: Option<Waiting>,
    dice: Dice,
    registered: bool,
    /// Plays `P FB BOT` matches, alone with three robots.
    against_robots: bool,
    /// His `P` was answered "waiting": his next board opens a match.
    in_lobby: bool,
}

/// Every count the verification and the report need.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Texts received, duplicates left out.
    pub texts: u64,
    /// Boards to the phones of four-player matches.
    pub boards: u64,
    /// Boards to phones that play against robots (one per resolution, not four).
    pub robot_boards: u64,
    /// Texts whose id was seen before.
    pub duplicate_texts: u64,
    /// Texts to a number that is none of ours, or with an id we cannot read.
    pub stray_texts: u64,
    /// A text that was no answer we expected (a refused move, an error), or a non-board nobody asked for.
    pub unexpected_texts: u64,
    /// Requests answered, by kind; and how many of those answers were boards.
    pub answered: [u64; KINDS],
    pub answered_by_board: [u64; KINDS],
    /// Boards that opened a match to a phone seeking one: the answer to his
    /// `P`, or a board after his `P` was answered "wait".
    pub openings: u64,
    /// Answers that arrived while the phone's call had not been marked as started.
    pub early_answers: u64,
    pub matches_finished: u64,
    /// Lowest and highest outbox id seen (`g<id>`).
    pub min_id: Option<u64>,
    pub max_id: Option<u64>,
}

impl Counts {
    /// The boards owed so far: four for every move answered by a board
    /// (a turn resolved), and four for every match opened; `None` while the
    /// opening boards fit no whole number of matches. A match opens to its
    /// four phones whichever `P` completed it, or none did (a queue another
    /// instance was matching, looked at again after its commit).
    pub fn expected_boards(&self) -> Option<u64> {
        let by_move = self.answered_by_board[Kind::Move.index()];
        Some(4 * (by_move + self.matches_opened()?))
    }

    /// Matches opened: their opening boards, four to a match.
    pub fn matches_opened(&self) -> Option<u64> {
        self.openings.is_multiple_of(4).then_some(self.openings / 4)
    }
}

pub struct Shared {
    phones: Vec<Phone>,
    seen: HashSet<u64>,
    pub counts: Counts,
    /// Webhook call to the phone's answering text, in microseconds, by kind.
    pub answer_latency: [Histogram<u64>; KINDS],
    pub samples: Vec<String>,
}

pub struct Driver {
    tag: u32,
    pub shared: Mutex<Shared>,
    jobs: mpsc::UnboundedSender<Job>,
    /// While true, phones answer their boards; after the stop they only listen.
    running: AtomicBool,
    /// Requests queued so far (`--messages` counts them).
    pub requests_queued: AtomicU64,
    /// Latencies count for calls started from this moment on (the end of `--warmup`); all when unset.
    pub measure_from: std::sync::OnceLock<Instant>,
    /// How long a phone against robots thinks before it answers its board.
    pub robot_think: std::time::Duration,
}

pub fn histogram() -> Histogram<u64> {
    // 1 µs .. 100 s, 3 significant digits.
    Histogram::new_with_bounds(1, 100_000_000, 3).expect("valid histogram bounds")
}

impl Driver {
    /// `phones` phones of four-player matches, then `robot_phones` that play against robots.
    pub fn new(
        tag: u32,
        phones: usize,
        robot_phones: usize,
        jobs: mpsc::UnboundedSender<Job>,
    ) -> Driver {
        let phones = (0..phones + robot_phones)
            .map(|i| Phone {
                nick: format!("b{tag:03}x{i}"),
                waiting: None,
                dice: Dice::new(((tag as u64) << 32) ^ i as u64),
                registered: false,
                against_robots: i >= phones,
                in_lobby: false,
            })
            .collect();
        Driver {
            tag,
            shared: Mutex::new(Shared {
                phones,
                seen: HashSet::new(),
                counts: Counts::default(),
                answer_latency: std::array::from_fn(|_| histogram()),
                samples: Vec::new(),
            }),
            jobs,
            running: AtomicBool::new(false),
            requests_queued: AtomicU64::new(0),
            measure_from: std::sync::OnceLock::new(),
            robot_think: std::time::Duration::ZERO,
        }
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a call started at `at` counts in the latency figures.
    pub fn measured(&self, at: Instant) -> bool {
        self.measure_from.get().is_none_or(|from| at >= *from)
    }

    pub fn set_running(&self, on: bool) {
        self.running.store(on, Ordering::SeqCst);
    }

    pub fn running(&self) -> bool {
        self.running.load(Ordering::SeqCst)
    }

    /// Queues `R nick` for every phone.
    pub fn register_all(&self) {
        let mut shared = self.lock();
        for i in 0..shared.phones.len() {
            let text = format!("R {}", shared.phones[i].nick);
            self.queue(&mut shared, i, Kind::Register, Cow::Owned(text));
        }
    }

    /// Queues `P` for every phone of the four-player matches.
    pub fn play_all(&self) {
        let mut shared = self.lock();
        for i in 0..shared.phones.len() {
            if !shared.phones[i].against_robots {
                self.queue(&mut shared, i, Kind::Play, Cow::Borrowed("P"));
            }
        }
    }

    /// Queues `P FB BOT` for every phone that plays against robots.
    pub fn play_robots(&self) {
        let mut shared = self.lock();
        for i in 0..shared.phones.len() {
            if shared.phones[i].against_robots {
                self.queue(&mut shared, i, Kind::RobotPlay, Cow::Borrowed(ROBOT_PLAY));
            }
        }
    }

    pub fn registered(&self) -> usize {
        self.lock().phones.iter().filter(|p| p.registered).count()
    }

    /// Phones whose request has had no answer yet.
    pub fn outstanding(&self) -> usize {
        self.lock()
            .phones
            .iter()
            .filter(|p| p.waiting.is_some())
            .count()
    }

    fn queue(&self, shared: &mut Shared, phone: usize, kind: Kind, text: Cow<'static, str>) {
        shared.phones[phone].waiting = Some(Waiting {
            kind,
            sent_at: None,
        });
        self.requests_queued.fetch_add(1, Ordering::Relaxed);
        let job = Job { phone, kind, text };
        if kind == Kind::RobotMove && !self.robot_think.is_zero() {
            // A person playing robots thinks before he moves; nothing is
            // texted to him meanwhile (the robots wait for his move).
            let (jobs, think) = (self.jobs.clone(), self.robot_think);
            tokio::spawn(async move {
                tokio::time::sleep(think).await;
                let _ = jobs.send(job);
            });
            return;
        }
        let _ = self.jobs.send(job);
    }

    /// The webhook call for `phone` starts now.
    pub fn call_started(&self, phone: usize, at: Instant) {
        if let Some(w) = self.lock().phones[phone].waiting.as_mut() {
            w.sent_at = Some(at);
        }
    }

    /// The call failed for good (after its retries): no answer will come.
    pub fn call_failed(&self, phone: usize) {
        self.lock().phones[phone].waiting = None;
    }

    /// The phone a number belongs to (see [`super::sender::phone_number`]).
    fn phone_of(&self, number: &str) -> Option<usize> {
        let prefix = format!("+7{:03}", self.tag);
        let rest = number.strip_prefix(&prefix)?;
        if rest.len() != 7 {
            return None;
        }
        rest.parse().ok()
    }

    /// A text the gateway sent, as the capture server received it.
    pub fn on_text(&self, id: &str, to: &str, body: &str) {
        let now = Instant::now();
        let phone = self.phone_of(to);
        let id = id.strip_prefix('g').and_then(|n| n.parse::<u64>().ok());
        let mut guard = self.lock();
        let shared = &mut *guard;
        let (Some(phone), Some(id)) = (phone, id) else {
            shared.counts.stray_texts += 1;
            sample(shared, format!("stray text to {to}: {body:?}"));
            return;
        };
        if phone >= shared.phones.len() {
            shared.counts.stray_texts += 1;
            return;
        }
        if !shared.seen.insert(id) {
            shared.counts.duplicate_texts += 1;
            sample(shared, format!("duplicate text g{id} to {to}"));
            return;
        }
        let counts = &mut shared.counts;
        counts.min_id = Some(counts.min_id.map_or(id, |m| m.min(id)));
        counts.max_id = Some(counts.max_id.map_or(id, |m| m.max(id)));
        counts.texts += 1;
        let text = classify(body);
        let is_board = matches!(text, Text::Board(_));
        let against_robots = shared.phones[phone].against_robots;
        match (is_board, against_robots) {
            (true, false) => counts.boards += 1,
            (true, true) => counts.robot_boards += 1,
            (false, _) => {}
        }
        let in_lobby = std::mem::take(&mut shared.phones[phone].in_lobby);
        match shared.phones[phone].waiting.take() {
            Some(waiting) => {
                let k = waiting.kind.index();
                counts.answered[k] += 1;
                if is_board {
                    counts.answered_by_board[k] += 1;
                    if waiting.kind == Kind::Play {
                        counts.openings += 1;
                    }
                }
                shared.phones[phone].in_lobby = waiting.kind == Kind::Play && text == Text::Waiting;
                match waiting.sent_at {
                    Some(at) => {
                        if self.measured(at) {
                            let micros = now.saturating_duration_since(at).as_micros() as u64;
                            let _ = shared.answer_latency[k].record(micros.max(1));
                        }
                    }
                    None => counts.early_answers += 1,
                }
                let fits = matches!(
                    (waiting.kind, &text),
                    (Kind::Register, Text::Registered)
                        | (Kind::Play, Text::Waiting | Text::Board(_))
                        | (
                            Kind::Move | Kind::RobotMove,
                            Text::MoveAccepted | Text::Board(_)
                        )
                        | (Kind::RobotPlay, Text::Board(_))
                );
                if !fits {
                    shared.counts.unexpected_texts += 1;
                    sample(
                        shared,
                        format!("{} from {to} answered with {body:?}", waiting.kind.name()),
                    );
                }
                if waiting.kind == Kind::Register && text == Text::Registered {
                    shared.phones[phone].registered = true;
                }
            }
            None if !is_board => {
                counts.unexpected_texts += 1;
                sample(shared, format!("unasked text to {to}: {body:?}"));
            }
            None => {
                if in_lobby && !against_robots {
                    counts.openings += 1;
                }
            }
        }
        let Text::Board(board) = text else {
            return;
        };
        if board.turn == Turn::Over {
            shared.counts.matches_finished += 1;
        }
        if !self.running() {
            return;
        }
        match (board.turn, against_robots) {
            (Turn::Mine, _) => {
                let dice = shared.phones[phone].dice.roll();
                let mv = board.choose(dice);
                let kind = if against_robots {
                    Kind::RobotMove
                } else {
                    Kind::Move
                };
                self.queue(shared, phone, kind, Cow::Borrowed(mv));
            }
            (Turn::Over, false) => self.queue(shared, phone, Kind::Play, Cow::Borrowed("P")),
            (Turn::Over, true) => {
                self.queue(shared, phone, Kind::RobotPlay, Cow::Borrowed(ROBOT_PLAY))
            }
            (Turn::Theirs, _) => {}
        }
    }

    /// A text to a background phone (`--deep-robot-matches`): not checked
    /// here, but counted, so that the outbox's rows all arrived.
    pub fn on_background_text(&self, id: &str) {
        let Some(id) = id.strip_prefix('g').and_then(|n| n.parse::<u64>().ok()) else {
            return;
        };
        let mut shared = self.lock();
        if shared.seen.insert(id) {
            let counts = &mut shared.counts;
            counts.texts += 1;
            counts.min_id = Some(counts.min_id.map_or(id, |m| m.min(id)));
            counts.max_id = Some(counts.max_id.map_or(id, |m| m.max(id)));
        }
    }

    /// Every id from the lowest to the highest seen arrived (no gap): none lost in between.
    pub fn missing_ids(&self) -> u64 {
        let shared = self.lock();
        match (shared.counts.min_id, shared.counts.max_id) {
            (Some(lo), Some(hi)) => (hi - lo + 1).saturating_sub(shared.seen.len() as u64),
            _ => 0,
        }
    }

    /// Of the ids the database holds, how many never arrived: where ids may
    /// have gaps (a PostgreSQL sequence is not rolled back with a transaction).
    pub fn missing_of(&self, committed: &[i64]) -> u64 {
        let shared = self.lock();
        committed
            .iter()
            .filter(|id| !shared.seen.contains(&(**id as u64)))
            .count() as u64
    }
}

fn sample(shared: &mut Shared, line: String) {
    if shared.samples.len() < 10 {
        shared.samples.push(line);
    }
}
