// The table scorekeeper's page. Without this script every form still works (a check page shows the points
// before a hand is saved). With it:
//  - only the trump or the no-trump direction shows, whichever fits the bid; a penalty form shows only the
//    fields its offence needs;
//  - a tap on the books saves the hand once the bidder and the bid are in (online: offline the points cannot
//    show, so Save is tapped after a look at the entry); the sheet then offers to undo it. A choice made from
//    the keyboard saves nothing: Save (Enter) does;
//  - a hand is saved through a queue kept on the phone (localStorage): each entry has its own id, is shown
//    as "waiting to send" until the server answers, is sent again when the network returns, and is never
//    dropped: an entry the server refuses (or that another device's change overtook) opens in the form as it
//    was typed, with the reason beside its field, and the entries after it wait for it;
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

  // The entry the server refused, opened in the form for correction: always the first of the queue, since
  // the queue is sent in order and stops at a refusal.
  function refusedEntry() {
    const head = load()[0];
    return head && head.state === "refused" ? head : null;
  }

  function render() {
    const queue = load();
    const stop = refusedEntry();
    queueBox.textContent = "";
    queue.forEach(function (entry) {
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
      if (stop && entry.id === stop.id) {
        status.textContent = "Not saved: " + entry.message + " Correct it in the form below and save it again.";
      } else if (stop) {
        status.textContent = "Waits for hand " + stop.hand + ": kept on this phone, sent once hand " +
          stop.hand + " is saved.";
      } else {
        status.textContent = "Waiting to send: kept on this phone.";
      }
      item.appendChild(status);
      if (stop && entry.id === stop.id) {
        const actions = document.createElement("div");
        actions.className = "row-actions";
        actions.appendChild(button("Discard this entry", discard, entry.id, true));
        item.appendChild(actions);
      }
      queueBox.appendChild(item);
    });
  }

  function update(id, changes) {
    save(load().map(function (entry) { return entry.id === id ? Object.assign(entry, changes) : entry; }));
  }

  // Hand numbers follow the sheet: the first entry of the queue is the sheet's next hand.
  function renumber(queue, first) {
    queue.forEach(function (entry, index) { entry.hand = first + index; });
  }

  function discard(id) {
    if (!window.confirm("Discard this entry? It is not on the sheet.")) return;
    const queue = load();
    const gone = queue.find(function (entry) { return entry.id === id; });
    const rest = queue.filter(function (entry) { return entry.id !== id; });
    if (gone && queue[0] === gone && rest.length) {
      rest[0].version = gone.current != null ? gone.current : gone.version;
      renumber(rest, gone.hand);
    }
    save(rest);
    window.location.reload();
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function later() {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, 5000);
  }

  function refuse(id, changes, reload) {
    update(id, Object.assign({ state: "refused" }, changes));
    if (reload) {
      window.location.reload();
      return;
    }
    render();
    if (!(form && openForCorrection())) queueBox.scrollIntoView({ block: "start" });
  }

  // Sends the queue in order; each entry after the first is checked against the sheet as the entry
  // before it left it, so a change from another device in between is caught, never overwritten. The queue
  // stops at an entry the server refuses: it opens in the form, and the entries after it wait for it.
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
    if (head.at) body.set("entered_at", String(Math.round(head.at)));
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
        // The sheet changed elsewhere: the page is loaded again to show it, with this entry open on it as the
        // hand now next, with the dealer the server gives it (the one the sheet now proposes).
        const queue = load();
        if (answer.hand) renumber(queue, answer.hand);
        if (answer.dealer && queue[0] && queue[0].id === head.id) {
          queue[0].fields = queue[0].fields.map(function (pair) {
            return pair[0] === "hand-dealer" ? [pair[0], answer.dealer] : pair;
          });
        }
        save(queue);
        refuse(head.id, { message: answer.message, current: answer.version, field: "" }, true);
      } else if (answer.status === "refused") {
        const fields = Object.keys(answer.errors || {}).filter(function (name) { return name !== "__all__"; });
        refuse(head.id, { message: answer.message, field: answer.field || fields[0] || "" });
      } else {
        refuse(head.id, {
          message: "the server answered " + answer.code + ". Save it again in a moment; the entry stays on " +
            "this phone until it is saved or you discard it.",
          field: "",
        });
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

  // The entry in the sheet's words: the contract, then the deal's other entries the form declares
  // (data-details: each one's name and label), as the saved hand's row lists them.
  function describe() {
    const bidder = checkedLabel("bidder").split(" · ")[0];
    const suit = checkedLabel("suit");
    const details = Object.entries(JSON.parse(form.dataset.details || "{}")).map(function (pair) {
      const typed = form.querySelector("[data-field='" + pair[0] + "'] input:not([type='radio'])");
      const answer = typed ? typed.value.trim() : checkedLabel(pair[0]);
      return answer ? " · " + pair[1] + ": " + answer : "";
    });
    return checkedLabel("bid") + (suit ? " " + suit : "") + " by " + bidder + ", " + checkedLabel("books") + " books" +
      details.join("");
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

  // The sheet's status names the next hand as the server last sent it; while entries wait on the phone the
  // form is for a later hand, and the status line (its card too, when it says nothing else) steps aside.
  function showNextHand(number) {
    const line = document.getElementById("next-hand");
    if (!line) return;
    line.hidden = number !== Number(form.dataset.nextHand);
    const card = line.parentNode;
    card.hidden = line.hidden && card.textContent.trim() === line.textContent.trim();
  }

  function showNumber() {
    const fixing = refusedEntry();
    const number = fixing ? fixing.hand : nextHandNumber();
    const heading = form.querySelector(".hand-number").parentNode;
    heading.firstChild.textContent = fixing ? "Correct hand " : "Enter hand ";
    form.querySelectorAll(".hand-number").forEach(function (span) { span.textContent = number; });
    submit.textContent = "Save hand " + number;
    showNextHand(number);
  }

  // Every answer of the hand but its dealer, which the next hand's proposal sets.
  function clearAnswers() {
    form.querySelectorAll("[data-field]:not([data-field='dealer']) input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = false;
      else if (input.type === "number") input.value = "";
    });
    form.querySelectorAll(".queue-problem").forEach(function (note) { note.remove(); });
  }

  function versionInput() {
    return form.querySelector("input[name='hand-version']");
  }

  // While entries wait on the phone the form is ready for the one after them: cleared, with the dealer
  // moved on one seat (clockwise) from the last waiting entry's.
  function readyForNext() {
    const queue = load().filter(function (entry) { return entry.table === table; });
    const dealers = Array.from(form.querySelectorAll("[data-field='dealer'] input"));
    clearAnswers();
    const last = queue[queue.length - 1];
    const dealt = last && last.fields.find(function (pair) { return pair[0] === "hand-dealer"; });
    const current = dealt ? dealers.findIndex(function (input) { return input.value === dealt[1]; }) : -1;
    if (current >= 0) dealers[(current + 1) % dealers.length].checked = true;
    fitBid(form);
    preview.textContent = "";
    showNumber();
    form.scrollIntoView({ block: "start" });
  }

  function note(field, text) {
    const problem = document.createElement("p");
    problem.className = "error queue-problem";
    problem.setAttribute("role", "alert");
    problem.textContent = text;
    const label = field && field.querySelector("legend, label");
    if (label) {
      label.after(problem);
    } else if (field) {
      field.prepend(problem);
    } else {
      form.insertBefore(problem, form.querySelector("h2").nextSibling);
    }
    return problem;
  }

  function fieldProblem(name) {
    const field = form.querySelector("[data-field='" + name + "']");
    form.querySelectorAll(".queue-problem").forEach(function (old) { old.remove(); });
    const legend = field.querySelector("legend");
    note(field, "Choose: " + (legend ? legend.textContent.trim() : name) + ".");
    field.scrollIntoView({ block: "center" });
  }

  // The refused entry back in the form as it was typed, its version the sheet's, the server's reason beside
  // the field it concerns (or at the top of the form), in view.
  function openForCorrection() {
    const entry = refusedEntry();
    if (!entry) return false;
    clearAnswers();
    form.querySelectorAll("[data-field='dealer'] input").forEach(function (input) { input.checked = false; });
    entry.fields.forEach(function (pair) {
      form.querySelectorAll("input[name='" + pair[0] + "']").forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === pair[1]) input.checked = true;
        } else if (input.type !== "hidden") {
          input.value = pair[1];
        }
      });
    });
    versionInput().value = entry.current != null ? entry.current : entry.version;
    const more = form.querySelector("details.more");
    // A dealer refused is marked dealt out of turn there, as the refusal says.
    const marked = form.querySelector("[data-field='out_of_turn'] input:checked");
    if (more && (marked || entry.field === "dealer")) more.open = true;
    fitBid(form);
    preview.textContent = "";
    showNumber();
    const field = entry.field ? form.querySelector("[data-field='" + entry.field + "']") : null;
    if (field && field.closest("details")) field.closest("details").open = true;
    const problem = note(field, "Not saved: " + entry.message);
    (field || problem).scrollIntoView({ block: "center" });
    return true;
  }

  // Whether the change being made is a tap (a pointer's click has a count; the keyboard's has none).
  let tapped = false;

  function savesOnBooks(event) {
    const onBooks = Boolean(event.target.closest("[data-field='books']"));
    const saves = tapped && onBooks && online && !missing();
    tapped = false;
    if (!saves) return;
    event.stopPropagation();  // no preview: the saved hand's message gives its points
    form.requestSubmit(submit);
  }

  if (form && submit) {
    showNumber();
    form.addEventListener("click", function (event) { if (event.detail > 0) tapped = true; }, true);
    form.addEventListener("keydown", function () { tapped = false; }, true);
    form.addEventListener("change", savesOnBooks, true);
    form.addEventListener("change", function () {
      form.querySelectorAll(".queue-problem").forEach(function (old) { old.remove(); });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const gap = missing();
      if (gap) { fieldProblem(gap); return; }
      const fields = Array.from(new FormData(form).entries()).filter(function (pair) {
        return pair[0] !== "csrfmiddlewaretoken" && pair[0] !== "hand-version";
      });
      const fixing = refusedEntry();
      if (fixing) {
        // A corrected entry is a new entry: its own id, sent first, the entries behind it after it.
        update(fixing.id, {
          id: newId(), fields: fields, words: describe(), state: "waiting", message: "", field: "",
          version: Number(versionInput().value), current: null,
        });
      } else {
        const queue = load();
        queue.push({
          id: newId(),
          url: form.dataset.syncUrl,
          table: table,
          fields: fields,
          version: queue.length ? null : Number(versionInput().value),
          hand: nextHandNumber(),
          // When it was entered, on the server's clock: a hand entered before time was called counts as
          // played before the call, however late the network lets it reach the server.
          at: window.bidwhistServerNow ? window.bidwhistServerNow() : Date.now(),
          words: describe(),
          state: "waiting",
          message: "",
        });
        save(queue);
      }
      render();
      readyForNext();
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
  if (form && openForCorrection()) {
    window.sessionStorage.removeItem("bidwhist.toEntry");
  } else if (refusedEntry()) {
    queueBox.scrollIntoView({ block: "start" });
  } else {
    if (form && queuedHere()) readyForNext();
    toEntryIfAsked();
  }
  flush();
})();
