"""The rules engine: worked examples from the seeds, and property tests over random hands."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from table.cards import Card, deck
from table.game import (CardAlreadyPlayed, CardNotInDeck, CardNotInHand, Game, HandOver,
                        IllegalAction, MustFollowSuit, NotYourTurn, Play, Swap, SwapNotAllowed,
                        UNKNOWN, trick_winner)
from table.match import Match, MatchOver
from table.rules import PRESETS, Rules

C = Card.parse
PLAYABLE = [name for name, r in PRESETS.items() if not r.auction]


def arrange(rules, dealer, hands, trump, seed=0):
    """A deck order that deals ``hands`` (seat -> codes) and turns up ``trump``; the rest shuffled."""
    rules = Rules.parse(rules)
    n = rules.players
    fixed = {C(x) for h in hands.values() for x in h} | {C(trump)}
    rest = [c for c in deck(rules.deck_size) if c not in fixed]
    random.Random(seed).shuffle(rest)
    full = {s: [C(x) for x in hands.get(s, [])] for s in range(n)}
    for s in range(n):
        while len(full[s]) < rules.hand_size:
            full[s].append(rest.pop())
    order = []
    for k in range(rules.hand_size):
        for i in range(n):
            order.append(full[(dealer + 1 + i) % n][k])
    return order + [C(trump)] + rest


# -- the seed documents' worked examples -----------------------------------------------------
@pytest.mark.parametrize("reply, winner, points", [("1C", 1, 21), ("2O", 1, 10), ("4E", 0, 10)])
def test_three_choices_against_the_three_of_cups(reply, winner, points):
    """Coins are trumps; the opponent leads the 3 of cups; we hold 1C, 2O, 4E."""
    g = Game.deal("classic-2", arrange("classic-2", 1, {0: ["3C"], 1: ["1C", "2O", "4E"]}, "5O"), dealer=1)
    assert g.turn == 0 and g.trump_suit_letter == "O"
    g.play("3C")
    t = g.play(reply)
    assert (t.winner, t.points) == (winner, points)
    assert g.points[winner] == points
    assert g.turn == winner  # the winner leads next


@pytest.mark.parametrize("trump, winner_pos, points", [("E", 2, 10), ("O", 1, 10)])
def test_trick_with_the_two_of_swords(trump, winner_pos, points):
    """Cups led with a 7, then the 3 of cups, then the 2 of swords."""
    trump_card = {"E": "5E", "O": "5O"}[trump]
    rules = Rules.parse({"preset": "classic-3", "three_player_deck": 39})
    g = Game.deal(rules, arrange(rules, 2, {0: ["7C"], 1: ["3C"], 2: ["2E"]}, trump_card), dealer=2)
    g.play("7C"), g.play("3C")
    t = g.play("2E")
    assert t.winner == winner_pos and t.points == points
    assert trick_winner([(0, C("7C").index), (1, C("3C").index), (2, C("2E").index)], "OCEB".index(trump)) == winner_pos


def test_point_totals():
    d = deck(40)
    by_rank = {r: sum(c.points for c in d if int(c.rank) == r) for r in (1, 3, 12, 11, 10)}
    assert by_rank == {1: 44, 3: 40, 12: 16, 11: 12, 10: 8}
    assert sum(c.points for c in d) == 120
    assert sum(c.points for c in d if c.points == 0) == 0 and sum(1 for c in d if c.points == 0) == 20


def test_a_third_suit_never_wins():
    plays = [(0, C("2C").index), (1, C("1E").index)]
    assert trick_winner(plays, C("5O").suit.index) == 0


# -- draws, swaps, arrastre, results ---------------------------------------------------------
def test_trump_is_drawn_last_by_the_second_drawer():
    rng = random.Random(5)
    g = Game.random("classic-2", rng)
    turned = g.trump
    while g.stock_count:
        g.apply(next(a for a in g.legal_actions if isinstance(a, Play)))
    loser = 1 - g.tricks[-1][2]
    assert g.trump is None and turned in g.hand(loser)


def test_swap_the_seven_and_the_two():
    rules = Rules.parse("classic-2")
    g = Game.deal(rules, arrange(rules, 1, {0: ["7O", "2O"]}, "3O"), dealer=1)
    assert Swap(C("7O")) in g.legal_actions
    assert Swap(C("2O")) not in g.legal_actions
    with pytest.raises(SwapNotAllowed, match="only with the 7O"):
        g.swap("2O")
    g.swap("7O")
    assert g.trump == C("7O") and C("3O") in g.hand(0)
    g.swap("2O")  # the 2 may take a 7 that an earlier swap put there
    assert g.trump == C("2O") and C("7O") in g.hand(0)
    with pytest.raises(SwapNotAllowed):
        g.swap("7O")
    assert g.swapped == [(0, C("7O").index, C("3O").index), (0, C("2O").index, C("7O").index)]


def test_seven_only_and_off():
    deck_ = arrange("classic-2", 1, {0: ["2O"]}, "5O")
    g = Game.deal(Rules.parse("classic-2").with_settings(swap="seven"), deck_, 1)
    assert not any(isinstance(a, Swap) for a in g.legal_actions)
    g = Game.deal(Rules.parse("classic-2").with_settings(swap="off"), arrange("classic-2", 1, {0: ["7O"]}, "1O"), 1)
    with pytest.raises(SwapNotAllowed, match="off"):
        g.swap("7O")


def test_swap_only_on_own_turn_and_not_at_the_last_draw():
    rules = Rules.parse("classic-2")
    g = Game.deal(rules, arrange(rules, 1, {1: ["7O"]}, "1O"), dealer=1)
    with pytest.raises(SwapNotAllowed, match="turn"):
        g.swap("7O", seat=1)
    # play until only the last draw is left: the swap is closed
    g2 = Game.deal(rules, arrange(rules, 1, {}, "1O", seed=3), dealer=1)
    while g2.stock_count > 2:
        g2.apply(next(a for a in g2.legal_actions if isinstance(a, Play)))
    seven = C("7O")
    holder = next((s for s in range(2) if seven in g2.hand(s)), None)
    if holder is not None and holder == g2.turn:
        with pytest.raises(SwapNotAllowed, match="last draw"):
            g2.swap(seven)
    assert not any(isinstance(a, Swap) for a in g2.legal_actions)


def test_swap_after_winning_timing():
    rules = Rules.parse("classic-2").with_settings(swap_timing="after-winning")
    g = Game.deal(rules, arrange(rules, 1, {0: ["7O", "1C"], 1: ["4C"]}, "1O"), dealer=1)
    with pytest.raises(SwapNotAllowed, match="after winning"):
        g.swap("7O")  # first trick: nobody has won yet
    g.play("1C"), g.play("4C")
    assert g.turn == 0
    g.swap("7O")
    assert g.trump == C("7O")


def test_arrastre_full_must_follow_beat_or_trump():
    rules = Rules.parse("arrastre-2")
    g = Game.deal(rules, arrange(rules, 1, {}, "5O", seed=11), dealer=1)
    rng = random.Random(2)
    while g.stock_count:
        g.apply(rng.choice([a for a in g.legal_actions if isinstance(a, Play)]))
    checked = 0
    while not g.is_over():
        if g.trick:
            hand = [c for c in g.hand(g.turn)]
            legal = {a.card for a in g.legal_actions}
            led = g.trick[0][1]
            for c in hand:
                if c not in legal:
                    before = (g.turn, list(g.trick), [list(h) for h in g.hands])
                    with pytest.raises(MustFollowSuit):
                        g.check(Play(c))  # asks, changes nothing
                    assert (g.turn, list(g.trick), [list(h) for h in g.hands]) == before
                    with pytest.raises(MustFollowSuit):
                        g.play(c)
                    checked += 1
            if any(c.suit.index == led // 12 for c in hand):
                assert all(c.suit.index == led // 12 for c in legal)
        g.apply(next(iter(g.legal_actions)))
    assert g.is_over()


def test_partner_exemption_in_full_arrastre():
    rules = Rules.parse("arrastre-4")
    g = Game.deal(rules, arrange(rules, 3, {}, "5O", seed=1), dealer=3)
    g.stock, g.trump_card = [], None  # jump to the endgame for this check
    g.hands = [[C(x).index for x in h] for h in (["1C", "4E", "6B"], ["2C", "5E", "6E"], ["3C", "4C", "2O"], ["7C", "5B", "7B"])]
    g.play("1C")  # seat 0 leads the ace of cups and is winning
    g.play("2C")  # seat 1 must follow
    # seat 2 is seat 0's partner: following is enough, it need not (cannot) beat
    legal = {a.card for a in g.legal_actions}
    assert legal == {C("3C"), C("4C")}


def test_three_player_most_points_wins_and_draws():
    g = Game.random("classic-3", random.Random(1))
    g.random_playout(random.Random(2))
    out = g.outcome()
    assert sum(out.points) == 120 and out.complete
    top = max(out.points)
    assert out.winner == (out.points.index(top) if out.points.count(top) == 1 else None)


def test_partners_pool_points():
    g = Game.random("partners-4", random.Random(4))
    g.random_playout(random.Random(5))
    pts = g.points
    assert g.outcome().points == (pts[0] + pts[2], pts[1] + pts[3])


def test_sixty_sixty_is_a_draw():
    g = Game.random("classic-2", random.Random(0))
    g.hands, g.stock, g.trump_card, g.trick = [[], []], [], None, []
    g.points = [60, 60]
    assert g.is_over() and g.outcome().winner is None
    m = Match("classic-2")
    m.add(g.outcome())
    assert m.hands_won == [0, 0] and m.dealer == 1


def test_match_first_to_three_and_deal_rotation():
    m = Match("classic-3", first_dealer=2)
    assert m.dealer == 2
    rng = random.Random(0)
    while not m.is_over():
        g = Game.random(m.rules, rng, dealer=m.dealer)
        g.random_playout(rng)
        m.add(g.outcome())
    assert max(m.hands_won) == 3 and m.winner() == m.hands_won.index(3)
    with pytest.raises(MatchOver):
        m.add(g.outcome())
    assert [(2 + i) % 3 for i in range(len(m.results))] == [(m.first_dealer + i) % 3 for i in range(len(m.results))]


def test_hidden_hands_at_a_physical_table():
    g = Game.from_table("classic-2", "5O", dealer=1)
    assert g.hand(0) == [None, None, None]
    with pytest.raises(CardNotInHand, match="turned-up trump"):
        g.play("5O")
    with pytest.raises(CardNotInDeck):
        g.play("8C")
    g.play("3C")
    with pytest.raises(CardAlreadyPlayed):
        g.play("3C")
    g.play("1C")
    assert g.points == [0, 21]
    assert g.hands == [[UNKNOWN] * 3, [UNKNOWN] * 3] and g.stock_count == 32


def test_view_hides_what_the_seat_cannot_see():
    rules = Rules.parse("classic-2")
    g = Game.deal(rules, arrange(rules, 1, {0: ["7O"]}, "1O"), dealer=1)
    g.swap("7O")
    v = g.view(1)
    assert UNKNOWN not in v.hands[1]
    assert v.hands[0].count(UNKNOWN) == 2 and C("1O").index in v.hands[0]  # the swapped-in ace is public
    assert set(v.stock) == {UNKNOWN}
    open_ = Game.random("descubierta-2", random.Random(1)).view(0)
    assert UNKNOWN not in open_.hands[1]


# -- property tests over thousands of random hands --------------------------------------------
def _snapshot(g):
    return (repr([g.hands, g.stock, g.trump_card, g.trick, g.tricks, g.points, g.played, g.turn,
                  g.leader, g.history, g.swapped, g.public]))


def _brute_winner(plays, trump_suit):
    led = plays[0][1].suit

    def beats(a, b):
        if a.suit == b.suit:
            return a.strength > b.strength
        if a.suit.index == trump_suit:
            return True
        if b.suit.index == trump_suit:
            return False
        return a.suit == led

    winners = [s for s, c in plays if all(beats(c, d) for t, d in plays if t != s)]
    assert len(winners) == 1
    return winners[0]


def _try_illegal(g, rng):
    """Try one illegal action of a random kind; it must raise the right error and change nothing."""
    before = _snapshot(g)
    seat = g.turn
    kind = rng.randrange(4)
    hand = g.hands[seat]
    if kind == 0:
        other = (seat + 1) % g.n
        if g.hands[other]:
            with pytest.raises(NotYourTurn):
                g.apply(Play(Card.parse(str(g.hand(other)[0]))), seat=other)
    elif kind == 1:
        foreign = [c for s in range(g.n) if s != seat for c in g.hand(s)]
        if foreign:
            with pytest.raises(CardNotInHand):
                g.play(rng.choice(foreign))
    elif kind == 2 and g.played:
        c = next(t[1][0][1] for t in [g.tricks[-1]]) if g.tricks else None
        if c is not None:
            with pytest.raises(CardAlreadyPlayed):
                g.play(Card.parse(_code(c)))
    elif kind == 3:
        seven = Card.parse(f"7{g.trump_suit_letter}")
        if not any(isinstance(a, Swap) for a in g.legal_actions):
            expected = SwapNotAllowed if seven.index in hand else (SwapNotAllowed, CardNotInHand, CardNotInDeck,
                                                                    CardAlreadyPlayed)
            with pytest.raises(expected):
                g.swap(seven)
    assert _snapshot(g) == before


def _code(i):
    from table.cards import CARDS_BY_INDEX
    return CARDS_BY_INDEX[i].code


def play_checked_hand(rules, rng):
    g = Game.random(rules, rng, dealer=rng.randrange(rules.players))
    turned = g.turned_up
    while not g.is_over():
        if rng.random() < 0.15:
            _try_illegal(g, rng)
        legal = list(g.legal_actions)
        assert legal, "a seat with cards always has a legal action"
        a = rng.choice(legal)
        stock_before = g.stock[:]
        trump_before = g.trump_card
        trick_before = g.current_trick()
        t = g.apply(a)
        if t is None:
            continue
        plays = trick_before + [(t.plays[-1][0], a.card)]
        assert list(t.plays) == plays
        assert t.winner == _brute_winner(plays, g.trump_suit)
        assert t.points == sum(c.points for _, c in plays)
        if stock_before or trump_before is not None:
            drawers = [(t.winner + k) % g.n for k in range(g.n)]
            expected = stock_before[:g.n]
            if len(expected) < g.n:
                expected.append(trump_before)  # the turned-up trump is the last card drawn
            for s, c in zip(drawers, expected):
                assert g.hands[s][-1] == c
        sizes = {len(h) for h in g.hands}
        assert len(sizes) == 1
    played = [c for (_, plays, _, _) in g.tricks for _, c in plays]
    assert len(played) == len(set(played)) == rules.deck_size
    assert sum(g.points) == 120 and sum(g.outcome().points) == 120
    assert turned in played
    with pytest.raises(HandOver):
        g.apply(Play(Card.parse("1O")))
    return g


@pytest.mark.parametrize("preset", PLAYABLE)
@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_hands_obey_the_rules(preset, seed):
    rng = random.Random(seed)
    rules = Rules.parse(preset)
    for _ in range(9):  # 120 examples x 9 hands: over a thousand hands per preset
        play_checked_hand(rules, rng)


@pytest.mark.parametrize("preset", PLAYABLE)
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_fast_path_agrees_with_checked_path(preset, seed):
    rules = Rules.parse(preset)
    g = Game.random(rules, random.Random(seed))
    h = g.copy()
    rng = random.Random(seed + 1)
    while not g.is_over():
        legal_fast = sorted(g.fast_legal())
        legal_checked = sorted(a.card.index for a in g.legal_actions if isinstance(a, Play))
        assert legal_fast == legal_checked
        c = rng.choice(legal_fast)
        g.play(_code(c))
        h.fast_play(c)
        assert (h.points, h.hands, h.turn, h.trump_card) == (g.points, g.hands, g.turn, g.trump_card)
