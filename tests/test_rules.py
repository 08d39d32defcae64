import pytest

from table.rules import PRESETS, MatchFormat, Rules, RulesError


def test_presets_have_expected_shapes():
    assert Rules.parse("classic-3").deck_size == 36
    assert Rules.parse({"preset": "classic-3", "three_player_deck": 39}).deck_size == 39
    assert Rules.parse("partners-4").partnerships
    assert Rules.parse("catalana-2").deck_size == 48
    assert Rules.parse("rapida-2").deck_size == 20
    assert Rules.parse("descubierta-2").open_hands
    assert Rules.parse("arrastre-2").arrastre == "full"


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips(name):
    r = Rules.parse(name)
    assert Rules.parse(r.to_json()) == r
    r2 = r.with_settings(direction="clockwise", match={"best_of": 5})
    assert r2.to_json() == {"preset": name, "direction": "clockwise", "match": {"best_of": 5}}
    assert Rules.parse(r2.to_json()) == r2


@pytest.mark.parametrize("value, msg", [
    ("nope", "unknown rules preset"),
    ({"preset": "classic-2", "swaps": "off"}, "unknown rules setting 'swaps'"),
    ({"preset": "classic-2", "swap": "eight"}, "swap: expected one of"),
    ({"preset": "classic-2", "arrastre": True}, "arrastre"),
    ({"preset": "classic-2", "open_hands": "yes"}, "open_hands"),
    ({"preset": "classic-2", "three_player_deck": 36}, "only to 3-player"),
    ({"preset": "classic-2", "match": {"best_of": 4}}, "odd"),
    ({"preset": "classic-2", "match": "forever"}, "match"),
    (42, "preset name or an object"),
])
def test_bad_settings_have_clear_errors(value, msg):
    with pytest.raises(RulesError, match=msg):
        Rules.parse(value)


def test_match_formats():
    assert MatchFormat.parse({"first_to": 3}).hands_to_win == 3
    assert MatchFormat.parse({"best_of": 5}).hands_to_win == 3
    assert MatchFormat.parse("continuous").hands_to_win is None


def test_sides():
    r = Rules.parse("partners-4")
    assert [r.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert r.partner_of(1) == 3
    assert Rules.parse("classic-3").sides == 3
