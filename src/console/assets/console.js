// The console's one script: the overview's counts stay live, read from
// /console/api/summary every few seconds (no reload, no other origin).
"use strict";
(function () {
  const counts = document.getElementById("counts");
  if (!counts) return;
  const every = 1000 * Number(counts.dataset.refresh || 10);
  const set = (id, value) => {
    const el = document.getElementById(id);
    if (el) el.textContent = String(value);
  };
  async function refresh() {
    try {
      const response = await fetch("/console/api/summary", { credentials: "same-origin" });
      if (!response.ok) return;
      const s = await response.json();
      set("players", s.players);
      set("lobbies", s.lobbies_waiting);
      set("backlog", s.outbox_backlog);
      set("parked", s.parked);
      set("inbound", s.inbound_per_minute[s.inbound_per_minute.length - 1] || 0);
      for (const [game, n] of s.running) {
        const el = counts.querySelector(`[data-game="${game}"]`);
        if (el) el.textContent = String(n);
      }
    } catch (_) {
      // The next tick tries again.
    }
  }
  setInterval(refresh, every);
})();
