"""End to end: host driver (pyserial) -> a real pty -> the firmware's own protocol/display logic."""
import os

import pytest

from table.devices.display import ScoreDisplay
from table.devices.firmware_sim import FirmwareSim
from table.devices.state import TableState

T = 10.0  # generous wait limits: the tests wait for conditions, never for fixed times


def state(i=0, **kw):
    base = dict(trump="C", seats=4, turn=i % 4, points=(i % 121, 20), hands_won=(1, 0))
    base.update(kw)
    return TableState(**base)


@pytest.fixture
def link(tmp_path):
    sim = FirmwareSim(baud=None)  # no byte throttling: tests are about behaviour
    sim.start()
    disp = ScoreDisplay(port=lambda: sim.port, heartbeat_s=0.2, ack_timeout_s=0.3).start()
    assert disp.wait_connected(T), disp.health()
    yield sim, disp
    disp.stop()
    sim.stop()


def shown(sim):
    return sim.snapshot()


def test_state_reaches_the_display(link):
    sim, disp = link
    st = state(34, trump="O", turn=2, points=(34, 20), hands_won=(1, 0))
    disp.update(st)
    assert disp.wait_acked(st, T)
    snap = shown(sim)
    assert snap["digits"] == ["1. 34", "0. 20"]
    assert snap["state"]["trump"] == "O" and snap["state"]["turn"] == 2
    assert snap["pixels"][8] == (255, 255, 255)      # seat 2 of 4 on 16 pixels
    assert snap["pixels"][1] == (255, 150, 0)        # oros gold
    h = disp.health()
    assert h.connected and h.firmware.startswith("1,") and h.last_ack is not None


def test_heartbeat_is_acked(link):
    sim, disp = link
    st = state(1)
    disp.update(st)
    assert disp.wait_acked(st, T)
    seq = disp.health().acked_seq
    assert disp.wait_health(lambda h: h.acked_seq > seq, T)  # an HB, since the state is unchanged
    assert not shown(sim)["idle"]


def test_garbage_from_host_side_loses_nothing(link):
    sim, disp = link
    disp.update(state(1))
    assert disp.wait_acked(timeout=T)
    fd = os.open(sim.port, os.O_WRONLY | os.O_NOCTTY)   # a second writer on the same line
    try:
        os.write(fd, b"\x00\xff\xfe garbage \x03\x03\r\n$S,99,T=O;N=4*FFFF\n")
    finally:
        os.close(fd)
    final = state(2, trump="B")
    disp.update(final)
    assert disp.wait_acked(final, T)
    assert disp.wait_health(lambda h: h.naks >= 1, T)
    snap = shown(sim)
    assert snap["state"]["trump"] == "B" and snap["errors"] >= 2
    assert snap["last_error"] in ("NOSTART", "CRC")


def test_garbage_from_device_side_is_counted(link):
    sim, disp = link
    sim.send_raw(b"MicroPython v1.27 banner\r\n>>> \x00\xff$ACK,1*00\n")
    assert disp.wait_health(lambda h: h.errors >= 1, T)
    st = state(5)
    disp.update(st)
    assert disp.wait_acked(st, T)
    assert disp.health().connected


def test_truncated_frame_then_updates(link):
    sim, disp = link
    fd = os.open(sim.port, os.O_WRONLY | os.O_NOCTTY)
    try:
        os.write(fd, b"$S,7,T=O;N=4;U=1;P=1")   # cut off mid-frame, no newline
    finally:
        os.close(fd)
    st = state(9, points=(9, 99))
    disp.update(st)
    assert disp.wait_acked(st, T)
    snap = shown(sim)
    assert snap["digits"] == ["1.  9", "0. 99"]
    assert snap["last_error"] == "TRUNC"


def test_burst_of_1000_updates_ends_on_the_last(link):
    sim, disp = link
    states = [state(i, points=(i % 121, (3 * i) % 121), alert=(i % 7 == 0)) for i in range(1000)]
    for st in states:
        disp.update(st)        # returns at once: the link coalesces to the newest
    assert disp.wait_acked(states[-1], T)
    snap = shown(sim)
    assert snap["state"]["points"] == list(states[-1].points)
    assert snap["state"]["turn"] == states[-1].turn
    assert disp.health().frames_sent <= 1000 + 50


def test_unplug_and_replug_under_a_new_name(link):
    sim, disp = link
    disp.update(state(1))
    assert disp.wait_acked(timeout=T)
    old = sim.port
    sim.unplug()
    mid = state(2, trump="E", points=(40, 30))
    disp.update(mid)                           # the game goes on while the cable is out
    assert disp.wait_health(lambda h: not h.connected, T)
    hold = os.open(old, os.O_RDWR | os.O_NOCTTY) if os.path.exists(old) else None
    try:
        new = sim.replug()                     # board rebooted: blank until told again
    finally:
        if hold is not None:
            os.close(hold)
    assert new != old or hold is None
    assert disp.wait_health(lambda h: h.connected and h.reconnects >= 1 and h.port == new, T)
    assert disp.wait_acked(mid, T)
    snap = shown(sim)
    assert snap["state"]["trump"] == "E" and snap["digits"] == ["1. 40", "0. 30"]


def test_board_reboot_gets_full_state_again(link):
    sim, disp = link
    st = state(3, points=(77, 43))
    disp.update(st)
    assert disp.wait_acked(st, T)
    sim.reboot()
    assert disp.wait_health(lambda h: h.connected, T)
    # no new update: the driver must notice READY and resend on its own
    import time
    deadline = time.monotonic() + T
    while shown(sim)["state"] is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert shown(sim)["digits"] == ["1. 77", "0. 43"]


def test_found_by_id_pattern_after_replug(tmp_path):
    byid = tmp_path / "by-id"
    byid.mkdir()
    link = str(byid / "usb-MicroPython_Board_in_FS_mode_e6614103e7-if00")
    sim = FirmwareSim(baud=None, link=link)
    sim.start()
    disp = ScoreDisplay(patterns=[str(byid / "usb-MicroPython*")], ack_timeout_s=0.3).start()
    try:
        st = state(4)
        disp.update(st)
        assert disp.wait_acked(st, T)
        assert disp.health().port == link
        sim.unplug()
        st2 = state(5, trump="O")
        disp.update(st2)
        sim.replug()
        assert disp.wait_acked(st2, T)
        assert shown(sim)["state"]["trump"] == "O"
    finally:
        disp.stop()
        sim.stop()


def test_no_device_reports_health_and_never_blocks(tmp_path):
    disp = ScoreDisplay(port=str(tmp_path / "ttyACM9"), retry_s=0.05).start()
    try:
        for i in range(100):
            disp.update(state(i))
        h = disp.health()
        assert not h.connected and h.port is None
        assert not disp.wait_acked(timeout=0.2)
    finally:
        disp.stop()


def test_sim_renders_a_terminal_line(link):
    sim, disp = link
    st = state(1, alert=True)
    disp.update(st)
    assert disp.wait_acked(st, T)
    line = sim.render_line(color=True)
    assert "\x1b[38;2;" in line and "ALERT" in line
    assert "[1.  1]" in sim.render_line(color=False)
