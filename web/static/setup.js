/* Camera view with zones and detected cards drawn over it; zone corners can be dragged and saved. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const cam = $("cam"), ov = $("overlay");
  if (!cam || !ov) return;
  let zones = {}, dets = [], drag = null;

  function draw() {
    ov.replaceChildren();
    for (const [name, pts] of Object.entries(zones)) {
      ov.append(svg("polygon", { class: "zone", points: pts.map(p => p.join(",")).join(" ") }));
      const t = svg("text", { x: pts[0][0] + 0.01, y: pts[0][1] + 0.035 }); t.textContent = name; ov.append(t);
      pts.forEach((p, i) => {
        const c = svg("circle", { class: "corner", cx: p[0], cy: p[1], r: 0.014, "data-zone": name, "data-i": i });
        ov.append(c);
      });
    }
    for (const d of dets) {
      if (!d.polygon) continue;
      ov.append(svg("polygon", { class: "det", points: d.polygon.map(p => p.join(",")).join(" ") }));
      const t = svg("text", { x: d.polygon[0][0], y: d.polygon[0][1] - 0.01 });
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
  loadOverlay(false);
  /* refresh the picture and the detections; the zones being edited stay as dragged */
  setInterval(() => { cam.src = `/setup/camera.jpg?t=${Date.now()}`; loadOverlay(true); }, 1500);

  const save = $("save-zones");
  if (save) save.addEventListener("click", async () => {
    const r = await post("/api/setup/zones", { zones });
    say(r.ok ? T.done : `${T.error} ${r.status}: ${r.data.error || ""}`, r.ok);
  });
})();
