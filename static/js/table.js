// Table scorekeeper's page: show only the trump or direction choice that fits the bid, and show
// the hand's points live as the scorekeeper taps, so one more tap saves it. Without this script the
// form still works: the server shows a confirmation page with the points before saving.
(function () {
  "use strict";

  function fitKind(form) {
    const kind = form.querySelector("input[name$='kind']:checked");
    const suit = form.querySelector("[data-field='suit']");
    const direction = form.querySelector("[data-field='direction']");
    if (!suit || !direction) return;
    const noTrump = kind && kind.value === "nt";
    suit.hidden = Boolean(kind) && noTrump;
    direction.hidden = Boolean(kind) && !noTrump;
    if (noTrump) {
      suit.querySelectorAll("input").forEach(function (input) { input.checked = false; });
    } else if (kind) {
      direction.querySelectorAll("input").forEach(function (input) { input.checked = false; });
    }
  }

  document.querySelectorAll(".hand-form").forEach(function (form) {
    fitKind(form);
    form.addEventListener("change", function () { fitKind(form); });
  });

  const form = document.getElementById("hand-form");
  if (!form || !window.fetch) return;
  const previewUrl = form.dataset.previewUrl;
  const target = document.getElementById("hand-preview");
  const submit = document.getElementById("hand-submit");
  const confirm = form.querySelector("input[name$='confirm']");
  let pending = 0;

  function refresh() {
    const request = ++pending;
    fetch(previewUrl, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        if (request !== pending) return;
        target.innerHTML = html;
        const ready = Boolean(target.querySelector(".preview-box"));
        confirm.value = ready ? "on" : "";
        submit.textContent = ready ? submit.dataset.saveLabel : "Show points";
      })
      .catch(function () { confirm.value = ""; });
  }

  submit.dataset.saveLabel = "Save " + form.querySelector("h2").textContent.replace(/^Enter /, "");
  form.addEventListener("change", refresh);
})();
