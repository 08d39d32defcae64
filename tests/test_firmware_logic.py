"""Firmware logic under CPython, and the thin drivers against a fake `machine` that records pins."""
import importlib.util
import pathlib
import sys

import pytest

FW = pathlib.Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FW))  # the firmware modules import each other flat, as on the board
import display  # noqa: E402
import strip  # noqa: E402
import tm1637  # noqa: E402
import protocol  # noqa: E402,F401  (flat, as display.py on the board imports it)


def _load_mpy_tests():
    spec = importlib.util.spec_from_file_location("fw_logic_tests", FW / "tests" / "test_logic_mpy.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MPY = _load_mpy_tests()
sys.path.remove(str(FW))  # don't let firmware/main.py & co. shadow other tests' imports


@pytest.mark.parametrize("fn", MPY.TESTS, ids=[f.__name__ for f in MPY.TESTS])
def test_logic_shared_with_micropython(fn):
    fn()


class FakePin:
    """Records every level it is driven to; reads back 0 (the TM1637's ACK) when an input."""
    OUT, IN, PULL_UP = 1, 0, 2

    def __init__(self, machine, pin_id, mode=None, pull=None, value=None):
        self.m, self.id, self.mode = machine, pin_id, mode
        self.level = None
        if value is not None:
            self(value)

    def init(self, mode=None, pull=None, value=None):
        self.mode = mode
        self.m.log.append((self.id, "mode", mode))
        if value is not None:
            self(value)

    def __call__(self, v=None):
        if v is None:
            return self.value()
        self.level = 1 if v else 0
        self.m.log.append((self.id, "set", self.level))

    def value(self, v=None):
        if v is not None:
            return self(v)
        return 0 if self.mode == FakePin.IN else self.level


class FakeMachine:
    def __init__(self):
        self.log = []
        self.streams = []
        machine = self

        class Pin(FakePin):
            OUT, IN, PULL_UP = FakePin.OUT, FakePin.IN, FakePin.PULL_UP

            def __init__(self, pin_id, mode=None, pull=None, value=None):
                super().__init__(machine, pin_id, mode, pull, value)

        self.Pin = Pin

    def bitstream(self, pin, encoding, timing, buf):
        self.streams.append((pin.id, encoding, tuple(timing), bytes(buf)))


def decode_tm1637(log, clk, dio):
    """Rebuild the TM1637 transactions from the pin log: DIO falling while CLK is high starts one,
    DIO rising while CLK is high ends it, and each CLK rising edge samples a data bit (LSB first,
    the ninth being the ACK slot)."""
    levels = {clk: 1, dio: 1}
    txs, bits, cur = [], [], None
    dio_out = True
    for pin, kind, v in log:
        if pin not in levels:
            continue
        if kind == "mode":
            dio_out = v == FakePin.OUT if pin == dio else dio_out
            continue
        old = levels[pin]
        levels[pin] = v
        if pin == dio and levels[clk] == 1 and old != v and dio_out:
            if v == 0:
                cur, bits = [], []
            elif cur is not None:
                txs.append(cur)
                cur = None
        elif pin == clk and old == 0 and v == 1 and cur is not None:
            bits.append(levels[dio] if dio_out else 0)
            if len(bits) == 9:
                cur.append(sum(b << i for i, b in enumerate(bits[:8])))
                bits = []
    return txs


def test_tm1637_bytes_on_the_wire():
    m = FakeMachine()
    tm = tm1637.TM1637(4, 5, brightness=4, machine=m)
    segs = display.digits_for(1, 34)
    assert tm.show(segs)
    assert decode_tm1637(m.log, 4, 5) == [[0x40], [0xC0] + segs, [0x8C]]
    assert tm.acks_missed == 0
    n = len(m.log)
    assert not tm.show(segs)  # unchanged: nothing written
    assert len(m.log) == n


def test_tm1637_shows_what_the_display_renders():
    m = FakeMachine()
    d = display.Display(n_displays=2)
    import protocol
    st = protocol.new_state()
    st.update(trump="O", points=[68, 52], hands=[2, 1], turn=0)
    d.feed(protocol.encode("S", 1, protocol.encode_state(st)), 0)
    tms = [tm1637.TM1637(4, 5, machine=m), tm1637.TM1637(6, 7, machine=m)]
    for tm, segs in zip(tms, d.digits(10)):
        tm.show(segs)
    a = decode_tm1637(m.log, 4, 5)[1][1:]
    b = decode_tm1637(m.log, 6, 7)[1][1:]
    assert display.segments_text(a) == "2. 68"
    assert display.segments_text(b) == "1. 52"


def test_strip_sends_grb_scaled_bytes():
    m = FakeMachine()
    s = strip.Strip(2, 3, brightness=255, machine=m)
    assert s.show([(255, 0, 0), (0, 200, 0), (1, 2, 3)])
    pin, enc, timing, buf = m.streams[-1]
    assert pin == 2 and timing == (400, 850, 800, 450)
    assert buf == bytes([0, 255, 0, 200, 0, 0, 2, 1, 3])
    assert not s.show([(255, 0, 0), (0, 200, 0), (1, 2, 3)])
    assert len(m.streams) == 1
    s.brightness = 64
    s.show([(255, 0, 0)])
    assert m.streams[-1][3][:3] == bytes([0, 64, 0])


def test_strip_shows_trump_colour_from_display():
    import protocol
    m = FakeMachine()
    d = display.Display(n_pixels=8)
    st = protocol.new_state()
    st.update(trump="E", seats=2, turn=1)
    d.feed(protocol.encode("S", 1, protocol.encode_state(st)), 0)
    s = strip.Strip(2, 8, brightness=255, machine=m)
    s.show(d.pixels(5))
    buf = m.streams[-1][3]
    r, g, b = display.SUIT_COLOURS["E"]
    assert buf[3:6] == bytes([g, r, b])          # pixel 1: trump colour
    assert buf[12:15] == bytes([255, 255, 255])  # pixel 4: seat 1 of 2, its turn


def test_main_py_compiles_and_disables_ctrl_c():
    src = (FW / "main.py").read_text()
    compile(src, "main.py", "exec")
    assert "kbd_intr(-1)" in src and "WDT(" in src and "wdt.feed()" in src
