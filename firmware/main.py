"""Board entry point for the Raspberry Pi Pico: USB serial in, WS2812 strip and TM1637s out.

All decisions live in display.py (shared with the host simulator and tested under MicroPython);
this file only moves bytes and feeds the watchdog. Ctrl-C (0x03) is disabled so a stray byte
on the serial line cannot stop it; to get the REPL back (for mpremote), jumper GP22 to GND and
reset: main() then returns straight away.
"""

import sys
import time
import select
import machine
import micropython

import display
import strip
import tm1637

STRIP_PIN = 2                 # GP2 -> 74AHCT125 -> strip DIN
N_PIXELS = 16
TM_PINS = ((4, 5), (6, 7))    # (CLK, DIO) per side display: GP4/GP5 side A, GP6/GP7 side B
MAINT_PIN = 22                # pulled low at boot: skip main loop, keep the REPL
BRIGHTNESS = 64
WDT_MS = 5000                 # rp2 allows up to 8388 ms


def main():
    if machine.Pin(MAINT_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("maintenance jumper on GP22: REPL left running")
        return
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=WDT_MS)
    leds = strip.Strip(STRIP_PIN, N_PIXELS, BRIGHTNESS)
    tms = [tm1637.TM1637(clk, dio) for clk, dio in TM_PINS]
    disp = display.Display(N_PIXELS, len(tms))
    rx = sys.stdin.buffer
    tx = sys.stdout.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    now = 0
    last = time.ticks_ms()
    tx.write(disp.boot(now))
    while True:
        wdt.feed()
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)   # a monotonic ms count that never wraps
        last = t
        chunk = bytearray()
        while len(chunk) < 96 and poll.poll(0 if chunk else 10):
            chunk += rx.read(1)
        if chunk:
            reply = disp.feed(chunk, now)
            if reply:
                tx.write(reply)
        leds.show(disp.pixels(now))
        for tm, segs in zip(tms, disp.digits(now)):
            tm.show(segs)


main()
