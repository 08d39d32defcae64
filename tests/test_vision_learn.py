"""The deck learned while it is played (`vision.learn.Learner`): sure whole readings become
templates, which then read covered cards the deck-agnostic reader leaves unknown, and only where
every look-alike of the code read has been seen or is ruled out by the visible pintas and numeral."""
import pytest

from vision import synth
from vision.agnostic import Reader
from vision.geometry import Camera
from vision.identify import face_to_rect
from vision.learn import Learner, look_alikes, numeral_lead, numerals_in_view, visible_suit
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


def test_look_alikes_are_the_suits_other_ranks_and_the_ranks_other_suits():
    assert sorted(look_alikes("4C")) == sorted(["1C", "2C", "3C", "5C", "6C", "7C", "10C", "11C",
                                                "12C", "4O", "4E", "4B"])


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
    # the 6 of copas: its suit's 12 was never learned (the built-in figures are read by layout,
    # not surely), but the 12 of oros was, and with it the numeral 12, which the 6's visible
    # index corners do not show
    assert "12C" not in learner.learned and "12" in learner.glyphs
    fr = _scene(deck, [synth.Placed("6C", True, 300, 300, 10), synth.Placed("1E", True, 345, 330, -20)], 7)
    assert [s.code for s in rec.recognise(fr.image)] == ["1E", "6C"]
    # with no 12 seen in any suit, nothing rules the 12 of copas out: the card stays unknown
    monkeypatch.delitem(learner.glyphs, "12")
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
