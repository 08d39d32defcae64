"""`brisca-table firmware-sim`: the Pico's firmware logic behind a pseudo-terminal.

Prints the port path (open it with pyserial, or point the service's display driver at it) and
draws the strip and digits on the terminal. ``--demo`` also drives it with the real host driver.
"""
from __future__ import annotations

import sys


def configure(parser):
    parser.add_argument("--pixels", type=int, default=16, help="strip length (default 16)")
    parser.add_argument("--baud", type=int, default=115200,
                        help="throttle to this UART byte rate, 0 for none (default 115200)")
    parser.add_argument("--link", help="also keep a symlink at this path (a fake /dev/serial/by-id name)")
    parser.add_argument("--no-color", action="store_true", help="plain text instead of ANSI colours")
    parser.add_argument("--demo", action="store_true", help="drive it with changing states")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: until Ctrl-C)")


def run(args) -> int:
    import time

    from table.devices.firmware_sim import FirmwareSim

    tty = sys.stdout.isatty()
    last = [None]

    def render(sim):
        line = sim.render_line(color=not args.no_color)
        if tty:
            sys.stdout.write("\r\x1b[2K" + line)
            sys.stdout.flush()
        elif line != last[0]:
            print(line, flush=True)
        last[0] = line

    sim = FirmwareSim(n_pixels=args.pixels, baud=args.baud or None, link=args.link, on_render=render)
    port = sim.start()
    print(f"firmware-sim: port {port}" + (f" (link {args.link})" if args.link else ""), flush=True)
    drv = None
    if args.demo:
        from table.devices.display import ScoreDisplay
        from table.devices.state import TableState
        drv = ScoreDisplay(port=lambda: sim.port).start()
    t0 = time.monotonic()
    try:
        i = 0
        while not args.seconds or time.monotonic() - t0 < args.seconds:
            if drv is not None:
                drv.update(TableState(trump="OCEB"[(i // 8) % 4], turn=i % 4, points=(i % 121, (2 * i) % 121),
                                      hands_won=((i // 40) % 3, 0), trick_winner=(i - 1) % 4 if i else None,
                                      tricks_played=i, alert=(i % 16 == 15)))
                i += 1
            time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        if drv is not None:
            drv.stop()
        sim.stop()
        if tty:
            print()
    return 0
