"""The one composition root: frame source -> vision -> tracker -> event store -> devices, robot, web.

Threads: the vision loop (source, observer, tracker), the robot seat (decides off the game loop), the
score display's own link thread, the speaker's worker, the web server. Every change of game state is
an event appended to the store; the ledger follows the store in id order under ``self.lock``.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Dict, Optional

from table.config import data_dir
from table.events import Event
from table.ledger import Ledger
from table.store import DiskFull, EventStore
from table.tracker import Tracker

log = logging.getLogger("brisca-table")


class TableService:
    """Build with a config dict (see :mod:`table.config`), then :meth:`start` and :meth:`stop`."""

    def __init__(self, cfg: Dict[str, Dict[str, Any]], *, source_factory=None, pin_factory=None) -> None:
        self.cfg = cfg
        self.lock = threading.RLock()
        self.stopped = threading.Event()
        self._wake = threading.Event()
        self.store = EventStore(data_dir(cfg), min_free_bytes=cfg["store"]["min_free_mb"] * 2 ** 20)
        self.source_factory = source_factory
        self._pin_factory = pin_factory
        self.latest_image = None
        self.health: Dict[str, Dict[str, Any]] = {}
        self.frames_skipped = 0  # frames the vision pipeline raised on (`_frame_unread`)
        self.threads = []
        self.lights = self.display = self.firmware_sim = self.speaker = self.web = None
        self.sim = None
        self.observer = None
        self.zone_set = None
        self.image_to_table = None
        self.image_size = None
        self._last_device_line = ""
        self.ledger = Ledger()
        self._follow()
        self.store.add_listener(lambda e: self._follow())
        self.tracker = Tracker(self.ledger, self.store.append, frame_saver=self._save_frame)
        self._restore_tracker()

    # -- the ledger follows the store ------------------------------------------------------------
    def _follow(self) -> None:
        """Fold every stored event not yet folded, in id order, then tell the devices and the robot."""
        with self.lock:
            new = self.store.events(since=self.ledger.last_id)
            for e in new:
                self.ledger.apply(e)
            if new:
                self._show(new)
        if new:
            self._wake.set()

    def snapshot(self) -> Dict[str, Any]:
        with self.lock:
            ann = self.ledger.announcement
            return {"match": self.ledger.match, "announcement": ann.data if ann else None,
                    "last_id": self.ledger.last_id}

    def _restore_tracker(self) -> None:
        """After a restart the tracker carries on from the stored hand: nothing to rebuild but the
        alerts it had raised, so that it does not raise them again."""
        for a in self.ledger.alerts:
            self.tracker.alerts.setdefault(a.data.get("kind", ""), set()).add(a.data.get("message", ""))

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> "TableService":
        self._ensure_match()
        self._start_devices()
        self._start_web()
        self._spawn(self._vision_loop, "vision")
        self._spawn(self._robot_loop, "robot")
        self._spawn(self._housekeeping, "housekeeping")
        return self

    def _spawn(self, fn, name) -> None:
        t = threading.Thread(target=fn, name=name, daemon=True)
        t.start()
        self.threads.append(t)

    def stop(self) -> None:
        self.stopped.set()
        self._wake.set()
        if self.sim is not None:
            self.sim.stop()
        for t in self.threads:
            t.join(timeout=5)
        for dev in (self.web, self.display, self.firmware_sim, self.speaker, self.lights):
            if dev is None:
                continue
            try:
                (dev.stop if hasattr(dev, "stop") else dev.close)()
            except Exception:
                log.exception("stopping %r", dev)
        self.store.close()

    def wait(self) -> None:
        while not self.stopped.is_set():
            self.stopped.wait(0.5)

    # -- matches --------------------------------------------------------------------------------
    def _ensure_match(self) -> None:
        t = self.cfg["table"]
        with self.lock:
            m = self.ledger.match
            if m is not None and not (m.ended and t["auto_new_match"]):
                return
            number = (m.number if m else 0) + 1
            robot = t["robot_seat"] if t["robot_seat"] >= 0 else None
            first = t["first_dealer"] if m is None else m.match().dealer
            self.store.append(Event("match_start", {"rules": t["rules"], "seats": list(t["seats"]),
                                                    "robot_seat": robot, "first_dealer": first},
                                    key=f"m{number}start"))

    # -- vision ---------------------------------------------------------------------------------
    def _open_source(self):
        """(frames iterator, observer-or-None). The simulator can yield ready observations."""
        if self.source_factory is not None:
            return self.source_factory(self)
        cam = self.cfg["camera"]
        if cam["source"] == "sim":
            from table.simtable import SimulatedTable

            s = self.cfg["sim"]
            self.sim = SimulatedTable(self.snapshot, seed=s["seed"], mode=s["mode"], deck_dir=s["deck"],
                                      fps=cam["fps"], realtime=s["realtime"], max_hands=s["hands"])
            return self.sim.frames(), None
        from vision.sources import open_source

        src = open_source(cam["source"])
        return ((f.timestamp, f.image) for f in src), None

    def _observer(self, image):
        """The pixel observer, once the camera's calibration is known (None until it is)."""
        import numpy as np

        from vision.calibrate import Calibration, CalibrationError, Zones, calibrate_markers, default_zones
        from vision.observe import Observer
        from vision.recognise import Recogniser

        cam = self.cfg["camera"]
        if self.sim is not None:
            h = self.sim.image_to_table
            self.zone_set = self.sim.layout.zones
        else:
            zones_file = cam["zones"] or (str(data_dir(self.cfg) / "zones.json")
                                          if (data_dir(self.cfg) / "zones.json").exists() else "")
            n = self.ledger.match.rules.players if self.ledger.match else 2
            self.zone_set = Zones.load(zones_file) if zones_file else default_zones(n)
            try:
                cal = (Calibration.load(cam["calibration"]) if cam["calibration"] else
                       calibrate_markers(image, self.zone_set.width_mm, self.zone_set.height_mm))
            except CalibrationError as e:
                self._device("calibration", False, str(e))
                return None
            h = cal.image_to_table
            self._device("calibration", True, f"markers {cal.markers_found}, {cal.rms_mm:.1f} mm rms")
        self.image_to_table = np.asarray(h)
        self.image_size = (image.shape[1], image.shape[0])
        return Observer(Recogniser(self._identifier()), self.image_to_table,
                        lambda x, y: self.zone_set.locate((x, y)))

    def _identifier(self):
        """The enrolled deck; else the built-in deck's templates when the simulator draws that
        deck; else (a real camera, or a simulated deck nobody enrolled) the deck-agnostic reader,
        learning the deck as the game shows it: the built-in templates would read a printed deck
        as whatever built-in card it looks most like."""
        from vision import synth
        from vision.identify import Templates
        from vision.learn import Learner

        deck = self.cfg["camera"]["deck"] or (str(data_dir(self.cfg) / "deck")
                                              if (data_dir(self.cfg) / "deck").is_dir() else "")
        if deck:
            return Templates.from_folder(deck)
        if self.cfg["camera"]["source"] == "sim" and not self.cfg["sim"]["deck"]:
            return Templates.from_deck(synth.builtin(48))
        return Learner()

    def _vision_loop(self) -> None:
        import cv2

        cv2.setNumThreads(1)
        from vision.observe import Observation

        observer = None
        while not self.stopped.is_set():
            try:
                frames, observer = self._open_source()
                self._device("camera", True, self.cfg["camera"]["source"])
                for i, (ts, frame) in enumerate(frames):
                    if self.stopped.is_set():
                        return
                    if isinstance(frame, Observation):
                        obs = frame
                    else:
                        self.latest_image = frame
                        if observer is None:
                            observer = self.observer = self._observer(frame)
                            if observer is None:
                                continue  # no calibration yet: nothing can be placed on the table
                        try:
                            obs = observer.observe(frame, ts, i, keep_image=True)
                        except Exception as e:  # a bug in reading one frame is no dead camera:
                            self._frame_unread(i, e)  # skip it, the tracker waits for the next
                            continue
                        if self.health.get("vision", {}).get("ok") is False:
                            self._device("vision", True, f"frame {i} read")
                    with self.lock:
                        self.tracker.observe(obs)
                        if self.ledger.match is not None and self.ledger.match.ended:
                            self._ensure_match()
                if self.sim is not None and self.sim.finished:
                    self._device("camera", True, "simulation finished")
                    return
                raise IOError("the camera stopped sending frames")
            except Exception as e:  # camera gone: keep scoring what we have, retry
                if self.stopped.is_set():
                    return
                log.warning("camera: %s; retrying in 2 s", e)
                self._device("camera", False, str(e))
                self.stopped.wait(2.0)

    def _frame_unread(self, i: int, e: Exception) -> None:
        """A frame the vision pipeline raised on: logged with its traceback the first time in a
        run of such frames (then counted), shown as the "vision" device, and skipped. Reopening
        the camera for it, as for a camera that stopped, would restart a video file."""
        if self.health.get("vision", {}).get("ok") is not False:
            log.exception("vision: frame %d could not be read; skipped", i)
        self.frames_skipped += 1
        self._device("vision", False, f"{self.frames_skipped} frame(s) skipped so far, the last "
                                      f"{i}: {type(e).__name__}: {e}")

    def _save_frame(self, image, kind: str) -> Optional[str]:
        import cv2

        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if not ok:
            return None
        try:
            path = self.store.save_frame(buf.tobytes(), kind)
            if not self.health.get("disk", {}).get("ok", True):
                self._device("disk", True, "space again")
            return path
        except DiskFull as e:
            self._device("disk", False, str(e))
            return None

    def camera_jpeg(self) -> Optional[bytes]:
        """The newest camera frame as JPEG (the set-up page's camera view)."""
        import cv2

        img = self.latest_image
        if img is None:
            return None
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 75])
        return buf.tobytes() if ok else None

    # -- the set-up pages (the dashboard's controller) --------------------------------------------
    def zones(self) -> Optional[dict]:
        """Zones as fractions of the camera picture (through the calibration), for drawing."""
        if self.zone_set is None or self.image_to_table is None:
            return None
        import numpy as np

        from vision.geometry import apply_h

        to_img = np.linalg.inv(self.image_to_table)
        w, h = self.image_size
        return {z.name: [[float(x) / w, float(y) / h] for x, y in apply_h(to_img, z.polygon)]
                for z in self.zone_set.zones}

    def set_zones(self, fractions: dict) -> None:
        """Zones dragged on the picture: back to table mm, saved in the data dir, used at once."""
        import numpy as np

        from vision.calibrate import Zone, Zones
        from vision.geometry import apply_h

        if self.image_to_table is None:
            raise ValueError("the camera is not calibrated yet")
        w, h = self.image_size
        zs = [Zone(name, apply_h(self.image_to_table, np.array(poly, float) * [w, h]))
              for name, poly in fractions.items()]
        new = Zones(zs, self.zone_set.width_mm, self.zone_set.height_mm)
        new.save(data_dir(self.cfg) / "zones.json")
        self.zone_set = new

    def detections(self):
        obs = self.observer
        if obs is None or self.image_size is None:
            return []
        w, h = self.image_size
        return [{"code": c.code, "confidence": round(float(c.confidence), 2),
                 "polygon": [[float(x) / w, float(y) / h] for x, y in c.corners]} for c in obs.last_seen]

    def enroll(self, jpeg: Optional[bytes]):
        """Crops of a 4 x 10 grid photo (or the camera's picture), each with the code its place gives."""
        import cv2
        import numpy as np

        from vision.enroll import EnrollError, enroll_photo

        img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR) if jpeg else self.latest_image
        if img is None:
            raise ValueError("no photo and no camera picture")
        try:
            tpl = enroll_photo("photo", image=img)
        except EnrollError as e:
            raise ValueError(str(e)) from None
        check = self._identifier()
        self._pending_enroll = tpl
        out = []
        for code in tpl.codes:
            rect = tpl.rects[code]
            ident = check.identify(rect)
            ok, buf = cv2.imencode(".jpg", rect)
            out.append({"code": code, "jpeg": buf.tobytes() if ok else b"",
                        "confidence": round(float(ident.confidence), 2) if ident.code == code else 0.3})
        return out

    def save_enrollment(self, crops) -> None:
        from vision.identify import Templates

        tpl = getattr(self, "_pending_enroll", None)
        if tpl is None:
            raise ValueError("take the enrollment photo first")
        codes = tpl.codes
        rects = {}
        for c in crops:
            if not 0 <= c["index"] < len(codes):
                raise ValueError(f"no crop {c['index']}")
            rects[c["code"]] = tpl.rects[codes[c["index"]]]
        new = Templates(rects, "enrolled")
        new.save(data_dir(self.cfg) / "deck")
        if self.observer is not None:
            self.observer.recogniser.identifier = new

    # -- robot ----------------------------------------------------------------------------------
    def _robot_loop(self) -> None:
        from table.robot.announce import announce
        from table.robot.players import make_player

        r = self.cfg["robot"]
        player = make_player(r["player"], budget_ms=r["budget_ms"], seed=r["seed"], max_ms=r["max_ms"] or None)
        while not self.stopped.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            with self.lock:
                job = self._robot_job()
            if job is None:
                continue
            view, seat, stamp = job
            try:
                action = player.choose(view)
            except Exception:
                log.exception("the robot could not decide")
                continue
            text = announce(action, view, r["lang"])
            with self.lock:
                if self.ledger.last_id != stamp[0] and self._robot_job() is None:
                    continue  # the table moved on while we thought
                self.store.append(Event("announce", {"seat": seat, "text": text, "action": action.to_json(),
                                                     "lang": r["lang"]}, key=stamp[1]))
            if self.speaker is not None:
                self.speaker.say(text)

    def _robot_job(self):
        """(view, seat, stamp) when the robot must act and has not announced yet."""
        m, h = self.ledger.match, self.ledger.hand
        if m is None or m.robot_seat is None or h is None or h.game is None or h.error:
            return None
        g = h.game
        seat = m.robot_seat
        if g.is_over() or g.turn != seat or self.ledger.announcement is not None:
            return None
        from table.cards import Card

        cards = [Card.parse(c).index for c in self.ledger.robot_hand]
        if len(cards) != len(g.hands[seat]):
            return None  # it cannot see its own hand in the tray yet
        view = g.copy()
        view.hands[seat] = cards
        key = f"m{m.number}h{h.number}a{len(h.record.actions)}announce"
        return view, seat, (self.ledger.last_id, key)

    # -- devices --------------------------------------------------------------------------------
    def _start_devices(self) -> None:
        from table.devices.voice import make_speaker

        v = self.cfg["voice"]
        try:
            self.speaker = make_speaker(v["engine"], lang=v["lang"])
            self._device("voice", True, type(self.speaker).__name__)
        except Exception as e:
            self._device("voice", False, str(e))
        self._start_lights()
        self._start_display()
        self._show([])

    def _start_lights(self) -> None:
        g = self.cfg["gpio"]
        try:
            from table.devices.leds import TableLights

            factory = self._pin_factory
            if factory is None and g["pin_factory"] == "mock":
                from gpiozero.pins.mock import MockFactory, MockPWMPin
                factory = MockFactory(pin_class=MockPWMPin)
            self.lights = TableLights(g["pins"] or None, pin_factory=factory, on_confirm=self._confirm,
                                      on_undo=self._undo, on_repeat=self._repeat)
            self._device("leds", True, "mock pins" if g["pin_factory"] == "mock" else "GPIO")
        except Exception as e:  # no GPIO here: keep going without LEDs
            self.lights = None
            self._device("leds", False, str(e))

    def _start_display(self) -> None:
        port = self.cfg["display"]["port"]
        if port == "off":
            return
        try:
            from table.devices.display import ScoreDisplay

            if port == "sim":
                from table.devices.firmware_sim import FirmwareSim

                self.firmware_sim = FirmwareSim()
                self.firmware_sim.start()
                log.info("firmware simulator on %s", self.firmware_sim.port)
                self.display = ScoreDisplay(port=lambda: self.firmware_sim.port).start()
            else:
                self.display = ScoreDisplay(port=None if port == "auto" else port).start()
        except Exception as e:
            self._device("display", False, str(e))

    def _table_state(self):
        from table.devices.state import TableState

        st = self.ledger.state()
        m, h = st["match"], st["hand"]
        if m is None:
            return TableState(watching=True)
        pts = tuple(h["points"]) if h else ()
        last = h["last_trick"] if h else None
        return TableState(trump=h["trump_suit"] if h else None, seats=len(m["seats"]),
                          turn=h["turn"] if h else None, points=pts[:2] if len(pts) >= 2 else pts,
                          hands_won=tuple(m["hands_won"][:2]), trick_winner=last["winner"] if last else None,
                          tricks_played=h["tricks"] if h else 0, alert=bool(st["alerts"]),
                          names=tuple(m["seats"]))

    def _show(self, new) -> None:
        """Devices show the state after new events (called with the lock held; never blocks)."""
        try:
            state = self._table_state()
        except Exception:
            log.exception("table state")
            return
        if self.lights is not None:
            try:
                self.lights.show(state)
            except Exception as e:
                self._device("leds", False, str(e))
        if self.display is not None:
            self.display.update(state)
        line = self.lights.describe() if self.lights is not None else ""
        if line and line != self._last_device_line:
            self._last_device_line = line
            log.info("LEDs: %s", line)
        for e in new:
            if e.type in ("play", "swap", "hand_start", "hand_end", "alert", "announce"):
                log.info("event %d %s %s", e.id, e.type, e.data)
            if e.type == "hand_end" and self.speaker is not None and self.ledger.match:
                self._say_hand_end(e)

    def _say_hand_end(self, e: Event) -> None:
        from table.devices.phrases import Phrases

        m = self.ledger.match
        pts = e.data["points"]
        w = e.data.get("winner")
        try:
            p = Phrases(self.cfg["voice"]["lang"])
            if w is None:
                self.speaker.say(p.draw())
            else:
                names = [m.seats[s] for s in range(len(m.seats)) if m.rules.side_of(s) == w]
                others = [x for i, x in enumerate(pts) if i != w]
                self.speaker.say(p.game_winner(names, pts[w], max(others) if others else 0))
        except Exception:
            log.exception("speech")

    def _device(self, name: str, ok: bool, detail: str = "") -> None:
        prev = self.health.get(name)
        self.health[name] = {"ok": ok, "detail": detail}
        if prev is None or prev["ok"] != ok:
            self.store.append(Event("device", {"name": name, "ok": ok, "detail": detail}))

    def _housekeeping(self) -> None:
        """Device health into the log, frame retention, the simulator's terminal display."""
        s = self.cfg["store"]
        last_prune = 0.0
        last_line, last_log = "", 0.0
        while not self.stopped.wait(0.25):
            if self.display is not None:
                h = self.display.health()
                self._device("display", h.connected, h.port or h.last_error)
            if self.firmware_sim is not None:  # what the Pico's strip and digits show, in the log
                line = self.firmware_sim.render_line(color=True)
                if line != last_line and time.monotonic() - last_log > 2.0:  # animations: not every tick
                    last_line, last_log = line, time.monotonic()
                    log.info("display: %s", line)
            if time.monotonic() - last_prune > 600:
                last_prune = time.monotonic()
                n = self.store.prune_frames(max_age_s=s["frames_max_days"] * 86400,
                                            max_bytes=s["frames_max_mb"] * 2 ** 20)
                if n:
                    log.info("pruned %d old frames", n)

    # -- buttons --------------------------------------------------------------------------------
    def _confirm(self) -> None:
        with self.lock:
            self.tracker.confirm()
            for a in list(self.ledger.alerts):
                self.store.append(Event("alert_cleared", {"kind": a.data.get("kind", ""), "by": "button"}))

    def _undo(self) -> None:
        with self.lock:
            h = self.ledger.hand
            if h is not None and h.action_events:
                self.store.append(Event("undo", {"target": h.action_events[-1], "by": "button"}))

    def _repeat(self) -> None:
        if self.speaker is not None:
            self.speaker.repeat_last()

    # -- web ------------------------------------------------------------------------------------
    def _start_web(self) -> None:
        w = self.cfg["web"]
        if not w["enabled"]:
            return
        from web import create_app
        from web.server import serve

        app = create_app(self.store, controller=self)
        self.web = serve(app, host=w["host"], port=w["port"])
        log.info("dashboard at http://%s:%d", w["host"], w["port"])
