// The training hall's page: virtual phones kept in this browser, their threads
// drawn as a handset shows them, texts sent through the gateway's own path
// and replies pushed back by Server-Sent Events (no polling).
"use strict";

(function () {
  const config = JSON.parse(document.getElementById("hall-config").textContent);
  const KEY = "smsarena.hall.v1";
  const state = load();
  const streams = new Map();
  // Each phone's wait before its stream is opened again: it doubles while
  // the server refuses (429, 503 look alike to EventSource) up to a minute,
  // and is back to the first step once a stream opens.
  const FIRST_RETRY_MS = 2000;
  const LAST_RETRY_MS = 60000;
  const retries = new Map();
  const $ = (id) => document.getElementById(id);

  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY));
      if (saved && Array.isArray(saved.phones)) return saved;
    } catch (_) { /* a broken entry: start afresh */ }
    return { phones: [], current: null };
  }

  function save() {
    localStorage.setItem(KEY, JSON.stringify(state));
  }

  function phone(number) {
    return state.phones.find((p) => p.number === number);
  }

  function current() {
    return phone(state.current);
  }

  function spaced(number) {
    // +99901234567 as +999 0123 4567, as a handset would group it.
    return number.replace(/^(\+\d{3})(\d{4})(\d+)$/, "$1 $2 $3");
  }

  function encodingName(encoding) {
    return encoding === "ucs2" ? "UCS-2" : "GSM-7";
  }

  function parts(n) {
    return n === 1 ? "1 SMS" : n + " SMS";
  }

  function time(ms) {
    const d = new Date(ms);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  // --- drawing -----------------------------------------------------------

  function drawTabs() {
    const nav = $("phone-tabs");
    nav.replaceChildren();
    for (const p of state.phones) {
      const tab = document.createElement("button");
      tab.type = "button";
      tab.className = "tab";
      tab.dataset.number = p.number;
      tab.textContent = p.nick ? p.nick : spaced(p.number);
      tab.title = p.number;
      tab.setAttribute("aria-current", String(p.number === state.current));
      if (p.unread) {
        const badge = document.createElement("span");
        badge.className = "unread";
        badge.textContent = String(p.unread);
        tab.appendChild(badge);
      }
      tab.addEventListener("click", () => select(p.number));
      nav.appendChild(tab);
    }
    const add = document.createElement("button");
    add.type = "button";
    add.id = "new-phone";
    add.textContent = state.phones.length ? "+ phone" : "Get a virtual phone";
    add.className = state.phones.length ? "" : "primary";
    add.addEventListener("click", newPhone);
    nav.appendChild(add);
  }

  function drawThread() {
    const p = current();
    const list = $("thread");
    list.replaceChildren();
    $("number").replaceChildren();
    $("compose-text").disabled = !p;
    $("send").disabled = !p;
    if (!p) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "Get a virtual phone to start. It stays in this browser.";
      list.appendChild(empty);
      return;
    }
    const number = $("number");
    number.append(spaced(p.number));
    const mark = document.createElement("span");
    mark.className = "virtual";
    mark.textContent = "virtual";
    number.appendChild(mark);
    if (!p.thread.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "Text R and a nick to " + config.game + " to register, or press a game's button.";
      list.appendChild(empty);
    }
    for (const t of p.thread) {
      const item = document.createElement("li");
      item.className = t.dir;
      item.dataset.id = t.id;
      const body = document.createElement("pre");
      body.textContent = t.body;
      if (drawn(t.body)) body.classList.add("drawn");
      const meta = document.createElement("span");
      meta.className = "meta";
      const who = t.dir === "in" ? "from " + t.from : "to " + t.to;
      const bits = [who, parts(t.parts), encodingName(t.encoding), time(t.at)];
      if (t.note) bits.push(t.note);
      meta.textContent = bits.join(" · ");
      item.append(body, meta);
      list.appendChild(item);
    }
    list.scrollTop = list.scrollHeight;
  }

  function draw() {
    drawTabs();
    drawThread();
  }

  function select(number) {
    state.current = number;
    const p = current();
    if (p) p.unread = 0;
    save();
    draw();
  }

  // --- the server --------------------------------------------------------

  async function newPhone() {
    const button = $("new-phone");
    button.disabled = true;
    try {
      const response = await fetch("hall/phones", { method: "POST" });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      state.phones.push({ number: answer.number, token: answer.token, thread: [], lastId: 0, unread: 0 });
      state.current = answer.number;
      save();
      listen(phone(answer.number));
      draw();
      focusCompose();
    } catch (e) {
      alert("No phone: " + e.message);
    } finally {
      button.disabled = false;
    }
  }

  function newId() {
    const bytes = new Uint8Array(9);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function send(to, text) {
    const p = current();
    if (!p) return needPhone();
    if (!text.trim()) return;
    followText(to, text);
    const entry = { dir: "out", id: newId(), to, body: text, parts: 1, encoding: "gsm7", at: Date.now(), note: "sending" };
    p.thread.push(entry);
    save();
    drawThread();
    try {
      const response = await fetch("hall/phones/" + encodeURIComponent(p.number) + "/texts", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: p.token, id: entry.id, to, text }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      entry.parts = answer.parts;
      entry.encoding = answer.encoding;
      entry.note = answer.status === "rate_limited" ? "over the limit, dropped" : null;
      const nick = /^\s*R\s+([A-Za-z0-9_]{2,16})\s*$/i.exec(text);
      if (nick) p.nick = nick[1];
    } catch (e) {
      entry.note = "not sent: " + e.message;
    }
    save();
    draw();
  }

  function listen(p) {
    if (streams.has(p.number)) return;
    const url = "hall/phones/" + encodeURIComponent(p.number) + "/events?token=" +
      encodeURIComponent(p.token) + "&after=" + p.lastId;
    const source = new EventSource(url);
    source.addEventListener("text", (event) => {
      const t = JSON.parse(event.data);
      if (t.id <= p.lastId) return;
      p.lastId = t.id;
      p.thread.push({ dir: "in", id: t.id, from: t.from, body: t.body, parts: t.parts, encoding: t.encoding, at: Date.now() });
      if (p.number !== state.current) p.unread = (p.unread || 0) + 1;
      announce(p, t.body);
      save();
      if (p.number === state.current) drawThread();
      drawTabs();
    });
    source.addEventListener("open", () => retries.delete(p.number));
    source.addEventListener("error", () => {
      // EventSource reconnects by itself; start again from what we hold, so
      // nothing is shown twice after a gap (the server also ends a stream
      // after a while: this is how it goes on).
      source.close();
      streams.delete(p.number);
      const wait = retries.has(p.number)
        ? Math.min(retries.get(p.number) * 2, LAST_RETRY_MS)
        : FIRST_RETRY_MS;
      retries.set(p.number, wait);
      setTimeout(() => listen(p), wait + Math.random() * 500);
    });
    streams.set(p.number, source);
  }

  // --- the controls ------------------------------------------------------

  function wire() {
    const form = $("compose");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("compose-text").value;
      $("compose-text").value = "";
      updateCount();
      send($("compose-to").value, text);
    });
    $("compose-text").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    $("compose-text").addEventListener("input", updateCount);
    $("register").addEventListener("click", () => {
      const nick = $("nick").value.trim();
      if (nick) send(config.game, "R " + nick);
      else say("Type a nick first, then press R nick.");
    });
    for (const button of document.querySelectorAll("button.practice")) {
      button.addEventListener("click", () => {
        const level = document.querySelector("select.level[data-game='" + button.dataset.game + "']");
        const text = level ? level.value : button.dataset.start;
        followGame(button.dataset.game);
        send(config.play, text);
      });
    }
    $("rules-select").addEventListener("change", showRules);
    showRules();
    // The thread stays at its newest text when the window changes size (a
    // phone turned, a desktop window narrowed), unless the reader had
    // scrolled up to read back.
    const list = $("thread");
    let atNewest = true;
    list.addEventListener("scroll", () => {
      atNewest = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    });
    new ResizeObserver(() => {
      if (atNewest) list.scrollTop = list.scrollHeight;
    }).observe(list);
  }

  function updateCount() {
    const n = $("compose-text").value.length;
    $("compose-count").textContent = n ? n + " characters" : "";
  }

  // --- what a reader is told, and the rules shown (the page's own words) --

  // A short line for screen readers and eyes alike: the thread is not live,
  // or each board would be read out whole.
  function say(text) {
    $("hall-status").textContent = text;
  }

  // Its first line of words (a board's first line may be a row of digits).
  function announce(p, body) {
    const words = body.split("\n").find((line) => /\p{L}{2,}/u.test(line));
    say("To " + (p.nick || spaced(p.number)) + ": " + (words || "a new text").trim());
  }

  // Play or R nick before there is a phone: say so and point at the button.
  function needPhone() {
    say("Get a virtual phone first: the button above the thread.");
    const button = $("new-phone");
    if (button) button.focus();
  }

  // After a new phone, typing is what comes next (not <body>).
  function focusCompose() {
    const box = $("compose-text");
    if (!box.disabled) box.focus();
  }

  // A text of several lines is a drawing: its lines stay whole and scroll
  // inside their bubble on a narrow screen instead of wrapping.
  function drawn(body) {
    return body.split("\n").length >= 3;
  }

  // The Rules box follows the game played: a practice button, or a P line
  // typed to the play number.
  function followText(to, text) {
    const game = /^\s*P\s+([A-Za-z]{2})\b/i.exec(text);
    if (game && to === config.play) followGame(game[1].toUpperCase());
  }

  function followGame(code) {
    const select = $("rules-select");
    if (select.value === code) return;
    if (!Array.from(select.options).some((o) => o.value === code)) return;
    select.value = code;
    showRules();
  }

  const guides = new Map();

  // Each guide is fetched when first shown (the page carries none).
  async function showRules() {
    const code = $("rules-select").value;
    const box = $("rules");
    box.dataset.game = code;
    try {
      if (!guides.has(code)) {
        const response = await fetch("hall/guides/" + encodeURIComponent(code));
        if (!response.ok) throw new Error(response.statusText);
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const article = page.querySelector("article.guide");
        if (!article) throw new Error("no guide");
        guides.set(code, document.importNode(article, true));
      }
      if (box.dataset.game === code) box.replaceChildren(guides.get(code));
    } catch (e) {
      const link = document.createElement("a");
      link.href = "hall/guides/" + encodeURIComponent(code);
      link.textContent = "Rules (open the page)";
      box.replaceChildren(link);
    }
  }

  wire();
  if (!current() && state.phones.length) state.current = state.phones[0].number;
  for (const p of state.phones) listen(p);
  draw();
})();
