"""The Subastada robot and its greedy baseline: legal whole hands, sensible bids and calls, inference."""
import random

from table import subastada as S
from table.cards import Card, deck
from table.game import Game
from table.bench.subastada import one_deal, play_hand, summarize
from table.robot.subastada import SubastadaGreedy, SubastadaRobot, known_allies
from table.rules import Rules

RULES = Rules.parse("subastada-5")


def _idx(codes):
    return [Card.parse(c).index for c in codes.split()]


def test_whole_hands_are_legal_for_robot_and_greedy():
    robot, greedy = SubastadaRobot(seed=1, worlds=8, bid_samples=8), SubastadaGreedy()
    for d in range(6):
        cards = deck(40)
        random.Random(d).shuffle(cards)
        players = [robot if s == d % 5 else greedy for s in range(5)]
        g = play_hand(RULES, cards, d % 5, players)  # Game.apply checks every action
        assert g.is_over() and g.contract.ready and sum(g.points) == 120
        assert sum(S.hand_match_points(g)) in range(-5, 6)


def _hand_game(hand_codes, seat=1, dealer=0):
    """A deal where ``seat`` holds ``hand_codes``, the rest spread over the others."""
    mine = _idx(hand_codes)
    rest = [c.index for c in deck(40) if c.index not in mine]
    random.Random(0).shuffle(rest)
    hands = {s: [] for s in range(5)}
    hands[seat] = mine
    it = iter(rest)
    for s in range(5):
        while len(hands[s]) < 8:
            hands[s].append(next(it))
    order = []
    for k in range(8):
        for i in range(5):
            order.append(hands[(dealer + 1 + i) % 5][k])
    return S.deal(RULES, order, dealer)


def test_robot_bids_a_strong_hand_calls_in_its_suit_and_names_it_trump():
    g = _hand_game("1O 3O 12O 11O 7O 1C 3C 2B")
    robot = SubastadaRobot(seed=2, bid_samples=24)
    a = robot.choose(g.view(1))
    assert a == S.Bid(61)
    c = g.contract
    c.bid(1, 61)
    for s in (2, 3, 4, 0):
        c.pass_(s)
    call = robot.choose(g.view(1))
    # the missing top oros (a partner) or, with this hand, its own ace (playing alone, double or nothing)
    assert isinstance(call, S.Call) and call.card.suit.letter == "O"
    assert call.card.index not in g.hands[1] or call.card.code == "1O"
    c.call(g, 1, call.card)
    assert robot.choose(g.view(1)) == S.Declare(0)


def test_robot_passes_a_weak_hand():
    g = _hand_game("2O 4C 5C 6E 2E 4B 5B 6B")
    assert SubastadaRobot(seed=2, bid_samples=24).choose(g.view(1)) == S.Pass()
    assert SubastadaGreedy().choose(g.view(1)) == S.Pass()


def test_partner_inference_weights_feeders_and_views_hide_the_partner():
    cards = deck(40)
    random.Random(9).shuffle(cards)
    g = S.deal(RULES, cards, 0)
    robot = SubastadaRobot(seed=1, worlds=8, bid_samples=8)
    greedy = SubastadaGreedy()
    c = g.contract
    while not c.ready:
        s = c.to_act
        c.apply(g, s, greedy.choose(g.view(s)))
    defenders = [s for s in range(5) if s not in (c.bidder, c.partner)]
    d = defenders[0]
    assert known_allies(g.view(d), d) == set() or c.revealed
    assert known_allies(g.view(c.partner), c.partner) == ({c.bidder} if c.partner != c.bidder else set())
    # play until someone feeds the bidder's winning trick before the reveal, then check the weights
    while not g.is_over() and not c.revealed:
        s = g.turn
        g.apply(greedy.choose(g.view(s)), s)
        w = robot.partner_weights(g.view(d))
        assert all(x > 0 for x in w) and w[c.bidder] == 1.0
    assert c.revealed or g.is_over()


def test_bench_rows_and_summary():
    rows = [one_deal((d, 3, 4, 4)) for d in range(3)]
    s = summarize(rows)
    assert s["deals"] == 3 and set(s) >= {"robot", "greedy", "baseline", "robot_minus_baseline"}
    assert all(isinstance(r["robot"], int) for r in rows)
