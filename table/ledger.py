"""Ledger: fold the event log into matches, hands, the current game, alerts and announcements.

Pure: no I/O. The web, the devices and the robot read the ledger; the tracker checks new readings
against its current game. Corrections and undos are events too: the affected hand is replayed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from table.cards import Card
from table.events import Event
from table.game import Game, IllegalAction, Play, Swap
from table.match import Match
from table.record import Correction, Record, RecordError
from table.rules import Rules


@dataclass
class HandLog:
    """One hand: its record and, per action, the event that reported it (for frames and undo)."""

    number: int
    record: Record
    start_event: int
    action_events: List[int] = field(default_factory=list)
    frames: Dict[int, Optional[str]] = field(default_factory=dict)       # action event id -> frame
    trick_frames: Dict[int, Optional[str]] = field(default_factory=dict)  # trick number -> frame
    correction_events: List[Dict[str, Any]] = field(default_factory=list)
    game: Optional[Game] = None
    error: Optional[str] = None

    def rebuild(self) -> None:
        try:
            self.game, _ = self.record.replay()
            self.error = None
        except RecordError as e:
            self.error = str(e)
            try:
                self.game, _ = self.record.replay(e.index)
            except RecordError:
                self.game = self.record.new_game()

    @property
    def complete(self) -> bool:
        return self.game is not None and self.game.is_over() and self.error is None


@dataclass
class MatchLog:
    number: int
    rules: Rules
    seats: List[str]
    robot_seat: Optional[int]
    first_dealer: int
    start_event: int
    hands: List[HandLog] = field(default_factory=list)
    ended: bool = False

    def match(self) -> Match:
        m = Match(self.rules, self.first_dealer)
        for h in self.hands:
            if h.complete and not m.is_over():
                m.add(h.game.outcome())
        return m


class Ledger:
    """The table as the events say it is."""

    def __init__(self) -> None:
        self.matches: List[MatchLog] = []
        self.alerts: List[Event] = []
        self.announcement: Optional[Event] = None
        self.robot_hand: List[str] = []
        self.devices: Dict[str, Dict[str, Any]] = {}
        self.last_id = 0

    @classmethod
    def fold(cls, events) -> "Ledger":
        led = cls()
        for e in events:
            led.apply(e)
        return led

    # -- accessors ------------------------------------------------------------------------------
    @property
    def match(self) -> Optional[MatchLog]:
        return self.matches[-1] if self.matches else None

    @property
    def hand(self) -> Optional[HandLog]:
        m = self.match
        return m.hands[-1] if m and m.hands else None

    @property
    def game(self) -> Optional[Game]:
        h = self.hand
        return h.game if h else None

    def find_action(self, event_id: int):
        for m in self.matches:
            for h in m.hands:
                if event_id in h.action_events:
                    return h, h.action_events.index(event_id)
        return None, None

    # -- folding --------------------------------------------------------------------------------
    def apply(self, e: Event) -> None:
        self.last_id = max(self.last_id, e.id or 0)
        handler = getattr(self, "_on_" + e.type, None)
        if handler:
            handler(e)

    def _on_match_start(self, e: Event) -> None:
        d = e.data
        rules = Rules.parse(d["rules"])
        self.matches.append(MatchLog(len(self.matches) + 1, rules, list(d["seats"]), d.get("robot_seat"),
                                     int(d.get("first_dealer", 0)), e.id or 0))
        self.alerts.clear()
        self.robot_hand = []

    def _on_hand_start(self, e: Event) -> None:
        m = self.match
        if m is None:
            return
        d = e.data
        trump = Card.parse(d["trump"]) if d.get("trump") else None
        rec = Record(m.rules, m.seats, int(d["dealer"]), trump)
        h = HandLog(len(m.hands) + 1, rec, e.id or 0)
        h.rebuild()
        m.hands.append(h)
        self.robot_hand = []
        self.announcement = None

    def _action(self, e: Event, action) -> None:
        h = self.hand
        if h is None:
            return
        seat = int(e.data["seat"])
        h.record.actions.append((seat, action))
        h.action_events.append(e.id or 0)
        h.frames[e.id or 0] = e.frame
        if h.error is None and h.game is not None:
            before = len(h.game.tricks)
            try:
                h.game.apply(action, seat)
            except IllegalAction as err:
                h.error = f"action {len(h.record.actions) - 1}: {type(err).__name__}: {err}"
            if h.game and len(h.game.tricks) > before:
                self.announcement = None
        else:
            h.rebuild()
        if action.card.code in self.robot_hand and seat == (self.match.robot_seat if self.match else None):
            self.robot_hand = [c for c in self.robot_hand if c != action.card.code]

    def _on_play(self, e: Event) -> None:
        self._action(e, Play(Card.parse(e.data["card"])))
        self.announcement = None

    def _on_swap(self, e: Event) -> None:
        self._action(e, Swap(Card.parse(e.data["gave"])))
        self.announcement = None  # the robot announces its play next

    def _on_trick(self, e: Event) -> None:
        h = self.hand
        if h is not None:
            h.trick_frames[int(e.data.get("number", len(h.trick_frames) + 1))] = e.frame

    def _on_correction(self, e: Event) -> None:
        h, idx = self.find_action(int(e.data["target"]))
        if h is None:
            return
        seat, was = h.record.actions[idx]
        new = Swap(Card.parse(e.data["swap"])) if "swap" in e.data else Play(Card.parse(e.data["play"]))
        h.record.corrections = [c for c in h.record.corrections if c.index != idx]
        h.record.corrections.append(Correction(idx, new, str(e.data.get("by", "referee")),
                                               _iso(e.ts), str(e.data.get("why", "")), was))
        h.correction_events.append({"event": e.id, "action": idx, "by": e.data.get("by", "referee"),
                                    "at": _iso(e.ts), "why": e.data.get("why", ""),
                                    "was": str(was.card), "now": str(new.card)})
        h.rebuild()

    def _on_undo(self, e: Event) -> None:
        h, idx = self.find_action(int(e.data["target"]))
        if h is None:
            return
        del h.record.actions[idx]
        del h.action_events[idx]
        h.record.corrections = [c for c in h.record.corrections if c.index != idx]
        for c in h.record.corrections:
            if c.index > idx:
                c.index -= 1
        h.rebuild()

    def _on_auction(self, e: Event) -> None:
        """Subastada: the referee enters the auction, the call and the trump (the whole contract so
        far, each time). It goes into the hand's record.extra and the hand is replayed with it; an
        auction with no open hand starts one (the hand starts on the auction: no turned-up card)."""
        m = self.match
        if m is None or not m.rules.auction:
            return
        h = self.hand
        if h is None or (h.game is not None and h.game.is_over() and h.error is None):
            dealer = int(e.data.get("dealer", m.match().dealer))
            h = HandLog(len(m.hands) + 1, Record(m.rules, m.seats, dealer, None), e.id or 0)
            m.hands.append(h)
            self.robot_hand = []
            self.announcement = None
        from table import subastada
        for k in ("auction", "call", "declared_trump", "bidder"):
            h.record.extra.pop(k, None)
        try:
            h.record.extra.update(subastada.extra_from_event(e.data))
        except ValueError as err:  # CardError: a bad call or trump
            h.rebuild()
            h.error = f"auction: {err}"
            return
        h.rebuild()

    def _on_match_end(self, e: Event) -> None:
        if self.match:
            self.match.ended = True

    def _on_alert(self, e: Event) -> None:
        self.alerts.append(e)

    def _on_alert_cleared(self, e: Event) -> None:
        kind = e.data.get("kind")
        self.alerts = [a for a in self.alerts if kind and a.data.get("kind") != kind]

    def _on_announce(self, e: Event) -> None:
        self.announcement = e

    def _on_robot_hand(self, e: Event) -> None:
        self.robot_hand = list(e.data["cards"])

    def _on_device(self, e: Event) -> None:
        self.devices[e.data["name"]] = {"ok": e.data["ok"], "detail": e.data.get("detail", ""), "since": e.ts}

    # -- the live view ------------------------------------------------------------------------
    def state(self) -> Dict[str, Any]:
        """The dashboard's `/api/state` object."""
        m, h = self.match, self.hand
        g = h.game if h else None
        out: Dict[str, Any] = {"last_event": self.last_id, "match": None, "hand": None,
                               "alerts": [{"id": a.id, **a.data} for a in self.alerts],
                               "announcement": self.announcement.data if self.announcement else None,
                               "devices": self.devices}
        if m is None:
            return out
        mm = m.match()
        out["match"] = {"number": m.number, "rules": m.rules.to_json(), "seats": m.seats,
                        "robot_seat": m.robot_seat, "hands_won": mm.hands_won, "winner": mm.winner(),
                        "hands_played": len([x for x in m.hands if x.complete]),
                        "partnerships": m.rules.partnerships}
        if g is None:
            return out
        out["hand"] = {
            "number": h.number, "dealer": g.dealer,
            "trump": str(h.record.trump) if h.record.trump else None,
            "trump_now": str(g.trump) if g.trump else None, "trump_suit": g.trump_suit_letter,
            "turn": None if g.is_over() else g.turn, "stock": g.stock_count,
            "trick": [{"seat": s, "card": str(c)} for s, c in g.current_trick()],
            "last_trick": g.completed_tricks()[-1].to_json() if g.tricks else None,
            "tricks": len(g.tricks), "points": g.side_points(), "over": g.is_over(),
            "winner": g.outcome().winner if g.is_over() else None, "error": h.error,
        }
        if m.rules.auction:  # Subastada: the contract; the partner only once revealed; match points
            from table.subastada import hand_match_points, tally
            c = g.contract
            out["hand"]["contract"] = c.summary() if c is not None else None
            out["hand"]["match_points"] = (hand_match_points(g) if c is not None and c.ready and g.is_over()
                                           and h.error is None else None)
            out["match"]["match_points"] = tally(x.game for x in m.hands if x.complete) or [0] * m.rules.players
        return out


def _iso(ts: float) -> str:
    import time as _t
    return _t.strftime("%Y-%m-%dT%H:%M:%SZ", _t.gmtime(ts))
