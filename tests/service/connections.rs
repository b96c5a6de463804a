//! The listener against real sockets: a client holding more half-open connections than the gateway has descriptors, header and idle timeouts, the cap's choice at the door, and a clean stop.
//!
//! Each test starts the real binary on SQLite in a temporary folder. The
//! flood test lowers the child's open-files limit (soft and hard, so it
//! cannot raise it back) below the number of connections the test holds.

#![cfg(unix)]

use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a flooding client sends on each connection before it goes quiet.
const HALF_HEAD: &[u8] = b"POST /webhooks/generic HTTP/1.1\r\nHost: x\r\n";

/// The child's open-files limit in the flood test.
const CHILD_FILES: u64 = 256;

/// What the provider and `/healthz` must answer within, during the flood.
const PROMPT: Duration = Duration::from_secs(1);

/// A gateway process; killed when dropped (a test that panics included).
struct Gateway {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    _dir: tempfile::TempDir,
}

impl Gateway {
    /// Starts `smsarena serve` with `env` on a fresh database, its
    /// open-files limit set to `files` if given, and waits until `/healthz`
    /// answers.
    ///
    /// The port is found free here and only then bound by the child; in
    /// between, a client socket of a test running beside this one (the flood
    /// test opens hundreds) can take it. A child that finds its port taken is
    /// started again on another.
    fn start(env: &[(&str, &str)], files: Option<u64>) -> Gateway {
        const TRIES: usize = 5;
        for _ in 0..TRIES {
            let mut gateway = Gateway::spawn(env, files);
            match gateway.wait_ready() {
                Ok(()) => return gateway,
                Err(status) => {
                    let taken = gateway
                        .wait_for_exit_line()
                        .contains("Address already in use");
                    assert!(taken, "smsarena exited at start: {status}");
                }
            }
        }
        panic!("smsarena found its port taken {TRIES} times");
    }

    /// Spawns the child on a port free a moment ago, not waiting for it.
    fn spawn(env: &[(&str, &str)], files: Option<u64>) -> Gateway {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let mut command = Command::new(env!("CARGO_BIN_EXE_smsarena"));
        command
            .args(["serve", "--config", "/dev/null"])
            .env("SMSARENA_HTTP__LISTEN", addr.to_string())
            .env(
                "SMSARENA_DATABASE__URL",
                format!("sqlite://{}", dir.path().join("connections.db").display()),
            )
            .env("SMSARENA_LOG__FILTER", "warn")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // SAFETY: between fork and exec the closure calls only setrlimit and
        // prctl, which are async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if let Some(files) = files {
                    let limit = libc::rlimit {
                        rlim_cur: files as libc::rlim_t,
                        rlim_max: files as libc::rlim_t,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                // Killed with the test even if the test process itself is killed.
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn().expect("start smsarena");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let lines = log.clone();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in io::BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("gateway: {line}");
                lines.lock().unwrap().push(line);
            }
        });
        Gateway {
            child,
            addr,
            log,
            _dir: dir,
        }
    }

    /// Waits until `/healthz` answers; the exit status if the child stopped
    /// first.
    fn wait_ready(&mut self) -> Result<(), std::process::ExitStatus> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Err(status);
            }
            if get(self.addr, "/healthz").is_ok_and(|r| r.status == 200) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("smsarena never answered /healthz");
    }

    /// The line an exited child left saying why (its log is read by another
    /// thread, which may not have it yet).
    fn wait_for_exit_line(&self) -> String {
        self.wait_for_line("smsarena: ")
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// The first line of the log holding `needle`, waiting for it (the
    /// log is read by another thread, a little behind the process).
    fn wait_for_line(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(line) = self.log().into_iter().find(|l| l.contains(needle)) {
                return line;
            }
            assert!(
                Instant::now() < deadline,
                "no line with {needle:?} in the log"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn terminate(&self) {
        // SAFETY: a signal to our own child, which has not been reaped yet.
        let sent = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(sent, 0, "{}", io::Error::last_os_error());
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response read off a socket.
#[derive(Debug)]
struct Reply {
    status: u16,
    head: String,
    body: String,
}

/// Reads one response (a body sized by `content-length`), leaving the
/// connection open.
fn read_reply(stream: &mut TcpStream) -> io::Result<Reply> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(io::Error::new(
                ErrorKind::UnexpectedEof,
                format!("closed after {} bytes", bytes.len()),
            ));
        }
        bytes.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a response: {head:?}"));
    if status == 100 {
        return Ok(Reply {
            status,
            head,
            body: String::new(),
        });
    }
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no content-length: {head:?}"));
    while bytes.len() < head_end + length {
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(io::Error::new(
                ErrorKind::UnexpectedEof,
                "closed in the body",
            ));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    let body = String::from_utf8_lossy(&bytes[head_end..head_end + length]).into_owned();
    Ok(Reply { status, head, body })
}

fn connect(addr: SocketAddr) -> io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// One request on a new connection, as a provider that keeps none open.
fn exchange(addr: SocketAddr, request: &[u8]) -> io::Result<Reply> {
    let mut stream = connect(addr)?;
    stream.write_all(request)?;
    read_reply(&mut stream)
}

fn get(addr: SocketAddr, path: &str) -> io::Result<Reply> {
    exchange(addr, get_request(path).as_bytes())
}

fn get_request(path: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n")
}

fn webhook_request(body: &str) -> String {
    format!(
        "POST /webhooks/generic HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A generic provider's inbound text.
fn text(id: &str, from: &str, text: &str) -> String {
    serde_json::json!({ "id": id, "from": from, "to": "002220", "text": text }).to_string()
}

/// Waits (at most `within`) for the server to close `stream`, reading and
/// dropping anything it sends first: the time it took, or `None` if it
/// stayed open.
fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<Duration> {
    let start = Instant::now();
    stream.set_read_timeout(Some(within)).unwrap();
    let mut sink = [0u8; 1024];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return Some(start.elapsed()),
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None;
            }
            // Reset: closed too.
            Err(_) => return Some(start.elapsed()),
        }
    }
}

/// Whether the server has closed `stream`, without waiting.
fn is_closed(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let mut byte = [0u8; 1];
    let closed = match stream.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) if e.kind() == ErrorKind::WouldBlock => false,
        Err(_) => true,
    };
    stream.set_nonblocking(false).unwrap();
    closed
}

/// How many descriptors process `pid` holds (Linux: its `/proc` entry).
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|entries| entries.count())
        .unwrap_or_else(|e| panic!("/proc/{pid}/fd: {e}"))
}

/// Raises this process's soft open-files limit to its hard one: the limit then.
fn raise_own_limit() -> libc::rlim_t {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit touch only the struct they are given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = limit.rlim_max;
        assert_eq!(
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit),
            0,
            "{}",
            io::Error::last_os_error()
        );
    }
    limit.rlim_cur
}

/// Opens a connection that sends half a request head and goes quiet. A
/// connection the server already shed is kept all the same: the client
/// holds what it opened.
fn half_open(addr: SocketAddr) -> TcpStream {
    let mut stream = connect(addr).expect("the gateway accepts during the flood");
    let _ = stream.write_all(HALF_HEAD);
    stream
}

fn timed(what: &str, f: impl FnOnce() -> io::Result<Reply>) -> (Reply, Duration) {
    let start = Instant::now();
    let reply = f().unwrap_or_else(|e| panic!("{what}: {e}"));
    (reply, start.elapsed())
}

/// How many connections a flood test holds: `at_most`, or as many as this
/// process may hold with room to spare, and several times what the gateway may.
fn connections_to_hold(at_most: usize) -> usize {
    let own = raise_own_limit();
    let target = at_most.min(own.saturating_sub(300) as usize);
    assert!(
        target as u64 > 2 * CHILD_FILES,
        "this process may open only {own} files: too few to outnumber the gateway's {CHILD_FILES}"
    );
    target
}

#[test]
fn a_provider_and_healthz_get_in_while_a_client_holds_more_connections_than_the_gateway_has_descriptors()
 {
    let target = connections_to_hold(2000);
    let gateway = Gateway::start(
        &[
            // Long timeouts: here the cap alone has to keep the door open.
            ("SMSARENA_HTTP__HEADER_READ_TIMEOUT_MS", "120000"),
            ("SMSARENA_HTTP__IDLE_TIMEOUT_MS", "120000"),
            ("SMSARENA_ADMIN__TOKEN", "adm1n"),
        ],
        Some(CHILD_FILES),
    );
    let addr = gateway.addr;
    let lowered = gateway.wait_for_line("http.max_connections is 4096");
    assert!(
        lowered.contains(&format!("the open-files limit is {CHILD_FILES}")),
        "{lowered}"
    );
    let cap: usize = lowered
        .split("serving at most ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the cap in {lowered}"));
    assert!(cap < CHILD_FILES as usize, "{lowered}");

    let rounds = 10;
    let first = target / 2;
    let per_round = (target - first) / rounds;
    let mut held: Vec<TcpStream> = (0..first).map(|_| half_open(addr)).collect();
    let (mut health, mut hooks, mut admin) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        held.extend((0..per_round).map(|_| half_open(addr)));

        let (reply, took) = timed("healthz", || get(addr, "/healthz"));
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (200, "ok"),
            "{reply:?}"
        );
        assert!(
            took < PROMPT,
            "/healthz took {took:?} with {} held",
            held.len()
        );
        health.push(took);

        let body = if round == 0 {
            r#"{"id":"m1","from":"+79001234567","to":"002220","text":"R ann"}"#.to_string()
        } else {
            text(&format!("m{}", round + 1), "+79001234567", "H")
        };
        let (reply, took) = timed("webhook", || {
            exchange(addr, webhook_request(&body).as_bytes())
        });
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(reply.body.contains("accepted"), "{reply:?}");
        assert!(
            took < PROMPT,
            "the webhook took {took:?} with {} held",
            held.len()
        );
        hooks.push(took);

        let stats = "GET /admin/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer adm1n\r\n\r\n";
        let (reply, took) = timed("admin", || exchange(addr, stats.as_bytes()));
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(
            took < PROMPT,
            "/admin/stats took {took:?} with {} held",
            held.len()
        );
        admin.push(took);
    }

    // The gateway shed what it could not hold: of all the client holds, no
    // more than the cap are still open at the other end. A busy machine
    // sheds slowly (see the slow bodies' test below); the wait ends once done.
    let deadline = Instant::now() + Duration::from_secs(45);
    let mut open = held.iter().filter(|s| !is_closed(s)).count();
    while open > cap && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        open = held.iter().filter(|s| !is_closed(s)).count();
    }
    let max = |d: &[Duration]| d.iter().max().copied().unwrap_or_default();
    eprintln!(
        "held {} half-open connections (gateway's limit {CHILD_FILES} files, cap {cap}); \
         {open} still open at its end; slowest of {rounds}: /healthz {:?}, webhook {:?}, admin {:?}",
        held.len(),
        max(&health),
        max(&hooks),
        max(&admin),
    );
    assert!(
        open <= cap,
        "{open} of {} held connections open",
        held.len()
    );
    gateway.wait_for_line("connection cap reached");
    let log = gateway.log();
    assert!(
        !log.iter().any(|l| l.contains("accept error")),
        "the cap kept the gateway within its descriptors:\n{}",
        log.join("\n")
    );
}

#[test]
fn a_connection_that_sends_no_whole_head_is_closed_after_the_header_timeout() {
    let header = Duration::from_millis(1000);
    let gateway = Gateway::start(
        &[
            ("SMSARENA_HTTP__HEADER_READ_TIMEOUT_MS", "1000"),
            ("SMSARENA_HTTP__IDLE_TIMEOUT_MS", "6000"),
        ],
        None,
    );
    let addr = gateway.addr;
    // Far under the idle timeout: the header timeout closed it, not that.
    let bound = Duration::from_millis(4500);

    let half = std::thread::spawn(move || {
        let mut stream = connect(addr).unwrap();
        let start = Instant::now();
        stream.write_all(HALF_HEAD).unwrap();
        closed_within(&mut stream, Duration::from_secs(20)).map(|_| start.elapsed())
    });
    // A head sent a byte at a time, each well within the timeout: the
    // timeout counts from the accept, not from the last byte.
    let trickle = std::thread::spawn(move || {
        let mut stream = connect(addr).unwrap();
        let start = Instant::now();
        for byte in HALF_HEAD.iter().cycle().take(200) {
            if stream.write_all(&[*byte]).is_err() || is_closed(&stream) {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    });
    // A client that connects and sends nothing at all.
    let silent = std::thread::spawn(move || {
        let mut stream = connect(addr).unwrap();
        let start = Instant::now();
        closed_within(&mut stream, Duration::from_secs(20)).map(|_| start.elapsed())
    });
    for (what, thread) in [
        ("half a head", half),
        ("a trickle", trickle),
        ("nothing", silent),
    ] {
        let took = thread
            .join()
            .unwrap()
            .unwrap_or_else(|| panic!("a connection that sent {what} stayed open"));
        eprintln!("a connection that sent {what} was closed after {took:?}");
        // The gateway's clock starts at its accept, a little before the
        // client's (after its connect returned): CI saw 999.8 ms once.
        let slack = Duration::from_millis(50);
        assert!(
            took + slack >= header,
            "{what}: closed after {took:?}, before the timeout"
        );
        assert!(took < bound, "{what}: closed only after {took:?}");
    }
    // And the door is open as before.
    assert_eq!(get(addr, "/healthz").unwrap().status, 200);
}

#[test]
fn a_kept_alive_connection_lives_through_its_idle_timeout_and_no_longer() {
    let header = Duration::from_millis(1000);
    let idle = Duration::from_millis(6000);
    let gateway = Gateway::start(
        &[
            ("SMSARENA_HTTP__HEADER_READ_TIMEOUT_MS", "1000"),
            ("SMSARENA_HTTP__IDLE_TIMEOUT_MS", "6000"),
        ],
        None,
    );
    let addr = gateway.addr;
    // Longer than the header timeout, well under the idle one.
    let pause = Duration::from_millis(2500);

    let idler = std::thread::spawn(move || {
        let mut stream = connect(addr).unwrap();
        stream
            .write_all(get_request("/healthz").as_bytes())
            .unwrap();
        assert_eq!(read_reply(&mut stream).unwrap().status, 200);
        std::thread::sleep(pause);
        stream.write_all(get_request("/ping").as_bytes()).unwrap();
        let reply = read_reply(&mut stream).expect("kept alive past the header timeout");
        assert_eq!((reply.status, reply.body.as_str()), (200, "pong"));
        let done = Instant::now();
        closed_within(&mut stream, Duration::from_secs(30)).map(|_| done.elapsed())
    });
    // Idle, then the next head begins and stalls: the header timeout counts
    // from its first byte.
    let staller = std::thread::spawn(move || {
        let mut stream = connect(addr).unwrap();
        stream
            .write_all(get_request("/healthz").as_bytes())
            .unwrap();
        assert_eq!(read_reply(&mut stream).unwrap().status, 200);
        std::thread::sleep(pause);
        let start = Instant::now();
        stream.write_all(HALF_HEAD).unwrap();
        closed_within(&mut stream, Duration::from_secs(30)).map(|_| start.elapsed())
    });

    let took = idler
        .join()
        .unwrap()
        .expect("the idle connection was closed");
    eprintln!("an idle kept-alive connection was closed after {took:?}");
    // Its idle spell began a moment before the client had read the answer.
    assert!(
        took >= idle - Duration::from_millis(250),
        "closed after {took:?}"
    );
    assert!(
        took < idle + Duration::from_secs(10),
        "closed only after {took:?}"
    );

    let took = staller
        .join()
        .unwrap()
        .expect("the stalled connection was closed");
    eprintln!("a kept-alive connection whose next head stalled was closed after {took:?}");
    // The same slack as above: the gateway's clock may start a little first.
    assert!(
        took + Duration::from_millis(50) >= header,
        "closed after {took:?}"
    );
    assert!(
        took < idle - Duration::from_millis(1500),
        "closed only after {took:?}"
    );
}

/// Sends a webhook's head and the first bytes of its body, and waits until
/// the handler is reading the body (its `100 Continue`): a request in flight.
fn busy(addr: SocketAddr, id: &str) -> (TcpStream, String) {
    let body = text(id, "+79001234568", "H");
    let mut stream = connect(addr).unwrap();
    let head = format!(
        "POST /webhooks/generic HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n\
         expect: 100-continue\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let reply = read_reply(&mut stream).unwrap();
    assert_eq!(reply.status, 100, "{reply:?}");
    stream.write_all(&body.as_bytes()[..10]).unwrap();
    (stream, body[10..].to_string())
}

/// Sends the rest of a busy request's body and reads its answer.
fn finish(stream: &mut TcpStream, rest: &str) -> Reply {
    stream.write_all(rest.as_bytes()).unwrap();
    read_reply(stream).unwrap()
}

#[test]
fn at_the_cap_the_connection_idle_longest_gives_way_then_slow_bodies_and_a_stop_lets_requests_finish()
 {
    let gateway = Gateway::start(
        &[
            ("SMSARENA_HTTP__MAX_CONNECTIONS", "3"),
            ("SMSARENA_HTTP__HEADER_READ_TIMEOUT_MS", "60000"),
            ("SMSARENA_HTTP__IDLE_TIMEOUT_MS", "60000"),
            ("SMSARENA_HTTP__BODY_READ_TIMEOUT_MS", "60000"),
            ("SMSARENA_HTTP__REQUEST_TIMEOUT_MS", "60000"),
            // The listener's word that it stopped accepting is at info.
            ("SMSARENA_LOG__FILTER", "warn,smsarena=info"),
        ],
        None,
    );
    let addr = gateway.addr;
    let (mut a, _) = busy(addr, "b1");
    let (mut b, rest_b) = busy(addr, "b2");
    let (mut c, rest_c) = busy(addr, "b3");

    // All three wait on their clients for a body: a newcomer is served, and
    // the one that has waited longest gives way.
    let (reply, took) = timed("healthz at the cap", || get(addr, "/healthz"));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(took < PROMPT, "{took:?}");
    assert!(
        closed_within(&mut a, Duration::from_secs(10)).is_some(),
        "the body waited for longest made room"
    );
    assert!(!is_closed(&b) && !is_closed(&c), "the others stay");

    // b goes idle; d begins a body. An idle one gives way before any body,
    // though c's is older.
    let reply = finish(&mut b, &rest_b);
    assert_eq!(reply.status, 200, "{reply:?}");
    std::thread::sleep(Duration::from_millis(50));
    let (mut d, rest_d) = busy(addr, "b4");
    let (reply, took) = timed("healthz at the cap", || get(addr, "/healthz"));
    assert_eq!(reply.status, 200, "{reply:?}");
    assert!(took < PROMPT, "{took:?}");
    assert!(
        closed_within(&mut b, Duration::from_secs(10)).is_some(),
        "the idle one made room"
    );
    assert!(!is_closed(&c) && !is_closed(&d), "the bodies stay");
    let reply = finish(&mut d, &rest_d);
    assert_eq!(reply.status, 200, "{reply:?}");
    d.write_all(get_request("/ping").as_bytes()).unwrap();
    let reply = read_reply(&mut d).unwrap();
    assert_eq!(
        (reply.status, reply.body.as_str()),
        (200, "pong"),
        "still kept alive"
    );

    // SIGTERM: the listener closes, the idle connection closes, the request
    // in flight is answered, then the process exits cleanly.
    gateway.terminate();
    gateway.wait_for_line("stopping: no new connections");
    let refused = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .expect_err("the listener is closed at the stop");
    assert_eq!(refused.kind(), ErrorKind::ConnectionRefused, "{refused}");
    assert!(
        closed_within(&mut d, Duration::from_secs(10)).is_some(),
        "an idle connection closes at the stop"
    );
    let reply = finish(&mut c, &rest_c);
    assert_eq!(
        reply.status, 200,
        "the request in flight is answered: {reply:?}"
    );
    assert!(
        reply
            .head
            .to_ascii_lowercase()
            .contains("connection: close"),
        "{reply:?}"
    );
    let mut gateway = gateway;
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = gateway.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "still running after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}

#[test]
fn a_body_that_stalls_or_trickles_is_cut_well_before_the_request_timeout() {
    // The shipped body deadline and request timeout: the first must cut.
    let gateway = Gateway::start(&[], None);
    let addr = gateway.addr;
    let request_timeout = Duration::from_secs(10);
    let stalled = std::thread::spawn(move || {
        let (mut stream, _) = busy(addr, "s1");
        let start = Instant::now();
        closed_within(&mut stream, Duration::from_secs(20)).map(|_| start.elapsed())
    });
    // The rest of the body a byte each 200 ms: every gap is short, the
    // whole takes far longer than the deadline.
    let trickle = std::thread::spawn(move || {
        let (mut stream, rest) = busy(addr, "s2");
        let start = Instant::now();
        for byte in rest.bytes() {
            if stream.write_all(&[byte]).is_err() || is_closed(&stream) {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        closed_within(&mut stream, Duration::from_secs(20)).map(|_| start.elapsed())
    });
    for (what, thread) in [("stalled", stalled), ("trickled", trickle)] {
        let took = thread
            .join()
            .unwrap()
            .unwrap_or_else(|| panic!("a {what} body held its connection"));
        eprintln!("a {what} body was cut after {took:?}");
        assert!(
            took >= Duration::from_millis(1500),
            "{what}: cut after {took:?}, before the body deadline"
        );
        assert!(
            took * 2 < request_timeout,
            "{what}: cut only after {took:?}"
        );
    }
    // A whole webhook is not cut: its body comes with its head.
    let reply = exchange(
        addr,
        webhook_request(&text("w1", "+79001234567", "R ann")).as_bytes(),
    )
    .unwrap();
    assert_eq!(reply.status, 200, "{reply:?}");
}

/// A new virtual phone of the training hall: its number and token.
fn hall_phone(addr: SocketAddr) -> (String, String) {
    let request = "POST /hall/phones HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
    let reply = exchange(addr, request.as_bytes()).unwrap();
    assert_eq!(reply.status, 200, "{reply:?}");
    let phone: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    (
        phone["number"].as_str().unwrap().to_string(),
        phone["token"].as_str().unwrap().to_string(),
    )
}

/// Opens the phone's event stream and never reads it. As [`half_open`], a
/// connection the server shed is kept all the same.
fn stream_held(addr: SocketAddr, number: &str, token: &str) -> TcpStream {
    let mut stream = connect(addr).expect("the gateway accepts during the flood");
    let body = format!(r#"{{"phones":[{{"number":"{number}","token":"{token}"}}]}}"#);
    let request = format!(
        "POST /hall/events HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(request.as_bytes());
    stream
}

/// Sends a whole webhook head and one byte of its body, then goes quiet.
fn body_held(addr: SocketAddr) -> TcpStream {
    let mut stream = connect(addr).expect("the gateway accepts during the flood");
    let head = "POST /webhooks/generic HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n{";
    let _ = stream.write_all(head.as_bytes());
    stream
}

#[test]
fn a_provider_and_healthz_get_in_while_a_client_holds_more_event_streams_and_slow_bodies_than_the_gateway_has_descriptors()
 {
    let target = connections_to_hold(800);
    let gateway = Gateway::start(
        &[
            // Long deadlines and no hall caps: here the cap's choice alone
            // has to keep the door open.
            ("SMSARENA_HTTP__HEADER_READ_TIMEOUT_MS", "120000"),
            ("SMSARENA_HTTP__IDLE_TIMEOUT_MS", "120000"),
            ("SMSARENA_HTTP__BODY_READ_TIMEOUT_MS", "120000"),
            ("SMSARENA_HTTP__REQUEST_TIMEOUT_MS", "120000"),
            ("SMSARENA_HALL__STREAMS_PER_PHONE", "0"),
            ("SMSARENA_HALL__STREAMS_PER_CLIENT", "0"),
        ],
        Some(CHILD_FILES),
    );
    let addr = gateway.addr;
    let (number, token) = hall_phone(addr);
    let rounds = 8;
    let per_round = target / rounds / 2;
    let (mut streams, mut bodies) = (Vec::new(), Vec::new());
    let (mut health, mut hooks) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        for _ in 0..per_round {
            streams.push(stream_held(addr, &number, &token));
            bodies.push(body_held(addr));
        }
        let held = streams.len() + bodies.len();

        let (reply, took) = timed("healthz", || get(addr, "/healthz"));
        assert_eq!(
            (reply.status, reply.body.as_str()),
            (200, "ok"),
            "{reply:?}"
        );
        assert!(took < PROMPT, "/healthz took {took:?} with {held} held");
        health.push(took);

        let body = text(&format!("f{round}"), "+79001234567", "H");
        let (reply, took) = timed("webhook", || {
            exchange(addr, webhook_request(&body).as_bytes())
        });
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(reply.body.contains("accepted"), "{reply:?}");
        assert!(took < PROMPT, "the webhook took {took:?} with {held} held");
        hooks.push(took);
    }
    let max = |d: &[Duration]| d.iter().max().copied().unwrap_or_default();
    eprintln!(
        "held {} event streams and {} slow bodies (gateway's limit {CHILD_FILES} files); \
         slowest of {rounds}: /healthz {:?}, webhook {:?}",
        streams.len(),
        bodies.len(),
        max(&health),
        max(&hooks),
    );
    // The slow bodies are no answer's: the gateway holds no more than its
    // cap of them and keeps within its descriptors, while what waits in the
    // kernel (its accept queue, and handshakes past it that the kernel
    // retries on its own timers) is accepted and shed in turn. How many the
    // client still sees open is the kernel's pace, not the gateway's: CI saw
    // 259 of 400 after 45 s, a quiet machine 209 at once. The gateway's own
    // descriptors are what it answers for.
    let files = open_files(gateway.child.id());
    let seen_open = bodies.iter().filter(|s| !is_closed(s)).count();
    eprintln!(
        "the gateway holds {files} descriptors (limit {CHILD_FILES}); \
         the client sees {seen_open} of {} slow bodies open",
        bodies.len()
    );
    // At its cap it keeps a margin below the limit (a gateway that ran out
    // would sit at the limit, failing accepts: the log is read below).
    assert!(
        files < CHILD_FILES as usize,
        "the gateway holds {files} descriptors, at its limit of {CHILD_FILES}"
    );
    assert!(
        seen_open < bodies.len(),
        "the gateway shed none of the {} slow bodies",
        bodies.len()
    );
    gateway.wait_for_line("connection cap reached");
    let log = gateway.log();
    assert!(
        !log.iter()
            .any(|l| l.contains("accept error") || l.contains("connection refused at the cap")),
        "the cap kept the gateway within its descriptors, and no one was turned away:\n{}",
        log.join("\n")
    );

    // A stop does not wait for streams, which never end by themselves.
    drop(bodies);
    gateway.terminate();
    let mut gateway = gateway;
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = gateway.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running 10 s after SIGTERM with {} streams held",
            streams.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}
