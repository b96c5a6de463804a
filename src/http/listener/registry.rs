//! The open connections: what each is doing since when, the cap on how many, and which one gives way at the cap.
//!
//! Each connection's state is one atomic word (its phase and the millisecond
//! it began), so marking a request's start and end costs one atomic write and
//! the eviction's choice never races a connection that just got busy: a
//! connection is closed only by swapping the very state that was judged.
//!
//! A connection that waits on its client (for a head, between requests, for
//! the rest of a body) or only feeds it a long-lived stream may give way; one
//! whose request is being handled never does. So a client that holds many
//! slow bodies or event streams cannot keep a webhook out.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::connection::Timeouts;

/// What a connection is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading a request head: since its accept, or since the first byte of
    /// its next request.
    Head,
    /// A request is being handled: its head was read, and the handler is
    /// not waiting on the client for the body, nor feeding it a stream.
    Busy,
    /// The handler waits for more of the request's body; `since` is the end
    /// of its head, so a body that trickles meets its deadline all the same.
    Body,
    /// The response is a long-lived stream (Server-Sent Events).
    Stream,
    /// Kept alive between requests.
    Idle,
    /// Told to close (timed out, evicted); it closes at its task's next turn.
    Closed,
}

/// A connection's phase and the millisecond (from the registry's epoch) it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State(u64);

impl State {
    pub fn new(phase: Phase, since_ms: u64) -> State {
        let bits = match phase {
            Phase::Head => 0,
            Phase::Busy => 1,
            Phase::Idle => 2,
            Phase::Closed => 3,
            Phase::Body => 4,
            Phase::Stream => 5,
        };
        State(since_ms << 3 | bits)
    }

    pub fn phase(self) -> Phase {
        match self.0 & 7 {
            0 => Phase::Head,
            1 => Phase::Busy,
            2 => Phase::Idle,
            4 => Phase::Body,
            5 => Phase::Stream,
            _ => Phase::Closed,
        }
    }

    pub fn since_ms(self) -> u64 {
        self.0 >> 3
    }

    /// The order in which connections give way at the cap, `None` for those
    /// that never do: first those with nothing in flight (a head, an idle
    /// spell), then those waiting on a body their client is slow to send,
    /// then long-lived streams (the page reconnects and catches up).
    pub fn eviction_rank(self) -> Option<u8> {
        match self.phase() {
            Phase::Head | Phase::Idle => Some(0),
            Phase::Body => Some(1),
            Phase::Stream => Some(2),
            Phase::Busy | Phase::Closed => None,
        }
    }
}

/// One open connection, shared by its task, its I/O and its responses.
pub struct Slot {
    state: AtomicU64,
    /// Wakes the connection's task when its deadline moved or it was closed.
    wake: Notify,
    epoch: Instant,
}

impl Slot {
    fn new(epoch: Instant) -> Slot {
        let slot = Slot {
            state: AtomicU64::new(0),
            wake: Notify::new(),
            epoch,
        };
        slot.state
            .store(State::new(Phase::Head, slot.now_ms()).0, Ordering::Release);
        slot
    }

    /// Rounded up, so a deadline counted from it is never early.
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64 + 1
    }

    pub fn state(&self) -> State {
        State(self.state.load(Ordering::Acquire))
    }

    /// When the phase of `state` runs out: `None` while a request is being
    /// handled or its stream is fed (the stream's owner ends it).
    pub fn deadline(&self, state: State, timeouts: &Timeouts) -> Option<Instant> {
        let limit = match state.phase() {
            Phase::Head => timeouts.header,
            Phase::Idle => timeouts.idle,
            Phase::Body => timeouts.body,
            Phase::Busy | Phase::Stream => return None,
            Phase::Closed => return Some(Instant::now()),
        };
        Some(self.epoch + Duration::from_millis(state.since_ms()) + limit)
    }

    /// Bytes arrived: an idle connection begins its next head, and its
    /// header timeout counts from now.
    pub fn heard(&self) {
        let seen = self.state();
        if seen.phase() == Phase::Idle && self.swap(seen, State::new(Phase::Head, self.now_ms())) {
            self.wake.notify_one();
        }
    }

    /// A whole head was read: false when the connection is already closing,
    /// so the request is not worth starting. The body's deadline counts
    /// from now.
    pub fn request_began(&self) -> bool {
        let now = self.now_ms();
        self.update(|s| (s.phase() != Phase::Closed).then(|| State::new(Phase::Busy, now)))
    }

    /// The handler waits for body bytes that have not come: the body's
    /// deadline applies, and the connection may give way at the cap.
    pub fn body_awaited(&self) {
        if self
            .update(|s| (s.phase() == Phase::Busy).then(|| State::new(Phase::Body, s.since_ms())))
        {
            self.wake.notify_one();
        }
    }

    /// Body bytes (or its end) came: the handler is at work again. The
    /// task's timer, if it fires, finds the state moved and sets no
    /// deadline, so it is not woken for this.
    pub fn body_arrived(&self) {
        self.update(|s| (s.phase() == Phase::Body).then(|| State::new(Phase::Busy, s.since_ms())));
    }

    /// The response is a long-lived stream: from now on the connection may
    /// give way at the cap (after those waiting on their clients).
    pub fn streaming(&self) {
        let now = self.now_ms();
        if self.update(|s| {
            matches!(s.phase(), Phase::Busy | Phase::Body).then(|| State::new(Phase::Stream, now))
        }) {
            self.wake.notify_one();
        }
    }

    /// The response is done (or dropped): the idle timeout counts from now.
    pub fn request_ended(&self) {
        let now = self.now_ms();
        if self.update(|s| {
            matches!(s.phase(), Phase::Busy | Phase::Body | Phase::Stream)
                .then(|| State::new(Phase::Idle, now))
        }) {
            self.wake.notify_one();
        }
    }

    /// Closes a connection whose deadline passed, if it is still as it was
    /// judged; false when it moved on meanwhile (a request began).
    pub fn expire(&self, judged: State) -> bool {
        self.swap(judged, State::new(Phase::Closed, 0))
    }

    /// Closes the connection if it is still as judged and evictable.
    fn evict(&self, judged: State) -> bool {
        if judged.eviction_rank().is_some() && self.swap(judged, State::new(Phase::Closed, 0)) {
            self.wake.notify_one();
            return true;
        }
        false
    }

    /// Resolves when the deadline may have moved: a phase changed, or the
    /// connection was told to close.
    pub async fn changed(&self) {
        self.wake.notified().await;
    }

    fn swap(&self, from: State, to: State) -> bool {
        self.state
            .compare_exchange(from.0, to.0, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    fn update(&self, f: impl Fn(State) -> Option<State>) -> bool {
        self.state
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |s| {
                f(State(s)).map(|s| s.0)
            })
            .is_ok()
    }
}

/// The connection that gives way at the cap: of the first rank there is
/// ([`State::eviction_rank`]), the one that has been longest in its phase
/// (its head since its accept, idle since its last response, its body or
/// stream since its head); the earlier accepted on a tie. A connection
/// whose request is being handled is never chosen.
pub fn first_to_give_way(open: impl IntoIterator<Item = (u64, State)>) -> Option<(u64, State)> {
    open.into_iter()
        .filter_map(|(id, s)| Some((s.eviction_rank()?, s.since_ms(), id, s)))
        .min_by_key(|&(rank, since, id, _)| (rank, since, id))
        .map(|(_, _, id, s)| (id, s))
}

/// The open connections, the cap on them, and the share of it that
/// long-lived streams may hold.
pub struct Registry {
    epoch: Instant,
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
    permits: Arc<Semaphore>,
    streams: Arc<Semaphore>,
    next_id: AtomicU64,
    cap: usize,
}

/// A connection's place in the registry: it holds one of the cap's permits
/// and leaves when dropped. Drop it after the socket, so the permit's return
/// means the descriptor is free.
pub struct Entry {
    registry: Arc<Registry>,
    id: u64,
    pub slot: Arc<Slot>,
    _permit: OwnedSemaphorePermit,
}

impl Drop for Entry {
    fn drop(&mut self) {
        self.registry.table().remove(&self.id);
    }
}

impl Entry {
    /// The registry's stream permits: a response that is a long-lived
    /// stream takes one for its life, or is not served.
    pub fn stream_permits(&self) -> Arc<Semaphore> {
        self.registry.streams.clone()
    }
}

/// What became of a connection accepted at the cap.
pub enum Admission {
    /// Another connection was closed to make room.
    Evicted(Entry),
    /// Every connection has a request being handled: the new one is refused.
    AllBusy,
    /// The connection chosen to give way did not close in time.
    Stuck,
}

impl Registry {
    /// `stream_percent` of `cap` (at least one) may be long-lived streams.
    pub fn new(cap: usize, stream_percent: u8) -> Arc<Registry> {
        let streams = (cap * usize::from(stream_percent.min(100)) / 100).max(1);
        Arc::new(Registry {
            epoch: Instant::now(),
            open: Mutex::new(BTreeMap::new()),
            permits: Arc::new(Semaphore::new(cap)),
            streams: Arc::new(Semaphore::new(streams)),
            next_id: AtomicU64::new(0),
            cap,
        })
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Connections open (those closing included).
    pub fn open_count(&self) -> usize {
        self.table().len()
    }

    /// A place below the cap, if there is one.
    pub fn try_admit(self: &Arc<Self>) -> Option<Entry> {
        let permit = self.permits.clone().try_acquire_owned().ok()?;
        Some(self.enter(permit))
    }

    /// A place at the cap: the connection first to give way is closed, and
    /// its permit is waited for (at most `patience`), so the descriptors in
    /// use never pass the cap by more than the one accepted.
    pub async fn admit_by_eviction(self: &Arc<Self>, patience: Duration) -> Admission {
        if !self.make_room() {
            return Admission::AllBusy;
        }
        match tokio::time::timeout(patience, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Admission::Evicted(self.enter(permit)),
            _ => Admission::Stuck,
        }
    }

    /// Closes the connection first to give way ([`first_to_give_way`]):
    /// false if every open connection is busy (or already closing).
    pub fn make_room(&self) -> bool {
        let table = self.table();
        loop {
            let candidates = table.iter().map(|(&id, slot)| (id, slot.state()));
            let Some((id, judged)) = first_to_give_way(candidates) else {
                return false;
            };
            // A failed swap means its phase moved since it was judged: judge again.
            if table[&id].evict(judged) {
                return true;
            }
        }
    }

    /// Closes every connection feeding a long-lived stream (at a stop):
    /// how many it closed.
    pub fn close_streams(&self) -> usize {
        self.table()
            .values()
            .filter(|slot| {
                let judged = slot.state();
                judged.phase() == Phase::Stream && slot.evict(judged)
            })
            .count()
    }

    fn enter(self: &Arc<Self>, permit: OwnedSemaphorePermit) -> Entry {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot::new(self.epoch));
        self.table().insert(id, slot.clone());
        Entry {
            registry: self.clone(),
            id,
            slot,
            _permit: permit,
        }
    }

    fn table(&self) -> MutexGuard<'_, BTreeMap<u64, Arc<Slot>>> {
        // A panic while holding it leaves the map whole: no method unwinds mid-edit.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(phase: Phase, since: u64) -> State {
        State::new(phase, since)
    }

    #[test]
    fn the_state_word_keeps_phase_and_time() {
        for phase in [
            Phase::Head,
            Phase::Busy,
            Phase::Body,
            Phase::Stream,
            Phase::Idle,
            Phase::Closed,
        ] {
            let s = at(phase, 123_456_789);
            assert_eq!((s.phase(), s.since_ms()), (phase, 123_456_789));
        }
    }

    #[test]
    fn the_one_waiting_longest_without_a_request_gives_way() {
        let open = [
            (1, at(Phase::Busy, 10)),
            (2, at(Phase::Idle, 40)),
            (3, at(Phase::Head, 30)),
            (4, at(Phase::Closed, 0)),
            (5, at(Phase::Idle, 20)),
            (6, at(Phase::Busy, 5)),
        ];
        assert_eq!(first_to_give_way(open).map(|(id, _)| id), Some(5));
        // Waiting for a head counts as much as idling, by the same clock.
        let open = [(7, at(Phase::Idle, 50)), (8, at(Phase::Head, 49))];
        assert_eq!(first_to_give_way(open).map(|(id, _)| id), Some(8));
        // On a tie, the earlier accepted.
        let open = [(9, at(Phase::Head, 7)), (3, at(Phase::Head, 7))];
        assert_eq!(first_to_give_way(open).map(|(id, _)| id), Some(3));
    }

    #[test]
    fn slow_bodies_give_way_after_idle_ones_and_streams_last() {
        let open = [
            (1, at(Phase::Stream, 1)),
            (2, at(Phase::Body, 30)),
            (3, at(Phase::Idle, 90)),
            (4, at(Phase::Body, 20)),
            (5, at(Phase::Busy, 0)),
        ];
        assert_eq!(
            first_to_give_way(open).map(|(id, _)| id),
            Some(3),
            "nothing in flight goes first, however recent"
        );
        assert_eq!(
            first_to_give_way(open.into_iter().filter(|(id, _)| *id != 3)).map(|(id, _)| id),
            Some(4),
            "then the body waited for longest"
        );
        let streams = [(6, at(Phase::Stream, 40)), (7, at(Phase::Stream, 10))];
        assert_eq!(
            first_to_give_way(streams).map(|(id, _)| id),
            Some(7),
            "then the oldest stream"
        );
    }

    #[test]
    fn a_busy_or_closing_connection_is_never_chosen() {
        let open = [
            (1, at(Phase::Busy, 0)),
            (2, at(Phase::Closed, 0)),
            (3, at(Phase::Busy, 1)),
        ];
        assert_eq!(first_to_give_way(open), None);
        assert_eq!(first_to_give_way([]), None);
    }

    #[test]
    fn phases_move_with_the_requests_and_closed_is_final() {
        let slot = Slot::new(Instant::now());
        assert_eq!(slot.state().phase(), Phase::Head);
        slot.heard();
        assert_eq!(slot.state().phase(), Phase::Head, "bytes of the first head");
        assert!(slot.request_began());
        assert_eq!(slot.state().phase(), Phase::Busy);
        slot.heard();
        assert_eq!(slot.state().phase(), Phase::Busy, "a body's bytes");
        slot.request_ended();
        assert_eq!(slot.state().phase(), Phase::Idle);
        slot.heard();
        assert_eq!(
            slot.state().phase(),
            Phase::Head,
            "the next request's first byte"
        );

        assert!(slot.request_began());
        slot.body_awaited();
        assert_eq!(slot.state().phase(), Phase::Body, "waiting on the client");
        slot.body_arrived();
        assert_eq!(slot.state().phase(), Phase::Busy, "handled again");
        slot.streaming();
        assert_eq!(slot.state().phase(), Phase::Stream);
        slot.body_awaited();
        assert_eq!(slot.state().phase(), Phase::Stream, "a stream has no body");
        slot.request_ended();
        assert_eq!(slot.state().phase(), Phase::Idle);
        slot.heard();

        let judged = slot.state();
        assert!(slot.request_began());
        assert!(
            !slot.expire(judged),
            "a request began after the deadline was judged"
        );
        assert!(!slot.evict(slot.state()), "busy");
        slot.request_ended();
        assert!(slot.evict(slot.state()));
        assert_eq!(slot.state().phase(), Phase::Closed);
        assert!(
            !slot.request_began(),
            "nothing starts on a closing connection"
        );
        slot.request_ended();
        slot.heard();
        assert_eq!(slot.state().phase(), Phase::Closed);
    }

    #[test]
    fn deadlines_follow_the_phase() {
        let slot = Slot::new(Instant::now());
        let timeouts = Timeouts {
            header: Duration::from_secs(5),
            idle: Duration::from_secs(60),
            body: Duration::from_secs(2),
        };
        let header = timeouts.header;
        let head = slot.deadline(slot.state(), &timeouts).unwrap();
        assert!(head >= Instant::now() + header - Duration::from_millis(100));
        assert!(head <= Instant::now() + header + Duration::from_millis(2));
        slot.request_began();
        assert_eq!(slot.deadline(slot.state(), &timeouts), None);
        slot.body_awaited();
        let body = slot.deadline(slot.state(), &timeouts).unwrap();
        assert!(body <= Instant::now() + timeouts.body + Duration::from_millis(2));
        std::thread::sleep(Duration::from_millis(20));
        slot.body_arrived();
        slot.body_awaited();
        assert_eq!(
            slot.deadline(slot.state(), &timeouts),
            Some(body),
            "a trickle of bytes does not move the body's deadline"
        );
        slot.streaming();
        assert_eq!(slot.deadline(slot.state(), &timeouts), None);
        slot.request_ended();
        let rest = slot.deadline(slot.state(), &timeouts).unwrap();
        assert!(rest > head + Duration::from_secs(50));
    }

    #[tokio::test]
    async fn at_the_cap_the_oldest_idle_makes_room_and_all_busy_refuses() {
        let registry = Registry::new(2, 50);
        let first = registry.try_admit().expect("below the cap");
        let second = registry.try_admit().expect("below the cap");
        assert!(registry.try_admit().is_none(), "at the cap");
        assert!(second.slot.request_began());

        // The first (waiting for its head) is told to close; its task drops it.
        let slot = first.slot.clone();
        let closing = tokio::spawn(async move {
            slot.changed().await;
            assert_eq!(slot.state().phase(), Phase::Closed);
            drop(first);
        });
        let third = match registry.admit_by_eviction(Duration::from_secs(5)).await {
            Admission::Evicted(entry) => entry,
            _ => panic!("the idle one should have made room"),
        };
        closing.await.unwrap();
        assert_eq!(registry.open_count(), 2);

        assert!(third.slot.request_began());
        assert!(matches!(
            registry.admit_by_eviction(Duration::from_secs(5)).await,
            Admission::AllBusy
        ));
        third.slot.request_ended();
        drop(second);
        assert!(registry.try_admit().is_some(), "a place came free");
    }

    #[test]
    fn streams_hold_their_share_of_the_cap_and_no_more() {
        let registry = Registry::new(10, 30);
        let entry = registry.try_admit().unwrap();
        let permits = entry.stream_permits();
        let held: Vec<_> = (0..3)
            .map(|_| {
                permits
                    .clone()
                    .try_acquire_owned()
                    .expect("within the share")
            })
            .collect();
        assert!(permits.clone().try_acquire_owned().is_err(), "past it");
        drop(held);
        assert!(
            permits.try_acquire_owned().is_ok(),
            "a stream that ended gave its place back"
        );
        let tiny = Registry::new(1, 1);
        assert!(
            tiny.try_admit()
                .unwrap()
                .stream_permits()
                .try_acquire_owned()
                .is_ok(),
            "at least one"
        );
    }

    #[test]
    fn a_stop_closes_the_streams_and_nothing_else() {
        let registry = Registry::new(4, 50);
        let entries: Vec<Entry> = (0..4).map(|_| registry.try_admit().unwrap()).collect();
        for entry in &entries[1..] {
            assert!(entry.slot.request_began());
        }
        entries[2].slot.streaming();
        entries[3].slot.body_awaited();
        assert_eq!(registry.close_streams(), 1);
        let phases: Vec<Phase> = entries.iter().map(|e| e.slot.state().phase()).collect();
        assert_eq!(
            phases,
            [Phase::Head, Phase::Busy, Phase::Closed, Phase::Body],
            "a request and a body in flight still finish"
        );
    }

    #[tokio::test]
    async fn an_evicted_connection_that_does_not_close_leaves_the_newcomer_out() {
        let registry = Registry::new(1, 50);
        let _held = registry.try_admit().unwrap();
        assert!(matches!(
            registry.admit_by_eviction(Duration::from_millis(20)).await,
            Admission::Stuck
        ));
        assert!(registry.try_admit().is_none());
    }
}
