"""The table's own GPIO: trump-suit LEDs, a turn LED per seat, a status LED and three buttons.

gpiozero with the pin factory passed in (``GPIOZERO_PIN_FACTORY=mock`` or a MockFactory off the
Pi), pins from a config mapping whose defaults are the wiring table in hardware.md. The lights take
a plain TableState; the buttons call back into the service, which turns them into events.
"""
from __future__ import annotations

import copy
import json
import logging
import os
import time
from typing import Callable, Optional

from .state import SUIT_LETTERS, SUIT_NAMES, TableState

log = logging.getLogger(__name__)

# BCM numbers. Kept off I2C (2, 3), UART (14, 15) and SPI0 so those stay free; 12 is PWM0.
DEFAULT_PINS = {
    "trump": {"oros": 5, "copas": 6, "espadas": 13, "bastos": 19},
    "turn": [17, 27, 22, 23, 24],
    "status": 12,
    "buttons": {"confirm": 16, "undo": 20, "repeat": 21},
}


def load_pins(source=None) -> dict:
    """Defaults overlaid with a mapping, or a JSON/TOML file with the same shape, e.g.
    ``{"trump": {"oros": 26}, "turn": [17, 27]}``. Unknown keys are an error, not ignored."""
    pins = copy.deepcopy(DEFAULT_PINS)
    if source is None:
        return pins
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with open(path, "rb") as f:
            if path.endswith(".toml"):
                import tomllib
                data = tomllib.load(f)
                data = data.get("pins", data)
            else:
                data = json.load(f)
    else:
        data = source
    for key, val in data.items():
        if key not in pins:
            raise ValueError(f"unknown pin group {key!r} (use {', '.join(pins)})")
        if isinstance(pins[key], dict):
            unknown = set(val) - set(pins[key])
            if unknown:
                raise ValueError(f"unknown {key} pin(s): {', '.join(sorted(unknown))}")
            pins[key].update(val)
        else:
            pins[key] = list(val) if isinstance(pins[key], list) else val
    if len(pins["turn"]) > 5:
        raise ValueError("at most 5 turn LEDs")
    used = [*pins["trump"].values(), *pins["turn"], pins["status"], *pins["buttons"].values()]
    dup = {p for p in used if used.count(p) > 1}
    if dup:
        raise ValueError(f"pin(s) used twice: {sorted(dup)}")
    return pins


def _safe(fn: Optional[Callable], what: str) -> Callable[[], None]:
    """A button handler that cannot kill gpiozero's callback thread."""
    def call():
        if fn is None:
            return
        try:
            fn()
        except Exception:  # noqa: BLE001 - logged; the next press must still work
            log.exception("%s button handler failed", what)
    return call


class TableLights:
    """LEDs and buttons on the Pi's header. ``show(state)`` is cheap and idempotent."""

    def __init__(self, pins=None, *, pin_factory=None, on_confirm=None, on_undo=None,
                 on_undo_armed=None, on_repeat=None, undo_window_s: float = 3.0,
                 blink_s: float = 0.4, bounce_time: Optional[float] = 0.05,
                 clock: Callable[[], float] = time.monotonic):
        from gpiozero import Button, LEDBoard, PWMLED

        self.pins = load_pins(pins)
        self.undo_window_s = undo_window_s
        self.blink_s = blink_s
        self.clock = clock
        self.on_confirm, self.on_undo = on_confirm, on_undo
        self.on_undo_armed, self.on_repeat = on_undo_armed, on_repeat
        self._undo_armed_at: Optional[float] = None
        self.status_mode = "off"
        self.state: Optional[TableState] = None
        f = pin_factory
        self.trump = LEDBoard(pin_factory=f, **self.pins["trump"])
        self.turn = LEDBoard(*self.pins["turn"], pin_factory=f)
        self.status = PWMLED(self.pins["status"], pin_factory=f)
        b = self.pins["buttons"]
        self.confirm_button = Button(b["confirm"], bounce_time=bounce_time, pin_factory=f)
        self.undo_button = Button(b["undo"], bounce_time=bounce_time, pin_factory=f)
        self.repeat_button = Button(b["repeat"], bounce_time=bounce_time, pin_factory=f)
        self.confirm_button.when_pressed = _safe(lambda: self.on_confirm and self.on_confirm(), "confirm")
        self.undo_button.when_pressed = self._undo_pressed
        self.repeat_button.when_pressed = _safe(lambda: self.on_repeat and self.on_repeat(), "repeat")

    # ---- buttons ----------------------------------------------------------------------------
    @property
    def undo_armed(self) -> bool:
        t = self._undo_armed_at
        return t is not None and self.clock() - t <= self.undo_window_s

    def _undo_pressed(self) -> None:
        """Undo is destructive, so it takes a second press within ``undo_window_s``."""
        if self.undo_armed:
            self._undo_armed_at = None
            _safe(self.on_undo, "undo")()
        else:
            self._undo_armed_at = self.clock()
            _safe(self.on_undo_armed, "undo (armed)")()

    # ---- lights -----------------------------------------------------------------------------
    def show(self, state: TableState) -> None:
        self.state = state
        for letter, name in zip(SUIT_LETTERS, SUIT_NAMES):
            getattr(self.trump, name).value = 1 if state.trump == letter else 0
        for seat, led in enumerate(self.turn):
            led.value = 1 if state.turn == seat else 0
        self.set_status("blink" if state.alert else ("steady" if state.watching else "off"))

    def set_status(self, mode: str) -> None:
        """steady: the camera is watching; blink: an alert needs attention; off."""
        if mode == self.status_mode:
            return  # re-calling blink() would restart the rhythm on every update
        if mode == "steady":
            self.status.on()
        elif mode == "blink":
            self.status.blink(on_time=self.blink_s, off_time=self.blink_s, background=True)
        elif mode == "off":
            self.status.off()
        else:
            raise ValueError(f"status mode {mode!r}")
        self.status_mode = mode

    def describe(self) -> str:
        """One log line for the demo: ``trump O[#] C[ ] E[ ] B[ ] | turn [ ][#][ ][ ][ ] | status blink``."""
        def lit(led):
            return "#" if led.is_lit else " "
        trump = " ".join(f"{letter}[{lit(getattr(self.trump, name))}]"
                         for letter, name in zip(SUIT_LETTERS, SUIT_NAMES))
        turn = "".join(f"[{lit(led)}]" for led in self.turn)
        extra = " | undo armed" if self.undo_armed else ""
        return f"trump {trump} | turn {turn} | status {self.status_mode}{extra}"

    def close(self) -> None:
        for dev in (self.confirm_button, self.undo_button, self.repeat_button, self.status,
                    self.turn, self.trump):
            dev.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
