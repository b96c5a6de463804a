// The training hall's page: virtual phones kept in this browser, their threads
// drawn as a handset shows them, texts sent through the gateway's own path
// and replies pushed back by Server-Sent Events (no polling).
"use strict";

(function () {
  const config = JSON.parse(document.getElementById("hall-config").textContent);
  // --- phones kept in this browser ----------------------------------------
  // One localStorage key per phone, so that a tab saving its phones never
  // erases one another tab made; which phone a tab shows is the tab's own.
  const PHONE_KEY = "smsarena.hall.phone.";
  const OLD_KEY = "smsarena.hall.v1";
  const CURRENT_KEY = "smsarena.hall.current";
  const state = load();
  const $ = (id) => document.getElementById(id);
  // Texts to each phone this tab has not shown yet: the tab's own count.
  const unread = new Map();
  // How many times a text is posted before the page says it was not sent.
  const DELIVERY_ATTEMPTS = 5;
  const live = connectLive();


  function load() {
    moveOldPhones();
    const phones = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PHONE_KEY)) continue;
      const p = readPhone(key.slice(PHONE_KEY.length));
      if (p) phones.push(p);
    }
    phones.sort((a, b) => (a.opened || 0) - (b.opened || 0));
    return { phones, current: sessionStorage.getItem(CURRENT_KEY) };
  }

  function readPhone(number) {
    try {
      const p = JSON.parse(localStorage.getItem(PHONE_KEY + number));
      if (p && p.number === number && p.token && Array.isArray(p.thread)) return p;
    } catch (_) { /* a broken entry: left out */ }
    return null;
  }

  // The phones a page of before kept all under one key, now each under its own.
  function moveOldPhones() {
    try {
      const old = JSON.parse(localStorage.getItem(OLD_KEY));
      if (old && Array.isArray(old.phones)) {
        old.phones.forEach((p, i) => {
          if (!localStorage.getItem(PHONE_KEY + p.number)) {
            localStorage.setItem(PHONE_KEY + p.number, JSON.stringify({ ...p, opened: i }));
          }
        });
      }
    } catch (_) { /* a broken entry: nothing to move */ }
    localStorage.removeItem(OLD_KEY);
  }

  function save(p) {
    for (const q of p ? [p] : state.phones) {
      localStorage.setItem(PHONE_KEY + q.number, JSON.stringify(q));
    }
    if (state.current) sessionStorage.setItem(CURRENT_KEY, state.current);
  }

  // Two copies of one phone as one: tabs write at once, and a tab may read
  // a copy a little older than another tab's last write, so a save never
  // just overwrites; both copies' texts are kept (by id, a settled text over
  // one still "sending"), the newer cursor and the nick set last.
  function mergePhones(a, b) {
    if (!a || !b) return a || b;
    const byId = new Map();
    for (const t of [...a.thread, ...b.thread]) {
      const key = String(t.id);
      const had = byId.get(key);
      // The same choice whichever copy comes first, so tabs agree.
      const better = !had ||
        (had.note === "sending" && t.note !== "sending") ||
        ((had.note === "sending") === (t.note === "sending") && t.at < had.at);
      if (better) byId.set(key, t);
    }
    const thread = [...byId.values()].sort((x, y) => x.at - y.at);
    const named = (b.nickAt || 0) > (a.nickAt || 0) ? b : a;
    return {
      ...a,
      thread,
      lastId: Math.max(a.lastId || 0, b.lastId || 0),
      nick: named.nick || a.nick || b.nick,
      nickAt: named.nickAt,
      opened: Math.min(a.opened || 0, b.opened || 0) || a.opened || b.opened,
    };
  }

  // Whether `both` holds something `copy` lacks: a text, a newer cursor, a
  // nick, a text settled. Each write-back adds, so the tabs settle.
  function adds(both, copy) {
    const had = new Map(copy.thread.map((t) => [String(t.id), t]));
    return both.thread.length !== copy.thread.length ||
      both.lastId !== (copy.lastId || 0) ||
      both.nick !== copy.nick ||
      both.thread.some((t) => t.note !== "sending" && had.get(String(t.id))?.note === "sending");
  }

  // Another tab saved a phone: merge its copy with ours (a new phone taken
  // whole), and write the merge back if it holds something that copy lacked.
  function merged(event) {
    if (!event.key || !event.key.startsWith(PHONE_KEY) || !event.newValue) return;
    const number = event.key.slice(PHONE_KEY.length);
    const fresh = readPhone(number);
    if (!fresh) return;
    const at = state.phones.findIndex((p) => p.number === number);
    if (at >= 0) {
      const both = mergePhones(state.phones[at], fresh);
      state.phones[at] = both;
      if (adds(both, fresh)) save(both);
    } else {
      state.phones.push(fresh);
      state.phones.sort((a, b) => (a.opened || 0) - (b.opened || 0));
      if (!state.current) state.current = number;
      listen();
    }
    draw();
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
      if (unread.get(p.number)) {
        const badge = document.createElement("span");
        badge.className = "unread";
        badge.textContent = String(unread.get(p.number));
        tab.appendChild(badge);
      }
      markTurn(tab, p);
      tab.addEventListener("click", () => select(p.number));
      nav.appendChild(tab);
    }
    const add = document.createElement("button");
    add.type = "button";
    add.id = "new-phone";
    add.textContent = state.phones.length ? words().morePhone : words().newPhone;
    add.className = state.phones.length ? "" : "primary";
    add.addEventListener("click", newPhone);
    nav.appendChild(add);
  }

  function drawThread() {
    const p = current();
    document.dispatchEvent(new CustomEvent("hall:phone", { detail: p ? { number: p.number, token: p.token } : null }));
    const list = $("thread");
    list.replaceChildren();
    $("number").replaceChildren();
    $("compose-text").disabled = !p;
    $("send").disabled = !p;
    const w = words();
    if (!p) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = w.firstPhone;
      list.appendChild(empty);
      return;
    }
    const number = $("number");
    number.append(spaced(p.number));
    const mark = document.createElement("span");
    mark.className = "virtual";
    mark.textContent = w.virtual;
    number.appendChild(mark);
    if (!p.thread.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = w.firstText(config.game);
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
      const who = t.dir === "in" ? w.from(t.from) : w.toNumber(t.to);
      const bits = [who, parts(t.parts), encodingName(t.encoding), time(t.at)];
      if (t.match) bits.push(t.match);
      if (t.note === "sending") bits.push(w.sending);
      else if (t.failed) bits.push(w.notSent(t.failed));
      else if (t.note) bits.push(t.note); // a page of before kept its words here
      meta.textContent = bits.join(" · ");
      item.append(body, meta);
      if (t.retryAfter) item.appendChild(refusal(t));
      list.appendChild(item);
    }
    list.scrollTop = list.scrollHeight;
  }

  function draw() {
    drawTabs();
    drawThread();
    drawTurn();
  }

  function select(number) {
    state.current = number;
    unread.delete(number);
    sessionStorage.setItem(CURRENT_KEY, number);
    draw();
  }

  // Changes a phone as every tab sees it: the freshest copy read, changed
  // and saved at once, so that a tab never writes back a stale thread over
  // a text another tab (or this one, meanwhile) added. `change` returns
  // false to leave the phone as it was.
  function update(number, change) {
    const p = mergePhones(phone(number), readPhone(number));
    if (!p || change(p) === false) return null;
    save(p);
    const at = state.phones.findIndex((q) => q.number === number);
    if (at >= 0) state.phones[at] = p;
    return p;
  }

  // --- the server --------------------------------------------------------

  async function newPhone() {
    const button = $("new-phone");
    button.disabled = true;
    try {
      const response = await fetch("hall/phones", { method: "POST" });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
      const p = { number: answer.number, token: answer.token, thread: [], lastId: 0, opened: Date.now() };
      state.phones.push(p);
      state.current = answer.number;
      save(p);
      listen();
      draw();
      focusCompose();
    } catch (e) {
      alert(words().noPhone(e.message));
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
    const number = p.number;
    const entry = { dir: "out", id: newId(), to, body: text, parts: 1, encoding: "gsm7", at: Date.now(), note: "sending", match: matchLabel(p) };
    update(number, (q) => { q.thread.push(entry); });
    drawThread();
    const outcome = await deliver(number, { token: p.token, id: entry.id, to, text });
    update(number, (q) => {
      const sent = q.thread.find((t) => t.id === entry.id);
      if (sent) Object.assign(sent, outcome);
      const nick = /^\s*R\s+([A-Za-z0-9_]{2,16})\s*$/i.exec(text);
      if (nick && !outcome.failed && !outcome.retryAfter) {
        q.nick = nick[1];
        q.nickAt = Date.now();
      }
    });
    draw();
  }

  // Posts a text as a provider would: a 503 (the service busy, or its
  // database for a moment) or a lost connection is tried again after the
  // wait it asks for, with the same id, so a text the service did take is
  // never taken twice; anything else is the answer.
  async function deliver(number, body) {
    const url = "hall/phones/" + encodeURIComponent(number) + "/texts";
    for (let attempt = 1; ; attempt++) {
      let wait;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const answer = await response.json();
        if (response.ok) {
          const outcome = { parts: answer.parts, encoding: answer.encoding, note: null, failed: null };
          if (answer.status === "rate_limited") outcome.retryAfter = answer.retry_after_secs || 1;
          return outcome;
        }
        if (response.status !== 503 || attempt >= DELIVERY_ATTEMPTS) {
          return { note: null, failed: answer.error || response.statusText };
        }
        wait = Number(response.headers.get("retry-after")) || 1;
      } catch (e) {
        if (attempt >= DELIVERY_ATTEMPTS) return { note: null, failed: e.message };
        wait = 1;
      }
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  // A text to one of the phones, from the browser's one live stream.
  function received(t) {
    const entry = { dir: "in", id: t.id, from: t.from, body: t.body, parts: t.parts, encoding: t.encoding, at: Date.now() };
    const p = update(t.phone, (q) => {
      if (t.id <= (q.lastId || 0)) return false;
      q.lastId = t.id;
      q.thread.push(entry);
    });
    if (!p && !phone(t.phone)) return;
    if (p) {
      // A text can change whose move it is, and the drawn board.
      refreshTurn(p, entry);
      document.dispatchEvent(new CustomEvent("hall:text", { detail: { number: p.number, token: p.token } }));
      announce(p, t.body);
    }
    if (t.phone !== state.current && p) unread.set(t.phone, (unread.get(t.phone) || 0) + 1);
    if (t.phone === state.current) drawThread();
    drawTabs();
  }

  // The live stream is the browser's, shared by its tabs (a shared worker);
  // where a browser has no shared workers, this tab holds its own.
  function connectLive() {
    const url = "hall/hall-worker.js";
    if (typeof SharedWorker !== "undefined") {
      const worker = new SharedWorker(url, { name: "smsarena-hall" });
      worker.port.start();
      return worker.port;
    }
    return new Worker(url);
  }

  // Names this tab's phones to the live stream, each from its newest text.
  function listen() {
    live.postMessage({
      type: "watch",
      phones: state.phones.map((p) => ({ number: p.number, token: p.token, after: p.lastId || 0 })),
    });
  }

  // The stream's state as the worker last told it, said in the page's words.
  let liveState = { live: false, say: "connecting" };

  function showLive(message) {
    if (message) liveState = message;
    const line = $("live-status");
    if (!line) return;
    line.dataset.live = String(liveState.live);
    line.textContent = liveState.live ? "" : liveWords(words(), liveState);
  }

  function liveWords(w, s) {
    if (s.say === "forgotten") return w.forgotten(s.phones.join(", "));
    const why = s.say === "answered" ? w.answered(s.status, s.detail) : w[s.say] || w.unreachable;
    return s.wait === undefined ? why : w.reconnecting(why, s.wait);
  }

  live.onmessage = (event) => {
    const message = event.data;
    if (message.type === "text") received(message.text);
    else if (message.type === "status") showLive(message);
    else if (message.type === "refused") {
      showLive({ live: false, say: "forgotten", phones: message.phones });
    }
  };

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
      else say(words().nickFirst);
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
    $("compose-count").textContent = n ? words().characters(n) : "";
  }

  // --- what a reader is told, and the rules shown (the page's own words) --

  // A short line for screen readers and eyes alike: the thread is not live,
  // or each board would be read out whole.
  function say(text) {
    $("hall-status").textContent = text;
  }

  // Its first line of words (a board's first line may be a row of digits).
  function announce(p, body) {
    const line = body.split("\n").find((l) => /\p{L}{2,}/u.test(l));
    say(words().toPlayer(p.nick || spaced(p.number), (line || words().newText).trim()));
  }

  // Play or R nick before there is a phone: say so and point at the button.
  function needPhone() {
    say(words().phoneFirst);
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
      link.textContent = words().rulesLink;
      box.replaceChildren(link);
    }
  }

  // --- the turn and the language ------------------------------------------
  // Each phone's match and reply language, as the gateway keeps them
  // (GET .../turn), asked again whenever a text reaches the phone; the
  // deadline counts down here between two answers.

  const turns = new Map();
  const asking = new Set();

  // The page's own words in each language (words.js).
  const WORDS = window.HALL_WORDS;

  // The page's own words: the current phone's language once it is a
  // player's (a phone that has never texted keeps the page as served).
  function words() {
    const p = current();
    const turn = p && turns.get(p.number);
    return turn && turn.player ? wordsOf(turn) : WORDS.EN;
  }

  // The words of a phone's reply language (English for one the page lacks).
  function wordsOf(turn) {
    return WORDS[turn.lang] || WORDS.EN;
  }

  async function refreshTurn(p, entry) {
    asking.add(p.number);
    try {
      const response = await fetch("hall/phones/" + encodeURIComponent(p.number) + "/turn?token=" +
        encodeURIComponent(p.token));
      if (!response.ok) {
        turns.set(p.number, null); // asked again at its next text, not each second
        return;
      }
      const turn = await response.json();
      turn.askedAt = Date.now();
      turns.set(p.number, turn);
      if (entry && !entry.match) {
        const label = matchLabel(p);
        update(p.number, (q) => {
          const kept = q.thread.find((t) => t.id === entry.id);
          if (!kept || kept.match) return false;
          kept.match = label;
        });
      }
    } catch (_) {
      return; // the next text asks again
    } finally {
      asking.delete(p.number);
    }
    drawTabs();
    if (p.number === state.current) {
      drawThread();
      drawTurn();
    }
  }

  function matchLabel(p) {
    const turn = turns.get(p.number);
    const m = turn && turn.match;
    return m ? wordsOf(turn).match(m.name, m.id) : undefined;
  }

  function secondsLeft(turn) {
    const m = turn.match;
    if (m.seconds_left === null || m.seconds_left === undefined) return null;
    return Math.max(0, m.seconds_left - Math.floor((Date.now() - turn.askedAt) / 1000));
  }

  function clock(seconds) {
    const m = Math.floor(seconds / 60);
    const s = seconds % 60;
    return m + ":" + String(s).padStart(2, "0");
  }

  function markTurn(tab, p) {
    const turn = turns.get(p.number);
    const m = turn && turn.match;
    if (!m || m.finished) return;
    const mark = document.createElement("span");
    mark.className = m.to_move ? "turn-mark mine" : "turn-mark";
    mark.textContent = m.to_move ? "●" : "○";
    const w = wordsOf(turn);
    mark.title = m.to_move ? w.yourMove : w.theirMove;
    mark.setAttribute("aria-label", mark.title);
    mark.setAttribute("role", "img");
    tab.appendChild(mark);
  }

  function drawTurn() {
    const box = $("turn");
    const w = words();
    applyWords(w);
    const p = current();
    const turn = p && turns.get(p.number);
    // A phone new to this page (just made, or made in another tab) is
    // asked for at once rather than at its first text.
    if (p && !turns.has(p.number) && !asking.has(p.number)) refreshTurn(p);
    drawLanguages(turn);
    box.replaceChildren();
    box.className = "turn";
    if (!turn) return;
    const m = turn.match;
    if (!m) {
      box.textContent = w.noMatch;
      return;
    }
    const name = document.createElement("span");
    name.className = "match";
    name.textContent = w.match(m.name, m.id);
    const who = document.createElement("strong");
    who.textContent = m.finished ? w.over : m.to_move ? w.yourMove : w.theirMove;
    box.append(name, who);
    if (m.to_move) box.classList.add("mine");
    const left = m.finished ? null : secondsLeft(turn);
    if (left !== null) {
      const deadline = document.createElement("span");
      deadline.className = "deadline";
      deadline.textContent = w.left(clock(left));
      box.appendChild(deadline);
    }
  }

  function drawLanguages(turn) {
    const select = $("lang");
    const langs = (turn && turn.langs) || [];
    select.disabled = !turn;
    // Drawn anew only when what it shows changes (the choice, or the page's
    // words naming the languages), so an open list is not closed under a hand.
    const shown = [langs.join(), turn ? turn.lang : "", document.documentElement.lang].join("|");
    if (select.dataset.langs !== shown) {
      select.replaceChildren();
      const w = words();
      for (const code of langs) {
        const option = document.createElement("option");
        option.value = code;
        option.textContent = w.names[code] || code;
        option.selected = turn.lang === code;
        select.appendChild(option);
      }
      select.dataset.langs = shown;
    }
  }

  // The served words replaced by the shown phone's language's, when that
  // changes (not each second: a list open under a hand stays open).
  let applied = null;

  function applyWords(w) {
    if (applied === w) return;
    applied = w;
    document.documentElement.lang = w.html;
    document.title = w.title;
    for (const el of document.querySelectorAll("[data-say]")) el.textContent = said(w, el.dataset.say, el);
    for (const el of document.querySelectorAll("[data-say-label]")) {
      el.setAttribute("aria-label", said(w, el.dataset.sayLabel, el));
    }
    for (const el of document.querySelectorAll("[data-say-placeholder]")) {
      el.placeholder = said(w, el.dataset.sayPlaceholder, el);
    }
    drawTabs();
    showLive();
    updateCount();
  }

  // A word of `w` for an element: filled with its game's name in `w`'s
  // language, or its `data-arg`, where the word takes one.
  function said(w, key, el) {
    if (key === "gameName") return gameName(w, el.dataset.game);
    const word = w[key];
    if (typeof word !== "function") return word === undefined ? el.textContent : word;
    return word(el.dataset.game ? gameName(w, el.dataset.game) : el.dataset.arg);
  }

  function gameName(w, code) {
    const names = config.names[code] || {};
    return names[w.code] || names.EN || code;
  }

  function refusal(t) {
    const notice = document.createElement("p");
    notice.className = "refused";
    notice.textContent = words().tooFast(t.retryAfter);
    return notice;
  }

  function wireTurn() {
    $("lang").addEventListener("change", (event) => {
      send(config.game, "LANG " + event.target.value);
    });
    setInterval(drawTurn, 1000);
  }

  wire();
  wireTurn();
  if (!current() && state.phones.length) state.current = state.phones[0].number;
  window.addEventListener("storage", merged);
  window.addEventListener("pagehide", () => live.postMessage({ type: "bye" }));
  listen();
  for (const p of state.phones) refreshTurn(p);
  draw();
})();
