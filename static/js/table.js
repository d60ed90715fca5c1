// The table scorekeeper's page. Without this script every form still works (a check page shows the points
// before a hand is saved). With it:
//  - only the trump or the no-trump direction shows, whichever fits the bid; a penalty form shows only the
//    fields its offence needs;
//  - a hand is saved through a queue kept on the phone (localStorage): each entry has its own id, is shown
//    as "waiting to send" until the server answers, is sent again when the network returns, and is never
//    dropped: if another device changed the sheet meanwhile, the phone says so and asks;
//  - the phone shows whether it is online, and a service worker keeps the page for when it is not.
// The live preview of the points is htmx (hx-post on the form).
(function () {
  "use strict";

  function fitBid(form) {
    const bid = form.querySelector("[data-field='bid'] input:checked");
    const suit = form.querySelector("[data-field='suit']");
    const direction = form.querySelector("[data-field='direction']");
    if (!suit || !direction) return;
    const noTrump = Boolean(bid) && /:nt$/.test(bid.value);
    suit.hidden = noTrump;
    direction.hidden = !noTrump;
    (noTrump ? suit : direction).querySelectorAll("input").forEach(function (input) { input.checked = false; });
  }

  function fitOffence(form) {
    const needs = JSON.parse(form.dataset.offenceFields || "{}");
    const optional = new Set([].concat.apply([], Object.values(needs)));
    const kind = form.querySelector("[data-field='kind'] input:checked");
    const shown = new Set(kind ? needs[kind.value] || [] : []);
    optional.forEach(function (name) {
      const field = form.querySelector("[data-field='" + name + "']");
      if (field) field.hidden = !shown.has(name);
    });
  }

  document.querySelectorAll(".hand-form").forEach(function (form) {
    fitBid(form);
    form.addEventListener("change", function () { fitBid(form); });
  });
  document.querySelectorAll(".penalty-form").forEach(function (form) {
    fitOffence(form);
    form.addEventListener("change", function () { fitOffence(form); });
  });

  const form = document.getElementById("hand-form");
  const queueBox = document.getElementById("queue");
  const connection = document.getElementById("connection");
  if ("serviceWorker" in navigator && (form || queueBox)) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* no service worker over plain HTTP */ });
  }
  // After the queue saved an entry the page is reloaded and opened where the scorekeeper carries on.
  function toEntryIfAsked() {
    if (!window.sessionStorage.getItem("bidwhist.toEntry")) return;
    window.sessionStorage.removeItem("bidwhist.toEntry");
    const entry = document.getElementById("entry");
    if (entry) entry.scrollIntoView({ block: "start" });
  }
  if (!queueBox) { toEntryIfAsked(); return; }

  const table = (form && form.dataset.table) || queueBox.dataset.table;
  const storeKey = "bidwhist.queue." + window.location.pathname;
  const submit = document.getElementById("hand-submit");
  const preview = document.getElementById("hand-preview");
  let online = navigator.onLine;
  let sending = false;
  let retry = null;

  function load() {
    try { return JSON.parse(window.localStorage.getItem(storeKey) || "[]"); } catch (e) { return []; }
  }
  function save(queue) { window.localStorage.setItem(storeKey, JSON.stringify(queue)); }

  function newId() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function showConnection() {
    if (!connection) return;
    connection.hidden = false;
    connection.className = "connection " + (online ? "online" : "offline");
    connection.textContent = online ? "Online" :
      "Offline: hands entered now stay on this phone and are sent when the network is back.";
  }

  function button(label, action, id, danger) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button small row-action" + (danger ? " danger" : "");
    b.textContent = label;
    b.addEventListener("click", function () { action(id); });
    return b;
  }

  function render() {
    const queue = load();
    queueBox.textContent = "";
    queue.forEach(function (entry, index) {
      const item = document.createElement("div");
      item.className = "card queue-item " + entry.state;
      item.dataset.entry = entry.id;
      const title = document.createElement("p");
      const strong = document.createElement("strong");
      strong.textContent = "Hand " + entry.hand + ": " + entry.words;
      title.appendChild(strong);
      item.appendChild(title);
      const status = document.createElement("p");
      status.className = "small queue-status";
      const blocked = queue.slice(0, index).some(function (before) { return before.state !== "waiting"; });
      if (entry.state === "waiting") {
        status.textContent = blocked ? "Waiting behind the entry above." : "Waiting to send: kept on this phone.";
      } else {
        status.textContent = entry.message;
      }
      item.appendChild(status);
      if (entry.state !== "waiting") {
        const actions = document.createElement("div");
        actions.className = "row-actions";
        if (entry.state === "conflict") actions.appendChild(button("Send it as the next hand", resend, entry.id));
        actions.appendChild(button("Discard this entry", discard, entry.id, true));
        item.appendChild(actions);
      }
      queueBox.appendChild(item);
    });
  }

  function update(id, changes) {
    save(load().map(function (entry) { return entry.id === id ? Object.assign(entry, changes) : entry; }));
  }

  function resend(id) {
    const entry = load().find(function (e) { return e.id === id; });
    if (!entry) return;
    update(id, { state: "waiting", message: "", version: entry.current });
    render();
    flush();
  }

  function discard(id) {
    if (!window.confirm("Discard this entry? It is not on the sheet.")) return;
    const rest = load().filter(function (entry) { return entry.id !== id; });
    save(rest);
    if (!rest.length) { window.location.reload(); return; }
    render();
    flush();
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function later() {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, 5000);
  }

  // Sends the queue in order; each entry after the first is checked against the sheet as the entry
  // before it left it, so a change from another device in between is caught, never overwritten.
  function flush() {
    if (sending) return;
    const queue = load();
    const head = queue[0];
    if (!head || head.state !== "waiting") return;
    sending = true;
    const body = new URLSearchParams(head.fields);
    body.set("csrfmiddlewaretoken", csrfToken());
    body.set("hand-version", head.version);
    body.set("entry_id", head.id);
    fetch(head.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "queue" },
    }).then(function (response) {
      return response.json().catch(function () { return { status: "error", code: response.status }; });
    }).then(function (answer) {
      sending = false;
      online = true;
      showConnection();
      if (answer.status === "saved") {
        const rest = load().filter(function (entry) { return entry.id !== head.id; });
        if (rest.length) rest[0].version = answer.version;
        save(rest);
        if (!rest.length) {
          window.sessionStorage.setItem("bidwhist.toEntry", "1");
          window.history.scrollRestoration = "manual";
          window.location.reload();
          return;
        }
        render();
        flush();
      } else if (answer.status === "conflict") {
        update(head.id, { state: "conflict", message: answer.message, current: answer.version });
        render();
      } else if (answer.status === "refused") {
        update(head.id, { state: "refused", message: "Not saved: " + answer.message });
        render();
      } else {
        update(head.id, {
          state: "refused",
          message: "Not sent: the server answered " + answer.code + ". Reload the page and send it again; " +
            "the entry stays on this phone until you discard it.",
        });
        render();
      }
    }).catch(function () {
      sending = false;
      online = false;
      showConnection();
      later();
    });
  }

  function checkedLabel(name) {
    const input = form.querySelector("[data-field='" + name + "'] input:checked");
    return input ? input.closest("label").textContent.trim() : "";
  }

  function describe() {
    const bidder = checkedLabel("bidder").split(" · ")[0];
    const suit = checkedLabel("suit");
    return checkedLabel("bid") + (suit ? " " + suit : "") + " by " + bidder + ", " + checkedLabel("books") + " books";
  }

  function missing() {
    return ["dealer", "bidder", "bid", "books"].find(function (name) {
      return !form.querySelector("[data-field='" + name + "'] input:checked");
    });
  }

  function queuedHere() {
    return load().filter(function (entry) { return entry.table === table; }).length;
  }

  function nextHandNumber() {
    return Number(form.dataset.nextHand) + queuedHere();
  }

  function showNumber() {
    const number = nextHandNumber();
    form.querySelectorAll(".hand-number").forEach(function (span) { span.textContent = number; });
    submit.textContent = "Save hand " + number;
  }

  // While entries wait on the phone the form is ready for the one after them: cleared, with the dealer
  // moved on one seat (clockwise) per waiting hand.
  function readyForNext(steps) {
    const dealers = Array.from(form.querySelectorAll("[data-field='dealer'] input"));
    const current = dealers.findIndex(function (input) { return input.checked; });
    ["bidder", "bid", "books", "suit", "direction", "out_of_turn"].forEach(function (name) {
      form.querySelectorAll("[data-field='" + name + "'] input").forEach(function (input) { input.checked = false; });
    });
    if (current >= 0) dealers[(current + steps) % dealers.length].checked = true;
    fitBid(form);
    preview.textContent = "";
    showNumber();
    form.scrollIntoView({ block: "start" });
  }

  function fieldProblem(name) {
    const field = form.querySelector("[data-field='" + name + "']");
    let note = field.querySelector(".queue-problem");
    if (!note) {
      note = document.createElement("p");
      note.className = "error queue-problem";
      note.setAttribute("role", "alert");
      field.insertBefore(note, field.firstChild.nextSibling);
    }
    const legend = field.querySelector("legend");
    note.textContent = "Choose: " + (legend ? legend.textContent.trim() : name) + ".";
    field.scrollIntoView({ block: "center" });
  }

  if (form && submit) {
    showNumber();
    form.addEventListener("change", function () {
      form.querySelectorAll(".queue-problem").forEach(function (note) { note.remove(); });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const gap = missing();
      if (gap) { fieldProblem(gap); return; }
      const fields = Array.from(new FormData(form).entries()).filter(function (pair) {
        return pair[0] !== "csrfmiddlewaretoken";
      });
      const queue = load();
      queue.push({
        id: newId(),
        url: form.dataset.syncUrl,
        table: table,
        fields: fields,
        version: queue.length ? null : Number(form.querySelector("input[name='hand-version']").value),
        hand: nextHandNumber(),
        words: describe(),
        state: "waiting",
        message: "",
      });
      save(queue);
      render();
      readyForNext(1);
      flush();
    });
    document.body.addEventListener("htmx:sendError", function () {
      online = false;
      showConnection();
      preview.textContent = "The points show once the phone is back online; saving works offline.";
    });
    document.body.addEventListener("htmx:afterRequest", function (event) {
      if (event.detail.successful) { online = true; showConnection(); }
    });
  }

  window.addEventListener("online", function () { online = true; showConnection(); flush(); });
  window.addEventListener("offline", function () { online = false; showConnection(); });
  showConnection();
  render();
  if (form && queuedHere()) readyForNext(queuedHere());
  toEntryIfAsked();
  flush();
})();
