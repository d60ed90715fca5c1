// Keeps a live section current: fetches its HTML fragment again every few seconds while the page is
// visible. Without this script the page reloads itself (a <noscript> refresh) or by hand.
(function () {
  "use strict";
  document.querySelectorAll("[data-refresh-url]").forEach(function (section) {
    const url = section.dataset.refreshUrl;
    const seconds = Number(section.dataset.refreshSeconds || 20);
    function refresh() {
      if (document.hidden) return;
      fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) section.innerHTML = html; })
        .catch(function () { /* offline for a moment: try again next time */ });
    }
    window.setInterval(refresh, seconds * 1000);
  });
})();
