//! The open connections: what each is doing since when, the cap on how many, and which one gives way at the cap.
//!
//! Each connection's state is one atomic word (its phase and the millisecond
//! it began), so marking a request's start and end costs one atomic write and
//! the eviction's choice never races a connection that just got busy: a
//! connection is closed only by swapping the very state that was judged.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// What a connection is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading a request head: since its accept, or since the first byte of
    /// its next request.
    Head,
    /// A request is in flight: its head was read and its response is not done.
    Busy,
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
        };
        State(since_ms << 2 | bits)
    }

    pub fn phase(self) -> Phase {
        match self.0 & 3 {
            0 => Phase::Head,
            1 => Phase::Busy,
            2 => Phase::Idle,
            _ => Phase::Closed,
        }
    }

    pub fn since_ms(self) -> u64 {
        self.0 >> 2
    }

    /// Head or idle: nothing is lost by closing it.
    pub fn evictable(self) -> bool {
        matches!(self.phase(), Phase::Head | Phase::Idle)
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

    /// When the phase of `state` runs out: `None` while a request is in flight.
    pub fn deadline(&self, state: State, header: Duration, idle: Duration) -> Option<Instant> {
        let limit = match state.phase() {
            Phase::Head => header,
            Phase::Idle => idle,
            Phase::Busy => return None,
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
    /// so the request is not worth starting.
    pub fn request_began(&self) -> bool {
        self.update(|s| (s.phase() != Phase::Closed).then(|| State::new(Phase::Busy, s.since_ms())))
    }

    /// The response is done (or dropped): the idle timeout counts from now.
    pub fn request_ended(&self) {
        let now = self.now_ms();
        if self.update(|s| (s.phase() == Phase::Busy).then(|| State::new(Phase::Idle, now))) {
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
        if judged.evictable() && self.swap(judged, State::new(Phase::Closed, 0)) {
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

/// The connection that gives way at the cap: of those with no request in
/// flight, the one that has waited longest in its phase (its head since its
/// accept, or idle since its last response); the earlier accepted on a tie.
/// A connection that is busy is never chosen.
pub fn oldest_idle(open: impl IntoIterator<Item = (u64, State)>) -> Option<(u64, State)> {
    open.into_iter()
        .filter(|(_, s)| s.evictable())
        .min_by_key(|&(id, s)| (s.since_ms(), id))
}

/// The open connections and the cap on them.
pub struct Registry {
    epoch: Instant,
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
    permits: Arc<Semaphore>,
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

/// What became of a connection accepted at the cap.
pub enum Admission {
    /// Another connection was closed to make room.
    Evicted(Entry),
    /// Every connection has a request in flight: the new one is refused.
    AllBusy,
    /// The connection chosen to give way did not close in time.
    Stuck,
}

impl Registry {
    pub fn new(cap: usize) -> Arc<Registry> {
        Arc::new(Registry {
            epoch: Instant::now(),
            open: Mutex::new(BTreeMap::new()),
            permits: Arc::new(Semaphore::new(cap)),
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

    /// A place at the cap: the oldest connection with no request in flight is
    /// closed, and its permit is waited for (at most `patience`), so the
    /// descriptors in use never pass the cap by more than the one accepted.
    pub async fn admit_by_eviction(self: &Arc<Self>, patience: Duration) -> Admission {
        if !self.evict_oldest_idle() {
            return Admission::AllBusy;
        }
        match tokio::time::timeout(patience, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Admission::Evicted(self.enter(permit)),
            _ => Admission::Stuck,
        }
    }

    /// Closes the oldest connection with no request in flight: false if every
    /// open connection is busy (or already closing).
    pub fn evict_oldest_idle(&self) -> bool {
        let table = self.table();
        loop {
            let candidates = table.iter().map(|(&id, slot)| (id, slot.state()));
            let Some((id, judged)) = oldest_idle(candidates) else {
                return false;
            };
            // A failed swap means it began a request since it was judged: judge again.
            if table[&id].evict(judged) {
                return true;
            }
        }
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
        for phase in [Phase::Head, Phase::Busy, Phase::Idle, Phase::Closed] {
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
        assert_eq!(oldest_idle(open).map(|(id, _)| id), Some(5));
        // Waiting for a head counts as much as idling, by the same clock.
        let open = [(7, at(Phase::Idle, 50)), (8, at(Phase::Head, 49))];
        assert_eq!(oldest_idle(open).map(|(id, _)| id), Some(8));
        // On a tie, the earlier accepted.
        let open = [(9, at(Phase::Head, 7)), (3, at(Phase::Head, 7))];
        assert_eq!(oldest_idle(open).map(|(id, _)| id), Some(3));
    }

    #[test]
    fn a_busy_or_closing_connection_is_never_chosen() {
        let open = [
            (1, at(Phase::Busy, 0)),
            (2, at(Phase::Closed, 0)),
            (3, at(Phase::Busy, 1)),
        ];
        assert_eq!(oldest_idle(open), None);
        assert_eq!(oldest_idle([]), None);
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
        let (header, idle) = (Duration::from_secs(5), Duration::from_secs(60));
        let head = slot.deadline(slot.state(), header, idle).unwrap();
        assert!(head >= Instant::now() + header - Duration::from_millis(100));
        assert!(head <= Instant::now() + header + Duration::from_millis(2));
        slot.request_began();
        assert_eq!(slot.deadline(slot.state(), header, idle), None);
        slot.request_ended();
        let rest = slot.deadline(slot.state(), header, idle).unwrap();
        assert!(rest > head + Duration::from_secs(50));
    }

    #[tokio::test]
    async fn at_the_cap_the_oldest_idle_makes_room_and_all_busy_refuses() {
        let registry = Registry::new(2);
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

    #[tokio::test]
    async fn an_evicted_connection_that_does_not_close_leaves_the_newcomer_out() {
        let registry = Registry::new(1);
        let _held = registry.try_admit().unwrap();
        assert!(matches!(
            registry.admit_by_eviction(Duration::from_millis(20)).await,
            Admission::Stuck
        ));
        assert!(registry.try_admit().is_none());
    }
}
