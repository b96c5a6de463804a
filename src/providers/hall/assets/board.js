// The drawn board beside the thread: the shown phone's current or last match
// as the game draws it (SVG from the server), fetched again after each text
// that arrives. The SMS text stays the truth; this is a picture of it.
// hall.js tells which phone is shown ("hall:phone") and when a text came
// ("hall:text"), each with the phone's number and token.
"use strict";

(function () {
  const figure = document.getElementById("board");
  if (!figure) return;
  const picture = figure.querySelector(".picture");
  let shown = null;
  let timer = null;
  let asked = 0;

  // Several texts arrive together (a move and the robot's answer): one fetch.
  function later() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  }

  async function refresh() {
    const phone = shown;
    if (!phone) return;
    const ask = ++asked;
    let svg = null;
    try {
      const response = await fetch("hall/phones/" + encodeURIComponent(phone.number) + "/board", {
        headers: { "x-hall-token": phone.token },
        cache: "no-store",
      });
      if (response.ok) svg = await response.text();
    } catch (_) { /* offline for a moment: the next text tries again */ }
    // A newer request, or another phone shown since: this answer is stale.
    if (ask !== asked || phone !== shown) return;
    draw(svg);
  }

  function draw(svg) {
    const parsed = svg && new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    if (!parsed || parsed.nodeName !== "svg") {
      figure.hidden = true;
      picture.replaceChildren();
      return;
    }
    picture.replaceChildren(document.importNode(parsed, true));
    figure.hidden = false;
  }

  document.addEventListener("hall:phone", (event) => {
    const phone = event.detail;
    if (shown && phone && shown.number === phone.number) return;
    shown = phone;
    draw(null);
    later();
  });

  document.addEventListener("hall:text", (event) => {
    if (shown && event.detail && event.detail.number === shown.number) later();
  });
})();
