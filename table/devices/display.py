"""Host driver for the Pico score display (pyserial), see firmware/PROTOCOL.md.

One thread owns the port: it finds the Pico, says HELLO and waits for READY, then sends the newest
full state whenever it differs from what the Pico last acknowledged, and a heartbeat otherwise.
``update()`` only swaps a reference and wakes the thread, so the game loop never blocks on USB.
A pulled cable (read/write errors, or ACKs that stop coming) drops the session; the thread looks
for the port again, possibly under a new name, and resends the full state after READY.
"""
from __future__ import annotations

import glob
import logging
import os
import select
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence, Union

from firmware import protocol

from .state import TableState

log = logging.getLogger(__name__)

# The Pico running MicroPython enumerates as "usb-MicroPython_Board_in_FS_mode_<serial>-if00".
DEFAULT_PATTERNS = ("/dev/serial/by-id/usb-MicroPython*", "/dev/serial/by-id/*Pico*")


class LinkDown(Exception):
    """The session is over (no READY, or ACKs stopped); the thread reconnects."""


@dataclass(frozen=True)
class DisplayHealth:
    connected: bool = False
    port: Optional[str] = None
    firmware: str = ""           # READY payload: "version,name"
    last_ack: Optional[float] = None  # time.monotonic() of the last ACK
    acked_seq: int = 0
    frames_sent: int = 0
    states_acked: int = 0
    naks: int = 0
    timeouts: int = 0
    errors: int = 0               # garbage or unparseable replies from the device
    reconnects: int = 0
    last_error: str = ""

    def as_dict(self) -> dict:
        d = self.__dict__.copy()
        d["ack_age_s"] = None if self.last_ack is None else round(time.monotonic() - self.last_ack, 3)
        return d


def find_ports(patterns: Sequence[str] = DEFAULT_PATTERNS) -> list:
    """Candidate ports, first pattern first. by-id names survive a replug onto another ttyACM."""
    for pat in patterns:
        found = sorted(glob.glob(pat))
        if found:
            return found
    return []


class ScoreDisplay:
    """Keeps the Pico showing the newest TableState. ``port`` is a path, a callable returning a
    path (or None while absent), or None to search ``patterns`` (by-id names)."""

    def __init__(self, port: Union[str, Callable[[], Optional[str]], None] = None, *,
                 patterns: Sequence[str] = DEFAULT_PATTERNS, baudrate: int = 115200,
                 heartbeat_s: float = protocol.HEARTBEAT_MS / 1000, ack_timeout_s: float = 0.5,
                 ready_timeout_s: float = 2.0, retry_s: float = 0.25, max_timeouts: int = 3):
        self._port = port
        self.patterns = tuple(patterns)
        self.baudrate = baudrate
        self.heartbeat_s = heartbeat_s
        self.ack_timeout_s = ack_timeout_s
        self.ready_timeout_s = ready_timeout_s
        self.retry_s = retry_s
        self.max_timeouts = max_timeouts
        self._want: Optional[TableState] = None
        self._acked: Optional[TableState] = None
        self._health = DisplayHealth()
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._seq = 0
        self._thread: Optional[threading.Thread] = None

    # ---- the caller's side: never blocks --------------------------------------------------
    def start(self) -> "ScoreDisplay":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="score-display", daemon=True)
            self._thread.start()
        return self

    def update(self, state: TableState) -> None:
        """Show this state; only the newest one matters if several arrive before the link sends."""
        with self._cond:
            self._want = state
        self._wake()

    def health(self) -> DisplayHealth:
        with self._cond:
            return self._health

    @property
    def connected(self) -> bool:
        return self.health().connected

    def wait_connected(self, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._health.connected, timeout)

    def wait_health(self, pred: Callable[[DisplayHealth], bool], timeout: float) -> bool:
        """Block until ``pred(health)`` holds (tests, bench, service start-up)."""
        with self._cond:
            return self._cond.wait_for(lambda: pred(self._health), timeout)

    def wait_acked(self, state: Optional[TableState] = None, timeout: float = 5.0) -> bool:
        """Block (a test or bench helper) until the Pico has acknowledged ``state`` (default: the
        newest one given to update())."""
        with self._cond:
            target = self._want if state is None else state
            return self._cond.wait_for(lambda: self._acked == target and self._health.connected,
                                       timeout)

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ---- the link thread ------------------------------------------------------------------
    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except (BlockingIOError, OSError):
            pass  # already pending, or stopped

    def _set(self, **kw) -> None:
        with self._cond:
            self._health = replace(self._health, **kw)
            self._cond.notify_all()

    def _bump(self, name: str, error: str = "") -> None:
        with self._cond:
            kw = {name: getattr(self._health, name) + 1}
            if error:
                kw["last_error"] = error
            self._health = replace(self._health, **kw)
            self._cond.notify_all()

    def _current_port(self) -> Optional[str]:
        if callable(self._port):
            return self._port()
        if self._port:
            return self._port if os.path.exists(self._port) else None
        found = find_ports(self.patterns)
        return found[0] if found else None

    def _next_seq(self) -> int:
        self._seq = self._seq % 65535 + 1   # 1..65535; 0 means "unsolicited" in replies
        return self._seq

    def _run(self) -> None:
        import serial  # heavy-ish; only the link thread needs it

        sessions = 0
        while not self._stop.is_set():
            path = self._current_port()
            if not path:
                self._stop.wait(self.retry_s)
                continue
            try:
                ser = serial.Serial(path, self.baudrate, timeout=0, write_timeout=1.0)
            except (serial.SerialException, OSError) as e:
                self._bump("errors", f"open {path}: {e}")
                self._stop.wait(self.retry_s)
                continue
            if sessions:
                self._bump("reconnects")
            sessions += 1
            try:
                self._session(ser, path)
            except (serial.SerialException, OSError, LinkDown) as e:
                log.warning("score display on %s: %s", path, e)
                self._set(last_error=f"{path}: {e}")
            finally:
                with self._cond:
                    self._acked = None
                self._set(connected=False)
                try:
                    ser.close()
                except Exception:  # noqa: BLE001 - the port may already be gone
                    pass
            self._stop.wait(self.retry_s)

    def _send(self, ser, ftype: str, payload: str = "") -> int:
        seq = self._next_seq()
        ser.write(protocol.encode(ftype, seq, payload))
        self._bump("frames_sent")
        return seq

    def _replies(self, ser, reader, timeout: float) -> list:
        """Wait up to ``timeout`` for bytes from the device or a wake-up; return decoded frames."""
        r, _, _ = select.select([ser.fileno(), self._wake_r], [], [], max(0.0, timeout))
        if self._wake_r in r:
            try:
                while os.read(self._wake_r, 512):
                    pass
            except (BlockingIOError, OSError):
                pass
        if ser.fileno() not in r:
            return []
        data = ser.read(4096)  # pyserial raises SerialException if the device vanished
        out = []
        for item in reader.feed(data):
            if isinstance(item, protocol.ProtocolError):
                self._bump("errors", f"device sent junk ({item.reason})")
                continue
            try:
                out.append(protocol.decode(item))
            except protocol.ProtocolError as e:
                self._bump("errors", f"bad frame from device ({e.reason})")
        return out

    def _handshake(self, ser, reader, path: str) -> None:
        ser.reset_input_buffer()
        deadline = time.monotonic() + self.ready_timeout_s
        while not self._stop.is_set():
            seq = self._send(ser, protocol.HELLO, str(protocol.VERSION))
            resend_at = min(deadline, time.monotonic() + 0.25)
            while time.monotonic() < resend_at:
                for ftype, rseq, payload in self._replies(ser, reader, resend_at - time.monotonic()):
                    if ftype == protocol.READY and rseq == seq:
                        version = payload.split(",")[0]
                        if version != str(protocol.VERSION):
                            raise LinkDown(f"firmware speaks protocol {version}, "
                                           f"host {protocol.VERSION}: reflash the Pico")
                        self._set(connected=True, port=path, firmware=payload)
                        return
            if time.monotonic() >= deadline:
                raise LinkDown(f"no READY within {self.ready_timeout_s:.1f} s")

    def _session(self, ser, path: str) -> None:
        reader = protocol.LineReader()
        self._handshake(ser, reader, path)
        log.info("score display connected on %s", path)
        inflight = None  # (seq, state or None for a heartbeat, sent at)
        last_tx = time.monotonic()
        misses = 0
        while not self._stop.is_set():
            now = time.monotonic()
            if inflight is None:
                with self._cond:
                    want, acked = self._want, self._acked
                if want is not None and want != acked:
                    seq = self._send(ser, protocol.STATE, protocol.encode_state(want.to_wire()))
                    inflight, last_tx = (seq, want, now), now
                elif now - last_tx >= self.heartbeat_s:
                    inflight, last_tx = (self._send(ser, protocol.HB), None, now), now
            if inflight is not None:
                wait = inflight[2] + self.ack_timeout_s - now
            else:
                wait = last_tx + self.heartbeat_s - now
            for ftype, seq, payload in self._replies(ser, reader, wait):
                if ftype == protocol.ACK and inflight is not None and seq == inflight[0]:
                    misses = 0
                    with self._cond:
                        if inflight[1] is not None:
                            self._acked = inflight[1]
                        self._health = replace(
                            self._health, last_ack=time.monotonic(), acked_seq=seq,
                            states_acked=self._health.states_acked + (inflight[1] is not None))
                        self._cond.notify_all()
                    inflight = None
                elif ftype == protocol.NAK:
                    self._bump("naks", f"device rejected frame {seq}: {payload}")
                    if inflight is not None and seq in (inflight[0], 0):
                        inflight = None  # resend the newest state at once
                elif ftype == protocol.READY:
                    # the Pico rebooted (watchdog, power): it shows nothing until told again
                    log.info("score display rebooted; resending state")
                    with self._cond:
                        self._acked = None
                    inflight = None
            if inflight is not None and time.monotonic() - inflight[2] > self.ack_timeout_s:
                misses += 1
                self._bump("timeouts", f"no ACK for frame {inflight[0]}")
                inflight = None
                if misses >= self.max_timeouts:
                    raise LinkDown(f"{misses} frames without ACK")
