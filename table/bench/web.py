"""`brisca-table bench web`: live SSE viewers on loopback while a simulated game is appended to a
real store; measures the time from an event's append to its arrival at every viewer, and the
latency of /api/state under that load.

The server runs in this process (as in the service); the viewers and the /api/state poller run in
a child process so their parsing does not share the server's interpreter lock, as phones would not.
"""
from __future__ import annotations


def configure(parser):
    parser.add_argument("--viewers", type=int, default=30, help="concurrent SSE viewers (default 30)")
    parser.add_argument("--events", type=int, default=300, help="events to append (default 300)")
    parser.add_argument("--rate", type=float, default=20.0, help="events per second (default 20)")
    parser.add_argument("--pollers", type=int, default=2, help="clients polling /api/state (default 2)")


def _percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def _viewer(host, port, got, ready, stop):
    """One SSE client: records when each event id arrives (monotonic clock, shared across processes)."""
    import http.client
    import time

    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
    resp = conn.getresponse()
    if resp.status != 200:
        ready.append(False)
        return
    buf = b""
    first = True
    while not stop.is_set():
        try:
            chunk = resp.read1(65536)
        except OSError:
            break
        if not chunk:
            break
        now = time.monotonic()
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                got[int(line[4:])] = now
        if first and b"event: state" in chunk:
            first = False
            ready.append(True)
    conn.close()


def _poller(host, port, lat, stop):
    import http.client
    import time

    conn = http.client.HTTPConnection(host, port, timeout=30)
    while not stop.is_set():
        t = time.monotonic()
        conn.request("GET", "/api/state")
        r = conn.getresponse()
        r.read()
        lat.append(time.monotonic() - t)
        time.sleep(0.02)
    conn.close()


def _clients(host, port, viewers, pollers, ctl):
    """Child process: start viewers and pollers, report readiness, then collect until told the
    last event id and every viewer has it (or a deadline passes)."""
    import threading
    import time

    stop = threading.Event()
    ready: list = []
    gots = [dict() for _ in range(viewers)]
    lats = [list() for _ in range(pollers)]
    threads = [threading.Thread(target=_viewer, args=(host, port, g, ready, stop), daemon=True) for g in gots]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while len(ready) < viewers and time.monotonic() < deadline:
        time.sleep(0.01)
    pts = [threading.Thread(target=_poller, args=(host, port, lat, stop), daemon=True) for lat in lats]
    for t in pts:
        t.start()
    ctl.send({"ready": sum(ready)})
    last = ctl.recv()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not all(last in g for g in gots):
        time.sleep(0.01)
    stop.set()
    ctl.send({"got": [dict(g) for g in gots], "state": [x for lat in lats for x in lat]})


def run(args) -> int:
    import multiprocessing as mp
    import tempfile
    import time

    from table.store import EventStore
    from web import create_app
    from web.demo import simulated_events
    from web.server import serve

    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(tmp)
        cap = max(40, args.viewers + 4)
        app = create_app(store, {"SSE_CAP": cap})
        srv = serve(app, host="127.0.0.1", port=0)
        events = simulated_events(args.events)
        parent, child = mp.Pipe()
        proc = mp.get_context("spawn").Process(
            target=_clients, args=("127.0.0.1", srv.port, args.viewers, args.pollers, child), daemon=True)
        proc.start()
        try:
            hello = parent.recv()
            if hello["ready"] < args.viewers:
                print(f"bench web: only {hello['ready']} of {args.viewers} viewers connected")
                return 1
            sent = {}
            gap = 1.0 / args.rate if args.rate > 0 else 0.0
            t_start = time.monotonic()
            for i, e in enumerate(events):
                target = t_start + i * gap
                delay = target - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                t0 = time.monotonic()
                store.append(e)
                sent[e.id] = t0
            elapsed = time.monotonic() - t_start
            parent.send(events[-1].id)
            res = parent.recv()
        finally:
            proc.join(10)
            srv.stop()
            store.close()
    lat, missing = [], 0
    for eid, t0 in sent.items():
        arrivals = [g.get(eid) for g in res["got"]]
        if any(a is None for a in arrivals):
            missing += sum(a is None for a in arrivals)
            continue
        lat.append((max(arrivals) - t0) * 1000)
    st = [x * 1000 for x in res["state"]]
    print(f"web: {args.viewers} SSE viewers on loopback, {len(sent)} events appended in {elapsed:.1f} s "
          f"({len(sent) / elapsed:.0f}/s, SQLite synchronous=FULL), {args.pollers} clients polling /api/state")
    print(f"event stored -> reached every viewer: n={len(lat)} p50={_percentile(lat, 50):.1f} ms "
          f"p95={_percentile(lat, 95):.1f} ms max={max(lat) if lat else float('nan'):.1f} ms"
          f"{f'  MISSING deliveries: {missing}' if missing else ''}")
    print(f"/api/state under that load: n={len(st)} p50={_percentile(st, 50):.1f} ms "
          f"p95={_percentile(st, 95):.1f} ms max={max(st) if st else float('nan'):.1f} ms")
    return 1 if missing else 0
