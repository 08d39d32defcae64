"""TableLights against gpiozero's own MockFactory: pin levels and button callbacks."""
import json
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from table.devices.leds import DEFAULT_PINS, TableLights, load_pins
from table.devices.state import TableState


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


@pytest.fixture
def rig():
    factory = MockFactory(pin_class=MockPWMPin)
    calls = []
    clock = Clock()
    lights = TableLights(pin_factory=factory, bounce_time=None, clock=clock,
                         on_confirm=lambda: calls.append("confirm"),
                         on_undo=lambda: calls.append("undo"),
                         on_undo_armed=lambda: calls.append("undo-armed"),
                         on_repeat=lambda: calls.append("repeat"))
    yield lights, factory, calls, clock
    lights.close()
    factory.reset()


def level(factory, n):
    return factory.pin(n).state


def press(factory, n):
    factory.pin(n).drive_low()    # buttons pull up: pressed = low
    factory.pin(n).drive_high()


def wait_until(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return pred()


def test_trump_and_turn_leds_follow_state(rig):
    lights, f, _, _ = rig
    lights.show(TableState(trump="E", turn=3, seats=4))
    assert [level(f, p) for p in (5, 6, 13, 19)] == [0, 0, 1, 0]
    assert [level(f, p) for p in DEFAULT_PINS["turn"]] == [0, 0, 0, 1, 0]
    lights.show(TableState(trump="oros", turn=None))
    assert [level(f, p) for p in (5, 6, 13, 19)] == [1, 0, 0, 0]
    assert not any(level(f, p) for p in DEFAULT_PINS["turn"])


def test_status_steady_blink_off(rig):
    lights, f, _, _ = rig
    lights.show(TableState(watching=True))
    assert lights.status_mode == "steady" and level(f, 12) == 1
    lights.show(TableState(alert=True))
    assert lights.status_mode == "blink"
    seen = set()
    assert wait_until(lambda: seen.add(level(f, 12)) or {0, 1} <= seen)   # really blinking
    lights.show(TableState(watching=False))
    assert lights.status_mode == "off" and level(f, 12) == 0


def test_confirm_and_repeat_buttons(rig):
    lights, f, calls, _ = rig
    press(f, 16)
    press(f, 21)
    assert wait_until(lambda: calls == ["confirm", "repeat"]), calls


def test_undo_needs_a_second_press_within_the_window(rig):
    lights, f, calls, clock = rig
    press(f, 20)
    assert wait_until(lambda: calls == ["undo-armed"])
    assert lights.undo_armed and "undo armed" in lights.describe()
    clock.t += 1.0
    press(f, 20)
    assert wait_until(lambda: calls == ["undo-armed", "undo"])
    # too slow: the second press only re-arms
    press(f, 20)
    clock.t += 10.0
    press(f, 20)
    assert wait_until(lambda: calls == ["undo-armed", "undo", "undo-armed", "undo-armed"]), calls


def test_a_failing_handler_does_not_break_the_button():
    f = MockFactory(pin_class=MockPWMPin)
    hits = []

    def boom():
        hits.append(1)
        raise RuntimeError("handler bug")
    lights = TableLights(pin_factory=f, bounce_time=None, on_confirm=boom)
    try:
        press(f, 16)
        press(f, 16)
        assert wait_until(lambda: len(hits) == 2)
    finally:
        lights.close()


def test_describe_line(rig):
    lights, f, _, _ = rig
    lights.show(TableState(trump="C", turn=1, alert=True))
    assert lights.describe() == "trump O[ ] C[#] E[ ] B[ ] | turn [ ][#][ ][ ][ ] | status blink"


def test_pins_from_config_file(tmp_path):
    cfg = tmp_path / "pins.json"
    cfg.write_text(json.dumps({"trump": {"oros": 26}, "turn": [17, 27]}))
    pins = load_pins(str(cfg))
    assert pins["trump"] == {"oros": 26, "copas": 6, "espadas": 13, "bastos": 19}
    assert pins["turn"] == [17, 27]
    f = MockFactory(pin_class=MockPWMPin)
    lights = TableLights(str(cfg), pin_factory=f, bounce_time=None)
    try:
        lights.show(TableState(trump="O", turn=1, seats=2))
        assert level(f, 26) == 1 and level(f, 27) == 1 and level(f, 17) == 0
    finally:
        lights.close()


def test_bad_config_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="unknown trump"):
        load_pins({"trump": {"diamonds": 4}})
    with pytest.raises(ValueError, match="used twice"):
        load_pins({"status": 16})
    toml = tmp_path / "table.toml"
    toml.write_text("[pins.buttons]\nconfirm = 25\n")
    assert load_pins(str(toml))["buttons"]["confirm"] == 25
