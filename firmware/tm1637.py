"""Thin bit-banged TM1637 driver: 4 digits of raw segment bytes, written only when they change.

The TM1637 is not I2C: start/stop conditions like I2C, but bytes go LSB first with no address.
A frame is: data command 0x40 (auto-increment), then 0xC0 (digit 0) and four segment bytes,
then display control 0x88 | brightness.
"""

import time

try:
    _sleep_us = time.sleep_us
except AttributeError:  # CPython under test: the fake machine records edges, no timing needed
    def _sleep_us(us):
        pass


class TM1637:
    def __init__(self, clk, dio, brightness=4, machine=None):
        if machine is None:
            import machine
        self.Pin = machine.Pin
        self.clk = machine.Pin(clk, machine.Pin.OUT, value=1)
        self.dio = machine.Pin(dio, machine.Pin.OUT, value=1)
        self.brightness = brightness & 7
        self.last = None
        self.acks_missed = 0

    def _start(self):
        self.dio(1)
        self.clk(1)
        _sleep_us(5)
        self.dio(0)
        _sleep_us(5)
        self.clk(0)

    def _stop(self):
        self.clk(0)
        self.dio(0)
        _sleep_us(5)
        self.clk(1)
        _sleep_us(5)
        self.dio(1)

    def _byte(self, b):
        for i in range(8):
            self.clk(0)
            self.dio((b >> i) & 1)
            _sleep_us(5)
            self.clk(1)
            _sleep_us(5)
        # ninth clock: the chip pulls DIO low to acknowledge
        self.clk(0)
        self.dio.init(self.Pin.IN)
        _sleep_us(5)
        self.clk(1)
        if self.dio.value() != 0:
            self.acks_missed += 1
        _sleep_us(5)
        self.clk(0)
        self.dio.init(self.Pin.OUT, value=0)

    def _command(self, data):
        self._start()
        for b in data:
            self._byte(b)
        self._stop()

    def show(self, segs):
        """Write four segment bytes (see firmware/display.py SEGMENTS) if they differ."""
        segs = bytes(segs)
        if segs == self.last:
            return False
        self._command(b"\x40")
        self._command(b"\xc0" + segs)
        self._command(bytes([0x88 | self.brightness]))
        self.last = segs
        return True
