/* Camera view with zones and detected cards drawn over it; zone corners can be dragged and saved. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const cam = $("cam"), ov = $("overlay");
  if (!cam || !ov) return;
  let zones = {}, dets = [], drag = null;
  /* The overlay is drawn in the picture's own pixels (zones come as fractions of it), so corners
     stay round and labels upright whatever the picture's shape. */
  let W = 1000, H = 1000;
  function fit() {
    if (cam.naturalWidth) { W = cam.naturalWidth; H = cam.naturalHeight; ov.setAttribute("viewBox", `0 0 ${W} ${H}`); }
  }
  cam.addEventListener("load", () => { const w = W, h = H; fit(); if (w !== W || h !== H) draw(); });
  const px = p => `${p[0] * W},${p[1] * H}`;

  function draw() {
    ov.replaceChildren();
    const r = Math.max(W, H) * 0.012, fs = Math.max(W, H) * 0.022;
    for (const [name, pts] of Object.entries(zones)) {
      ov.append(svg("polygon", { class: "zone", points: pts.map(px).join(" ") }));
      const t = svg("text", { x: pts[0][0] * W + r * 1.5, y: pts[0][1] * H + fs * 1.3, "font-size": fs }); t.textContent = name; ov.append(t);
      pts.forEach((p, i) => {
        const c = svg("circle", { class: "corner", cx: p[0] * W, cy: p[1] * H, r, "data-zone": name, "data-i": i });
        ov.append(c);
      });
    }
    for (const d of dets) {
      if (!d.polygon) continue;
      ov.append(svg("polygon", { class: "det", points: d.polygon.map(px).join(" ") }));
      const t = svg("text", { x: d.polygon[0][0] * W, y: d.polygon[0][1] * H - fs * 0.4, "font-size": fs });
      t.textContent = `${d.code || "?"} ${d.confidence !== undefined ? Math.round(d.confidence * 100) + "%" : ""}`;
      ov.append(t);
    }
  }

  function toUnit(ev) {
    const r = ov.getBoundingClientRect();
    return [Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height))];
  }
  ov.addEventListener("pointerdown", ev => {
    const t = ev.target;
    if (!t.classList.contains("corner")) return;
    drag = { zone: t.dataset.zone, i: parseInt(t.dataset.i, 10) };
    ov.setPointerCapture(ev.pointerId);
  });
  ov.addEventListener("pointermove", ev => {
    if (!drag) return;
    zones[drag.zone][drag.i] = toUnit(ev).map(v => Math.round(v * 1000) / 1000);
    draw();
  });
  ov.addEventListener("pointerup", () => { drag = null; });

  function loadOverlay(keepZones) {
    fetch("/api/setup/overlay").then(r => r.json()).then(o => {
      if (!keepZones) zones = o.zones || {};
      dets = o.detections || [];
      if (!drag) draw();
    }).catch(() => {});
  }
  fit();
  loadOverlay(false);
  /* refresh the picture and the detections; the zones being edited stay as dragged */
  setInterval(() => { cam.src = `/setup/camera.jpg?t=${Date.now()}`; loadOverlay(true); }, 1500);

  const save = $("save-zones");
  if (save) save.addEventListener("click", async () => {
    const r = await post("/api/setup/zones", { zones });
    say(r.ok ? T.done : `${T.error} ${r.status}: ${r.data.error || ""}`, r.ok);
  });
})();
