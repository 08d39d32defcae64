"""The deck learned while it is played (`vision.learn.Learner`): sure whole readings become
templates, which then read covered cards the deck-agnostic reader leaves unknown, and only where
every look-alike of the code read (a near rank of its suit, its rank of another suit) has been
seen or is ruled out by the visible pintas and numeral."""
from pathlib import Path

import pytest

from vision import synth
from vision.agnostic import Reader
from vision.geometry import Camera
from vision.identify import face_to_rect
from vision.learn import (CODES_48, Learner, look_alikes, numeral_lead, numerals_in_view,
                          visible_suit)
from vision.recognise import Recogniser


def _scene(deck, cards, seed):
    cam = Camera(height_mm=760, hfov_deg=68, pitch_deg=2, roll_deg=-3)
    nz = synth.Nuisances(light=(0.95, 0.15, -0.1), glare=(0, 0, 0, 0), blur=0.5, noise=2.5, jpeg=88)
    return synth.render_scene(synth.Scene(cards, deck, cam, synth.TableSpec(cloth_seed=seed + 3), nz),
                              seed=seed)


@pytest.fixture(scope="module")
def taught():
    """A learner that has seen every card of the built-in deck whole, 18 to a frame."""
    deck = synth.builtin(40)
    rec = Recogniser(Learner())
    codes = sorted(deck.codes)
    for k in range(0, len(codes), 18):
        cards = [synth.Placed(c, True, 130 + (i % 6) * 125, 110 + (i // 6) * 150, (i * 7) % 23 - 11)
                 for i, c in enumerate(codes[k:k + 18])]
        rec.recognise(_scene(deck, cards, k).image)
    return deck, rec


def test_look_alikes_are_the_suits_near_ranks_and_the_ranks_other_suits():
    """A template reading is mistaken for a card of its suit a pinta or two off, or another figure,
    or the card of its rank in another suit: never for a far rank (a 4 for a 7, a 6 for a sota)."""
    assert sorted(look_alikes("4C")) == sorted(["2C", "3C", "5C", "6C", "4O", "4E", "4B"])
    assert sorted(look_alikes("11E")) == sorted(["10E", "12E", "11O", "11C", "11B"])
    assert sorted(look_alikes("7O", CODES_48)) == sorted(["5O", "6O", "8O", "9O", "7C", "7E", "7B"])


def test_sure_whole_readings_teach_and_covered_cards_are_then_read(taught):
    deck, rec = taught
    learner = rec.identifier
    # every number card and ace is counted surely; the built-in deck's plain figures are read by
    # the layout reader, not surely enough to teach
    assert {f"{r}{s}" for r in range(1, 8) for s in "OCEB"} <= set(learner.learned)
    for under, over in (("6O", "3B"), ("7O", "2B")):  # 80% visible under another card
        fr = _scene(deck, [synth.Placed(under, True, 300, 300, 10),
                           synth.Placed(over, True, 345, 330, -20)], 7)
        plain = Recogniser(Reader()).recognise(fr.image)
        assert [s.code for s in plain] == [None, over]  # too little of it shows to count
        assert [s.code for s in rec.recognise(fr.image)] == [under, over]


def test_a_template_reading_needs_every_look_alike_known_or_ruled_out(taught, monkeypatch):
    deck, rec = taught
    learner = rec.identifier
    # the 6 of copas, its suit's 5 taken as never learned: the 5 of oros was, and with it the
    # numeral 5, which the 6's visible index corners do not show
    monkeypatch.delitem(learner.sightings, "5C")
    fr = _scene(deck, [synth.Placed("6C", True, 300, 300, 10), synth.Placed("1E", True, 345, 330, -20)], 7)
    assert [s.code for s in rec.recognise(fr.image)] == ["1E", "6C"]
    # with no 5 seen in another suit than copas, nothing rules the 5 of copas out: unknown
    monkeypatch.setitem(learner.glyph_suits, "5", ["C"] * len(learner.glyphs["5"]))
    assert [s.code for s in rec.recognise(fr.image)] == ["1E", None]


def test_the_visible_pintas_and_numerals_speak_for_the_card():
    import numpy as np

    deck = synth.builtin(40)
    five = face_to_rect(deck.faces["5O"])
    assert visible_suit(five) == "O"
    assert visible_suit(face_to_rect(deck.faces["4E"])) == "E"
    assert visible_suit(five, cover=np.ones((72, 48), np.float32)) is None  # nothing in view
    assert len(numerals_in_view(five)) == 2
    top = np.zeros((72, 48), np.float32)
    top[:20] = 1  # the top-left index corner under another card
    assert len(numerals_in_view(five, cover=top)) == 1
    learner = Learner()
    for code in ("5C", "6B"):
        learner.learn(code, face_to_rect(deck.faces[code]))
    for corner in numerals_in_view(five):
        assert numeral_lead(corner, learner.glyphs["5"], learner.glyphs["6"])
        assert not numeral_lead(corner, learner.glyphs["6"], learner.glyphs["5"])


def test_a_numeral_is_compared_with_those_of_the_other_suits():
    """An index box takes in a little of the corner pinta: the numerals a rank is told by are
    those learned from the suits other than the card's."""
    deck = synth.builtin(40)
    learner = Learner()
    for code in ("5C", "5O", "5C"):
        learner.learn(code, face_to_rect(deck.faces[code]))
    assert len(learner.glyphs["5"]) == 6 and learner.glyph_suits["5"] == list("CCOOCC")
    assert len(learner._glyphs("5", "C")) == 2 and len(learner._glyphs("5", "E")) == 6


def _knowing_every_code():
    """The built-in deck, a learner that knows every code of it and the numerals 5 to 7 (from
    other suits than oros), and a cover map over a card's bottom end (under the stock)."""
    import numpy as np

    deck = synth.builtin(40)
    learner = Learner()
    for code in ("5C", "6C", "7C", "6B", "7B"):
        learner.learn(code, face_to_rect(deck.faces[code]))
    learner.sightings.update({c: [None] for c in deck.codes if c not in learner.sightings})
    cover = np.zeros((72, 48), np.float32)
    cover[50:] = 1
    return deck, learner, cover


def test_a_covered_card_whose_runner_up_is_a_pinta_off_needs_its_numeral():
    """Every code known, a reading of a covered card whose runner-up is a suit-mate a pinta off
    (or whose suit-mate a pinta more may hide it) and whose pair test hardly sides with it counts
    only if the numeral in view says so."""
    from vision.identify import Identity

    deck, learner, cover = _knowing_every_code()
    for truth in ("6O", "7O"):
        card = face_to_rect(deck.faces[truth])
        for pair, trusted in ((0.1, truth == "7O"), (0.5, True)):
            read = Identity("7O", True, 0.99, runners=("6O", "5O"), pair=pair, view="masked")
            assert learner._trusted(read, lambda: card, cover) is trusted, (truth, pair)
        uncovered = Identity("7O", True, 0.99, runners=("6O", "5O"), pair=0.1)
        assert learner._trusted(uncovered, lambda: card, None)  # all of it in view
        # read as the 6, the runner-up far off (the ace, whose numeral was never learned): the
        # card with one pinta more must still be ruled out by the numeral, a far runner-up not
        six = Identity("6O", True, 0.99, runners=("1O",), pair=0.1, view="masked")
        assert learner._trusted(six, lambda: card, cover) is (truth == "6O"), truth


def test_a_covered_six_or_seven_needs_its_numeral_unless_the_pair_test_plainly_sides_with_it():
    """A 6 and a 7 under the stock often show the same pintas: a reading of one whose runner-up
    is the other needs the numeral below a pair test of `PAIR_NEAR_SEVEN`, higher than the
    `PAIR_NEAR` of other near runners-up."""
    from vision.identify import Identity
    from vision.learn import PAIR_NEAR, PAIR_NEAR_SEVEN

    deck, learner, cover = _knowing_every_code()
    pair = (PAIR_NEAR + PAIR_NEAR_SEVEN) / 2
    card = face_to_rect(deck.faces["6O"])
    seven = Identity("7O", True, 0.99, runners=("6O", "5O"), pair=pair, view="masked")
    assert not learner._trusted(seven, lambda: card, cover)  # its numeral is a 6's
    assert learner._trusted(seven, lambda: face_to_rect(deck.faces["7O"]), cover)
    plain = Identity("7O", True, 0.99, runners=("6O", "5O"), pair=PAIR_NEAR_SEVEN + 0.05,
                     view="masked")
    assert learner._trusted(plain, lambda: card, cover)  # the pair test says it plainly


def test_a_card_that_may_be_covered_somewhere_unknown_needs_its_numeral_against_one_pinta_more():
    """No card known over it, but its outline poorly seen (occluded): a reading of a number card
    counts only if the numeral in view rules out the card with one pinta more, which a hidden
    pinta would turn into it; read with nothing possibly over it, no numeral is asked for."""
    from vision.identify import Identity

    deck, learner, _ = _knowing_every_code()
    six = Identity("6O", True, 0.96, runners=("5O", "1O"), pair=0.5)
    for truth in ("6O", "7O"):
        card = face_to_rect(deck.faces[truth])
        assert learner._trusted(six, lambda: card, None)
        assert learner._trusted(six, lambda: card, None, occluded=True) is (truth == "6O"), truth


def _fournier_rey_of_espadas():
    """Fournier's deck and a rey of espadas of one of its benchmark scenes, rectified."""
    import numpy as np

    from vision.detect import rectify

    folder = Path(__file__).resolve().parents[1].parent / "shared" / "decks" / "fournier-1878"
    if not folder.is_dir():
        pytest.skip(f"reference deck not found at {folder} (test data lives beside the repo)")
    deck = synth.load_deck(folder)
    frame = synth.render_scene(synth.random_scene(np.random.default_rng(10001), deck), seed=1)
    truth, = [t for t in frame.truth if t.code == "12E"]
    return deck, rectify(frame.image, truth.corners)


def test_a_figure_of_a_suit_whose_rank_mate_is_unknown_is_told_by_the_pinta_it_holds():
    """A figure shows no whole pinta of its suit's shape to rule out its rank in another suit: the
    pinta it holds, over the part in view, says the suit instead."""
    import numpy as np

    from vision.identify import Identity

    deck, card = _fournier_rey_of_espadas()
    learner = Learner()
    learner.sightings.update({c: [None] for c in deck.codes if c != "12C"})  # 12C never seen
    cover = np.zeros((72, 48), np.float32)
    cover[50:] = 1
    assert learner._trusted(Identity("12E", True, 0.99, view="masked"), lambda: card, cover)
    learner.sightings.update({"12C": [None]})
    del learner.sightings["12O"]
    assert not learner._trusted(Identity("12C", True, 0.99, view="masked"), lambda: card, cover)


def test_a_near_runner_up_needs_ruling_out_only_when_the_pair_test_is_weak():
    """A near runner-up of the reading's suit (the caballo, for a rey of espadas whose rank-mate
    the rey of copas was never seen) must be ruled out by the numeral only when the pair test
    hardly sides with the reading: a plain pair test has told them apart already."""
    import numpy as np

    from vision.identify import Identity

    deck, card = _fournier_rey_of_espadas()
    learner = Learner()  # no numeral learned: none can be ruled out by it
    learner.sightings.update({c: [None] for c in deck.codes if c != "12C"})
    cover = np.zeros((72, 48), np.float32)
    cover[50:] = 1
    for pair, trusted in ((0.45, True), (0.1, False)):
        read = Identity("12E", True, 0.99, runners=("11E", "10B"), pair=pair, view="masked")
        assert learner._trusted(read, lambda: card, cover) is trusted, pair


def test_a_sighting_unlike_the_code_is_refused():
    deck = synth.builtin(40)
    learner = Learner(min_codes=3)
    for code in ("5C", "6C", "7C"):
        assert learner.learn(code, face_to_rect(deck.faces[code]))
    assert learner.templates is None  # made for the next frame
    learner.new_frame()
    assert learner.templates is not None
    assert not learner.learn("5C", face_to_rect(deck.faces["7C"]))  # the templates say 7C
    assert learner.refused == 1
    assert learner.learn("5C", face_to_rect(deck.faces["5C"]))
    assert learner.identify(face_to_rect(deck.faces["6C"])).code == "6C"  # counted, as before
    assert not learner.learn("9Z", face_to_rect(deck.faces["5C"]))  # no such card


def test_recognise_command_learns_across_its_images(tmp_path, capsys):
    import json

    import cv2

    from table.cli import main

    deck = synth.builtin(40)
    paths = []
    for k, cards in enumerate(([synth.Placed("5O", True, 300, 300, 0)],
                               [synth.Placed("5O", True, 300, 300, 10), synth.Placed("3B", True, 345, 330, -20)])):
        paths.append(str(tmp_path / f"frame{k}.png"))
        cv2.imwrite(paths[-1], _scene(deck, cards, k).image)
    assert main(["recognise", *paths, "--learn", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["image"] for x in lines] == paths
    assert [c["card"] for c in lines[0]["cards"]] == ["5O"]
