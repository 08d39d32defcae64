# Firmware logic tests that run under MicroPython (WebAssembly port, via run_mpy.mjs) and CPython.
# No pytest, no typing, no f-strings: a tiny harness that prints "N passed, N failed".
import sys

try:
    import protocol
    import display
except ImportError:
    sys.path.insert(0, __file__.rsplit("/", 2)[0])
    import protocol
    import display

passed = 0
failed = 0
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def frames(data):
    """Reply bytes -> list of (type, seq, payload)."""
    out = []
    for line in data.split(b"\n"):
        if line:
            out.append(protocol.decode(line))
    return out


STATE = {"trump": "C", "seats": 4, "turn": 2, "points": [34, 20], "hands": [1, 0],
         "winner": None, "tricks": 3, "alert": False}


@test
def crc_check_value():
    assert protocol.crc16(b"123456789") == 0x29B1


@test
def encode_decode_round_trip():
    f = protocol.encode(protocol.STATE, 42, protocol.encode_state(STATE))
    assert f.endswith(b"\n") and f.startswith(b"$S,42,")
    t, seq, payload = protocol.decode(f[:-1])
    assert t == "S" and seq == 42
    st = protocol.decode_state(payload)
    for k in STATE:
        assert st[k] == STATE[k], k


@test
def corrupted_crc_is_rejected():
    f = bytearray(protocol.encode(protocol.HB, 7, ""))
    f[2] = ord("X")
    try:
        protocol.decode(bytes(f[:-1]))
        assert False, "accepted a corrupt frame"
    except protocol.ProtocolError as e:
        assert e.reason == "CRC"


@test
def hello_gets_ready_with_version():
    d = display.Display()
    r = frames(d.feed(protocol.encode(protocol.HELLO, 1, "1"), 0))
    assert r[0][0] == "READY" and r[0][1] == 1
    assert r[0][2].split(",")[0] == str(protocol.VERSION)


@test
def state_is_acked_and_shown():
    d = display.Display(n_pixels=16, n_displays=2)
    r = frames(d.feed(protocol.encode(protocol.STATE, 5, protocol.encode_state(STATE)), 100))
    assert r == [("ACK", 5, "")]
    px = d.pixels(200)
    assert px[display.seat_pixel(2, 4, 16)] == display.TURN
    assert px[display.seat_pixel(0, 4, 16)] == display.SEAT_DIM
    assert px[1] == display.SUIT_COLOURS["C"]
    digs = d.digits(200)
    assert display.segments_text(digs[0]) == "1. 34"
    assert display.segments_text(digs[1]) == "0. 20"


@test
def garbage_is_naked_and_state_survives():
    d = display.Display()
    d.feed(protocol.encode(protocol.STATE, 1, protocol.encode_state(STATE)), 0)
    r = frames(d.feed(b"\x00\xffjunk\x03\r\n", 10))
    assert r[0][0] == "NAK" and r[0][2] == "NOSTART"
    r = frames(d.feed(b"$S,2,T=O*0000\n", 20))
    assert r[0][0] == "NAK" and r[0][2] == "CRC"
    assert d.state["trump"] == "C" and d.errors == 2


@test
def truncated_frame_then_good_frame():
    d = display.Display()
    good = protocol.encode(protocol.STATE, 9, protocol.encode_state(STATE))
    r = frames(d.feed(good[:17] + good, 0))
    assert [x[0] for x in r] == ["NAK", "ACK"] and r[0][2] == "TRUNC" and r[1][1] == 9
    assert d.state["points"] == [34, 20]


@test
def split_across_reads():
    d = display.Display()
    good = protocol.encode(protocol.STATE, 3, protocol.encode_state(STATE))
    out = b""
    for i in range(len(good)):
        out += d.feed(good[i:i + 1], i)
    assert frames(out) == [("ACK", 3, "")]


@test
def overlong_line_is_dropped():
    d = display.Display()
    r = frames(d.feed(b"$" + b"A" * 500 + b"\n", 0))
    assert r[0][2] == "LONG"
    r = frames(d.feed(protocol.encode(protocol.HB, 4, ""), 1))
    assert r == [("ACK", 4, "")]


@test
def bad_state_payload_naks_with_seq():
    d = display.Display()
    r = frames(d.feed(protocol.encode(protocol.STATE, 11, "T=Z"), 0))
    assert r == [("NAK", 11, "STATE")]
    assert d.state is None


@test
def silence_shows_idle_pattern():
    d = display.Display(n_pixels=8)
    d.feed(protocol.encode(protocol.STATE, 1, protocol.encode_state(STATE)), 0)
    assert not d.idle(2999)
    assert d.idle(3001)
    px = d.pixels(3001)
    assert sum([1 for p in px if p != display.OFF]) == 1
    assert display.segments_text(d.digits(3001)[0]) == "----"
    d.feed(protocol.encode(protocol.HB, 2, ""), 3500)
    assert not d.idle(3600)
    assert d.pixels(3600)[1] == display.SUIT_COLOURS["C"]


@test
def idle_before_any_frame():
    d = display.Display()
    assert d.idle(0) and display.segments_text(d.digits(0)[1]) == "----"


@test
def winner_flash_only_on_new_trick():
    d = display.Display(n_pixels=16)
    st = dict(STATE)
    d.feed(protocol.encode(protocol.STATE, 1, protocol.encode_state(st)), 0)
    st["winner"] = 1
    st["tricks"] = 4
    d.feed(protocol.encode(protocol.STATE, 2, protocol.encode_state(st)), 1000)
    p = display.seat_pixel(1, 4, 16)
    assert d.pixels(1010)[p] == display.FLASH
    assert d.pixels(1010 + 125)[p] != display.FLASH
    # the same full state again (idempotent resend) must not restart the flash
    d.feed(protocol.encode(protocol.STATE, 3, protocol.encode_state(st)), 2000)
    assert d.pixels(2600)[p] != display.FLASH


@test
def alert_pulses_red():
    d = display.Display(n_pixels=16)
    st = dict(STATE)
    st["alert"] = True
    d.feed(protocol.encode(protocol.STATE, 1, protocol.encode_state(st)), 0)
    dim = d.pixels(1000)[1]
    bright = d.pixels(1500)[1]
    assert dim[0] < bright[0] and bright[1] == 0 and bright[2] == 0


@test
def idempotent_repeat():
    d = display.Display()
    f = protocol.encode(protocol.STATE, 1, protocol.encode_state(STATE))
    d.feed(f, 0)
    a = (d.pixels(10), d.digits(10))
    d.feed(f + f + f, 20)
    assert (d.pixels(10), d.digits(10)) == a


@test
def crlf_tolerated():
    d = display.Display()
    f = protocol.encode(protocol.HB, 8, "")
    assert frames(d.feed(f[:-1] + b"\r\n", 0)) == [("ACK", 8, "")]


def run():
    global passed, failed
    for fn in TESTS:
        try:
            fn()
            passed += 1
        except Exception as e:
            failed += 1
            print("FAIL %s: %r" % (fn.__name__, e))
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
