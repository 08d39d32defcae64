"""The bot protocol: one JSON request per decision with the seat's view, one JSON reply with the action.

See docs/bot-protocol.md. :func:`request_from_view` writes a request from a seat's view of a game,
:func:`view_from_request` rebuilds that view (a :class:`~table.game.Game` with hidden cards
``UNKNOWN``), :func:`answer` turns one request line into one reply line, and :func:`serve` loops over
a stream. :class:`BotProcess` plays through another program that speaks the protocol.
"""
from __future__ import annotations

import json
import shlex
import subprocess
from typing import IO, Any, Dict, List

from table.cards import CARDS_BY_INDEX, Card, CardError, Suit
from table.game import POINTS, SUIT, UNKNOWN, Action, Game, IllegalAction, parse_action, trick_winner
from table.rules import Rules, RulesError


class ProtocolError(ValueError):
    """A request that cannot be understood or describes an impossible position."""


def _code(c: int) -> str:
    return CARDS_BY_INDEX[c].code


# -- writing a request ------------------------------------------------------------------------------
def request_from_view(view: Game) -> Dict[str, Any]:
    """The ``decide`` request for the seat to move, from its view of the game."""
    seat = view.turn
    return {
        "type": "decide",
        "rules": view.rules.to_json(),
        "seats": view.n,
        "seat": seat,
        "dealer": view.dealer,
        "trump": None if view.trump_card is None else _code(view.trump_card),
        "trump_suit": view.trump_suit_letter,
        "turned_up": None if view.turned_up is None else _code(view.turned_up),
        "stock": view.stock_count,
        "hand": [_code(c) for c in view.hands[seat] if c != UNKNOWN],
        "trick": [{"seat": s, "card": _code(c)} for s, c in view.trick],
        "tricks": [[{"seat": s, "card": _code(c)} for s, c in plays] for _l, plays, _w, _p in view.tricks],
        "swaps": [{"seat": s, "gave": _code(g), "took": _code(t)} for s, g, t in view.swapped],
        "points": view.side_points(),
        "legal": [a.to_json() for a in view.legal_actions],
        **({"hands": [[_code(c) for c in h if c != UNKNOWN] for h in view.hands]}
           if view.rules.open_hands else {}),
    }


# -- reading a request ------------------------------------------------------------------------------
def _card(value, what: str) -> int:
    try:
        return Card.parse(value).index
    except CardError as e:
        raise ProtocolError(f"{what}: {e}") from None


def _int(req: dict, key: str) -> int:
    v = req.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ProtocolError(f"{key!r} must be an integer, not {v!r}")
    return v


def _plays(value, what: str) -> List[tuple]:
    if not isinstance(value, list):
        raise ProtocolError(f"{what} must be a list of {{\"seat\": s, \"card\": c}}")
    out = []
    for p in value:
        if not isinstance(p, dict) or "card" not in p:
            raise ProtocolError(f"{what}: expected {{\"seat\": s, \"card\": c}}, not {p!r}")
        out.append((_int(p, "seat"), _card(p["card"], what)))
    return out


def view_from_request(req: Any) -> Game:
    """Rebuild the requesting seat's view. Raises ProtocolError for anything malformed or impossible."""
    if not isinstance(req, dict):
        raise ProtocolError("a request must be a JSON object")
    if req.get("type", "decide") != "decide":
        raise ProtocolError(f"unknown request type {req.get('type')!r} (only 'decide')")
    for key in ("rules", "seat", "dealer", "stock", "hand"):
        if key not in req:
            raise ProtocolError(f"missing field {key!r}")
    try:
        rules = Rules.parse(req["rules"])
    except RulesError as e:
        raise ProtocolError(str(e)) from None
    if rules.auction:
        raise ProtocolError("Subastada is not supported by the bot protocol yet")
    n = rules.players
    if "seats" in req and req["seats"] != n:
        raise ProtocolError(f"'seats' is {req['seats']!r} but {rules.preset} has {n} players")
    seat, dealer, stock = _int(req, "seat"), _int(req, "dealer"), _int(req, "stock")
    for key, v in (("seat", seat), ("dealer", dealer)):
        if not 0 <= v < n:
            raise ProtocolError(f"{key!r} must be a seat 0..{n - 1}")
    if not isinstance(req["hand"], list):
        raise ProtocolError("'hand' must be a list of card codes")
    hand = [_card(c, "hand") for c in req["hand"]]
    tricks = [_plays(t, "tricks") for t in (req.get("tricks") or [])]
    trick = _plays(req.get("trick") or [], "trick")
    swaps = []
    for s in req.get("swaps") or []:
        if not isinstance(s, dict) or not {"seat", "gave", "took"} <= set(s):
            raise ProtocolError(f"swaps: expected {{\"seat\", \"gave\", \"took\"}}, not {s!r}")
        swaps.append((_int(s, "seat"), _card(s["gave"], "swaps"), _card(s["took"], "swaps")))
    trump = None if req.get("trump") in (None, "") else _card(req["trump"], "trump")
    turned_up = swaps[0][2] if swaps else trump
    if turned_up is None and req.get("turned_up"):
        turned_up = _card(req["turned_up"], "turned_up")
    if turned_up is None:
        suit = req.get("trump_suit")
        if not isinstance(suit, str):
            raise ProtocolError("a request without 'trump' needs 'trump_suit' (and 'swaps' if any)")
        try:
            trump_suit = Suit.parse(suit).index
        except CardError as e:
            raise ProtocolError(f"trump_suit: {e}") from None
    else:
        trump_suit = SUIT[turned_up]
    try:
        g = Game.from_table(rules, CARDS_BY_INDEX[turned_up] if turned_up is not None else
                            CARDS_BY_INDEX[trump_suit * 12], dealer)
    except IllegalAction as e:
        raise ProtocolError(str(e)) from None
    g.turned_up = turned_up
    g.trump_suit = trump_suit
    g.trump_card = trump
    hand_size = rules.hand_size
    leader = (dealer + 1) % n
    for i, plays in enumerate(tricks):
        if len(plays) != n or [s for s, _ in plays] != [(leader + k) % n for k in range(n)]:
            raise ProtocolError(f"tricks[{i}]: expected {n} cards played in turn from seat {leader}")
        w = plays[trick_winner(plays, trump_suit)][0]
        pts = sum(POINTS[c] for _, c in plays)
        g.points[w] += pts
        g.tricks.append((leader, tuple(plays), w, pts))
        for s, c in plays:
            if g.played >> c & 1:
                raise ProtocolError(f"{_code(c)} is played twice")
            g.played |= 1 << c
            g.history.append((s, 0, c))
        leader = w
    if trick and [s for s, _ in trick] != [(leader + k) % n for k in range(len(trick))]:
        raise ProtocolError(f"trick: expected cards played in turn from seat {leader}")
    if len(trick) >= n:
        raise ProtocolError("trick: a complete trick belongs in 'tricks'")
    for s, c in trick:
        if g.played >> c & 1:
            raise ProtocolError(f"{_code(c)} is played twice")
        g.played |= 1 << c
        g.history.append((s, 0, c))
    g.trick = list(trick)
    g.leader = leader
    g.turn = (leader + len(trick)) % n
    if g.turn != seat:
        raise ProtocolError(f"it is seat {g.turn}'s turn, not seat {seat}'s")
    for s, gave, took in swaps:
        g.swapped.append((s, gave, took))
        g.history.append((s, 1, gave))
    # hand sizes: everyone holds the same number at the start of a trick
    start = rules.deck_size - n * hand_size
    if not 0 <= stock <= start or stock % n:
        raise ProtocolError(f"'stock' must be a multiple of {n} between 0 and {start}")
    if (trump is None) != (stock == 0):
        raise ProtocolError("'trump' must be given exactly while the stock is not empty")
    draws_done = (start - stock) // n
    seen = len(tricks)
    if draws_done != min(seen, start // n):
        raise ProtocolError(f"'stock' {stock} does not fit {seen} completed tricks")
    size = hand_size + draws_done - seen
    if size != len(hand):
        raise ProtocolError(f"'hand' has {len(hand)} cards; seat {seat} should hold {size}")
    g.stock = [UNKNOWN] * (stock - (1 if trump is not None else 0))
    in_trick = {s for s, _ in trick}
    for s in range(n):
        g.hands[s] = [UNKNOWN] * (size - (1 if s in in_trick else 0))
    g.hands[seat] = hand
    g.public[seat] = 0
    # a card taken by a swap, and the last card under the stock once drawn, are known until played
    known = [(s, took) for s, _gave, took in swaps]
    if stock == 0 and turned_up is not None and start:
        last_draw = g.tricks[start // n - 1][2]
        known.append(((last_draw + n - 1) % n, swaps[-1][1] if swaps else turned_up))
    for s, c in known:
        if s != seat and not g.played >> c & 1 and c not in hand and c in g.possible_cards(s):
            h = g.hands[s]
            if UNKNOWN in h:
                h[h.index(UNKNOWN)] = c
                g.public[s] |= 1 << c
    if req.get("hands") is not None:  # open hands (Descubierta): every hand is known
        hands = req["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise ProtocolError(f"'hands' must list the {n} hands")
        for s in range(n):
            if s != seat:
                cards = [_card(c, "hands") for c in hands[s]]
                if len(cards) != len(g.hands[s]):
                    raise ProtocolError(f"hands[{s}] should have {len(g.hands[s])} cards")
                g.hands[s] = cards
    used = g.played | sum(1 << c for c in hand) | (0 if trump is None else 1 << trump)
    for s in range(n):
        if s != seat:
            for c in g.hands[s]:
                if c != UNKNOWN and not g.public[s] >> c & 1:
                    used |= 1 << c
    expect = len(hand) + len(tricks) * n + len(trick) + (trump is not None)
    expect += sum(1 for s in range(n) if s != seat for c in g.hands[s] if c != UNKNOWN and not g.public[s] >> c & 1)
    if bin(used).count("1") != expect:
        raise ProtocolError("a card appears twice (hand, trick, tricks, trump)")
    if used & ~g.deck_mask:
        raise ProtocolError(f"a card is not in the {rules.deck_size}-card deck")
    pts = req.get("points")
    if pts is not None and list(pts) != g.side_points():
        raise ProtocolError(f"'points' {pts!r} do not match the tricks ({g.side_points()})")
    return g


def answer(line: str, player) -> str:
    """One request line -> one reply line (``{"play": ..}``, ``{"swap": ..}`` or ``{"error": ..}``)."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return json.dumps({"error": f"not JSON: {e}"})
    try:
        view = view_from_request(req)
        legal = list(view.legal_actions)
        if not legal:
            raise ProtocolError("no legal action in this position")
        if req.get("legal"):
            try:
                offered = [parse_action(a) for a in req["legal"]]
            except (CardError, TypeError) as e:
                raise ProtocolError(f"legal: {e}") from None
            legal = [a for a in legal if a in offered] or offered
        action = player.choose(view)
        if action not in legal:
            action = legal[0]
        return json.dumps(action.to_json())
    except ProtocolError as e:
        return json.dumps({"error": str(e)})
    except Exception as e:  # a bot must survive any one bad request
        return json.dumps({"error": f"{type(e).__name__}: {e}"})


def serve(player, stdin: IO[str], stdout: IO[str]) -> int:
    """Answer request lines until end of input; blank lines are ignored."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(answer(line, player) + "\n")
        stdout.flush()
    return 0


class BotProcess:
    """A player that asks another program speaking the bot protocol (``bot:"COMMAND"`` in the bench)."""

    name = "bot"

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def choose(self, view: Game) -> Action:
        self.proc.stdin.write(json.dumps(request_from_view(view)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ProtocolError(f"bot {self.command!r} closed its output")
        reply = json.loads(line)
        if "error" in reply:
            raise ProtocolError(f"bot {self.command!r}: {reply['error']}")
        return parse_action(reply)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()

