"""`brisca-table bench display`: state change -> firmware ACK round trip over a real pty, with the
simulator throttled to UART byte timing (a pty itself has no baud rate), and sustained frames/s."""
from __future__ import annotations


def configure(parser):
    parser.add_argument("--n", type=int, default=300, help="round trips to time (default 300)")
    parser.add_argument("--baud", type=int, default=115200, help="simulated UART rate, 0 = unthrottled")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of the throughput run")


def run(args) -> int:
    import statistics
    import time

    from firmware import protocol
    from table.devices.display import ScoreDisplay
    from table.devices.firmware_sim import FirmwareSim
    from table.devices.state import TableState

    def st(i):
        return TableState(trump="OCEB"[i % 4], turn=i % 4, points=(i % 121, (7 * i) % 121),
                          hands_won=(i % 3, 1), trick_winner=i % 4, tricks_played=i, alert=bool(i % 2))

    sim = FirmwareSim(baud=args.baud or None)
    sim.start()
    drv = ScoreDisplay(port=lambda: sim.port).start()
    try:
        if not drv.wait_connected(5):
            print("bench display: no READY from the simulator", drv.health())
            return 1
        rtts = []
        for i in range(args.n):
            s = st(i)
            t = time.perf_counter()
            drv.update(s)
            if not drv.wait_acked(s, 5):
                print("bench display: ACK missing", drv.health())
                return 1
            rtts.append((time.perf_counter() - t) * 1000)
        rtts.sort()
        q = statistics.quantiles(rtts, n=100)
        frame = len(protocol.encode(protocol.STATE, 1000, protocol.encode_state(st(1).to_wire())))
        print(f"display link: {'%d baud (simulated byte timing)' % args.baud if args.baud else 'unthrottled pty'}, "
              f"state frame {frame} bytes")
        print(f"state change -> ACK over pty: n={len(rtts)} p50={q[49]:.2f} ms p95={q[94]:.2f} ms "
              f"max={rtts[-1]:.2f} ms")
        # throughput: a producer that changes the state faster than the link; count acked states
        a0 = drv.health().states_acked
        t0 = time.perf_counter()
        i = args.n
        while time.perf_counter() - t0 < args.seconds:
            drv.update(st(i))
            i += 1
            time.sleep(0.0005)
        dt = time.perf_counter() - t0
        acked = drv.health().states_acked - a0
        h = drv.health()
        print(f"sustained: {acked / dt:.0f} acked state frames/s over {dt:.1f} s "
              f"({i - args.n} updates offered, coalesced to the newest); "
              f"naks={h.naks} timeouts={h.timeouts} errors={h.errors}")
    finally:
        drv.stop()
        sim.stop()
    return 0
