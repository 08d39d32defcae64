"""Game records: ``brisca-record/1`` JSON, replay with checks, and a PBN-style text export."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from table.cards import Card, CardError
from table.game import Game, IllegalAction, Play, Swap, Trick, parse_action
from table.rules import Rules, RulesError

FORMAT = "brisca-record/1"


class RecordError(ValueError):
    """A record that is malformed or breaks a rule. ``index`` names the action, when there is one."""

    def __init__(self, message: str, index: Optional[int] = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"action {index}: {message}")


@dataclass
class Correction:
    """A referee's correction of action ``index``: the original is kept, the new action replaces it."""

    index: int
    action: Any  # Play | Swap
    by: str = "referee"
    at: str = ""
    why: str = ""
    was: Any = None

    def to_json(self) -> dict:
        d = {"action": self.index, **self.action.to_json(), "by": self.by, "at": self.at, "why": self.why}
        if self.was is not None:
            d["was"] = self.was.to_json()
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Correction":
        if not isinstance(d, dict) or not isinstance(d.get("action"), int):
            raise RecordError(f"correction must be an object with an integer 'action': {d!r}")
        return cls(d["action"], parse_action(d), str(d.get("by", "referee")), str(d.get("at", "")),
                   str(d.get("why", "")), parse_action(d["was"]) if d.get("was") else None)


@dataclass
class Record:
    """One hand as played: the rules, who sat where, the deal, every action in order."""

    rules: Rules
    seats: List[str]
    dealer: int
    trump: Optional[Card]
    actions: List[Tuple[int, Any]] = field(default_factory=list)
    deck: Optional[List[Card]] = None
    corrections: List[Correction] = field(default_factory=list)
    extra: Dict[str, Any] = field(default_factory=dict)  # fields of later versions, kept as they are

    # -- JSON ---------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Any) -> "Record":
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as e:
                raise RecordError(f"not JSON: {e}") from None
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
        try:
            rules = Rules.parse(data.get("rules", "classic-2"))
        except RulesError as e:
            raise RecordError(f"rules: {e}") from None
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("seats must be a list of names")
        if len(seats) != rules.players:
            raise RecordError(f"seats: {rules.preset} needs {rules.players} seats, the record names {len(seats)}")
        dealer = data.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
            raise RecordError(f"dealer must be a seat number 0..{rules.players - 1}, not {dealer!r}")
        try:
            trump = Card.parse(data["trump"]) if data.get("trump") is not None else None
            deck = [Card.parse(c) for c in data["deck"]] if data.get("deck") is not None else None
        except (CardError, TypeError) as e:
            raise RecordError(f"trump/deck: {e}") from None
        if trump is None and not rules.auction:
            raise RecordError("trump: the turned-up card is required")
        raw = data.get("actions", [])
        if not isinstance(raw, list):
            raise RecordError("actions must be a list")
        actions = []
        for i, a in enumerate(raw):
            if not isinstance(a, dict) or not isinstance(a.get("seat"), int) or isinstance(a.get("seat"), bool):
                raise RecordError("each action is an object with an integer 'seat'", i)
            if not 0 <= a["seat"] < rules.players:
                raise RecordError(f"seat {a['seat']} is not a seat of a {rules.players}-player game", i)
            try:
                actions.append((a["seat"], parse_action(a)))
            except CardError as e:
                raise RecordError(str(e), i) from None
        try:
            corrections = [Correction.from_json(c) for c in data.get("corrections", [])]
        except CardError as e:
            raise RecordError(f"correction: {e}") from None
        known = {"format", "rules", "seats", "dealer", "trump", "deck", "actions", "corrections"}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(rules, list(seats), dealer, trump, actions, deck, corrections, extra)

    def to_json(self) -> dict:
        d: Dict[str, Any] = {"format": FORMAT, "rules": self.rules.to_json(), "seats": list(self.seats),
                             "dealer": self.dealer, "trump": self.trump.code if self.trump else None}
        if self.deck is not None:
            d["deck"] = [c.code for c in self.deck]
        d["actions"] = [{"seat": s, **a.to_json()} for s, a in self.actions]
        if self.corrections:
            d["corrections"] = [c.to_json() for c in self.corrections]
        d.update(self.extra)
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def load(cls, path) -> "Record":
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise RecordError(f"cannot read {path}: {e.strerror}") from None
        if text.lstrip().startswith("["):
            return cls.from_pbn(text)
        return cls.from_json(text)

    # -- replay -------------------------------------------------------------------------------
    def effective_actions(self) -> List[Tuple[int, Any]]:
        """The actions with every correction applied (the originals stay in ``actions``)."""
        acts = list(self.actions)
        for c in self.corrections:
            if not 0 <= c.index < len(acts):
                raise RecordError(f"correction names action {c.index}, but there are {len(acts)}")
            acts[c.index] = (acts[c.index][0], c.action)
        return acts

    def new_game(self) -> Game:
        if self.deck is not None:
            try:
                g = Game.deal(self.rules, self.deck, self.dealer)
            except (CardError, ValueError) as e:
                raise RecordError(f"deck: {e}") from None
            if not self.rules.auction and g.trump != self.trump:
                raise RecordError(f"trump: the deck turns up {g.trump}, the record says {self.trump}")
            return g
        try:
            return Game.from_table(self.rules, self.trump, self.dealer)
        except (IllegalAction, ValueError) as e:
            raise RecordError(f"trump: {e}") from None

    def replay(self, upto: Optional[int] = None) -> Tuple[Game, List[Trick]]:
        """Play the actions through the rules engine; raise RecordError naming the bad action."""
        g = self.new_game()
        if self.rules.auction:
            from table import subastada  # the auction, the call and the declared trump
            subastada.apply_record_extra(g, self)
        tricks = []
        for i, (seat, action) in enumerate(self.effective_actions()[:upto]):
            try:
                t = g.apply(action, seat)
            except IllegalAction as e:
                raise RecordError(f"{type(e).__name__}: {e}", i) from None
            if t is not None:
                tricks.append(t)
        return g, tricks

    def score(self) -> dict:
        """The `brisca-table score --json` object."""
        g, tricks = self.replay()
        out = g.outcome()
        return {"complete": out.complete, "points": list(out.points), "winner": out.winner,
                "tricks": [t.to_json() for t in tricks]}

    @classmethod
    def from_game(cls, game: Game, seats: List[str], deck: Optional[List[Card]] = None) -> "Record":
        """A record of a game played through the engine (its history)."""
        from table.cards import CARDS_BY_INDEX
        acts = [(s, (Swap if kind else Play)(CARDS_BY_INDEX[c])) for s, kind, c in game.history]
        rec = cls(game.rules, list(seats), game.dealer,
                  None if game.turned_up is None else CARDS_BY_INDEX[game.turned_up], acts, deck)
        if game.contract is not None:
            rec.extra.update(game.contract.to_record())
        return rec

    # -- PBN-style text -----------------------------------------------------------------------
    def to_pbn(self) -> str:
        """Tags, then one line per trick: ``3 0:3C 1:swap-7O 1:1C``."""
        tags = [("Format", FORMAT),
                ("Rules", self.rules.preset if isinstance(self.rules.to_json(), str)
                 else json.dumps(self.rules.to_json())),
                ("Seats", json.dumps(self.seats, ensure_ascii=False)),
                ("Dealer", str(self.dealer)),
                ("Trump", self.trump.code if self.trump else "-")]
        if self.deck is not None:
            tags.append(("Deck", " ".join(c.code for c in self.deck)))
        for k, v in self.extra.items():
            tags.append(("X-" + k, json.dumps(v, ensure_ascii=False)))
        for c in self.corrections:
            tags.append(("Correction", json.dumps(c.to_json(), ensure_ascii=False)))
        lines = [f'[{k} "{_esc(v)}"]' for k, v in tags]
        lines.append("")
        n, count, trick_no, cur = self.rules.players, 0, 1, []
        for seat, a in self.actions:
            cur.append(f"{seat}:{'swap-' + a.card.code if isinstance(a, Swap) else a.card.code}")
            if isinstance(a, Play):
                count += 1
                if count == n:
                    lines.append(f"{trick_no} " + " ".join(cur))
                    trick_no, count, cur = trick_no + 1, 0, []
        if cur:
            lines.append(f"{trick_no} " + " ".join(cur))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_pbn(cls, text: str) -> "Record":
        data: Dict[str, Any] = {"format": None, "actions": []}
        corrections = []
        for lineno, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("%"):
                continue
            m = _TAG.match(line)
            if m:
                key, val = m.group(1), _unesc(m.group(2))
                try:
                    if key == "Format":
                        data["format"] = val
                    elif key == "Rules":
                        data["rules"] = json.loads(val) if val.startswith("{") else val
                    elif key == "Seats":
                        data["seats"] = json.loads(val)
                    elif key == "Dealer":
                        data["dealer"] = int(val)
                    elif key == "Trump":
                        data["trump"] = None if val == "-" else val
                    elif key == "Deck":
                        data["deck"] = val.split()
                    elif key == "Correction":
                        corrections.append(json.loads(val))
                    elif key.startswith("X-"):
                        data[key[2:]] = json.loads(val)
                except ValueError as e:
                    raise RecordError(f"line {lineno}: bad {key} tag: {e}") from None
                continue
            tokens = line.split()
            if not tokens[0].isdigit():
                raise RecordError(f"line {lineno}: expected a tag or a trick line, got {line[:40]!r}")
            for tok in tokens[1:]:
                seat, _, act = tok.partition(":")
                if not seat.isdigit() or not act:
                    raise RecordError(f"line {lineno}: bad token {tok!r} (expected SEAT:CARD or SEAT:swap-CARD)")
                a = {"seat": int(seat)}
                if act.lower().startswith("swap-"):
                    a["swap"] = act[5:]
                else:
                    a["play"] = act
                data["actions"].append(a)
        if corrections:
            data["corrections"] = corrections
        return cls.from_json(data)


_TAG = re.compile(r'^\[([A-Za-z][\w-]*)\s+"((?:[^"\\]|\\.)*)"\]$')


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _unesc(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)
