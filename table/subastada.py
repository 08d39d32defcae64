"""Brisca Subastada: the auction, the called partner and the declared trump. Pure logic, no I/O.

A hand of Subastada is a :class:`~table.game.Game` dealt with ``rules.auction`` (40 cards, 8 each,
no stock, no turned-up card) plus a :class:`Contract` in ``game.contract``. The game refuses card
plays until the contract is ready; the contract decides the two sides and who won the hand.

The contract goes through four stages:

1. ``bidding``: from the seat after the dealer, in playing order, each seat bids a number of points
   above the last bid (at least ``rules.min_bid``, 61 by default, steps of 1, at most 120) or passes;
   passing is final and a seat that has passed is skipped. The auction ends when every other seat has
   passed after the highest bid, or at once on a bid of 120. If the first four seats all pass, the
   last one may not pass: it must open with the minimum or more (a dealt hand is never thrown in).
2. ``call``: the highest bidder (the *bidder*) names one card. Whoever holds it is the secret partner;
   calling a card of one's own hand means playing alone (one against four).
3. ``trump``: the bidder declares the trump suit (any suit), which sets ``game.trump_suit``.
4. ``play``: 8 tricks, follow suit when possible (``arrastre="follow"`` with no stock). The partner is
   known to everyone only once the called card is played (:attr:`Contract.revealed`); in a seat's
   view (:meth:`Contract.view`) the partner is known only to itself before that.

The bidder's side (bidder + partner) makes the contract with at least the bid in card points.
Match points per seat (:func:`match_points`, ``rules.scoring``):

- ``standard`` (default): made: bidder +2, partner +1, defenders 0; failed: bidder -2, partner -1,
  each defender +1. Playing alone doubles everything (made: +4; failed: -4 and each defender +2).
- ``zero-sum``: the same for the bidder and partner, but the defenders pay or collect exactly that:
  made, each defender -1; failed, each defender +1 (alone too: 4 defenders, the bidder's 4). Every
  hand then sums to 0.

Records keep the contract in ``record.extra``: ``"auction"`` (``[{"seat": s, "bid": 61} | {"seat": s,
"pass": true}, ...]``), ``"call"`` (a card code) and ``"declared_trump"`` (a suit letter).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from table.cards import CARDS_BY_INDEX, Card, CardError, Suit
from table.game import SUIT, UNKNOWN, BiddingNotOver, CardNotInDeck, Game, IllegalAction, NotYourTurn

MAX_BID = 120
STAGES = ("bidding", "call", "trump", "play")
SUIT_LETTERS = "OCEB"


# -- errors ------------------------------------------------------------------------------------------
class AuctionError(IllegalAction):
    """Base of the refused auction, call and trump actions. The contract is unchanged."""


class BidOutOfTurn(AuctionError, NotYourTurn):
    """A seat bid or passed when it was another seat's turn to speak (or it has already passed)."""


class BidTooLow(AuctionError):
    """A bid not above the last bid, or below the minimum opening bid."""


class BidTooHigh(AuctionError):
    """A bid above 120, the points of the whole deck."""


class MustBid(AuctionError):
    """The last seat may not pass when every other seat has passed without a bid."""


class AuctionOver(AuctionError):
    """A bid or a pass after the auction has closed."""


class NotTheBidder(AuctionError):
    """Only the seat that won the auction calls the card and declares trump."""


class WrongStage(AuctionError):
    """A call before the auction ends, a trump before the call, a second call or trump."""


class CalledCardNotInDeck(AuctionError, CardNotInDeck):
    """The called card is not in the 40-card deck."""


# -- actions -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    points: int

    def to_json(self) -> dict:
        return {"bid": self.points}

    def __str__(self) -> str:
        return f"bid {self.points}"


@dataclass(frozen=True)
class Pass:
    def to_json(self) -> dict:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Call:
    card: Card

    def to_json(self) -> dict:
        return {"call": self.card.code}

    def __str__(self) -> str:
        return f"call {self.card.code}"


@dataclass(frozen=True)
class Declare:
    suit: int  # 0..3 (O, C, E, B)

    def to_json(self) -> dict:
        return {"trump": SUIT_LETTERS[self.suit]}

    def __str__(self) -> str:
        return f"trump {SUIT_LETTERS[self.suit]}"


ContractAction = Union[Bid, Pass, Call, Declare]


def parse_suit(value) -> int:
    """A suit letter or name (``"E"``, ``"espadas"``) or an index 0..3 -> the index."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    if isinstance(value, str):
        try:
            return Suit.parse(value).index
        except CardError:
            pass
    raise CardError(f"not a suit: {value!r} (expected O, C, E or B)")


# -- the contract ------------------------------------------------------------------------------------
class Contract:
    """Auction state, the called card, the partner (when known) and the declared trump."""

    __slots__ = ("n", "dealer", "min_bid", "scoring", "bids", "passed", "turn", "high", "bidder",
                 "called", "partner", "trump", "revealed", "stage")

    def __init__(self, n: int, dealer: int, min_bid: int = 61, scoring: str = "standard") -> None:
        self.n = n
        self.dealer = dealer
        self.min_bid = min_bid
        self.scoring = scoring
        self.bids: List[Tuple[int, Optional[int]]] = []  # (seat, points) or (seat, None) for a pass
        self.passed = 0                                    # bit mask of seats that passed
        self.turn = (dealer + 1) % n                       # seat to speak
        self.high: Optional[int] = None
        self.bidder: Optional[int] = None
        self.called: Optional[int] = None                  # card index
        self.partner: Optional[int] = None                 # the holder of the called card, when known
        self.trump: Optional[int] = None
        self.revealed = False
        self.stage = "bidding"

    @classmethod
    def start(cls, game: Game) -> "Contract":
        """Attach a fresh contract to a Subastada game (before any card is played)."""
        r = game.rules
        if not r.auction:
            raise ValueError(f"{r.preset} has no auction")
        c = cls(game.n, game.dealer, r.min_bid, r.scoring)
        game.contract = c
        return c

    def copy(self) -> "Contract":
        c = Contract.__new__(Contract)
        for k in Contract.__slots__:
            setattr(c, k, getattr(self, k))
        c.bids = self.bids[:]
        return c

    def view(self, seat: int) -> "Contract":
        """What ``seat`` knows: the partner only once revealed, or if it holds the called card."""
        c = self.copy()
        if not self.revealed and seat != self.partner:
            c.partner = None
        return c

    # -- queries ------------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self.stage == "play"

    @property
    def alone(self) -> Optional[bool]:
        """True when the bidder holds the called card; None while the holder is unknown."""
        if self.partner is None:
            return None
        return self.partner == self.bidder

    def side_of(self, seat: int) -> int:
        """0 for the bidder's side (bidder and the partner, when known), 1 for the defenders."""
        return 0 if seat == self.bidder or seat == self.partner else 1

    def winner(self, points: Sequence[int]) -> int:
        """Side 0 (the bidder's) makes the contract with at least the bid, else the defenders win."""
        return 0 if self.high is not None and points[0] >= self.high else 1

    def legal(self, game: Optional[Game] = None) -> List[ContractAction]:
        """The contract actions open to the seat to speak (bids in steps of 1; all four suits)."""
        if self.stage == "bidding":
            lo = self.min_bid if self.high is None else self.high + 1
            out: List[ContractAction] = [Bid(p) for p in range(lo, MAX_BID + 1)]
            if not self._must_bid(self.turn):
                out.append(Pass())
            return out
        if self.stage == "call":
            return [Call(CARDS_BY_INDEX[c]) for c in _deck40()]
        if self.stage == "trump":
            return [Declare(s) for s in range(4)]
        return []

    @property
    def to_act(self) -> Optional[int]:
        """The seat whose contract action is awaited (None once ready)."""
        if self.stage == "bidding":
            return self.turn
        return None if self.stage == "play" else self.bidder

    # -- actions ------------------------------------------------------------------------------------
    def apply(self, game: Game, seat: int, action: ContractAction) -> None:
        if isinstance(action, Bid):
            self.bid(seat, action.points)
        elif isinstance(action, Pass):
            self.pass_(seat)
        elif isinstance(action, Call):
            self.call(game, seat, action.card)
        elif isinstance(action, Declare):
            self.declare(game, seat, action.suit)
        else:
            raise TypeError(f"not a contract action: {action!r}")

    def _check_speaker(self, seat: int) -> None:
        if self.stage != "bidding":
            raise AuctionOver(f"the auction is over (seat {self.bidder} won it with {self.high})")
        if seat != self.turn:
            raise BidOutOfTurn(f"it is seat {self.turn}'s turn to bid, not seat {seat}'s")

    def _must_bid(self, seat: int) -> bool:
        others = self.passed & ~(1 << seat)
        return self.high is None and bin(others).count("1") == self.n - 1

    def bid(self, seat: int, points: int) -> None:
        self._check_speaker(seat)
        if not isinstance(points, int) or isinstance(points, bool):
            raise BidTooLow(f"a bid is a whole number of points, not {points!r}")
        lo = self.min_bid if self.high is None else self.high + 1
        if points < lo:
            why = f"the minimum bid is {self.min_bid}" if self.high is None else f"the bid to beat is {self.high}"
            raise BidTooLow(f"seat {seat} bid {points}, but {why}")
        if points > MAX_BID:
            raise BidTooHigh(f"seat {seat} bid {points}; there are only {MAX_BID} points in the deck")
        self.bids.append((seat, points))
        self.high, self.bidder = points, seat
        self._advance()

    def pass_(self, seat: int) -> None:
        self._check_speaker(seat)
        if self._must_bid(seat):
            raise MustBid(f"everyone else passed: seat {seat} must bid at least {self.min_bid}")
        self.bids.append((seat, None))
        self.passed |= 1 << seat
        self._advance()

    def _advance(self) -> None:
        active = [s for s in range(self.n) if not self.passed >> s & 1]
        if self.high == MAX_BID or (self.bidder is not None and active == [self.bidder]):
            self.stage = "call"
            return
        s = self.turn
        for _ in range(self.n):
            s = (s + 1) % self.n
            if not self.passed >> s & 1:
                self.turn = s
                return

    def call(self, game: Game, seat: int, card) -> None:
        """The bidder names a card; its holder (if the hands are known) is the secret partner."""
        if self.stage != "call":
            raise WrongStage("the card is called once, after the auction" if self.stage != "bidding"
                             else "the auction is not over yet")
        if seat != self.bidder:
            raise NotTheBidder(f"seat {self.bidder} won the auction; seat {seat} cannot call")
        c = card if isinstance(card, int) else Card.parse(card).index if isinstance(card, str) else card.index
        if c not in _deck40():
            raise CalledCardNotInDeck(f"{CARDS_BY_INDEX[c]} is not in the 40-card deck")
        if game.played >> c & 1:
            raise WrongStage("the called card cannot have been played already")
        self.called = c
        self.partner = None
        for s, h in enumerate(game.hands):
            if c in h:
                self.partner = s
        self.stage = "trump"

    def declare(self, game: Game, seat: int, suit) -> None:
        """The bidder names trumps: from now on the hand is played."""
        if self.stage != "trump":
            raise WrongStage("trump is declared once, after the call" if self.stage == "play"
                             else "call the partner's card first")
        if seat != self.bidder:
            raise NotTheBidder(f"seat {self.bidder} won the auction; seat {seat} cannot declare trump")
        try:
            s = parse_suit(suit)
        except CardError as e:
            raise WrongStage(str(e)) from None
        self.trump = s
        game.trump_suit = s
        self.stage = "play"

    # -- hooks from Game ----------------------------------------------------------------------------
    def on_play(self, game: Game, seat: int, c: int) -> None:
        if c == self.called:
            self.partner = seat
            self.revealed = True

    def on_trick(self, game: Game) -> None:
        """Nothing to do after a trick: the reveal happens on the play itself (see on_play)."""

    # -- records and display ------------------------------------------------------------------------
    def to_record(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"auction": [{"seat": s, "pass": True} if p is None else {"seat": s, "bid": p}
                                           for s, p in self.bids]}
        if self.called is not None:
            out["call"] = CARDS_BY_INDEX[self.called].code
        if self.trump is not None:
            out["declared_trump"] = SUIT_LETTERS[self.trump]
        return out

    def summary(self) -> Dict[str, Any]:
        """The contract for the dashboard and `score`: the partner only once it is public."""
        return {"stage": self.stage, "to_act": self.to_act, "bidder": self.bidder, "bid": self.high,
                "call": None if self.called is None else CARDS_BY_INDEX[self.called].code,
                "trump": None if self.trump is None else SUIT_LETTERS[self.trump],
                "revealed": self.revealed, "partner": self.partner if self.revealed else None,
                "alone": (self.partner == self.bidder) if self.revealed else None,
                "bids": [{"seat": s, "pass": True} if p is None else {"seat": s, "bid": p} for s, p in self.bids]}

    def __repr__(self) -> str:
        return (f"<Contract {self.stage} bidder={self.bidder} bid={self.high} "
                f"call={None if self.called is None else CARDS_BY_INDEX[self.called]} "
                f"trump={None if self.trump is None else SUIT_LETTERS[self.trump]} partner={self.partner}>")


_DECK40: Optional[Tuple[int, ...]] = None


def _deck40() -> Tuple[int, ...]:
    global _DECK40
    if _DECK40 is None:
        from table.game import deck_indices
        _DECK40 = deck_indices(40)
    return _DECK40


# -- scoring -----------------------------------------------------------------------------------------
def match_points(contract: Contract, side_points: Sequence[int], scoring: Optional[str] = None) -> List[int]:
    """Match points per seat for a finished hand (see the module docstring for the schemes)."""
    scoring = scoring or contract.scoring
    n, b, p = contract.n, contract.bidder, contract.partner
    if b is None or p is None:
        raise ValueError("the contract has no bidder or no known partner yet")
    made = contract.winner(side_points) == 0
    alone = p == b
    k = 2 if alone else 1
    out = [0] * n
    defenders = [s for s in range(n) if s != b and s != p]
    sign = 1 if made else -1
    out[b] += sign * 2 * k
    if not alone:
        out[p] += sign
    if made:
        if scoring == "zero-sum":  # the defenders pay what the bidder's side wins (3, or 4 alone)
            for s in defenders:
                out[s] -= 1
    else:
        for s in defenders:  # standard: +1 each, doubled against a lone bidder; zero-sum: +1 each
            out[s] += 1 if scoring == "zero-sum" else k
    return out


def hand_match_points(game: Game) -> List[int]:
    """Match points per seat of a finished Subastada game."""
    if game.contract is None or not game.is_over():
        raise ValueError("the hand is not finished")
    return match_points(game.contract, game.side_points(), game.rules.scoring)


def tally(games) -> List[int]:
    """Match points per seat over finished hands (a continuous Subastada match); unfinished hands
    and hands without a contract count nothing."""
    total: List[int] = []
    for g in games:
        if g is None or g.contract is None or not g.contract.ready or not g.is_over():
            continue
        if not total:
            total = [0] * g.n
        for s, p in enumerate(hand_match_points(g)):
            total[s] += p
    return total


# -- records -----------------------------------------------------------------------------------------
def apply_record_extra(game: Game, record) -> None:
    """Replay the auction, the call and the declared trump of ``record.extra`` into ``game``.

    A record without an ``"auction"`` key leaves the game without a contract (plays are refused
    with BiddingNotOver until the referee enters the auction)."""
    from table.record import RecordError

    ex = record.extra
    if "auction" not in ex:
        return
    bids = ex["auction"]
    if not isinstance(bids, list):
        raise RecordError("auction: expected a list of bids")
    c = Contract.start(game)
    for i, b in enumerate(bids):
        if not isinstance(b, dict) or not isinstance(b.get("seat"), int) or isinstance(b.get("seat"), bool):
            raise RecordError(f"auction {i}: expected {{\"seat\": S, \"bid\": N}} or {{\"seat\": S, \"pass\": true}}")
        try:
            if b.get("pass"):
                c.pass_(b["seat"])
            elif "bid" in b:
                c.bid(b["seat"], b["bid"])
            else:
                raise RecordError(f"auction {i}: a bid needs 'bid' or 'pass'")
        except AuctionError as e:
            raise RecordError(f"auction {i}: {type(e).__name__}: {e}") from None
    if "bidder" in ex and ex["bidder"] is not None and ex["bidder"] != c.bidder:
        raise RecordError(f"auction: the bids make seat {c.bidder} the bidder, the record says {ex['bidder']}")
    try:
        if ex.get("call"):
            c.call(game, c.bidder, Card.parse(ex["call"]))
        if ex.get("declared_trump"):
            c.declare(game, c.bidder, ex["declared_trump"])
    except (AuctionError, CardError) as e:
        raise RecordError(f"contract: {type(e).__name__}: {e}") from None


def extra_from_event(data: Dict[str, Any]) -> Dict[str, Any]:
    """An ``auction`` event's data (``{"bids", "call", "trump", "bidder"}``) as record.extra keys.

    Bids are ``{"seat": s, "bid": n}`` or ``{"seat": s, "pass": true}`` in the order spoken."""
    out: Dict[str, Any] = {}
    bids = []
    for i, b in enumerate(data["bids"]):
        if not isinstance(b, dict):
            raise CardError(f"auction: bid {i} must be an object with 'seat' (got {b!r})")
        bids.append(dict(b))
    out["auction"] = bids
    if data.get("call"):
        out["call"] = Card.parse(data["call"]).code
    if data.get("trump"):
        out["declared_trump"] = SUIT_LETTERS[parse_suit(data["trump"])]
    if data.get("bidder") is not None:
        out["bidder"] = data["bidder"]
    return out


def deal(rules, deck: Sequence, dealer: int = 0) -> Game:
    """A Subastada game dealt from ``deck`` with an empty contract attached."""
    g = Game.deal(rules, deck, dealer)
    Contract.start(g)
    return g


def settle(game: Game, bids: Sequence[Tuple[int, Optional[int]]], call, trump) -> Contract:
    """Shortcut for tests and tools: run a whole auction (``(seat, points or None)``), call, trump."""
    c = game.contract or Contract.start(game)
    for seat, p in bids:
        if p is None:
            c.pass_(seat)
        else:
            c.bid(seat, p)
    c.call(game, c.bidder, call)
    c.declare(game, c.bidder, trump)
    return c


def check_played_called(game: Game) -> bool:
    """True when the reveal flag agrees with the history: revealed exactly once the card is down."""
    c = game.contract
    if c is None or c.called is None:
        return True
    return c.revealed == bool(game.played >> c.called & 1)


__all__ = ["Contract", "Bid", "Pass", "Call", "Declare", "AuctionError", "BidOutOfTurn", "BidTooLow",
           "BidTooHigh", "MustBid", "AuctionOver", "NotTheBidder", "WrongStage", "CalledCardNotInDeck",
           "match_points", "hand_match_points", "tally", "apply_record_extra", "extra_from_event", "deal", "settle",
           "UNKNOWN", "SUIT", "BiddingNotOver"]
