/* Deck enrollment: take (or upload) the photo of the 40 cards in the grid, review the crops, fix any
   wrong code, save. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const form = $("enroll-form");
  if (!form) return;
  let crops = [];

  form.addEventListener("submit", async e => {
    e.preventDefault();
    const fd = new FormData();
    const file = form.querySelector('input[type="file"]').files[0];
    if (file) fd.append("photo", file);
    const r = await fetch("/api/setup/enroll", { method: "POST", body: fd, credentials: "same-origin",
                                                 headers: { "X-CSRF-Token": csrf() } });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { say(`${T.error} ${r.status}: ${data.error || ""}`, false); return; }
    crops = data.crops;
    render();
  });

  function render() {
    $("crops").replaceChildren(...crops.map(c => el("div", { class: "crop" + (c.confidence !== null && c.confidence < 0.8 ? " low" : "") },
      el("img", { src: c.image, alt: c.code || "?" }),
      el("input", { value: c.code || "", "data-index": c.index, maxlength: 3, "aria-label": T.new_card }),
      c.confidence !== null && c.confidence !== undefined ? el("span", { class: "muted", text: `${T.confidence} ${Math.round(c.confidence * 100)}%` }) : null)));
    $("save-deck").hidden = !crops.length;
  }

  $("save-deck").addEventListener("click", async () => {
    const list = [...document.querySelectorAll(".crop input")].map(i => ({ index: parseInt(i.dataset.index, 10), code: i.value.trim() }));
    const r = await post("/api/setup/enroll/save", { crops: list });
    say(r.ok ? T.done : `${T.error} ${r.status}: ${r.data.error || ""}`, r.ok);
  });
})();
