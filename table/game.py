"""Game: the pure state of one hand of Brisca. No I/O.

Cards are kept as small ints internally (``Card.index``) so that the robot's search can copy and play
out thousands of hands a second; the public API speaks :class:`~table.cards.Card` and
:class:`Action`. Hidden cards (a physical table, or a seat's own view) are ``UNKNOWN`` slots: the
engine still checks everything that can be checked about them.
"""
from __future__ import annotations

import functools
import random as _random
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from table.cards import CARDS_BY_INDEX, Card, CardError, Rank, deck as make_deck
from table.rules import Rules

UNKNOWN = -1

# Per-index lookup tables (index = suit * 12 + rank - 1).
SUIT = [i // 12 for i in range(48)]
RANK = [i % 12 + 1 for i in range(48)]
POINTS = [CARDS_BY_INDEX[i].points for i in range(48)]
STRENGTH = [CARDS_BY_INDEX[i].strength for i in range(48)]
_SEVEN_STRENGTH = Rank.SEVEN.strength
_SWAP_BY_TWO = {Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN}


# -- errors: one exception type per failure -----------------------------------------------------
class IllegalAction(ValueError):
    """Base of every refused action. The game is unchanged when one is raised."""


class HandOver(IllegalAction):
    """The hand has ended: no more actions."""


class NotYourTurn(IllegalAction):
    """A seat acted while it was another seat's turn."""


class CardAlreadyPlayed(IllegalAction):
    """The card was played earlier in this hand."""


class CardNotInHand(IllegalAction):
    """The card is not (or cannot be) in that seat's hand."""


class CardNotInDeck(IllegalAction):
    """The card does not exist in this variant's deck (an 8 in a 40-card game, a 2 with 36 cards)."""


class SwapNotAllowed(IllegalAction):
    """The trump swap is not allowed now (rules, timing, last draw, wrong card)."""


class MustFollowSuit(IllegalAction):
    """Arrastre: the seat had to follow suit (or beat, or trump) and did not."""


class BiddingNotOver(IllegalAction):
    """Subastada: cards are played only after the auction, the call and the trump."""


# -- actions ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Play a card to the trick. ``str(Play(card)) == "3C"``."""

    card: Card

    def to_json(self) -> dict:
        return {"play": self.card.code}

    def __str__(self) -> str:
        return self.card.code


@dataclass(frozen=True)
class Swap:
    """Give up ``card`` (the 7 or 2 of trumps) and take the turned-up trump card."""

    card: Card

    def to_json(self) -> dict:
        return {"swap": self.card.code}

    def __str__(self) -> str:
        return f"swap {self.card.code}"


Action = Union[Play, Swap]


def parse_action(value) -> Action:
    """``{"play": "3C"}``, ``{"swap": "7O"}``, ``"3C"`` or ``"swap 7O"``."""
    if isinstance(value, (Play, Swap)):
        return value
    if isinstance(value, dict):
        if "play" in value:
            return Play(Card.parse(value["play"]))
        if "swap" in value:
            return Swap(Card.parse(value["swap"]))
        raise CardError(f"not an action: {value!r} (expected a 'play' or 'swap' key)")
    if isinstance(value, str):
        t = value.strip()
        if t.lower().startswith("swap"):
            return Swap(Card.parse(t[4:]))
        return Play(Card.parse(t))
    raise CardError(f"not an action: {value!r}")


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the cards in playing order, who won, its points."""

    leader: int
    plays: Tuple[Tuple[int, Card], ...]
    winner: int
    points: int

    def to_json(self) -> dict:
        return {"leader": self.leader, "cards": [{"seat": s, "card": c.code} for s, c in self.plays],
                "winner": self.winner, "points": self.points}


@dataclass(frozen=True)
class Outcome:
    """The result of a hand: points per side and the winning side (None for a draw)."""

    points: Tuple[int, ...]
    winner: Optional[int]
    complete: bool


def trick_winner(plays: Sequence[Tuple[int, int]], trump_suit: int) -> int:
    """Position in ``plays`` of the winning card: highest trump, else highest of the suit led."""
    best = 0
    bc = plays[0][1]
    bs, bst = SUIT[bc], STRENGTH[bc]
    for i in range(1, len(plays)):
        c = plays[i][1]
        s = SUIT[c]
        if s == bs:
            if STRENGTH[c] > bst:
                best, bst = i, STRENGTH[c]
        elif s == trump_suit:
            best, bs, bst = i, s, STRENGTH[c]
    return best


class LegalActions:
    """A lazy view of the legal actions of the seat to move (like python-chess's legal_moves)."""

    def __init__(self, game: "Game") -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        g = self._game
        if g.is_over() or not g.bidding_done():
            return
        seat = g.turn
        for c in g._legal_play_indices(seat):
            yield Play(CARDS_BY_INDEX[c])
        sc = g._swap_card(seat)
        if sc is not None:
            yield Swap(CARDS_BY_INDEX[sc])

    def __contains__(self, action) -> bool:
        try:
            self._game._check(self._game.turn, parse_action(action))
        except (IllegalAction, CardError):
            return False
        return True

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(map(str, self))})>"


class Game:
    """One hand: the deal, whose turn it is, the legal actions, plays and swaps, the outcome.

    Build one with :meth:`deal` (a known deck order) or :meth:`from_table` (hidden hands).
    """

    __slots__ = ("rules", "n", "dealer", "turned_up", "trump_suit", "hands", "stock", "trump_card",
                 "leader", "turn", "trick", "tricks", "points", "played", "public", "history",
                 "deck_mask", "swapped", "contract")

    # -- construction -------------------------------------------------------------------------
    def __init__(self) -> None:  # use deal() / from_table()
        self.contract = None

    @classmethod
    def deal(cls, rules: Rules, deck: Sequence, dealer: int = 0) -> "Game":
        """Deal from a known deck order (top first): one card at a time to each seat starting after
        the dealer, until each has a hand; the next card is turned up; the rest is the stock."""
        rules = Rules.parse(rules)
        cards = [_idx(c) for c in deck]
        _check_deck(rules, cards)
        n = rules.players
        g = cls._empty(rules, dealer)
        pos = 0
        for _ in range(rules.hand_size):
            for k in range(n):
                g.hands[(dealer + 1 + k) % n].append(cards[pos])
                pos += 1
        if rules.auction:
            g.turned_up = None
            g.trump_suit = -1
            g.trump_card = None
            g.stock = []
        else:
            g.turned_up = cards[pos]
            g.trump_suit = SUIT[g.turned_up]
            g.trump_card = g.turned_up
            g.stock = cards[pos + 1:]
        return g

    @classmethod
    def from_table(cls, rules: Rules, trump: Union[Card, str, None], dealer: int = 0) -> "Game":
        """A hand at a physical table: the turned-up card is known, every other card hidden."""
        rules = Rules.parse(rules)
        n = rules.players
        g = cls._empty(rules, dealer)
        for h in g.hands:
            h.extend([UNKNOWN] * rules.hand_size)
        if rules.auction:
            g.turned_up = None
            g.trump_suit = -1
            g.trump_card = None
            g.stock = []
        else:
            t = _idx(trump)
            if not g.deck_mask >> t & 1:
                raise CardNotInDeck(f"{CARDS_BY_INDEX[t]} is not in the {rules.deck_size}-card deck")
            g.turned_up = t
            g.trump_suit = SUIT[t]
            g.trump_card = t
            g.stock = [UNKNOWN] * (rules.deck_size - n * rules.hand_size - 1)
        return g

    @classmethod
    def random(cls, rules: Rules, rng: Optional[_random.Random] = None, dealer: int = 0) -> "Game":
        rules = Rules.parse(rules)
        cards = list(deck_indices(rules.deck_size))
        (rng or _random).shuffle(cards)
        return cls.deal(rules, cards, dealer)

    @classmethod
    def _empty(cls, rules: Rules, dealer: int) -> "Game":
        n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of a {n}-player game")
        g = cls.__new__(cls)
        g.rules = rules
        g.n = n
        g.dealer = dealer
        g.hands = [[] for _ in range(n)]
        g.leader = g.turn = (dealer + 1) % n
        g.trick = []
        g.tricks = []
        g.points = [0] * n
        g.played = 0
        g.public = [0] * n
        g.history = []
        g.swapped = []
        g.deck_mask = deck_mask(rules.deck_size)
        g.contract = None
        return g

    def copy(self) -> "Game":
        """A cheap independent copy (for search)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.n = self.n
        g.dealer = self.dealer
        g.turned_up = self.turned_up
        g.trump_suit = self.trump_suit
        g.hands = [h[:] for h in self.hands]
        g.stock = self.stock[:]
        g.trump_card = self.trump_card
        g.leader = self.leader
        g.turn = self.turn
        g.trick = self.trick[:]
        g.tricks = self.tricks[:]
        g.points = self.points[:]
        g.played = self.played
        g.public = self.public[:]
        g.history = self.history[:]
        g.swapped = self.swapped[:]
        g.deck_mask = self.deck_mask
        g.contract = self.contract.copy() if self.contract is not None else None
        return g

    # -- queries ------------------------------------------------------------------------------
    @property
    def trump(self) -> Optional[Card]:
        """The card lying under the stock now (after any swap); None once drawn."""
        return None if self.trump_card is None else CARDS_BY_INDEX[self.trump_card]

    @property
    def trump_suit_letter(self) -> Optional[str]:
        return None if self.trump_suit < 0 else "OCEB"[self.trump_suit]

    @property
    def stock_count(self) -> int:
        """Cards still to be drawn, counting the turned-up trump."""
        return len(self.stock) + (self.trump_card is not None)

    @property
    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def hand(self, seat: int) -> List[Optional[Card]]:
        """The seat's hand as Cards; hidden cards are None."""
        return [None if c == UNKNOWN else CARDS_BY_INDEX[c] for c in self.hands[seat]]

    def is_over(self) -> bool:
        return not self.trick and self.stock_count == 0 and not any(self.hands)

    def bidding_done(self) -> bool:
        return not self.rules.auction or (self.contract is not None and self.contract.ready)

    def completed_tricks(self) -> List[Trick]:
        return [Trick(l, tuple((s, CARDS_BY_INDEX[c]) for s, c in plays), w, p)
                for (l, plays, w, p) in self.tricks]

    def current_trick(self) -> List[Tuple[int, Card]]:
        return [(s, CARDS_BY_INDEX[c]) for s, c in self.trick]

    def side_of(self, seat: int) -> int:
        if self.contract is not None:
            return self.contract.side_of(seat)
        return self.rules.side_of(seat)

    @property
    def sides(self) -> int:
        return 2 if self.contract is not None else self.rules.sides

    def side_points(self) -> List[int]:
        out = [0] * self.sides
        for seat, p in enumerate(self.points):
            out[self.side_of(seat)] += p
        return out

    def outcome(self) -> Outcome:
        """Points per side; the side with most points wins (61+ with two sides); equal tops draw."""
        pts = self.side_points()
        complete = self.is_over()
        if self.contract is not None:
            return Outcome(tuple(pts), self.contract.winner(pts) if complete else None, complete)
        top = max(pts)
        winner = pts.index(top) if complete and pts.count(top) == 1 else None
        return Outcome(tuple(pts), winner, complete)

    def possible_cards(self, seat: int) -> List[int]:
        """Card indices that may be in the seat's hand: its known cards, and for hidden slots every
        card of the deck not accounted for elsewhere."""
        known = [c for c in self.hands[seat] if c != UNKNOWN]
        if UNKNOWN not in self.hands[seat]:
            return known
        return known + [c for c in self._iter_mask(self.unaccounted_mask())]

    def unaccounted_mask(self) -> int:
        """Deck cards not played, not under the stock and not known to be in any hand or the stock."""
        m = self.deck_mask & ~self.played
        if self.trump_card is not None:
            m &= ~(1 << self.trump_card)
        for h in self.hands:
            for c in h:
                if c != UNKNOWN:
                    m &= ~(1 << c)
        for c in self.stock:
            if c != UNKNOWN:
                m &= ~(1 << c)
        return m

    @staticmethod
    def _iter_mask(m: int) -> Iterator[int]:
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    # -- legality -----------------------------------------------------------------------------
    def _legal_play_indices(self, seat: int) -> List[int]:
        cards = self.possible_cards(seat)
        if not self.trick or not self._follow_rule_applies():
            return cards
        return self._restrict(seat, cards)

    def _follow_rule_applies(self) -> bool:
        r = self.rules
        return r.arrastre != "off" and self.stock_count == 0

    def _restrict(self, seat: int, cards: List[int]) -> List[int]:
        """Arrastre: follow suit; in `full`, beat if possible, else trump (overtrumping if possible);
        following is enough while one's partner is winning the trick."""
        led = SUIT[self.trick[0][1]]
        follow = [c for c in cards if SUIT[c] == led]
        if self.rules.arrastre == "follow":
            return follow or cards
        w = trick_winner(self.trick, self.trump_suit)
        wseat, wcard = self.trick[w]
        partner_winning = self.rules.partner_of(seat) == wseat
        if follow:
            if partner_winning or SUIT[wcard] != led:
                return follow
            beat = [c for c in follow if STRENGTH[c] > STRENGTH[wcard]]
            return beat or follow
        if partner_winning:
            return cards
        trumps = [c for c in cards if SUIT[c] == self.trump_suit]
        if not trumps:
            return cards
        if SUIT[wcard] == self.trump_suit:
            over = [c for c in trumps if STRENGTH[c] > STRENGTH[wcard]]
            return over or trumps
        return trumps

    def _swap_card(self, seat: int) -> Optional[int]:
        """The card (7 or 2 of trumps) this seat could swap now, or None."""
        reason = self._swap_refusal(seat)
        if reason is not None:
            return None
        need = self._swap_needed()
        if need in self.hands[seat]:
            return need
        if UNKNOWN in self.hands[seat] and self.unaccounted_mask() >> need & 1:
            return need
        return None

    def _swap_needed(self) -> Optional[int]:
        tc = self.trump_card
        if tc is None:
            return None
        base = self.trump_suit * 12
        r = RANK[tc]
        if STRENGTH[tc] > _SEVEN_STRENGTH:
            return base + 6  # the 7
        if self.rules.swap == "seven-and-two" and r in _SWAP_BY_TWO:
            return base + 1  # the 2
        return None

    def _swap_refusal(self, seat: int) -> Optional[str]:
        r = self.rules
        if r.swap == "off":
            return "the trump swap is off in these rules"
        if self.trump_card is None:
            return "the turned-up trump has already been drawn"
        if self.stock_count <= self.n:
            return "only the last draw is left"
        if seat != self.turn:
            return f"it is seat {self.turn}'s turn"
        if r.swap_timing == "after-winning" and (self.trick or not self.tricks or self.leader != seat):
            return "a swap is allowed only right after winning a trick, before leading"
        if self._swap_needed() is None:
            return f"the {self.trump} cannot be taken by a swap"
        return None

    def _check(self, seat: int, action: Action) -> None:
        """Raise the specific IllegalAction if ``action`` by ``seat`` is not legal now."""
        if self.is_over():
            raise HandOver("the hand is over")
        if not self.bidding_done():
            raise BiddingNotOver("the auction, call and trump come before the first card")
        c = action.card.index
        if isinstance(action, Swap):
            reason = self._swap_refusal(seat)
            if reason is not None:
                raise SwapNotAllowed(f"seat {seat} cannot swap: {reason}")
            need = self._swap_needed()
            if c != need:
                raise SwapNotAllowed(f"the {self.trump} can be taken only with the {CARDS_BY_INDEX[need]}")
            self._check_holds(seat, c)
            return
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        self._check_holds(seat, c)
        if self.trick and self._follow_rule_applies():
            hand = self.hands[seat]
            if UNKNOWN not in hand:
                allowed = self._restrict(seat, hand)
                if c not in allowed:
                    what = "follow suit" if self.rules.arrastre == "follow" else "follow suit, beat or trump"
                    raise MustFollowSuit(f"seat {seat} must {what}: "
                                         f"{' '.join(str(CARDS_BY_INDEX[x]) for x in allowed)}")

    def _check_holds(self, seat: int, c: int) -> None:
        card = CARDS_BY_INDEX[c]
        if not self.deck_mask >> c & 1:
            raise CardNotInDeck(f"{card} is not in the {self.rules.deck_size}-card deck")
        if self.played >> c & 1:
            raise CardAlreadyPlayed(f"{card} was already played")
        hand = self.hands[seat]
        if c in hand:
            return
        if c == self.trump_card:
            raise CardNotInHand(f"{card} is the turned-up trump under the stock; nobody holds it yet")
        if UNKNOWN not in hand:
            raise CardNotInHand(f"seat {seat} does not hold {card}")
        for s, h in enumerate(self.hands):
            if s != seat and c in h:
                raise CardNotInHand(f"{card} is known to be in seat {s}'s hand")
        if c in self.stock:
            raise CardNotInHand(f"{card} is still in the stock")

    def check(self, action, seat: Optional[int] = None) -> None:
        """Raise the IllegalAction that ``apply`` would raise, and change nothing: a referee or a
        tracker asks before it records."""
        self._check(self.turn if seat is None else seat, parse_action(action))

    # -- changing state -----------------------------------------------------------------------
    def apply(self, action, seat: Optional[int] = None) -> Optional[Trick]:
        """Apply a play or swap (checked). Returns the Trick if this play completed one."""
        action = parse_action(action)
        seat = self.turn if seat is None else seat
        self._check(seat, action)
        c = action.card.index
        if isinstance(action, Swap):
            self._do_swap(seat, c)
            return None
        return self._do_play(seat, c)

    def play(self, card, seat: Optional[int] = None) -> Optional[Trick]:
        return self.apply(Play(Card.parse(card)), seat)

    def swap(self, card, seat: Optional[int] = None) -> None:
        self.apply(Swap(Card.parse(card)), seat)

    def _take(self, seat: int, c: int) -> None:
        hand = self.hands[seat]
        if c in hand:
            hand.remove(c)
        else:
            hand.remove(UNKNOWN)
        self.public[seat] &= ~(1 << c)

    def _do_swap(self, seat: int, c: int) -> None:
        took = self.trump_card
        self._take(seat, c)
        self.hands[seat].append(took)
        self.public[seat] |= 1 << took
        self.trump_card = c
        self.swapped.append((seat, c, took))
        self.history.append((seat, 1, c))

    def _do_play(self, seat: int, c: int) -> Optional[Trick]:
        self._take(seat, c)
        self.played |= 1 << c
        self.trick.append((seat, c))
        self.history.append((seat, 0, c))
        if self.contract is not None:
            self.contract.on_play(self, seat, c)  # Subastada: the called card reveals the partner
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return None
        return self._finish_trick()

    def _finish_trick(self) -> Trick:
        plays = self.trick
        w = plays[trick_winner(plays, self.trump_suit)][0]
        pts = 0
        for _, c in plays:
            pts += POINTS[c]
        self.points[w] += pts
        self.tricks.append((self.leader, tuple(plays), w, pts))
        self.trick = []
        self.leader = self.turn = w
        if self.stock_count:
            n = self.n
            for k in range(n):
                s = (w + k) % n
                if self.stock:
                    self.hands[s].append(self.stock.pop(0))
                else:
                    self.hands[s].append(self.trump_card)
                    self.public[s] |= 1 << self.trump_card
                    self.trump_card = None
        if self.contract is not None:
            self.contract.on_trick(self)
        return Trick(self.tricks[-1][0], tuple((s, CARDS_BY_INDEX[c]) for s, c in plays), w, pts)

    # -- fast paths for search ---------------------------------------------------------------
    def fast_legal(self) -> List[int]:
        """Legal play indices of the seat to move, for a game whose hands are all known."""
        hand = self.hands[self.turn]
        if self.trick and self.rules.arrastre != "off" and not self.stock and self.trump_card is None:
            return self._restrict(self.turn, hand)
        return hand

    def fast_play(self, c: int) -> None:
        """Play card index ``c`` for the seat to move, unchecked: the caller knows it is legal."""
        seat = self.turn
        self.hands[seat].remove(c)
        self.played |= 1 << c
        trick = self.trick
        trick.append((seat, c))
        n = self.n
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return
        # resolve without building a public Trick
        best = 0
        bc = trick[0][1]
        bs, bst = SUIT[bc], STRENGTH[bc]
        ts = self.trump_suit
        pts = POINTS[bc]
        for i in range(1, n):
            x = trick[i][1]
            pts += POINTS[x]
            s = SUIT[x]
            if s == bs:
                if STRENGTH[x] > bst:
                    best, bst = i, STRENGTH[x]
            elif s == ts:
                best, bs, bst = i, s, STRENGTH[x]
        w = trick[best][0]
        self.points[w] += pts
        self.trick = []
        self.leader = self.turn = w
        stock = self.stock
        if stock or self.trump_card is not None:
            hands = self.hands
            for k in range(n):
                s = (w + k) % n
                if stock:
                    hands[s].append(stock.pop(0))
                else:
                    hands[s].append(self.trump_card)
                    self.trump_card = None

    def random_playout(self, rng: _random.Random) -> None:
        """Play the hand to its end with uniformly random legal plays (hands must be known)."""
        choice = rng.choice
        while self.hands[self.turn]:
            self.fast_play(choice(self.fast_legal()))

    # -- views --------------------------------------------------------------------------------
    def view(self, seat: int) -> "Game":
        """What ``seat`` can see: its own hand, every public card, the rest hidden as UNKNOWN.
        With open hands (Descubierta) every hand is visible. The stock is always hidden."""
        g = self.copy()
        g.stock = [UNKNOWN] * len(self.stock)
        if not self.rules.open_hands:
            for s in range(self.n):
                if s != seat:
                    pub = self.public[s]
                    g.hands[s] = [c if (c != UNKNOWN and pub >> c & 1) else UNKNOWN for c in self.hands[s]]
        if g.contract is not None:
            g.contract = g.contract.view(seat)  # the secret partner stays secret
        return g

    def __repr__(self) -> str:
        return (f"<Game {self.rules} trump={self.trump or self.trump_suit_letter} turn={self.turn} "
                f"stock={self.stock_count} tricks={len(self.tricks)} points={self.points}>")


def _idx(c) -> int:
    if type(c) is int:
        return c
    return Card.parse(c).index


def _mask(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


_DECKS = {}


def deck_indices(size: int) -> Tuple[int, ...]:
    """Card indices of a fresh deck of that size (cached)."""
    d = _DECKS.get(size)
    if d is None:
        d = _DECKS[size] = tuple(c.index for c in make_deck(size))
    return d


@functools.lru_cache(maxsize=None)
def deck_mask(size: int) -> int:
    """The bit mask of a fresh deck of that size (cached: the tracker asks it of every reading)."""
    return _mask(deck_indices(size))


def _check_deck(rules: Rules, cards: List[int]) -> None:
    if len(cards) != rules.deck_size or _mask(cards) != deck_mask(rules.deck_size):
        raise CardError(f"the deck must be the {rules.deck_size} cards of the {rules.preset} deck, "
                        f"each once (got {len(cards)} cards)")
