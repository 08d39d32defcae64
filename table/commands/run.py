"""`brisca-table run`: the table service. With no config it runs the demo on embedded defaults:
the simulated table, the firmware simulator, mock GPIO, and the dashboard on localhost."""
from __future__ import annotations

import logging
import signal
import sys


def configure(p):
    p.add_argument("--config", help="a TOML config file (see docs/config.md for every key and default)")
    p.add_argument("--data-dir", help="where the event log and frames live (store.data_dir)")
    p.add_argument("--host", help="dashboard address (web.host)")
    p.add_argument("--port", type=int, help="dashboard port (web.port)")
    p.add_argument("--source", help='camera.source: "sim", "picamera", "usb:0", a video file or a frames folder')
    p.add_argument("--rules", help="table.rules preset")
    p.add_argument("--seed", type=int, help="sim.seed")
    p.add_argument("--sim-mode", choices=["pixels", "truth"], help="sim.mode")
    p.add_argument("--hands", type=int, help="sim.hands: stop the simulator after this many hands")
    p.add_argument("--robot", choices=["robot", "greedy", "random"], help="robot.player")
    p.add_argument("--no-web", action="store_true", help="do not serve the dashboard")
    p.add_argument("--as-fast-as-possible", action="store_true", help="sim.realtime = false")
    p.add_argument("--quiet", action="store_true")


def run(args) -> int:
    from table.cli import UsageError
    from table.config import ConfigError, load

    flags = {"store.data_dir": args.data_dir, "web.host": args.host, "web.port": args.port,
             "camera.source": args.source, "table.rules": args.rules, "sim.seed": args.seed,
             "sim.mode": args.sim_mode, "sim.hands": args.hands, "robot.player": args.robot}
    flags = {k: v for k, v in flags.items() if v is not None}
    if args.no_web:
        flags["web.enabled"] = False
    if args.as_fast_as_possible:
        flags["sim.realtime"] = False
    if args.rules and not args.config:
        from table.rules import Rules, RulesError
        try:
            n = Rules.parse(args.rules).players
        except RulesError as e:
            raise UsageError(str(e)) from None
        names = ["Ana", "Robot", "Luis", "Marta", "Pablo"][:n]
        flags["table.seats"] = names
    try:
        cfg = load(args.config, flags)
    except ConfigError as e:
        raise UsageError(f"config: {e}") from None
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", datefmt="%H:%M:%S", stream=sys.stdout)
    from table.service import TableService

    svc = TableService(cfg)
    stop = lambda *_: svc.stopped.set()  # noqa: E731
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    svc.start()
    if cfg["web"]["enabled"]:
        print(f"brisca-table: dashboard at http://{cfg['web']['host']}:{cfg['web']['port']}/ "
              f"(source: {cfg['camera']['source']}; Ctrl-C stops)", flush=True)
    try:
        while not svc.stopped.is_set():
            svc.stopped.wait(0.5)
            if svc.sim is not None and svc.sim.finished \
                    and not any(t.is_alive() for t in svc.threads if t.name == "vision"):
                break
    finally:
        svc.stop()
        print("brisca-table: stopped", flush=True)
    return 0
