"""Thin WS2812 strip driver: scales colours by a global brightness and sends GRB bytes.

It calls ``machine.bitstream`` with the 800 kHz timing, which is what MicroPython's own
``neopixel`` module does; ``main.py`` may use ``neopixel.NeoPixel`` instead (same bytes).
Writes are skipped when nothing changed, so the main loop can render every tick.
"""

TIMING_800K = (400, 850, 800, 450)  # T0H, T0L, T1H, T1L in ns


class Strip:
    def __init__(self, pin, n, brightness=64, machine=None):
        if machine is None:
            import machine
        self.machine = machine
        self.pin = machine.Pin(pin, machine.Pin.OUT, value=0)
        self.n = n
        self.brightness = brightness  # 0..255; 64 keeps a 16-pixel strip well under 0.5 A
        self.buf = bytearray(3 * n)
        self.last = None

    def encode(self, pixels):
        buf = bytearray(3 * self.n)
        k = self.brightness
        for i in range(min(self.n, len(pixels))):
            r, g, b = pixels[i]
            buf[3 * i] = g * k // 255
            buf[3 * i + 1] = r * k // 255
            buf[3 * i + 2] = b * k // 255
        return buf

    def show(self, pixels):
        buf = self.encode(pixels)
        if buf == self.last:
            return False
        self.machine.bitstream(self.pin, 0, TIMING_800K, buf)
        self.last = buf
        return True
