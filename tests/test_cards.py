import pytest

from table.cards import Card, CardError, Rank, Suit, deck


def test_parse_and_print_are_canonical():
    assert str(Card.parse("1o")) == "1O"
    assert str(Card.parse(" 12b ")) == "12B"
    assert Card.parse("10E") == Card(Rank.SOTA, Suit.ESPADAS)
    assert Card.parse("8c").rank is Rank.EIGHT
    assert repr(Card.parse("3C")) == "Card.parse('3C')"


@pytest.mark.parametrize("bad", ["", "O", "13O", "0C", "3X", "C3", "1", "33", None, 5])
def test_bad_codes_name_the_text(bad):
    with pytest.raises(CardError) as e:
        Card.parse(bad)
    assert repr(bad) in str(e.value) or str(bad) in str(e.value)


def test_points_and_strength():
    pts = {"1O": 11, "3O": 10, "12O": 4, "11O": 3, "10O": 2, "7O": 0, "2O": 0, "8O": 0}
    for code, p in pts.items():
        assert Card.parse(code).points == p
    order = [1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2]
    strengths = [Rank(r).strength for r in order]
    assert strengths == sorted(strengths, reverse=True)


def test_decks_hold_120_points():
    for size in (20, 36, 39, 40, 48):
        d = deck(size)
        assert len(d) == size == len(set(d))
        assert sum(c.points for c in d) == 120
    assert Card.parse("2O") not in deck(39)
    assert not any(c.rank == Rank.TWO for c in deck(36))
    with pytest.raises(CardError):
        deck(41)


def test_names_in_both_languages():
    assert Card.parse("1O").name_es() == "as de oros"
    assert Card.parse("1O").name_en() == "ace of coins"
    assert Card.parse("11E").name("en") == "knight of swords"
    assert Card.parse("3C").name() == "tres de copas"


def test_hash_and_sort():
    assert len({Card.parse("3c"), Card.parse("3C")}) == 1
    hand = sorted(Card.parse(c) for c in ["2O", "1O", "3C", "12O"])
    assert [str(c) for c in hand] == ["2O", "12O", "1O", "3C"]
