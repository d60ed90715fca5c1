// The projector in a hall: every panel (placings, standings, tables, playoff) is cut into pages that fit
// the screen, and the pages turn by themselves, one every few seconds; after a whole round of pages the
// page reloads for fresh results. No mouse or keyboard needed. Without this script everything is shown
// as one long page that reloads itself.
(function () {
  "use strict";
  const container = document.querySelector(".projector-panels");
  if (!container) return;
  const seconds = Number(container.dataset.seconds || 15);
  const panels = Array.from(container.querySelectorAll(".projector-panel"));
  let pages = [];

  function columns(list) {
    const count = parseInt(window.getComputedStyle(list).columnCount, 10);
    return count > 0 ? count : 1;
  }

  function cut(element) {
    return element.scrollWidth > element.clientWidth + 1;
  }

  function anyCut(line) {
    return Array.from(line.querySelectorAll(".fit")).some(cut);
  }

  // Cuts each panel into pages: as many lines as fit under its heading, in each of its columns. Names are whole
  // wherever the width allows: a page is in two columns only when each of its lines holds its names whole
  // there, else in one; where one column cannot hold a line's players' whole names, their surnames show.
  function paginate() {
    pages = [];
    panels.forEach(function (panel) {
      panel.hidden = false;
      const list = panel.querySelector(".projector-lines");
      if (!list) {
        pages.push({ panel: panel, lines: [], from: 0, to: 0, page: 0, count: 1, one: false });
        panel.hidden = true;
        return;
      }
      const lines = Array.from(list.children);
      lines.forEach(function (line) { line.hidden = false; });
      list.classList.remove("one");
      list.querySelectorAll(".short").forEach(function (name) { name.classList.remove("short"); });
      const two = columns(list) > 1;
      const cutInTwo = lines.map(function (line) { return two && anyCut(line); });
      list.classList.add("one");
      list.querySelectorAll(".fit").forEach(function (name) {
        if (name.querySelector(".surnames") && cut(name)) name.classList.add("short");
      });
      const heights = lines.map(function (line) { return line.getBoundingClientRect().height; });
      const room = window.innerHeight - list.getBoundingClientRect().top - 8;
      // The lines from ``from`` that one column holds (at least one).
      function column(from) {
        let to = from;
        for (let used = 0; to < lines.length && (to === from || used + heights[to] <= room); to++) used += heights[to];
        return to;
      }
      const cuts = [];
      let from = 0;
      do {
        let to = column(from);
        const further = two ? column(to) : to;
        const one = !two || cutInTwo.slice(from, further).some(Boolean);
        if (!one) to = further;
        cuts.push({ from: from, to: to, one: one });
        from = to;
      } while (from < lines.length);
      cuts.forEach(function (page, index) {
        pages.push({ panel: panel, lines: lines, from: page.from, to: page.to, page: index, count: cuts.length, one: page.one });
      });
      panel.hidden = true;
    });
  }

  function show(index) {
    const shown = pages[index];
    panels.forEach(function (panel) { panel.hidden = panel !== shown.panel; });
    shown.lines.forEach(function (line, at) { line.hidden = at < shown.from || at >= shown.to; });
    const list = shown.panel.querySelector(".projector-lines");
    if (list) list.classList.toggle("one", shown.one);
    const label = shown.panel.querySelector(".page-of");
    if (label) label.textContent = shown.count > 1 ? "· " + (shown.page + 1) + " of " + shown.count : "";
  }

  paginate();
  let current = 0;
  show(current);
  window.setInterval(function () {
    current += 1;
    if (current >= pages.length) {
      window.location.reload();
      return;
    }
    show(current);
  }, seconds * 1000);
  window.addEventListener("resize", function () {
    const panel = pages[current].panel;
    paginate();
    current = Math.max(0, pages.findIndex(function (page) { return page.panel === panel; }));
    show(current);
  });
})();
