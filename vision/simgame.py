"""Whole simulated games as frame sequences at 10 fps: the test table, the benchmark and the demo.

A game is choreographed from a record (with its deck): the deal, hands reaching in, cards sliding
into place, tricks collected into won piles, the swap, the stock shrinking, the robot's tray. Each
frame is a declarative table state (placed cards + hand occluders) that can be rendered to pixels
(:func:`vision.synth.render_scene`) or, for fast logic tests, turned straight into an observation
with the ground-truth readings. The rules are not consulted here: the record says what happens,
and the draws follow the dealing order written in the record's deck.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from vision.observe import Observation, SeenCard
from vision.synth import Hand, Placed

FPS = 10.0
TABLE_W, TABLE_H = 900.0, 500.0

# Where each seat sits, by number of players: (play position, hand angle, won pile position).
# Seats go counter-clockwise seen from above: bottom, right, top, left.
_SEAT_GEOMETRY = {
    "bottom": ((450.0, 330.0), 0.0, 90.0, (700.0, 440.0)),
    "right": ((565.0, 250.0), 90.0, 0.0, (830.0, 330.0)),
    "top": ((450.0, 170.0), 0.0, 270.0, (700.0, 60.0)),
    "left": ((335.0, 250.0), 90.0, 180.0, (60.0, 420.0)),
    # five seats (Subastada): smaller play zones on a ring, clear of the stock and the robot tray
    "bottom5": ((450.0, 345.0), 0.0, 90.0, (700.0, 440.0)),
    "right5": ((620.0, 285.0), 90.0, 20.0, (830.0, 330.0)),
    "top_right5": ((525.0, 175.0), 0.0, 300.0, (720.0, 60.0)),
    "top_left5": ((375.0, 175.0), 0.0, 240.0, (180.0, 60.0)),
    "left5": ((285.0, 285.0), 90.0, 160.0, (60.0, 420.0)),
}
_SEATS_FOR = {2: ["bottom", "top"], 3: ["bottom", "right", "top"], 4: ["bottom", "right", "top", "left"],
              5: ["bottom5", "right5", "top_right5", "top_left5", "left5"]}
_ZONE_HALF = {5: 50.0}  # play-zone half size (mm) where 58 would make neighbouring zones overlap
TRUMP_POS = (105.0, 250.0)
STOCK_POS = (200.0, 250.0)  # beside the trump: a tucked trump is an open detection problem
TRAY_X = (300.0, 370.0, 440.0, 510.0, 580.0)
TRAY_Y = 62.0


class Layout:
    """Seat positions for n players and the zones (a :class:`vision.calibrate.Zones`, table mm)
    that go with them: the same zone type a real table's calibration file holds."""

    def __init__(self, players: int, zones) -> None:
        self.players = players
        self.zones = zones

    @classmethod
    def for_players(cls, n: int, robot_tray: bool = True) -> "Layout":
        import numpy as np

        from vision.calibrate import Zone, Zones

        if n not in _SEATS_FOR:
            raise ValueError(f"no table layout for {n} players")
        zs = []
        for seat, name in enumerate(_SEATS_FOR[n]):
            (x, y), _, _, _ = _SEAT_GEOMETRY[name]
            zs.append(Zone(f"play{seat}", np.array(_rect(x, y, 58, 58))))
        zs.append(Zone("stock", np.array(_rect(135, 250, 95, 95))))
        if robot_tray:
            zs.append(Zone("robot_tray", np.array(_rect(440, TRAY_Y, 180, 55))))
        return cls(n, Zones(zs, TABLE_W, TABLE_H))

    def seat(self, s: int):
        return _SEAT_GEOMETRY[_SEATS_FOR[self.players][s]]

    def zone_of(self, x: float, y: float) -> Optional[str]:
        return self.zones.locate((x, y))

    def to_json(self) -> dict:
        """The zones file (``brisca-zones/1``) for this layout."""
        return self.zones.to_json()


def _rect(cx, cy, hw, hh):
    return [(cx - hw, cy - hh), (cx + hw, cy - hh), (cx + hw, cy + hh), (cx - hw, cy + hh)]


@dataclass
class SimFrame:
    """One frame of the simulated table."""

    index: int
    ts: float
    cards: List[Placed]
    hands: Tuple[Hand, ...]
    moving: bool
    note: str = ""


@dataclass
class SimOptions:
    settle_frames: int = 6           # still frames after each card lands (0.6 s at 10 fps)
    hover_prob: float = 0.1          # a hand lingers over a played card for a second
    nudge_prob: float = 0.1          # a landed card is nudged a few mm
    jitter_mm: float = 6.0
    robot_seat: Optional[int] = None


class GameFilm:
    """Frames of one hand, played as the record says. ``frames()`` yields :class:`SimFrame`."""

    def __init__(self, record, options: SimOptions = None, seed: int = 0, actions=None) -> None:
        """``actions`` yields (seat, action) pairs, or None to wait a frame (a live table waiting
        for the robot's announcement); by default the record's own actions."""
        if record.deck is None:
            raise ValueError("a simulated game needs the record's deck order")
        self.rec = record
        self.opt = options or SimOptions()
        self.rng = random.Random(seed)
        self.n = record.rules.players
        self.layout = Layout.for_players(self.n)
        self.t = 0
        self._cards_on: Dict[str, Placed] = {}   # play area
        self._piles: Dict[int, int] = {}
        self._stock_left = 0
        self._trump: Optional[str] = None
        self._tray: List[str] = []
        self._actions = actions

    # -- static scene ---------------------------------------------------------------------------
    def _scene(self) -> List[Placed]:
        cards: List[Placed] = []
        if self._trump is not None:
            cards.append(Placed(self._trump, True, TRUMP_POS[0], TRUMP_POS[1], 90.0))
        for k in range(min(self._stock_left, 4)):
            cards.append(Placed(None, False, STOCK_POS[0] + k * 0.8, STOCK_POS[1] - k * 0.8, 2.0 * k))
        for seat, count in self._piles.items():
            px, py = self.layout.seat(seat)[3]
            for k in range(min(count, 3)):
                cards.append(Placed(None, False, px + k, py - k, 15.0 * k + seat * 20))
        if self.opt.robot_seat is not None:
            for i, code in enumerate(sorted(self._tray)):
                cards.append(Placed(code, True, TRAY_X[i], TRAY_Y, 0.0))
        cards.extend(self._cards_on.values())
        return cards

    def _frame(self, hands=(), moving=False, note="", extra: Sequence[Placed] = ()) -> SimFrame:
        f = SimFrame(self.t, self.t / FPS, self._scene() + list(extra), tuple(hands), moving, note)
        self.t += 1
        return f

    def _still(self, k: int, note: str = "") -> Iterator[SimFrame]:
        for _ in range(k):
            yield self._frame(note=note)

    def _reach(self, seat: int, target: Tuple[float, float], frames: int, carry: Optional[Placed] = None,
               start: Optional[Tuple[float, float]] = None) -> Iterator[SimFrame]:
        """A hand from the seat's edge to ``target`` (carrying a card that slides with it)."""
        (_, _), _, hang, _ = self.layout.seat(seat)
        a = math.radians(hang)
        sx, sy = start or (target[0] + 260 * math.cos(a), target[1] + 260 * math.sin(a))
        for i in range(1, frames + 1):
            f = i / frames
            x, y = sx + (target[0] - sx) * f, sy + (target[1] - sy) * f
            extra = []
            if carry is not None:
                extra.append(Placed(carry.code, carry.face_up, x, y, carry.angle))
            tip = (x + 40 * math.cos(a), y + 40 * math.sin(a)) if carry is not None else (x, y)
            yield self._frame([Hand(tip[0], tip[1], hang)], True, f"reach {seat}", extra)

    def _withdraw(self, seat: int, frm: Tuple[float, float], frames: int = 2) -> Iterator[SimFrame]:
        (_, _), _, hang, _ = self.layout.seat(seat)
        a = math.radians(hang)
        for i in range(1, frames + 1):
            d = 60 + 120 * i
            yield self._frame([Hand(frm[0] + d * math.cos(a), frm[1] + d * math.sin(a), hang)], True,
                              f"withdraw {seat}")

    # -- the hand -------------------------------------------------------------------------------
    def frames(self) -> Iterator[SimFrame]:
        rec, n, opt, rng = self.rec, self.n, self.opt, self.rng
        deck = [str(c) for c in rec.deck]
        hs = rec.rules.hand_size
        hands = {s: [] for s in range(n)}
        pos = 0
        for _ in range(hs):
            for k in range(n):
                hands[(rec.dealer + 1 + k) % n].append(deck[pos])
                pos += 1
        if getattr(rec.rules, "auction", False):  # Subastada: no stock, trump declared in the auction
            stock, self._trump, self._stock_left = [], None, 0
            trump_letter = str(rec.extra.get("declared_trump", ""))
        else:
            stock = deck[pos + 1:]
            self._trump = deck[pos]
            self._stock_left = len(stock) + 1
            trump_letter = self._trump_suit(deck[pos])
        robot = opt.robot_seat
        yield from self._still(3, "empty table")
        # the deal: the dealer's hand over the stock, then the trump turned up
        yield from self._reach(rec.dealer, STOCK_POS, 3)
        if robot is not None:
            self._tray = list(hands[robot])
        yield from self._withdraw(rec.dealer, STOCK_POS)
        yield from self._still(opt.settle_frames + 2, "trump turned up")
        trick: List[Tuple[int, str]] = []
        for item in (self._actions if self._actions is not None else rec.actions):
            if item is None:
                yield self._frame(note="waiting")
                continue
            seat, action = item
            code = str(action.card)
            if type(action).__name__ == "Swap":
                yield from self._reach(seat, TRUMP_POS, 3)
                took = self._trump
                self._trump = code
                hands[seat].remove(code)
                hands[seat].append(took)
                if seat == robot:
                    self._tray = list(hands[seat])
                yield from self._withdraw(seat, TRUMP_POS)
                yield from self._still(opt.settle_frames, "swap")
                continue
            (px, py), ang, _, _ = self.layout.seat(seat)
            j = opt.jitter_mm
            place = Placed(code, True, px + rng.uniform(-j, j), py + rng.uniform(-j, j), ang + rng.uniform(-12, 12))
            hands[seat].remove(code)
            if seat == robot:
                self._tray = list(hands[seat])  # a person takes it from the tray for the robot
            yield from self._reach(seat, (place.x, place.y), 4, carry=place)
            self._cards_on[code] = place
            yield from self._withdraw(seat, (place.x, place.y))
            if rng.random() < opt.hover_prob:  # a hand lingers over the card for a second
                (_, _), _, hang, _ = self.layout.seat((seat + 1) % n)
                for _ in range(10):
                    yield self._frame([Hand(place.x, place.y, hang)], False, "hover")
            yield from self._still(opt.settle_frames, f"seat {seat} played {code}")
            if rng.random() < opt.nudge_prob:
                self._cards_on[code] = Placed(code, True, place.x + rng.uniform(-9, 9), place.y + rng.uniform(-9, 9),
                                              place.angle + rng.uniform(-8, 8))
                yield from self._reach(seat, (place.x, place.y), 1)
                yield from self._withdraw(seat, (place.x, place.y), 1)
                yield from self._still(opt.settle_frames, "nudged")
            trick.append((seat, code))
            if len(trick) == n:
                winner = _winner(trick, trump_letter)
                yield from self._still(4, "trick complete")
                (wx, wy) = self.layout.seat(winner)[3]
                yield from self._reach(winner, (450.0, 250.0), 2)
                self._cards_on.clear()
                self._piles[winner] = self._piles.get(winner, 0) + n
                yield from self._withdraw(winner, (wx, wy))
                if self._stock_left:
                    for k in range(n):
                        s = (winner + k) % n
                        if stock:
                            card = stock.pop(0)
                        else:  # the turned-up trump is the last card drawn
                            card, self._trump = self._trump, None
                        self._stock_left -= 1
                        hands[s].append(card)
                    if robot is not None:
                        self._tray = list(hands[robot])
                    yield from self._reach(winner, STOCK_POS, 2)
                    yield from self._withdraw(winner, STOCK_POS)
                trick = []
                yield from self._still(2, "next trick")
        yield from self._still(8, "hand over")
        # the table is cleared for the next deal
        self._piles.clear()
        self._tray = []
        yield from self._reach(rec.dealer, (450.0, 250.0), 2)
        yield from self._withdraw(rec.dealer, (450.0, 250.0))
        yield from self._still(3, "cleared")

    @staticmethod
    def _trump_suit(turned: str) -> str:
        return turned[-1]


def _winner(trick, trump_suit: str) -> int:
    from table.cards import Card

    best_seat, best = trick[0][0], Card.parse(trick[0][1])
    for seat, code in trick[1:]:
        c = Card.parse(code)
        if c.suit == best.suit:
            if c.strength > best.strength:
                best_seat, best = seat, c
        elif c.suit.letter == trump_suit:
            best_seat, best = seat, c
    return best_seat


def truth_observation(frame: SimFrame, layout: Layout, rng: Optional[random.Random] = None,
                      misread: float = 0.0, codes: Sequence[str] = ()) -> Observation:
    """The observation a perfect camera would give (cards under a hand are not seen), optionally
    with random single-frame misreads: for logic tests and fast benchmarks."""
    seen = []
    covered = [(h.x, h.y) for h in frame.hands]
    for p in frame.cards:
        if any(math.hypot(p.x - hx, p.y - hy) < 70 for hx, hy in covered):
            continue
        code = p.code if p.face_up else None
        if p.face_up and rng is not None and misread and rng.random() < misread:
            code = rng.choice(list(codes)) if codes else None
        seen.append(SeenCard(code, p.face_up, 0.95 if code else 0.0, p.x, p.y, layout.zone_of(p.x, p.y)))
    return Observation(frame.ts, tuple(seen), frame.moving, frame.index)


def render_frame(frame: SimFrame, deck, camera, table, nuisances, seed: int = 0):
    """Pixels for one simulated frame (the same renderer as the still scenes)."""
    from dataclasses import replace as _replace

    from vision.synth import Scene, render_scene

    nz = _replace(nuisances, hands=tuple(frame.hands))
    return render_scene(Scene(frame.cards, deck, camera, table, nz), seed=seed * 100003 + frame.index)
