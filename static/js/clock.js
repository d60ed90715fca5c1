// The round clock ticks on every page that shows it. The page carries the server's deadline; the phone's
// own clock may be wrong, so the script asks the server for its time once (and every few minutes) and counts
// from the server's time: every screen shows the same seconds. Without this script the time the server
// rendered stands, and the server alone decides what is refused at time.
// The phone's offset from the server's clock is kept on the phone: a page reloaded offline (rendered long
// before) counts from it, and the table page's queue dates its entries by it (window.bidwhistServerNow).
(function () {
  "use strict";
  const selector = "[data-clock-ends]";
  const source = document.querySelector("[data-now-url]");
  if (!source) return;
  const first = document.querySelector(selector);
  const kept = "bidwhist.serverOffset";
  const stored = window.localStorage.getItem(kept);
  let offset = stored !== null && isFinite(Number(stored)) ? Number(stored) :
    Number(source.dataset.serverNow) - Date.now();
  window.bidwhistServerNow = function () { return Date.now() + offset; };

  function measure() {
    const sent = Date.now();
    fetch(source.dataset.nowUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        const back = Date.now();
        offset = data.now + (back - sent) / 2 - back;
        window.localStorage.setItem(kept, String(offset));
        document.documentElement.dataset.clockSynced = "1";
      })
      .catch(function () {});
  }

  function text(seconds) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    return hours ? hours + ":" + String(minutes).padStart(2, "0") + ":" + rest : minutes + ":" + rest;
  }

  function level(clock, left) {
    if (left === 0) return "up";
    if (left <= Number(clock.dataset.lastWarn) * 60) return "last";
    if (left <= Number(clock.dataset.warn) * 60) return "warning";
    return "ok";
  }

  function tick() {
    const now = Date.now() + offset;
    document.querySelectorAll(selector).forEach(function (clock) {
      const ends = Number(clock.dataset.clockEnds);
      if (!ends || clock.hasAttribute("data-called")) return;
      const left = Math.max(0, Math.ceil((ends - now) / 1000));
      clock.querySelector(".clock-time").textContent = text(left);
      const now_level = level(clock, left);
      if (clock.dataset.level === now_level) return;
      clock.classList.remove("clock-" + clock.dataset.level);
      clock.classList.add("clock-" + now_level);
      clock.dataset.level = now_level;
      if (now_level === "up") {
        clock.querySelector(".clock-words").textContent = clock.dataset.upWords;
        const ends_at = clock.querySelector(".clock-ends");
        if (ends_at) ends_at.hidden = true;
      }
      if (now_level !== "ok" && navigator.vibrate) {
        try { navigator.vibrate(now_level === "up" ? [300, 150, 300] : 200); } catch (error) { /* not allowed */ }
      }
    });
  }

  measure();
  setInterval(measure, 300000);
  if (!first) return;
  tick();
  setInterval(tick, 250);
})();
