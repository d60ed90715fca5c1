// The team's own page keeps itself fresh: it reloads every 30 seconds while nobody is typing, so the team sees its
// next table as soon as the round is out; the banner for a new table comes with a short vibration where the phone
// allows it. Without this script the page reloads itself every minute (its noscript refresh).
(function () {
  "use strict";
  if (!document.body.classList.contains("team-page")) return;
  const banner = document.querySelector("[data-alert]");
  if (banner && navigator.vibrate) {
    try { navigator.vibrate([200, 100, 200]); } catch (error) { /* not allowed before a tap */ }
  }
  function typing() {
    const active = document.activeElement;
    if (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) return true;
    return Array.from(document.querySelectorAll("form input:not([type=hidden]), form textarea")).some(function (field) {
      return field.type !== "radio" && field.type !== "checkbox" && field.value && field.defaultValue !== field.value;
    });
  }
  setInterval(function () {
    if (!typing() && document.visibilityState === "visible") window.location.reload();
  }, 30000);
})();
