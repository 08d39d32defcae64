"""Tracker: per-frame observations in, stable and legal game events out.

It acts only on what is still: a card counts once it has been seen in the same place with the same
reading for ``settle_s`` of frames in which nothing moved; readings are voted over those frames,
weighed by their confidence.
Every event goes through the rules engine (the ledger's current game) before it is stored; anything
that does not fit raises an alert and waits for the table to be put right or for a correction. It
never invents a card. The alert kinds, and what the referee does about each: docs/alerts.md.
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from table.cards import Card, CardError, Rank
from table.events import Event
from table.game import IllegalAction, NotYourTurn, Play, Swap, deck_mask
from table.ledger import Ledger
from vision.observe import Observation, SeenCard

log = logging.getLogger(__name__)


@dataclass
class TrackerConfig:
    settle_s: float = 0.4          # how long a card must lie still before it counts
    match_mm: float = 30.0         # a card within this distance of a track is the same card
    min_confidence: float = 0.6    # mean confidence of a settled reading
    min_agreement: float = 0.8     # share of the evidence (confidence-weighted votes) the winner needs
    lost_s: float = 0.6            # a track not seen (in still frames) for this long is dropped
    min_readings: int = 3          # frames that must read the card (unknown frames abstain)
    steady_readings: int = 8       # ... or this many, every one naming the same code, whatever
                                   # their confidence (a reader calibrated cautiously: see _read)
    unreadable_frames: int = 15    # still frames seen without enough readings: ask for help
    gone_s: float = 1.0            # a trick under way unseen this long (still frames): it was taken in


@dataclass
class Track:
    """One physical card followed across frames."""

    x: float
    y: float
    zone: Optional[str]
    face_up: bool
    since: float
    last_seen: float
    votes: Counter = field(default_factory=Counter)
    evidence: Counter = field(default_factory=Counter)  # summed log-odds of the readings, per code
    conf: float = 0.0  # summed confidence of the readings
    still_since: Optional[float] = None
    counted: Optional[str] = None   # the code this track was counted as (play, trump, swap)
    seen_frames: int = 0            # still frames this card has been seen in, over its whole life
    alerted: Optional[str] = None   # the alert kind raised for it, so it is raised once

    def reading(self) -> Tuple[Optional[str], float, float]:
        """(code, agreement, mean confidence) of the readings so far. Frames in which the card could
        not be read are abstentions, not votes: an unknown is safe, a wrong code is not.

        Readings are weighed by their confidence (log-odds, as independent evidence): six frames
        reading 7B at 0.9 outweigh five reading 6B at 0.55-0.65 (a one-pip-off look-alike the
        identifier is unsure of), where a bare count would call it a misread. The agreement is
        the winning code's share of the evidence."""
        if not self.votes:
            return None, 0.0, 0.0
        code, k = self.evidence.most_common(1)[0]
        total = sum(self.evidence.values())
        return code, k / total if total > 0 else 0.0, self.conf / max(self.readings, 1)

    def add_reading(self, code: str, confidence: float) -> None:
        self.votes[code] += 1
        c = min(max(confidence, 0.52), 0.99)
        self.evidence[code] += math.log(c / (1.0 - c))
        self.conf += confidence

    def clear_readings(self) -> None:
        self.votes.clear()
        self.evidence.clear()
        self.conf = 0.0

    @property
    def readings(self) -> int:
        return sum(self.votes.values())


class Tracker:
    """Feed observations with :meth:`observe`; events are appended through ``append``.

    ``append(event) -> Event`` is the event store's append (durable before anything is shown);
    ``ledger`` is kept current by the caller (the service folds every stored event into it).
    ``frame_saver(image, kind) -> path`` stores evidence JPEGs (optional).
    """

    def __init__(self, ledger: Ledger, append: Callable[[Event], Event], config: TrackerConfig = None,
                 frame_saver: Optional[Callable] = None) -> None:
        self.ledger = ledger
        self._append = append
        self.cfg = config or TrackerConfig()
        self.frame_saver = frame_saver
        self.tracks: List[Track] = []
        self.alerts: Dict[str, set] = {}
        self._last_obs: Optional[Observation] = None
        self._trump_doubt = False   # the turned-up card was unreadable before it was read
        self._collected = 0         # tricks whose cards have left the play area this hand
        self._gone_since: Optional[float] = None  # the trick under way stopped being seen

    # -- event helpers --------------------------------------------------------------------------
    def emit(self, type_: str, data: dict, key: Optional[str] = None, frame: Optional[str] = None) -> Event:
        e = self._append(Event(type_, data, ts=self._now(), key=key, frame=frame))
        return e

    def _now(self) -> float:
        import time
        return time.time()

    def _hand_key(self) -> str:
        m, h = self.ledger.match, self.ledger.hand
        return f"m{m.number if m else 0}h{h.number if h else 0}"

    def _evidence(self, obs: Observation, kind: str) -> Optional[str]:
        if self.frame_saver is None or obs.image is None:
            return None
        try:
            return self.frame_saver(obs.image, kind)
        except Exception as e:  # disk full must not stop scoring
            log.warning("frame not saved: %s", e)
            return None

    def alert(self, kind: str, message: str, **extra) -> None:
        """Raise an alert once: the same kind and message is not repeated until cleared."""
        raised = self.alerts.setdefault(kind, set())
        if message in raised:
            return
        raised.add(message)
        self.emit("alert", {"kind": kind, "message": message, **extra})

    def confirm(self) -> None:
        """The referee accepts the pending reading (the confirm button)."""
        self._trump_doubt = False
        for kind in list(self.alerts):
            self.clear_alert(kind)

    def clear_alert(self, kind: str) -> None:
        if self.alerts.pop(kind, None) is not None:
            self.emit("alert_cleared", {"kind": kind})

    # -- tracking -------------------------------------------------------------------------------
    def observe(self, obs: Observation) -> None:
        """Update tracks with one frame, then act on whatever has settled."""
        self._last_obs = obs
        now = obs.ts
        cfg = self.cfg
        if obs.moving:
            for t in self.tracks:
                t.still_since = None  # movement: nothing settles during it; nothing is forgotten
            return
        seen_ids = set()
        for c in obs.cards:
            t = self._match(c, seen_ids)
            if t is None:
                t = Track(c.x, c.y, c.zone, c.face_up, now, now)
                self.tracks.append(t)
            else:
                moved = ((t.x - c.x) ** 2 + (t.y - c.y) ** 2) ** 0.5
                if moved > cfg.match_mm / 3 or t.face_up != c.face_up:
                    t.clear_readings()
                    t.still_since = None
                t.x, t.y, t.zone, t.face_up = c.x, c.y, c.zone, c.face_up
            seen_ids.add(id(t))
            t.last_seen = now
            t.seen_frames += 1
            if t.still_since is None:  # a new still period: vote afresh over what is still
                t.still_since = now
                t.clear_readings()
            if c.face_up and c.code and self._in_deck(c.code):
                t.add_reading(c.code, c.confidence)
        self.tracks = [t for t in self.tracks if id(t) in seen_ids or now - t.last_seen < cfg.lost_s]
        self._act(obs)

    def _in_deck(self, code: str) -> bool:
        """Whether a reading names a card of the game's deck: an 8 or 9 read in a 40-card game
        (five coins run together measured six) is no card on this table, so it abstains, as an
        unknown frame does, rather than out-vote the frames that read the card right."""
        m = self.ledger.match
        if m is None:
            return True
        try:
            index = Card.parse(code).index
        except CardError:
            return False
        return bool(deck_mask(m.rules.deck_size) >> index & 1)

    def _match(self, c: SeenCard, taken) -> Optional[Track]:
        best, bd = None, self.cfg.match_mm
        for t in self.tracks:
            if id(t) in taken:
                continue
            d = ((t.x - c.x) ** 2 + (t.y - c.y) ** 2) ** 0.5
            if d <= bd:
                best, bd = t, d
        return best

    def settled(self, zone_prefix: str) -> List[Track]:
        now = self._last_obs.ts if self._last_obs else 0.0
        return [t for t in self.tracks
                if t.zone and t.zone.startswith(zone_prefix) and t.still_since is not None
                and now - t.still_since >= self.cfg.settle_s - 1e-9 and t.last_seen == now]

    def _read(self, t: Track, what: str) -> Optional[Card]:
        """The settled reading of a track, or an alert (low confidence, disagreeing frames)."""
        code, agree, conf = t.reading()
        if (t.readings < self.cfg.min_readings or conf < self.cfg.min_confidence) and \
                not self._steady(t):
            if t.seen_frames >= self.cfg.unreadable_frames:  # long enough, across hands passing over it
                self._alert_track(t, "unreadable", f"cannot read the {what} in {t.zone}: please check it")
            return None
        if agree < self.cfg.min_agreement:
            self._alert_track(t, "misread", f"the {what} in {t.zone} reads differently from frame to frame")
            return None
        try:
            return Card.parse(code)
        except CardError:
            return None

    def _steady(self, t: Track) -> bool:
        """Every reading of a still card names one code, over `steady_readings` frames: settled
        even if each was read under `min_confidence`. The deck-agnostic layout reader names the
        built-in deck's figures at 0.51-0.58 frame after frame (its curve puts 0.5 beyond the
        last margin a wrong code was seen at); over five seed sets its readings of 0.5-0.6 were
        41 right and one false positive, no worse than those of 0.6-0.7 (33 right, one wrong, one
        false positive).
        A one-off reading still needs `min_confidence`."""
        return t.readings >= self.cfg.steady_readings and len(t.votes) == 1

    def _alert_track(self, t: Track, kind: str, message: str) -> None:
        t.alerted = kind
        self.alert(kind, message)

    # -- the game -------------------------------------------------------------------------------
    def _act(self, obs: Observation) -> None:
        led = self.ledger
        if led.match is None:
            return
        hand = led.hand
        if hand is None or (hand.game is not None and hand.game.is_over()):
            self._maybe_start_hand(obs)
            return
        if hand.error:
            self.alert("record", f"the hand needs a correction: {hand.error}")
            return
        self.clear_alert("record")
        if not hand.game.bidding_done():
            return  # Subastada: no card counts before the referee has entered the auction
        self._robot_tray()
        self._maybe_swap(obs)
        self._plays(obs)

    def _maybe_start_hand(self, obs: Observation) -> None:
        """A new hand starts when the play area is clear and a turned-up trump lies in the stock.
        Subastada has no turned-up card: its hand starts on the referee's ``auction`` event."""
        if self.ledger.match.rules.auction:
            return
        if any(t.face_up and t.zone and t.zone.startswith("play") for t in self.tracks):
            if any(t.face_up and not t.counted for t in self.settled("play")):
                self.alert("no_hand", "cards are being played but no hand has started: the turned-up "
                           "card was not read; check it, or start the hand from the dashboard")
            return
        stock = [t for t in self.settled("stock") if t.face_up]
        if len(stock) != 1:
            return
        t = stock[0]
        card = self._read(t, "turned-up trump")
        if card is None:
            if t.alerted == "unreadable":
                self._trump_doubt = True
            return
        if self._trump_doubt and card.rank in (Rank.SEVEN, Rank.TWO):
            # it could not be read at first, and now it is a card a swap puts there: ask, never guess
            self.alert("trump_check", f"is the {card.name_es()} the card that was turned up? "
                       "Confirm, or start the hand from the dashboard")
            return
        m = self.ledger.match
        mm = m.match()
        if mm.is_over():
            return
        hand_no = len(m.hands) + 1
        t.counted = card.code
        self._collected = 0
        self._gone_since = None
        self.emit("hand_start", {"dealer": mm.dealer, "trump": card.code},
                  key=f"m{m.number}h{hand_no}start", frame=self._evidence(obs, "trump"))
        self._trump_doubt = False
        self._clear_track_alerts()

    def _maybe_swap(self, obs: Observation) -> None:
        g = self.ledger.game
        if g.trump_card is None:
            return
        for t in self.settled("stock"):
            if not t.face_up:
                continue
            card = self._read(t, "card under the stock")
            if card is None or card == g.trump or t.counted == card.code:
                continue
            seat = g.turn
            try:
                g.check(Swap(card), seat)
            except IllegalAction as e:
                self._alert_track(t, "swap", f"the card under the stock changed to {card}: {e}")
                continue
            n = len(self.ledger.hand.record.actions)
            self.emit("swap", {"seat": seat, "gave": card.code, "took": str(g.trump)},
                      key=f"{self._hand_key()}a{n}", frame=self._evidence(obs, "swap"))
            t.counted = card.code
            self.clear_alert("swap")

    def _plays(self, obs: Observation) -> None:
        g = self.ledger.game
        if not g.trick and not any(t.zone and t.zone.startswith("play") for t in self.tracks):
            self._collected = len(g.tricks)  # the play area is clear: the last trick was taken in
        on_trick = {c.code for _, c in g.current_trick()}  # counted cards of the trick under way
        if self._trick_gone(obs, g, on_trick):
            return
        pending = []
        conflicts = ("recount", "already_played")
        for t in self.settled("play"):
            if not t.face_up or (t.counted and t.counted == t.reading()[0]):
                continue
            card = self._read(t, "card")
            if card is None:
                continue
            if t.counted in on_trick:
                # the same card, still in the unfinished trick, now reads differently: one of
                # the two readings is wrong. The count stands until the referee corrects it.
                self._alert_track(t, "recount", f"the card in {t.zone} was counted as {t.counted} "
                                  f"but now reads {card}: check it and correct the play")
                continue
            t.counted = None  # a different card now lies where a counted one was
            if t.alerted in conflicts:
                t.alerted = None  # put right, or corrected
            if g.played >> card.index & 1:
                if not self._on_table(g, card.index):
                    # it counted in a trick already collected: two cards cannot both be it
                    self._alert_track(t, "already_played", f"{card} in {t.zone} was already played "
                                      f"(trick {self._trick_of(g, card.index)}): one of the two "
                                      "readings is wrong; check them and correct the play")
                    continue
                t.counted = card.code  # a nudged or re-seen card: it already counts once
                continue
            try:
                seat = int(t.zone[4:])
            except ValueError:
                continue
            pending.append((seat, card, t))
        for kind in conflicts:
            if not any(t.alerted == kind for t in self.tracks):  # put right, corrected, or taken away
                self.clear_alert(kind)
        # play them in turn order: several may settle in the same frame
        progressed = True
        while pending and progressed:
            progressed = False
            for item in list(pending):
                seat, card, t = item
                if seat != g.turn:
                    continue
                if not self._play(obs, seat, card, t):
                    pending.remove(item)
                    continue
                pending.remove(item)
                progressed = True
                g = self.ledger.game
        if pending:
            who = ", ".join(f"seat {seat} played {card}" for seat, card, _ in pending)
            self.alert("out_of_turn", f"card out of turn: {who}; it is seat {g.turn}'s turn",
                       seat=pending[0][0])
        else:
            self.clear_alert("out_of_turn")

    def _trick_gone(self, obs: Observation, g, codes: set) -> bool:
        """The cards of the trick under way have left the table before it was complete: a card
        went unread and the trick was taken in. Counting on would put the next trick's cards into
        this one, so nothing counts until the referee enters the missing card (or the trick is put
        back on the table). ``codes``: the cards of the trick under way."""
        if not codes or any(t.zone and t.zone.startswith("play") and (t.counted in codes or
                                                                       t.reading()[0] in codes)
                            for t in self.tracks):
            self._gone_since = None
            self.clear_alert("trick_gone")
            return False
        if self._gone_since is None:
            self._gone_since = obs.ts
        if obs.ts - self._gone_since < self.cfg.gone_s:
            return False
        self.alert("trick_gone", f"the trick was taken in before every card counted: seat {g.turn}'s "
                   "card was not read. Enter it on the referee page, or put the trick back",
                   seat=g.turn)
        return True

    def _on_table(self, g, index: int) -> bool:
        """Whether a played card may still lie in a play zone: in the trick under way, or in the
        last trick until its cards are collected (the play area seen clear)."""
        return any(c == index for _, c in g.trick) or len(g.tricks) > self._collected and \
            any(c == index for _, c in g.tricks[-1][1])

    @staticmethod
    def _trick_of(g, index: int) -> int:
        return next((n for n, (_, plays, _, _) in enumerate(g.tricks, 1)
                     if any(c == index for _, c in plays)), len(g.tricks) + 1)

    def _play(self, obs: Observation, seat: int, card: Card, t: Track) -> bool:
        g = self.ledger.game
        m = self.ledger.match
        if m.robot_seat == seat and self.ledger.announcement is not None:
            said = self.ledger.announcement.data.get("action", {}).get("play")
            if said and said != card.code:
                self._alert_track(t, "robot_card", f"the robot asked for {Card.parse(said).name_es()}, "
                                  f"but {card.name_es()} was placed")
                return False
        try:
            g.check(Play(card), seat)
        except NotYourTurn:
            return False
        except IllegalAction as e:
            self._alert_track(t, "illegal", f"seat {seat} cannot play {card}: {e}")
            return False
        n = len(self.ledger.hand.record.actions)
        tricks_before = len(g.tricks)
        self.emit("play", {"seat": seat, "card": card.code, "confidence": round(t.reading()[2], 3)},
                  key=f"{self._hand_key()}a{n}", frame=self._evidence(obs, "play"))
        t.counted = card.code
        self.clear_alert("robot_card")
        self.clear_alert("illegal")
        for kind in ("unreadable", "misread"):
            if not any(x.alerted == kind and not x.counted for x in self.tracks):
                self.clear_alert(kind)
        g = self.ledger.game
        if len(g.tricks) > tricks_before:
            leader, plays, winner, points = g.tricks[-1]
            self.emit("trick", {"number": len(g.tricks), "winner": winner, "points": points},
                      key=f"{self._hand_key()}t{len(g.tricks)}", frame=self._evidence(obs, "trick"))
            if g.is_over():
                out = g.outcome()
                self.emit("hand_end", {"points": list(out.points), "winner": out.winner},
                          key=f"{self._hand_key()}end")
                if m.match().is_over():
                    self.emit("match_end", {"winner": m.match().winner()}, key=f"m{m.number}end")
        return True

    def _robot_tray(self) -> None:
        m = self.ledger.match
        if m.robot_seat is None:
            return
        cards = []
        for t in self.settled("robot_tray"):
            if t.face_up:
                code, agree, conf = t.reading()
                if code and agree >= self.cfg.min_agreement and conf >= self.cfg.min_confidence:
                    cards.append(code)
        cards.sort()
        if cards and cards != sorted(self.ledger.robot_hand):
            g = self.ledger.game
            self.emit("robot_hand", {"cards": cards},
                      key=f"{self._hand_key()}r{len(g.history)}:{','.join(cards)}")

    def _clear_track_alerts(self) -> None:
        for kind in list(self.alerts):
            self.clear_alert(kind)
