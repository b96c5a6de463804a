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
      markTurn(tab, p);
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
    document.dispatchEvent(new CustomEvent("hall:phone", { detail: p ? { number: p.number, token: p.token } : null }));
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
      const meta = document.createElement("span");
      meta.className = "meta";
      const who = t.dir === "in" ? "from " + t.from : "to " + t.to;
      const bits = [who, parts(t.parts), encodingName(t.encoding), time(t.at)];
      if (t.match) bits.push(t.match);
      if (t.note) bits.push(t.note);
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
    if (!p || !text.trim()) return;
    const entry = { dir: "out", id: newId(), to, body: text, parts: 1, encoding: "gsm7", at: Date.now(), note: "sending", match: matchLabel(p) };
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
      entry.note = null;
      if (answer.status === "rate_limited") entry.retryAfter = answer.retry_after_secs || 1;
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
      const entry = { dir: "in", id: t.id, from: t.from, body: t.body, parts: t.parts, encoding: t.encoding, at: Date.now() };
      p.thread.push(entry);
      refreshTurn(p, entry);
      if (p.number !== state.current) p.unread = (p.unread || 0) + 1;
      document.dispatchEvent(new CustomEvent("hall:text", { detail: { number: p.number, token: p.token } }));
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
    });
    for (const button of document.querySelectorAll("button.practice")) {
      button.addEventListener("click", () => {
        const level = document.querySelector("select.level[data-game='" + button.dataset.game + "']");
        const text = level ? level.value : button.dataset.start;
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

  function showRules() {
    const code = $("rules-select").value;
    for (const section of document.querySelectorAll(".rules[data-game]")) {
      section.hidden = section.dataset.game !== code;
    }
  }

  // --- the turn and the language ------------------------------------------
  // Each phone's match and reply language, as the gateway keeps them
  // (GET .../turn), asked again whenever a text reaches the phone; the
  // deadline counts down here between two answers.

  const turns = new Map();
  const asking = new Set();

  const WORDS = {
    EN: {
      language: "Replies in", send: "Send", register: "Register", practise: "Practise against a robot",
      rules: "Rules", typeText: "Type a text, Enter sends",
      yourMove: "Your move", theirMove: "Their move", over: "Match over", noMatch: "Not in a match",
      left: (t) => t + " left", match: (name, id) => name + ", match " + id,
      tooFast: (n) => "Not read: too many texts in a row. Wait " + n + " s and send it again.",
      names: { EN: "English", RU: "Russian (Latin letters)" },
    },
    RU: {
      language: "Ответы на", send: "Отправить", register: "Регистрация", practise: "Игра с роботом",
      rules: "Правила", typeText: "Текст SMS, Enter отправляет",
      yourMove: "Ваш ход", theirMove: "Ход соперника", over: "Матч окончен", noMatch: "Нет матча",
      left: (t) => "осталось " + t, match: (name, id) => name + ", матч " + id,
      tooFast: (n) => "Не прочитано: слишком много SMS подряд. Подождите " + n + " с и отправьте снова.",
      names: { EN: "английском", RU: "русском (латиницей)" },
    },
  };

  // The page's own words: the current phone's language once it is a
  // player's (a phone that has never texted keeps the page as served).
  function words() {
    const p = current();
    const turn = p && turns.get(p.number);
    return (turn && turn.player && WORDS[turn.lang]) || WORDS.EN;
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
        entry.match = matchLabel(p);
        save();
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
    return m ? (WORDS[turn.lang] || WORDS.EN).match(m.name, m.id) : undefined;
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
    const w = WORDS[turn.lang] || WORDS.EN;
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

  function applyWords(w) {
    document.documentElement.lang = w === WORDS.RU ? "ru" : "en";
    for (const el of document.querySelectorAll("[data-say]")) {
      const said = w[el.dataset.say];
      if (typeof said !== "string") continue;
      if (el.tagName === "TEXTAREA") el.placeholder = said;
      else el.textContent = said;
    }
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
  for (const p of state.phones) {
    listen(p);
    refreshTurn(p);
  }
  draw();
})();
