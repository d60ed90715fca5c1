// Projector view: show one panel at a time (standings, then the tables), switching every few
// seconds. Without this script both panels are shown one after the other and the page reloads itself.
(function () {
  "use strict";
  const container = document.querySelector(".projector-panels");
  if (!container) return;
  const panels = Array.from(container.querySelectorAll(".projector-panel"));
  const seconds = Number(container.dataset.cycleSeconds || 20);
  let current = 0;
  function show() {
    panels.forEach(function (panel, index) { panel.hidden = index !== current; });
  }
  show();
  window.setInterval(function () {
    current = (current + 1) % panels.length;
    show();
  }, seconds * 1000);
})();
