"""Brisca Subastada: the auction, the called partner, the declared trump, scoring and records."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from table.cards import CARDS_BY_INDEX, Card, deck
from table.game import SUIT, UNKNOWN, BiddingNotOver, Game, MustFollowSuit, NotYourTurn
from table.record import Record, RecordError
from table.rules import Rules, RulesError
from table import subastada as S

RULES = Rules.parse("subastada-5")
SEATS = ["Ana", "Luis", "Eva", "Pau", "Rosa"]


def random_auction(rng, contract):
    """Speak for every seat at random until the auction closes."""
    while contract.stage == "bidding":
        legal = contract.legal()
        bids = [a for a in legal if isinstance(a, S.Bid)]
        if S.Pass() in legal and rng.random() < 0.55:
            contract.pass_(contract.turn)
        else:
            contract.bid(contract.turn, rng.choice(bids[: 1 + rng.randrange(6)]).points)


def random_hand(seed, call_own=None):
    """A whole random hand: the deal, a random auction, a call (sometimes one's own card), a trump,
    then random legal plays. Returns (game, deck, reveal index of the called card in the history)."""
    rng = random.Random(seed)
    cards = deck(40)
    rng.shuffle(cards)
    dealer = rng.randrange(5)
    g = S.deal(RULES, cards, dealer)
    c = g.contract
    random_auction(rng, c)
    own = rng.random() < 0.15 if call_own is None else call_own
    pool = g.hands[c.bidder] if own else [x for s, h in enumerate(g.hands) if s != c.bidder for x in h]
    c.call(g, c.bidder, rng.choice(pool))
    c.declare(g, c.bidder, rng.randrange(4))
    reveal_at = None
    while not g.is_over():
        before = c.revealed
        seat = g.turn
        legal = list(g.legal_actions)
        a = rng.choice(legal)
        # follow suit: a seat that can follow must
        if g.trick:
            led = SUIT[g.trick[0][1]]
            has = [x for x in g.hands[seat] if SUIT[x] == led]
            assert {x.card.index for x in legal} == set(has or g.hands[seat])
        g.apply(a, seat)
        if c.revealed and not before:
            reveal_at = len(g.history) - 1
        # nobody but the holder knows the partner before the reveal
        for s in range(5):
            v = g.view(s).contract
            if c.revealed or s == c.partner:
                assert v.partner == c.partner
            else:
                assert v.partner is None
    return g, cards, reveal_at


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_random_hands_keep_every_invariant(seed):
    g, cards, reveal_at = random_hand(seed)
    c = g.contract
    played = [x for _, kind, x in g.history if kind == 0]
    assert sorted(played) == sorted(x.index for x in cards)          # every card played once
    assert len(g.tricks) == 8 and all(len(t[1]) == 5 for t in g.tricks)
    assert sum(g.points) == 120 and sum(g.side_points()) == 120
    # the partner is revealed exactly when the called card hits the table
    idx = next(i for i, (_, kind, x) in enumerate(g.history) if x == c.called)
    assert reveal_at == idx and c.partner == g.history[idx][0]
    # the contract: the bidder's side (bidder + holder) makes it with at least the bid
    side0 = g.points[c.bidder] + (g.points[c.partner] if c.partner != c.bidder else 0)
    assert g.side_points()[0] == side0
    out = g.outcome()
    assert out.complete and out.winner == (0 if side0 >= c.high else 1)
    # match points: signs and sizes of the standard scoring
    mp = S.hand_match_points(g)
    alone = c.partner == c.bidder
    k = 2 if alone else 1
    sign = 1 if out.winner == 0 else -1
    assert mp[c.bidder] == sign * 2 * k
    for s in range(5):
        if s not in (c.bidder, c.partner):
            assert mp[s] == (0 if sign > 0 else k)
    if not alone:
        assert mp[c.partner] == sign
    zs = S.match_points(c, g.side_points(), "zero-sum")
    assert sum(zs) == 0 and zs[c.bidder] == mp[c.bidder]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_records_round_trip_json_and_pbn(seed):
    g, cards, _ = random_hand(seed)
    rec = Record.from_game(g, SEATS, cards)
    assert set(rec.extra) == {"auction", "call", "declared_trump"}
    again = Record.from_json(json.loads(rec.dumps()))
    assert again.to_json() == rec.to_json()
    back = Record.from_pbn(rec.to_pbn())
    assert back.to_json() == rec.to_json()
    h, _ = back.replay()
    assert h.side_points() == g.side_points() and h.contract.partner == g.contract.partner
    assert h.trump_suit == g.trump_suit and h.outcome() == g.outcome()
    # without the deck (a physical table) the partner is learnt from the play
    blind = Record.from_json({**rec.to_json(), "deck": None})
    b, _ = blind.replay()
    assert b.contract.partner == g.contract.partner and b.outcome() == g.outcome()


def test_auction_order_and_errors():
    g = S.deal(RULES, deck(40), dealer=4)
    c = g.contract
    assert c.turn == 0
    with pytest.raises(BiddingNotOver):
        g.play(g.hand(0)[0], 0)
    with pytest.raises(S.BidOutOfTurn):
        c.bid(1, 61)
    assert issubclass(S.BidOutOfTurn, NotYourTurn)
    with pytest.raises(S.BidTooLow, match="minimum bid is 61"):
        c.bid(0, 60)
    c.bid(0, 61)
    with pytest.raises(S.BidTooLow, match="bid to beat is 61"):
        c.bid(1, 61)
    with pytest.raises(S.BidTooHigh):
        c.bid(1, 121)
    c.pass_(1)
    c.bid(2, 75)
    with pytest.raises(S.WrongStage):
        c.call(g, 2, "1O")
    c.pass_(3)
    c.pass_(4)
    assert c.turn == 0  # seat 1 passed: skipped from now on
    c.pass_(0)
    assert c.stage == "call" and c.bidder == 2 and c.high == 75
    with pytest.raises(S.AuctionOver):
        c.bid(1, 80)
    with pytest.raises(S.NotTheBidder):
        c.call(g, 0, "1O")
    with pytest.raises(S.CalledCardNotInDeck):
        c.call(g, 2, "8O")
    with pytest.raises(S.WrongStage):
        c.declare(g, 2, "O")
    c.call(g, 2, "1O")
    with pytest.raises(S.WrongStage):
        c.call(g, 2, "3O")
    c.declare(g, 2, "espadas")
    assert g.trump_suit == 2 and g.bidding_done() and c.ready
    assert c.to_record() == {"auction": [{"seat": 0, "bid": 61}, {"seat": 1, "pass": True},
                                         {"seat": 2, "bid": 75}, {"seat": 3, "pass": True},
                                         {"seat": 4, "pass": True}, {"seat": 0, "pass": True}],
                             "call": "1O", "declared_trump": "E"}


def test_last_seat_must_bid_when_everyone_passed_and_120_ends_the_auction():
    g = S.deal(RULES, deck(40), dealer=0)
    c = g.contract
    for s in (1, 2, 3, 4):
        c.pass_(s)
    with pytest.raises(S.MustBid):
        c.pass_(0)
    assert S.Pass() not in c.legal()
    c.bid(0, 61)
    assert c.stage == "call" and c.bidder == 0
    g = S.deal(RULES, deck(40), dealer=0)
    g.contract.bid(1, 120)
    assert g.contract.stage == "call" and g.contract.bidder == 1


def test_must_follow_suit_from_the_first_trick():
    g = S.deal(RULES, deck(40), dealer=0)
    S.settle(g, [(1, 61), (2, None), (3, None), (4, None), (0, None)], "3B", "B")
    leader = g.turn
    led = g.hands[leader][0]
    g.play(CARDS_BY_INDEX[led], leader)
    nxt = g.turn
    same = [x for x in g.hands[nxt] if SUIT[x] == SUIT[led]]
    other = [x for x in g.hands[nxt] if SUIT[x] != SUIT[led]]
    if same and other:
        with pytest.raises(MustFollowSuit):
            g.play(CARDS_BY_INDEX[other[0]], nxt)


def test_calling_ones_own_card_plays_alone_and_doubles():
    g, _, _ = random_hand(7, call_own=True)
    c = g.contract
    assert c.partner == c.bidder and c.alone
    assert sorted(g.side_of(s) for s in range(5)) == [0, 1, 1, 1, 1]
    mp = S.hand_match_points(g)
    assert abs(mp[c.bidder]) == 4


def test_rules_settings_for_the_auction():
    r = Rules.parse({"preset": "subastada-5", "min_bid": 70, "scoring": "zero-sum"})
    assert r.min_bid == 70 and Rules.parse(r.to_json()) == r
    g = S.deal(r, deck(40), 0)
    with pytest.raises(S.BidTooLow):
        g.contract.bid(1, 61)
    for bad, msg in [({"preset": "subastada-5", "min_bid": 0}, "min_bid"),
                     ({"preset": "subastada-5", "scoring": "fancy"}, "scoring"),
                     ({"preset": "classic-2", "min_bid": 70}, "only to auction")]:
        with pytest.raises(RulesError, match=msg):
            Rules.parse(bad)


def test_table_game_learns_the_partner_at_the_reveal():
    g0, cards, _ = random_hand(11)
    rec = Record.from_game(g0, SEATS)  # no deck: hidden hands
    t = rec.new_game()
    S.apply_record_extra(t, rec)
    c = t.contract
    assert c.partner is None and not c.revealed
    for seat, a in rec.actions:
        t.apply(a, seat)
        assert c.revealed == bool(t.played >> c.called & 1)
        if not c.revealed:
            assert c.partner is None and t.side_of(g0.contract.partner) == (0 if g0.contract.alone else 1)
    assert c.partner == g0.contract.partner


def test_bad_record_extras_are_record_errors():
    g, cards, _ = random_hand(3)
    rec = Record.from_game(g, SEATS, cards)
    bad = rec.to_json()
    bad["auction"] = [{"seat": (g.dealer + 2) % 5, "bid": 61}]
    with pytest.raises(RecordError, match="BidOutOfTurn"):
        Record.from_json(bad).replay()
    bad = rec.to_json()
    bad["auction"] = bad["auction"][:-1]
    with pytest.raises(RecordError, match="auction is not over"):
        Record.from_json(bad).replay()
    bad = rec.to_json()
    del bad["declared_trump"]
    with pytest.raises(RecordError, match="action 0: BiddingNotOver"):
        Record.from_json(bad).replay()
    bad = rec.to_json()
    bad["bidder"] = (g.contract.bidder + 1) % 5
    with pytest.raises(RecordError, match="bidder"):
        Record.from_json(bad).replay()


def test_score_command_prints_the_contract(tmp_path, capsys):
    from table.cli import main
    g, cards, _ = random_hand(21)
    p = tmp_path / "hand.json"
    p.write_text(Record.from_game(g, SEATS, cards).dumps())
    assert main(["score", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = g.contract
    assert out["contract"]["bidder"] == c.bidder and out["contract"]["call"] == CARDS_BY_INDEX[c.called].code
    assert out["contract"]["partner"] == c.partner and out["match_points"] == S.hand_match_points(g)
    assert main(["score", str(p)]) == 0
    text = capsys.readouterr().out
    assert f"{SEATS[c.bidder]} bids {c.high}" in text and "match points" in text
    p2 = tmp_path / "hand.pbn"
    p2.write_text(Record.from_game(g, SEATS, cards).to_pbn())
    assert main(["score", str(p2), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["match_points"] == out["match_points"]


# -- at the table: the auction as an event, the tracker over a simulated 5-seat hand --------------------
def _auction_event(rec, g):
    return {"bids": rec.extra["auction"], "call": rec.extra["call"], "trump": rec.extra["declared_trump"],
            "bidder": g.contract.bidder, "dealer": rec.dealer}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_five_player_hand_is_tracked_end_to_end(tmp_path, seed):
    from table.events import Event
    from tests.test_tracker import Table
    from vision.simgame import GameFilm, SimOptions, truth_observation

    g, cards, _ = random_hand(seed)
    rec = Record.from_game(g, SEATS, cards)
    t = Table(tmp_path, "subastada-5", SEATS)
    film = GameFilm(rec, SimOptions(hover_prob=0.3, nudge_prob=0.3), seed)
    rng = random.Random(seed)
    entered = False
    for f in film.frames():
        if not entered and f.note.startswith("reach"):  # the first card is on its way: the auction was spoken
            assert t.ledger.hand is None  # no turned-up card: the tracker waits for the referee
            t.store.append(Event("auction", _auction_event(rec, g)))
            entered = True
        t.tracker.observe(truth_observation(f, film.layout, rng))
    hand = t.ledger.hand
    assert hand.error is None and not t.ledger.alerts
    assert [(s, str(a)) for s, a in hand.record.actions] == [(s, str(a)) for s, a in rec.actions]
    assert hand.game.is_over() and hand.game.outcome() == g.outcome()
    assert t.types().count("trick") == 8 and t.types().count("hand_end") == 1
    end = next(e for e in t.store.events() if e.type == "hand_end")
    assert end.data["points"] == g.side_points()
    state = t.ledger.state()["hand"]["contract"]
    assert state["revealed"] and state["partner"] == g.contract.partner and state["bid"] == g.contract.high
    # the hand's record is a complete Subastada record
    again = Record.from_json(hand.record.dumps())
    assert again.score()["points"] == g.side_points()


def test_cards_wait_for_the_auction_and_the_dashboard_hides_the_partner(tmp_path):
    from table.events import Event
    from tests.test_tracker import Table

    g, cards, _ = random_hand(4)
    rec = Record.from_game(g, SEATS, cards)
    t = Table(tmp_path, "subastada-5", SEATS)
    t.store.append(Event("hand_start", {"dealer": rec.dealer, "trump": ""}))
    assert t.ledger.game is not None and not t.ledger.game.bidding_done()
    ev = _auction_event(rec, g)
    t.store.append(Event("auction", {**ev, "call": None, "trump": None}))  # the bids so far
    assert t.ledger.state()["hand"]["contract"]["stage"] == "call"
    t.store.append(Event("auction", ev))
    c = t.ledger.state()["hand"]["contract"]
    assert c["stage"] == "play" and c["partner"] is None and not c["revealed"]
    assert t.ledger.game.trump_suit_letter == rec.extra["declared_trump"]
    assert len(t.ledger.matches[0].hands) == 1
    bad = {**ev, "bids": [{"seat": (rec.dealer + 2) % 5, "bid": 61}]}
    t.store.append(Event("auction", bad))
    assert "BidOutOfTurn" in t.ledger.hand.error


def test_dashboard_state_carries_match_points(tmp_path):
    from table.events import Event
    from tests.test_tracker import Table

    t = Table(tmp_path, "subastada-5", SEATS)
    total = [0] * 5
    for seed in (31, 32):
        g, cards, _ = random_hand(seed)
        rec = Record.from_game(g, SEATS, cards)
        t.store.append(Event("auction", _auction_event(rec, g)))
        assert t.ledger.hand.record.dealer == rec.dealer
        for seat, a in rec.actions:
            t.store.append(Event("play", {"seat": seat, "card": str(a.card)}))
        st = t.ledger.state()
        assert st["hand"]["match_points"] == S.hand_match_points(g)
        total = [a + b for a, b in zip(total, S.hand_match_points(g))]
        assert st["match"]["match_points"] == total
    assert len(t.ledger.match.hands) == 2
