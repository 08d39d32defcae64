"""The dashboard's JSON API through Flask's test client: state, events, SSE resume, replay data,
referee auth (PIN, CSRF, rate limit) and malformed requests that must change nothing."""
import json

import pytest
from werkzeug.security import check_password_hash

from table.events import Event
from table.ledger import Ledger
from table.record import Record
from table.store import EventStore
from web import create_app
from web.demo import append_hand, frame_jpeg, start_match

PIN = "4321"


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def app(store):
    return create_app(store, {"TESTING": True, "SSE_TICK": 0.05, "REFEREE_PIN": PIN})


@pytest.fixture
def client(app):
    return app.test_client()


def csrf(client) -> str:
    return client.get("/api/referee/session").get_json()["csrf"]


@pytest.fixture
def referee(client):
    """A client logged in as referee; returns the headers its changes must carry."""
    tok = csrf(client)
    r = client.post("/api/referee/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 200, r.get_json()
    return {"X-CSRF-Token": tok}


def sse_messages(text: str):
    """Parse SSE text into [{'id':..., 'event':..., 'data':...}] (comments skipped)."""
    out = []
    for block in text.split("\n\n"):
        msg = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            k, _, v = line.partition(":")
            msg[k] = v[1:] if v.startswith(" ") else v
        if "data" in msg:
            out.append(msg)
    return out


def read_chunks(resp, n):
    it = iter(resp.response)
    return "".join(next(it).decode() for _ in range(n))


# -- state and events ------------------------------------------------------------------------
def test_state_matches_the_folded_ledger(client, store):
    start_match(store)
    append_hand(store, seed=5, upto=5)
    st = client.get("/api/state").get_json()
    want = Ledger.fold(store.events()).state()
    assert st["hand"] == want["hand"] and st["match"] == want["match"]
    assert st["last_event"] == store.last_id
    assert len(st["hand"]["trick"]) == 1 and st["hand"]["tricks"] == 2


def test_events_since_pages_through_the_log(client, store):
    start_match(store)
    append_hand(store, seed=5, upto=6)
    r = client.get("/api/events?since=2&limit=3").get_json()
    assert [e["id"] for e in r["events"]] == [3, 4, 5] and r["more"] and r["last_id"] == 5
    r = client.get(f"/api/events?since={r['last_id']}").get_json()
    assert r["events"][0]["id"] == 6 and r["events"][-1]["id"] == store.last_id and not r["more"]
    plays = client.get("/api/events?types=play").get_json()["events"]
    assert len(plays) == 6 and all(e["type"] == "play" for e in plays)
    assert client.get("/api/events?since=abc").status_code == 400
    assert client.get("/api/events?since=-1").status_code == 400
    assert "unknown event type" in client.get("/api/events?types=dance").get_json()["error"]


# -- SSE ---------------------------------------------------------------------------------------
def test_sse_resumes_after_last_event_id_without_gaps_or_repeats(client, store):
    start_match(store)
    append_hand(store, seed=7, upto=4)
    last = store.last_id
    resp = client.get("/events", headers={"Last-Event-ID": "3"})
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    msgs = sse_messages(read_chunks(resp, 2))
    assert msgs[0]["event"] == "state" and "id" not in msgs[0]
    ids = [int(m["id"]) for m in msgs if "id" in m]
    assert ids == list(range(4, last + 1))
    assert json.loads(msgs[1]["data"])["id"] == 4
    assert json.loads(msgs[-1]["data"])["last_event"] == last  # the state follows the batch
    new = store.append(Event("alert", {"kind": "out_of_turn", "message": "card out of turn: seat 1"}))
    more = sse_messages(read_chunks(resp, 1))
    assert [int(m["id"]) for m in more if "id" in m] == [new.id]
    resp.close()


def test_sse_since_parameter_and_bad_ids(client, store):
    start_match(store)
    append_hand(store, seed=7, upto=2)
    resp = client.get("/events?since=1")
    ids = [int(m["id"]) for m in sse_messages(read_chunks(resp, 2)) if "id" in m]
    assert ids == list(range(2, store.last_id + 1))
    resp.close()
    assert client.get("/events", headers={"Last-Event-ID": "x1"}).status_code == 400
    assert client.get("/events?since=-4").status_code == 400


def test_sse_streams_are_capped(store):
    app = create_app(store, {"TESTING": True, "SSE_CAP": 2, "SSE_TICK": 0.05})
    c = app.test_client()
    a, b = c.get("/events"), c.get("/events")
    third = c.get("/events")
    assert third.status_code == 503 and third.headers["Retry-After"]
    assert c.get("/api/state").status_code == 200  # ordinary requests still served
    a.close()
    again = c.get("/events")
    assert again.status_code == 200
    again.close()
    b.close()
    assert app.extensions["brisca"].hub.open_streams == 0


# -- replay ------------------------------------------------------------------------------------
def test_hand_detail_explains_tricks_and_links_frames(client, store):
    start_match(store)
    append_hand(store, seed=11, frames=True)
    d = client.get("/api/hands/1/1").get_json()
    assert d["over"] and len(d["tricks"]) == 20 and sum(d["points"]) == 120
    t = d["tricks"][0]
    assert t["frame"] and all(c["frame"] for c in t["cards"])
    assert (" gana " in t["why"]["es"]) and (" beats " in t["why"]["en"])
    assert d["tricks"][-1]["score"] == d["points"]
    img = client.get(t["frame"])
    assert img.status_code == 200 and img.data.startswith(b"\xff\xd8")
    assert client.get("/frame/../events.sqlite3").status_code == 404
    assert client.get("/frame/frames/..%2F..%2Fevents.sqlite3").status_code == 404
    assert client.get("/api/hands/1/9").status_code == 404
    assert client.get("/api/hands/3/1").get_json()["error"] == "no match 3"
    m = client.get("/api/matches").get_json()["matches"]
    assert m[0]["hands"][0]["over"] and m[0]["seats"] == ["Ana", "Robot"]
    assert client.get("/replay/1/1").status_code == 200 and client.get("/replay/1/2").status_code == 404


def test_exports_are_the_hands_record(client, store):
    start_match(store)
    append_hand(store, seed=12)
    rj = client.get("/api/hands/1/1/record.json")
    assert "attachment" in rj.headers["Content-Disposition"]
    rec = Record.from_json(rj.data.decode())
    assert rec.score()["points"] == client.get("/api/hands/1/1").get_json()["points"]
    pbn = client.get("/api/hands/1/1/record.pbn").data.decode()
    assert Record.from_pbn(pbn).score() == rec.score()


def test_why_words():
    from table.cards import Card
    from web.explain import why
    c = Card.parse
    w = why([(0, c("3C")), (1, c("2E"))], 1, "E")
    assert w["es"] == "El dos de espadas es triunfo y gana al tres de copas"
    assert w["en"] == "The two of swords is a trump and beats the three of cups"
    assert why([(0, c("10C")), (1, c("4C"))], 0, "O")["es"].startswith("La sota de copas es la carta más alta de copas")
    assert "a la sota" in why([(0, c("1E")), (1, c("10E"))], 0, "E")["es"]


# -- referee: PIN, session, CSRF, rate limit ----------------------------------------------------
def test_changes_need_csrf_and_pin(client, store):
    start_match(store)
    append_hand(store, seed=5, upto=2)
    before = store.last_id
    r = client.post("/api/referee/undo", json={})
    assert r.status_code == 403 and "CSRF" in r.get_json()["error"]
    tok = csrf(client)
    r = client.post("/api/referee/undo", json={}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 401 and "PIN" in r.get_json()["error"]
    r = client.post("/api/referee/undo", json={}, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert store.last_id == before
    # logging in needs the CSRF token too
    assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 403
    assert client.post("/api/referee/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok}).status_code == 200
    r = client.post("/api/referee/undo", json={}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 200 and r.get_json()["event"]["type"] == "undo"
    assert store.last_id == before + 1


def test_session_cookie_is_strict_and_survives_a_restart(tmp_path):
    s = EventStore(tmp_path)
    app = create_app(s, {"TESTING": True, "REFEREE_PIN": PIN})
    c = app.test_client()
    tok = csrf(c)
    r = c.post("/api/referee/login", json={"pin": PIN}, headers={"X-CSRF-Token": tok})
    cookie = r.headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie
    # stored as a salted hash, never in clear (the salt and digest are random text, which may hold
    # "4321" by chance: the clear PIN is looked for in the method part only)
    stored = s.get_meta("web.referee_pin")
    method, salt, digest = stored.split("$")
    assert stored != PIN and PIN not in method and salt and digest
    assert check_password_hash(stored, PIN) and not check_password_hash(stored, "1234")
    value = c.get_cookie("brisca_session").value
    app2 = create_app(s, {"TESTING": True})  # a restarted service with the same data dir
    c2 = app2.test_client()
    c2.set_cookie("brisca_session", value)
    assert c2.get("/api/referee/session").get_json()["referee"] is True


def test_first_run_sets_the_pin_then_changing_it_needs_the_old_one(tmp_path):
    s = EventStore(tmp_path)
    c = create_app(s, {"TESTING": True}).test_client()
    assert c.get("/api/referee/session").get_json()["pin_set"] is False
    tok = csrf(c)
    assert c.post("/api/referee/login", json={"pin": "1111"}, headers={"X-CSRF-Token": tok}).status_code == 409
    assert c.post("/api/referee/pin", json={"pin": "12"}, headers={"X-CSRF-Token": tok}).status_code == 400
    assert c.post("/api/referee/pin", json={"pin": "2468"}, headers={"X-CSRF-Token": tok}).status_code == 200
    other = create_app(s, {"TESTING": True}).test_client()
    t2 = csrf(other)
    r = other.post("/api/referee/pin", json={"pin": "0000"}, headers={"X-CSRF-Token": t2})
    assert r.status_code == 401  # nobody else can take over once it is set
    r = c.post("/api/referee/pin", json={"pin": "1357", "old_pin": "9999"}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 403
    r = c.post("/api/referee/pin", json={"pin": "1357", "old_pin": "2468"}, headers={"X-CSRF-Token": tok})
    assert r.status_code == 200
    assert other.post("/api/referee/login", json={"pin": "1357"}, headers={"X-CSRF-Token": t2}).status_code == 200


def test_wrong_pins_are_rate_limited(client, store):
    tok = csrf(client)
    h = {"X-CSRF-Token": tok}
    codes = [client.post("/api/referee/login", json={"pin": f"{i:04d}"}, headers=h).status_code for i in range(5)]
    assert codes == [403] * 5
    r = client.post("/api/referee/login", json={"pin": PIN}, headers=h)  # even the right PIN waits now
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert client.get("/api/referee/session").get_json()["referee"] is False


def test_new_match_hand_and_correction_rescore(client, store, referee):
    r = client.post("/api/referee/match", json={"rules": "classic-2", "seats": ["Ana", "Luis"], "robot_seat": 1},
                    headers=referee)
    assert r.status_code == 200
    r = client.post("/api/referee/hand", json={"dealer": 1, "trump": "7o"}, headers=referee)
    assert r.get_json()["event"]["data"]["trump"] == "7O"
    a = store.append(Event("play", {"seat": 0, "card": "3C"}))
    b = store.append(Event("play", {"seat": 1, "card": "1C"}))
    assert client.get("/api/state").get_json()["hand"]["points"] == [0, 21]
    r = client.post("/api/referee/correct", json={"target": b.id, "card": "2C", "why": "misread"}, headers=referee)
    assert r.status_code == 200
    st = client.get("/api/state").get_json()
    assert st["hand"]["points"] == [10, 0]
    corr = client.get("/api/hands/1/1").get_json()["corrections"]
    assert corr[0]["was"] == "1C" and corr[0]["now"] == "2C" and corr[0]["why"] == "misread"
    r = client.post("/api/referee/undo", json={}, headers=referee)
    assert r.get_json()["event"]["data"]["target"] == b.id
    assert client.get("/api/state").get_json()["hand"]["trick"] == [{"seat": 0, "card": "3C"}]
    assert a.id < b.id
    # a client key makes a double tap idempotent
    r1 = client.post("/api/referee/clear-alerts", json={"key": "tap-1"}, headers=referee).get_json()
    r2 = client.post("/api/referee/clear-alerts", json={"key": "tap-1"}, headers=referee).get_json()
    assert r1["event"]["id"] == r2["event"]["id"]


@pytest.mark.parametrize("url,body,status,words", [
    ("/api/referee/correct", b"{not json", 400, "not valid JSON"),
    ("/api/referee/correct", b"[1, 2]", 400, "JSON object"),
    ("/api/referee/correct", {"target": "TARGET", "card": "13X"}, 400, "not a card code"),
    ("/api/referee/correct", {"target": "TARGET", "card": "8O"}, 400, "not in the 40-card deck"),
    ("/api/referee/correct", {"target": "TARGET", "card": 3}, 400, "card code"),
    ("/api/referee/correct", {"target": 9999, "card": "3C"}, 404, "not a play"),
    ("/api/referee/correct", {"target": True, "card": "3C"}, 400, "integer"),
    ("/api/referee/hand", {"dealer": 5, "trump": "7O"}, 400, "out of range"),
    ("/api/referee/hand", {"dealer": 0, "trump": "7Z"}, 400, "suit must be"),
    ("/api/referee/match", {"rules": "classic-2", "seats": ["A", "B"], "robot_seat": 2}, 400, "out of range"),
    ("/api/referee/match", {"rules": "classic-2", "seats": ["A"]}, 400, "needs 2 names"),
    ("/api/referee/match", {"rules": "poker", "seats": ["A", "B"]}, 400, "unknown rules preset"),
    ("/api/referee/undo", {"target": 0}, 400, "out of range"),
    ("/api/referee/correct", b'{"target": 1, "why": "' + b"x" * 70000 + b'"}', 413, "too large"),
])
def test_malformed_requests_change_nothing(client, store, referee, url, body, status, words):
    start_match(store)
    evs = append_hand(store, seed=5, upto=2)
    target = evs[1].id
    before = store.last_id
    h = dict(referee)
    if isinstance(body, dict):
        body = json.dumps({k: (target if v == "TARGET" else v) for k, v in body.items()}).encode()
    r = client.post(url, data=body, headers=h, content_type="application/json")
    assert r.status_code == status, r.get_json()
    assert words in r.get_json()["error"]
    assert store.last_id == before


def test_a_huge_body_is_refused_before_reading(client, store, referee):
    r = client.post("/api/referee/undo", data=b"x" * (17 * 2 ** 20), headers=referee,
                    content_type="application/json")
    assert r.status_code == 413 and r.is_json


# -- set-up pages and the controller ------------------------------------------------------------
class FakeController:
    def __init__(self):
        self.saved_zones = None
        self.enrolled = None

    def camera_jpeg(self):
        return frame_jpeg("camera")

    def zones(self):
        return {"trick": [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7], [0.3, 0.7]]}

    def detections(self):
        return [{"code": "3C", "confidence": 0.95, "polygon": [[0.4, 0.4], [0.5, 0.4], [0.5, 0.55], [0.4, 0.55]]}]

    def set_zones(self, zones):
        self.saved_zones = zones

    def enroll(self, jpeg):
        return [{"code": "1O", "jpeg": frame_jpeg("1O", (60, 90)), "confidence": 0.9},
                {"code": None, "jpeg": frame_jpeg("?", (60, 90)), "confidence": 0.2}]

    def save_enrollment(self, crops):
        self.enrolled = crops


def test_setup_degrades_without_a_controller(client):
    assert client.get("/setup").status_code == 200
    r = client.get("/setup/camera.jpg")
    assert r.status_code == 503
    assert client.get("/api/setup/overlay").get_json() == {"available": False, "zones": {}, "detections": []}


def test_setup_with_a_controller(store):
    ctl = FakeController()
    app = create_app(store, {"TESTING": True, "REFEREE_PIN": PIN}, controller=ctl)
    c = app.test_client()
    assert c.get("/setup/camera.jpg").data.startswith(b"\xff\xd8")
    ov = c.get("/api/setup/overlay").get_json()
    assert ov["zones"]["trick"][0] == [0.3, 0.3] and ov["detections"][0]["code"] == "3C"
    tok = csrf(c)
    h = {"X-CSRF-Token": tok}
    zones = {"trick": [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]]}
    assert c.post("/api/setup/zones", json={"zones": zones}, headers=h).status_code == 401
    c.post("/api/referee/login", json={"pin": PIN}, headers=h)
    assert c.post("/api/setup/zones", json={"zones": {"trick": [[0, 0], [2, 0], [1, 1]]}}, headers=h).status_code == 400
    assert ctl.saved_zones is None
    assert c.post("/api/setup/zones", json={"zones": zones}, headers=h).status_code == 200
    assert ctl.saved_zones == zones and store.events()[-1].data["name"] == "calibration"
    crops = c.post("/api/setup/enroll", headers=h).get_json()["crops"]
    assert len(crops) == 2 and crops[0]["image"].startswith("data:image/jpeg;base64,")
    r = c.post("/api/setup/enroll/save", json={"crops": [{"index": 0, "code": "1O"}, {"index": 1, "code": "1O"}]},
               headers=h)
    assert r.status_code == 400 and "two crops" in r.get_json()["error"]
    r = c.post("/api/setup/enroll/save", json={"crops": [{"index": 0, "code": "1O"}, {"index": 1, "code": "3c"}]},
               headers=h)
    assert r.status_code == 200 and ctl.enrolled[1] == {"index": 1, "code": "3C"}


# -- pages and languages -------------------------------------------------------------------------
def test_pages_speak_spanish_and_english(client, store):
    start_match(store)
    append_hand(store, seed=5, upto=3)
    assert "Triunfo" in client.get("/").data.decode()
    assert "Trump" in client.get("/?lang=en").data.decode()
    assert "Trump" in client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).data.decode()
    for url in ("/replay", "/replay/1/1", "/referee", "/setup", "/setup/enroll"):
        r = client.get(url)
        assert r.status_code == 200 and "Content-Security-Policy" in r.headers, url


# -- the real server: waitress in a thread -------------------------------------------------------
def _sse_open(port, headers=None):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/events", headers=headers or {})
    return conn, conn.getresponse()


def _read_until(resp, needle: bytes) -> bytes:
    buf = b""
    while needle not in buf:
        chunk = resp.read1(65536)
        assert chunk, buf
        buf += chunk
    return buf


def test_waitress_serves_streams_up_to_the_cap_and_stops(store):
    import http.client
    from web.server import serve

    start_match(store)
    append_hand(store, seed=3, upto=3)
    app = create_app(store, {"SSE_CAP": 2, "SSE_TICK": 0.1})
    srv = serve(app, host="127.0.0.1", port=0)
    assert srv.threads > 2
    try:
        c1, r1 = _sse_open(srv.port, {"Last-Event-ID": "2"})
        body = _read_until(r1, f"id: {store.last_id}\n".encode())
        ids = [int(m["id"]) for m in sse_messages(body.decode()) if "id" in m]
        assert ids == list(range(3, store.last_id + 1))  # resumed right after event 2
        c2, r2 = _sse_open(srv.port)
        _read_until(r2, b"event: state")
        c3, r3 = _sse_open(srv.port)
        assert r3.status == 503 and r3.getheader("Retry-After")
        c3.close()
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        c.request("GET", "/api/state")
        assert c.getresponse().status == 200  # a thread is always left for ordinary requests
        e = store.append(Event("play", {"seat": 1, "card": "5B"}))
        assert f"id: {e.id}".encode() in _read_until(r2, f"id: {e.id}\n".encode())
    finally:
        assert srv.stop() is True
    assert app.extensions["brisca"].hub.open_streams == 0


def test_bench_web_prints_measured_numbers(capsys):
    from table.cli import main
    assert main(["bench", "web", "--viewers", "3", "--events", "30", "--rate", "200", "--pollers", "1"]) == 0
    out = capsys.readouterr().out
    assert "reached every viewer: n=30 p50=" in out and "/api/state under that load: n=" in out


def test_zones_in_table_millimetres_are_scaled_both_ways(store):
    class MmController:
        saved = None

        def zones(self):
            return {"units": "mm", "table": [900.0, 500.0], "zones": {"play0": [[90, 50], [450, 50], [450, 250]]}}

        def set_zones(self, z):
            self.saved = z

    ctl = MmController()
    c = create_app(store, {"TESTING": True, "REFEREE_PIN": PIN}, controller=ctl).test_client()
    assert c.get("/api/setup/overlay").get_json()["zones"]["play0"] == [[0.1, 0.1], [0.5, 0.1], [0.5, 0.5]]
    h = {"X-CSRF-Token": csrf(c)}
    c.post("/api/referee/login", json={"pin": PIN}, headers=h)
    r = c.post("/api/setup/zones", json={"zones": {"play0": [[0.2, 0.2], [0.5, 0.1], [0.5, 0.5]]}}, headers=h)
    assert r.status_code == 200
    assert ctl.saved == {"units": "mm", "table": [900.0, 500.0], "zones": {"play0": [[180.0, 100.0], [450.0, 50.0], [450.0, 250.0]]}}
    ctl.zones = lambda: None  # a controller with nothing to draw yet
    assert c.get("/api/setup/overlay").get_json()["zones"] == {}


def test_referee_enters_a_subastada_auction(client, store, referee):
    """The auction is spoken at the table: the referee enters it, it is checked, then stored."""
    store.append(Event("match_start", {"rules": "subastada-5", "seats": ["A", "B", "C", "D", "E"],
                                       "first_dealer": 0}))
    bad = client.post("/api/referee/auction", json={"bids": [{"seat": 1, "bid": 50}]}, headers=referee)
    assert bad.status_code == 400 and "auction refused" in bad.get_json()["error"]
    n = len(store.events())
    assert client.post("/api/referee/auction", json={"bids": [{"seat": 9, "bid": 70}]},
                       headers=referee).status_code == 400
    bids = [{"seat": 1, "bid": 70}, {"seat": 2, "pass": True}, {"seat": 3, "pass": True},
            {"seat": 4, "pass": True}, {"seat": 0, "pass": True}]
    ok = client.post("/api/referee/auction", json={"bids": bids, "call": "1E", "trump": "E"}, headers=referee)
    assert ok.status_code == 200, ok.get_json()
    assert len(store.events()) == n + 1
    st = client.get("/api/state").get_json()
    assert st["hand"]["trump_suit"] == "E"
    assert client.post("/api/referee/auction", json={"bids": bids}).status_code in (400, 401, 403)


def test_referee_enters_a_card_the_camera_missed(client, store, referee):
    client.post("/api/referee/match", json={"rules": "classic-2", "seats": ["Ana", "Luis"]}, headers=referee)
    client.post("/api/referee/hand", json={"dealer": 1, "trump": "7O"}, headers=referee)
    store.append(Event("play", {"seat": 0, "card": "3C"}))
    before = store.last_id
    for body, status, words in (({"card": "3C"}, 409, "cannot play"),        # already played
                                ({"card": "1C", "seat": 0}, 409, "seat 1's turn"),
                                ({"card": "13X"}, 400, "not a card code")):
        r = client.post("/api/referee/play", json=body, headers=referee)
        assert r.status_code == status and words in r.get_json()["error"], r.get_json()
    assert store.last_id == before
    r = client.post("/api/referee/play", json={"card": "1c", "why": "taken in unread"}, headers=referee)
    assert r.status_code == 200
    assert r.get_json()["event"]["data"] == {"seat": 1, "card": "1C", "why": "taken in unread", "by": "referee"}
    assert client.get("/api/state").get_json()["hand"]["points"] == [0, 21]
    assert client.post("/api/referee/play", json={"card": "2C"}).status_code in (401, 403)  # no session
