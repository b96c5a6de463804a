// The training hall's one live connection per browser: a shared worker
// (or, where a browser has none, a worker per tab) holds one stream of
// Server-Sent Events for every phone its tabs name, and hands each text to
// every tab. A browser opens only six connections per host over HTTP/1.1:
// a stream per phone hung the page at its sixth phone.
"use strict";

// number -> { token, after }: every phone some tab holds.
const phones = new Map();
const ports = new Set();
// Phones whose token the server refused: not named again until a tab
// names them with another token.
const refused = new Map();
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;
// Phones added in a burst (twenty made one after another) restart the
// stream once.
const SETTLE_MS = 150;
let retry = 0;
let current = null;
let settling = null;
// What the tabs are told of the stream, as a key of the page's words
// (words.js) and what fills it: each tab says it in its own language.
let status = { live: false, say: "connecting" };
// This worker's streams, by one id: its next stream takes the places of the
// one before at once, rather than when the server sees its connection close.
const browser = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

function tell(message) {
  for (const port of ports) port.postMessage(message);
}

function say(live, words) {
  status = { live, ...words };
  tell({ type: "status", ...status });
}

// An error the tabs can word: `say` names the words, `detail` the server's.
function failure(say, more) {
  return Object.assign(new Error(say), { say }, more);
}

function watched() {
  return [...phones].filter(([number, p]) => refused.get(number) !== p.token);
}

function restartSoon() {
  clearTimeout(settling);
  settling = setTimeout(restart, SETTLE_MS);
}

function restart() {
  if (current) current.abort();
  current = null;
  const list = watched();
  if (!list.length) return;
  const controller = new AbortController();
  current = controller;
  run(controller, list).then(
    (ended) => {
      if (current !== controller) return;
      // The stream's lifetime ended: the next one goes on from each
      // phone's newest text.
      retry = 0;
      setTimeout(restart, ended === "lifetime" ? 0 : FIRST_RETRY_MS);
    },
    (error) => {
      if (current !== controller) return;
      retry = retry ? Math.min(retry * 2, LAST_RETRY_MS) : FIRST_RETRY_MS;
      const wait = error.retryAfter ? Math.max(error.retryAfter * 1000, retry) : retry;
      say(false, { say: error.say || "unreachable", detail: error.detail, status: error.status, wait: Math.round(wait / 1000) });
      setTimeout(() => { if (current === controller) restart(); }, wait + Math.random() * 500);
    },
  );
}

async function run(controller, list) {
  const body = JSON.stringify({
    browser,
    phones: list.map(([number, p]) => ({ number, token: p.token, after: p.after })),
  });
  let response;
  try {
    response = await fetch("/hall/events", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal: controller.signal,
      cache: "no-store",
    });
  } catch (_) {
    throw failure("unreachable");
  }
  if (response.status === 403) {
    const answer = await response.json().catch(() => ({}));
    for (const number of answer.phones || []) {
      const p = phones.get(number);
      if (p) refused.set(number, p.token);
    }
    tell({ type: "refused", phones: answer.phones || [] });
    return "refused";
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    throw failure("answered", {
      detail: answer.error,
      status: response.status,
      retryAfter: Number(response.headers.get("retry-after")) || 0,
    });
  }
  retry = 0;
  say(true, { say: "live" });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (_) {
      if (controller.signal.aborted) return "aborted";
      throw failure("ended");
    }
    if (chunk.done) return "lifetime";
    buffer += chunk.value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      handle(block);
    }
  }
}

// One event as the server writes it: `event:`, `id:`, `data:` lines.
function handle(block) {
  let kind = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) kind = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (kind !== "text" || !data.length) return;
  const text = JSON.parse(data.join("\n"));
  const p = phones.get(text.phone);
  if (p && text.id > p.after) p.after = text.id;
  tell({ type: "text", text });
}

// A tab names the phones it holds, each with the newest text it shows.
function watch(list) {
  let changed = false;
  for (const { number, token, after } of list) {
    const p = phones.get(number);
    if (!p || p.token !== token) {
      phones.set(number, { token, after: after || 0 });
      changed = true;
    } else if ((after || 0) > p.after) {
      p.after = after;
    }
  }
  if (changed) restartSoon();
}

function connect(port) {
  ports.add(port);
  port.onmessage = (event) => {
    const message = event.data;
    // A tab back from the back-forward cache says so by speaking again.
    if (message.type !== "bye") ports.add(port);
    if (message.type === "watch") watch(message.phones);
    else if (message.type === "bye") ports.delete(port);
  };
  port.postMessage({ type: "status", ...status });
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (event) => {
    const port = event.ports[0];
    connect(port);
    port.start();
  };
} else {
  connect(self);
}
