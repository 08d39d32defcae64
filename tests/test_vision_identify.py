"""Identification on the reference decks (enrolled and deck-agnostic), 180-degree cards, backs,
enrolment from a folder and from one photo of a 4 x 10 grid, and the recognise command."""
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import detect, enroll, identify, synth
from vision.agnostic import Reader
from vision.geometry import Camera
from vision.recognise import Recogniser

DECKS = Path(__file__).resolve().parents[1].parent / "shared" / "decks"
REF = ["fournier-1878", "naipes-libres"]


def _deck(name):
    if not (DECKS / name).is_dir():
        pytest.skip(f"reference deck {name} not found at {DECKS / name} (test data lives beside the repo)")
    return synth.load_deck(DECKS / name)


def _layout(codes, backs=2):
    """Cards in a loose grid, alternately upright and at 180 degrees, plus a few backs."""
    cards = []
    for i, code in enumerate(codes):
        x = 130 + (i % 6) * 125
        y = 110 + (i // 6) * 150
        cards.append(synth.Placed(code, True, x, y, (180.0 if i % 2 else 0.0) + (i * 7) % 23 - 11))
    for j in range(backs):
        cards.append(synth.Placed(None, False, 830, 110 + 150 * j, 5.0 * j))
    return cards


def _scene(deck, codes, seed=0, backs=2):
    cam = Camera(height_mm=760, hfov_deg=68, pitch_deg=2, roll_deg=-3)
    nz = synth.Nuisances(light=(0.95, 0.15, -0.1), glare=(500, 250, 50, 60), blur=0.5, noise=2.5, jpeg=88)
    return synth.render_scene(synth.Scene(_layout(codes, backs), deck, cam,
                                          synth.TableSpec(cloth_seed=seed + 3), nz), seed=seed)


def _run(rec, fr):
    seen = rec.recognise(fr.image)
    out = []
    for t in fr.truth:
        c = t.corners.mean(axis=0)
        m = [s for s in seen if np.hypot(*(s.corners.mean(axis=0) - c)) < 12]
        out.append((t, m[0] if m else None))
    return out


@pytest.mark.parametrize("name", REF)
def test_enrolled_reads_reference_deck_including_180_and_backs(name):
    deck = _deck(name)
    rec = Recogniser(identify.Templates.from_deck(deck))
    codes = sorted(deck.codes)
    right = wrong = total = 0
    for k in range(0, len(codes), 18):
        fr = _scene(deck, codes[k:k + 18], seed=k)
        for t, s in _run(rec, fr):
            if not t.face_up:
                assert s is not None and not s.face_up and s.code is None
                continue
            total += 1
            if s is not None and s.code == t.code:
                right += 1
                # corners come back upright: the first corner is the card's top-left (pip cards
                # look the same both ways up, so only figures must say which way they lie)
                d0 = np.hypot(*(s.corners[0] - t.corners[0]))
                d2 = np.hypot(*(s.corners[0] - t.corners[2]))
                assert (d0 if t.code.startswith(("10", "11", "12")) else min(d0, d2)) < 12
            elif s is not None and s.code is not None:
                wrong += 1
    assert wrong == 0
    assert right >= total - 1, f"{right}/{total}"


@pytest.mark.parametrize("name", REF)
def test_agnostic_reader_never_guesses_on_reference_deck(name):
    deck = _deck(name)
    rec = Recogniser(Reader())
    fr = _scene(deck, sorted(deck.codes)[:18])
    res = _run(rec, fr)
    assert all(s is None or s.code in (None, t.code) for t, s in res)  # unknown, never wrong
    backs = [s for t, s in res if not t.face_up]
    assert backs and all(s is not None and not s.face_up for s in backs)
    faces = [s for t, s in res if t.face_up and s is not None]
    assert sum(s.face_up for s in faces) >= 0.6 * len(faces)


def test_rotated_card_reads_the_same_and_reports_upright_corners():
    deck = synth.builtin(40)
    t = identify.Templates.from_deck(deck)
    fr = _scene(deck, ["12E", "12E"], backs=0)  # the second is laid at 180 degrees
    res = _run(Recogniser(t), fr)
    for truth, seen in res:
        assert seen.code == "12E"
        assert np.hypot(*(seen.corners[0] - truth.corners[0])) < 8  # upright top-left first
    # the detector's corner order is the image's, so exactly one of the two needed turning round
    dets = detect.detect_cards(fr.image)
    flags = sorted(t.identify_quad(fr.image, d.corners).rotated for d in dets)
    assert flags == [False, True]


def test_enroll_from_folder_and_grid_photo(tmp_path):
    deck = synth.builtin(40)
    # folder -> saved deck dir -> loaded again
    folder = tmp_path / "cards"
    folder.mkdir()
    for code, img in deck.faces.items():
        cv2.imwrite(str(folder / f"{code}.png"), img)
    t = enroll.enroll_folder(folder)
    t.save(tmp_path / "deckdir")
    t2 = identify.Templates.from_folder(tmp_path / "deckdir")
    assert sorted(t2.codes) == sorted(deck.codes)
    # one photo of the 4 x 10 grid: rows O C E B, columns 1-7 10 11 12
    cards = []
    for r, suit in enumerate(enroll.GRID_ROWS):
        for c, rank in enumerate(enroll.GRID_COLS):
            cards.append(synth.Placed(f"{rank}{suit}", True, 60 + c * 78, 70 + r * 112, 0.0))
    cam = Camera(height_mm=780, hfov_deg=68, cx_mm=410, cy_mm=240)
    fr = synth.render_scene(synth.Scene(cards, deck, cam, synth.TableSpec(cloth_seed=2, markers=False),
                                        synth.Nuisances(noise=2, jpeg=90)), seed=0)
    photo = tmp_path / "grid.jpg"
    cv2.imwrite(str(photo), fr.image)
    t3 = enroll.enroll_photo(photo)
    assert sorted(t3.codes) == sorted(deck.codes)
    # the photo templates read a new scene of the same deck
    rec = Recogniser(t3)
    fr2 = _scene(deck, ["1O", "5C", "7E", "10B", "11O", "12C"], seed=4, backs=0)
    want = {"1O", "5C", "7E", "10B", "11O", "12C"}
    got = {s.code for _, s in _run(rec, fr2) if s is not None and s.code}
    assert got <= want and len(got) >= 5, got  # never wrong; at most one left unknown


def test_enroll_photo_with_wrong_count(tmp_path):
    deck = synth.builtin(40)
    fr = _scene(deck, ["1O", "2O"], backs=0)
    with pytest.raises(enroll.EnrollError, match="found 2 cards"):
        enroll.enroll_photo("x.jpg", image=fr.image)


def test_recognise_command_json_and_corrupt_file(tmp_path, capsys):
    from table.cli import main

    deck = synth.builtin(40)
    fr = _scene(deck, ["3C", "12B"], backs=1)
    good = tmp_path / "table.jpg"
    cv2.imwrite(str(good), fr.image)
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 truncated")
    folder = tmp_path / "deck"
    folder.mkdir()
    for code, img in deck.faces.items():
        cv2.imwrite(str(folder / f"{code}.png"), img)
    cv2.imwrite(str(folder / "back.png"), deck.back)
    rc = main(["recognise", str(bad), str(good), "--deck", str(folder), "--json"])
    out, err = capsys.readouterr()
    assert rc == 1 and "broken.jpg" in err
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["image"] == str(bad) and "error" in lines[0]
    cards = lines[1]["cards"]
    assert sorted(c["card"] for c in cards if c["card"]) == ["12B", "3C"]
    assert [c["face"] for c in cards].count("down") == 1
    for c in cards:
        assert 0.0 <= c["confidence"] <= 1.0 and len(c["corners"]) == 4


def test_pair_test_compares_a_look_alike_the_way_it_matches():
    """Fournier's 6 of bastos turned round lines up with its 7 but for the 7's middle club: the
    pair test must weigh the 6 turned, as it would look in the 7's frame. Then a 7 read through a
    quad placed short (an end cut off) is a doubt, not a clear 7."""
    deck = _deck("fournier-1878")
    t = identify.Templates.from_deck(deck)
    seven, six = t.codes.index("7B"), t.codes.index("6B")
    card = cv2.rotate(t.rects["7B"], cv2.ROTATE_180)  # the 7 lying upside down
    assert t.identify(card).code == "7B" and t.identify(card).rotated
    h, w = card.shape[:2]
    short = cv2.resize(card[int(0.08 * h):], (w, h))
    for img, lo, hi in ((card, 0.8, 1.01), (short, -1.0, 0.3)):
        q = identify._flat(*identify.features_both(img)[1])  # the query in the 7's frame
        assert lo < t.pair_margin(q, seven, six, b_turned=True) < hi
    assert t.identify(short).code is None


def test_a_near_tie_that_the_pair_test_gives_to_the_runner_up_is_not_trusted():
    assert identify.verified(pair=-0.1, margin=0.03) < 0.1
    assert identify.verified(pair=0.6, margin=0.03) > 0.99
    assert identify.verified(pair=-0.1, margin=0.15) > 0.99  # a clear margin stands on its own


def test_an_outline_placed_off_the_card_is_moved_back_onto_its_artwork():
    """A card in a merged blob can get an outline several pixels off and turned a little: its
    artwork then matches poorly. `align` moves the outline to where the artwork fits, and stays
    within a fifth of the card's width so that it cannot wander onto a neighbour."""
    deck = synth.builtin(40)
    t = identify.Templates.from_deck(deck)
    codes = ["3B", "7C", "11O", "5E", "1C", "12B"]
    fr = _scene(deck, codes, backs=0)  # every other card lies at 180 degrees
    th = np.radians(3.0)
    rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    right = 0
    for truth, code in zip(fr.truth, codes):
        c = truth.corners.mean(axis=0)
        off = ((truth.corners - c) @ rot.T + c + (5.0, -4.0)).astype(np.float32)
        assert t.identify_quad(fr.image, off, variants=False).score < 0.4  # 8 px off reads badly
        q = t.align(fr.image, off)
        short = np.hypot(*(truth.corners[1] - truth.corners[0]))
        assert np.hypot(*(q.mean(axis=0) - off.mean(axis=0))) <= 0.2 * short + 1e-3
        after = t.identify_quad(fr.image, q, variants=False)
        assert after.code in (code, None)  # never a confident wrong card
        right += after.code == code and np.abs(q - truth.corners).max() < 6
    assert right >= 5


def test_a_covered_card_is_named_by_its_visible_index_numeral(monkeypatch):
    """A 7 of bastos lying at 180 degrees with a card over the half that holds the pip telling it
    from the 6: over what is visible the two tie, and the card stays unknown. Its visible index
    numeral says 7 outright (`Templates.index_test`)."""
    deck = synth.builtin(40)
    t = identify.Templates.from_deck(deck)
    cam = Camera(height_mm=760, hfov_deg=68, pitch_deg=2, roll_deg=-3)
    nz = synth.Nuisances(light=(0.95, 0.15, -0.1), glare=(500, 250, 50, 60), blur=0.5, noise=2.5, jpeg=88)
    cards = [synth.Placed("7B", True, 400, 300, 180.0), synth.Placed(None, False, 400, 345, 180.0),
             synth.Placed("2C", True, 150, 150, 10), synth.Placed("3O", True, 700, 150, -20),
             synth.Placed(None, False, 700, 450, 30)]
    fr = synth.render_scene(synth.Scene(cards, deck, cam, synth.TableSpec(cloth_seed=4), nz), seed=1)

    def seven():
        seen = Recogniser(t).recognise(fr.image)
        return min(seen, key=lambda s: np.hypot(*(s.corners.mean(0) - fr.truth[0].corners.mean(0))))

    monkeypatch.setattr(identify, "INDEX_TEST", False)
    before = seven()
    assert before.code is None and before.identity.candidate == "7B"
    monkeypatch.setattr(identify, "INDEX_TEST", True)
    after = seven()
    assert after.code == "7B" and after.confidence >= 0.5
    # the numeral alone: the template against itself and against the 6
    rect = t.rects["7B"]
    assert t.index_vote(rect, "7B", "6B")[1] > 0.9
    assert t.index_vote(t.rects["6B"], "7B", "6B")[1] < -0.9


def _seven_of_bastos_on_cloth():
    """The built-in deck's templates, and its 7 of bastos upright on a green cloth with its corners."""
    t = identify.Templates.from_deck(synth.builtin(40))
    card = cv2.copyMakeBorder(t.rects["7B"], 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(40, 90, 40))
    h, w = t.rects["7B"].shape[:2]
    return t, card, np.float32([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]])


def test_the_index_numeral_names_the_runner_up_when_it_says_so_and_abstains_between_suits():
    t, card, corners = _seven_of_bastos_on_cloth()
    doubt = identify.Identity(None, True, 0.3, candidate="6B", score=0.9, margin=0.01, runners=("7B",))
    assert t.index_test(card, corners, doubt).code == "7B"  # the runner-up, by its numeral
    doubt = identify.Identity(None, True, 0.3, candidate="7B", score=0.9, margin=0.01, runners=("6B",))
    assert t.index_test(card, corners, doubt).code == "7B"
    # a 7 of bastos against a 7 of copas: one numeral, so the test cannot tell them apart
    doubt = identify.Identity(None, True, 0.3, candidate="7B", score=0.9, margin=0.01, runners=("7C",))
    assert t.index_test(card, corners, doubt).code is None
    # only the corner under another card shows the numeral: nothing to read
    doubt = identify.Identity(None, True, 0.3, candidate="6B", score=0.9, margin=0.01, runners=("7B",))
    assert t.index_test(card, corners, doubt, corners_seen=(False, False)).code is None


def test_a_numeral_that_only_leans_names_the_card_when_the_pair_test_agrees():
    t, card, corners = _seven_of_bastos_on_cloth()
    # blur and heavy sensor noise: the numeral leans to 7 (vote 0.7), short of INDEX_SURE
    noise = np.random.default_rng(2).normal(0, 40, card.shape)
    card = np.clip(cv2.GaussianBlur(card, (0, 0), 1.0) + noise, 0, 255).astype(np.uint8)
    fit, vote, like = t.index_vote(detect.rectify(card, corners), "7B", "6B", (True, True))
    assert identify.INDEX_LEAN <= vote < identify.INDEX_SURE
    for candidate, runner, pair in (("7B", "6B", 0.5), ("6B", "7B", -0.5)):  # the artwork agrees
        doubt = identify.Identity(None, True, 0.3, candidate=candidate, score=0.9, margin=0.01,
                                  runners=(runner,), gaps=(0.01,), pairs=(pair,))
        assert t.index_test(card, corners, doubt).code == "7B"
    # the pair test sides with the 6, or says nothing: a leaning numeral alone names nothing
    for pair in (-0.5, 0.0):
        doubt = identify.Identity(None, True, 0.3, candidate="7B", score=0.9, margin=0.01,
                                  runners=("6B",), gaps=(0.01,), pairs=(pair,))
        assert t.index_test(card, corners, doubt).code is None


def test_artwork_that_matches_poorly_needs_a_plain_numeral():
    """A card half under the stock, its outline placed from the merged blob, may match its
    template only at 0.3-0.6: its numeral names it then only if it is plain to see."""
    t, card, corners = _seven_of_bastos_on_cloth()
    poor = identify.Identity(None, True, 0.05, candidate="6B", score=0.45, margin=0.01, runners=("7B",))
    assert t.index_test(card, corners, poor).code == "7B"  # a sharp numeral: plainly a 7
    hopeless = replace(poor, score=identify.INDEX_MIN_SCORE - 0.01)
    assert t.index_test(card, corners, hopeless).code is None  # the artwork barely matches anything
    noise = np.random.default_rng(2).normal(0, 40, card.shape)
    noisy = np.clip(cv2.GaussianBlur(card, (0, 0), 1.0) + noise, 0, 255).astype(np.uint8)
    fit, vote, like = t.index_vote(detect.rectify(noisy, corners), "7B", "6B", (True, True))
    assert like < identify.INDEX_PLAIN_LIKE or fit < identify.INDEX_PLAIN_FIT
    sure = replace(poor, score=identify.INDEX_PLAIN_SCORE + 0.05)
    assert t.index_test(noisy, corners, replace(poor, pairs=(-0.5,), gaps=(0.01,))).code is None
    assert t.index_test(noisy, corners, replace(sure, pairs=(-0.5,), gaps=(0.01,))).code == "7B"


def test_each_numeral_is_looked_for_near_where_the_corner_fits():
    """`numeral_likeness` compares a numeral with each candidate numeral at that one's best blur
    and place: a 7 looks like the 7 and not the 6, a 6 the other way round, and a numeral
    printed two pixels off the corner's frame line reads the same."""
    t = identify.Templates.from_deck(synth.builtin(40))
    seven, six = t.numeral_likeness(t.rects["7B"], "7B", "6B", (True, False))
    assert seven > 0.95 and seven - six >= identify.INDEX_OWN_GAP
    seven, six = t.numeral_likeness(t.rects["6B"], "7B", "6B", (True, False))
    assert six > 0.95 and six - seven > 0.1
    card = t.rects["7B"].copy()
    y0, _, x0, _ = identify.INDEX_PATCH
    ys, xs = np.nonzero(t.index_mask)
    box = card[y0 + ys.min():y0 + ys.max() + 1, x0 + xs.min():x0 + xs.max() + 1]
    box[:] = np.roll(box.copy(), 2, axis=1)
    seven, six = t.numeral_likeness(card, "7B", "6B", (True, False))
    assert seven > 0.9 and seven - six >= identify.INDEX_OWN_GAP


def test_a_confident_reading_whose_numeral_is_the_runner_ups_becomes_unknown():
    t, card, corners = _seven_of_bastos_on_cloth()
    read = identify.Identity("6B", True, 0.9, candidate="6B", score=0.9, margin=0.08, view="masked",
                             runners=("7B", "5E"), gaps=(0.08, 0.2))
    assert t.index_check(card, corners, read, 0.5).code is None  # the numeral says 7
    read = identify.Identity("7B", True, 0.9, candidate="7B", score=0.9, margin=0.08, view="masked",
                             runners=("6B", "5E"), gaps=(0.08, 0.2))
    assert t.index_check(card, corners, read, 0.5).code == "7B"


def test_a_reading_every_pair_test_sides_with_is_not_vetoed_by_its_numeral():
    # the numeral says 7, but the whole pair test and both over the visible part say 6 plainly:
    # a few blurred pixels of numeral do not overrule the artwork
    t, card, corners = _seven_of_bastos_on_cloth()
    read = identify.Identity("6B", True, 0.9, candidate="6B", score=0.9, margin=0.08, view="masked",
                             runners=("7B", "5E"), gaps=(0.08, 0.2), pairs=(0.8, 0.9),
                             seen_pairs=(0.8, 0.9), seen_fits=(0.9, 1.0))
    assert identify.seen_agreement(read) == 0.8
    assert t.index_check(card, corners, read, 0.5).code == "6B"
    doubt = replace(read, seen_fits=(0.5, 1.0))  # one test less sure: the numeral decides
    assert t.index_check(card, corners, doubt, 0.5).code is None
    assert identify.seen_agreement(replace(read, seen_pairs=(), seen_fits=())) == -1.0


def test_a_frame_written_into_the_last_frames_buffer_is_read_afresh():
    # the templates keep the frame's rectified cards for the second looks; a camera that writes
    # each frame into one buffer must not get the last frame's cards back
    deck = synth.builtin(40)
    recogniser = Recogniser(identify.Templates.from_deck(deck))
    frames = [synth.render_scene(synth.Scene([synth.Placed(code, True, 400, 300, 10)], deck,
                                             Camera(height_mm=750), synth.TableSpec(cloth_seed=3),
                                             synth.Nuisances()), seed=1).image
              for code in ("7B", "3C")]
    buffer = frames[0].copy()
    assert [c.code for c in recogniser.recognise(buffer)] == ["7B"]
    buffer[:] = frames[1]
    assert [c.code for c in recogniser.recognise(buffer)] == ["3C"]


def test_an_unknown_number_card_is_named_by_counting_its_pintas_when_the_count_agrees():
    """Fournier's 7 of bastos at 180 degrees ties with its 6 (the other clubs line up): the pinta
    count settles it, but only for a code the templates also put near the top, and a card that
    may be covered only when its pintas form a complete pattern."""
    deck = _deck("fournier-1878")
    t = identify.Templates.from_deck(deck)
    card = cv2.copyMakeBorder(cv2.rotate(t.rects["7B"], cv2.ROTATE_180), 20, 20, 20, 20,
                              cv2.BORDER_CONSTANT, value=(40, 90, 40))
    h, w = t.rects["7B"].shape[:2]
    corners = np.float32([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]])
    doubt = identify.Identity(None, True, 0.01, candidate="6B", score=0.95, margin=0.003,
                              runners=("7B", "5E"))
    named = t.pinta_check(card, corners, doubt, maybe_covered=False)
    assert (named.code, named.view, named.rotated) == ("7B", "pintas", True)
    assert named.confidence >= 0.5
    assert t.pinta_check(card, corners, doubt, maybe_covered=True).code == "7B"  # whole: complete
    # the count names a code the templates did not put near the top: no reading
    other = identify.Identity(None, True, 0.01, candidate="6B", score=0.95, margin=0.003,
                              runners=("5B", "5E"))
    assert t.pinta_check(card, corners, other, maybe_covered=False).code is None
    # a hand over the lower clubs: what is left is no complete pattern, so a maybe-covered card
    # is not counted
    t.new_frame()
    covered = card.copy()
    covered[20 + h // 2 + 10:20 + h - 10, 20:20 + w] = (120, 150, 200)
    assert t.pinta_check(covered, corners, doubt, maybe_covered=True).code is None


def test_a_doubtful_number_card_reading_that_the_pinta_count_contradicts_is_not_trusted():
    """A whole 4 of copas that `align` read as the 5 (its search found a look-alike) is the 4 its
    pintas count, since the templates had the 4 next; read over part of itself (another card
    judged to lie on it), it is unknown instead: the count could be of what the cover hides. A
    whole card read without a search is left alone."""
    t = identify.Templates.from_deck(synth.builtin(40))
    card = cv2.copyMakeBorder(t.rects["4C"], 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(40, 90, 40))
    h, w = t.rects["4C"].shape[:2]
    corners = np.float32([[20, 20], [20 + w, 20], [20 + w, 20 + h], [20, 20 + h]])

    def read(**kw):
        return identify.Identity("5C", True, 0.8, candidate="5C", score=0.77, margin=0.07,
                                 runners=("4C", "5O"), gaps=(0.07, 0.25), **kw)

    assert t.pinta_check(card, corners, read(view="whole", searched=True), False).code == "4C"
    masked = t.pinta_check(card, corners, read(view="masked"), True)
    assert masked.code is None and masked.confidence < 0.5
    assert t.pinta_check(card, corners, read(view="whole"), False).code == "5C"


def test_the_numeral_does_not_name_the_runner_up_where_the_artwork_plainly_shows_the_candidate():
    # a numeral half hidden by a hand read as a 9, on an 8 whose middle, where the 9's extra
    # club lies, is in plain view: the pair test's 0.75+ for the candidate outweighs the numeral
    t, card, corners = _seven_of_bastos_on_cloth()
    doubt = identify.Identity(None, True, 0.3, candidate="6B", score=0.9, margin=0.01,
                              runners=("7B",), gaps=(0.01,), pairs=(0.9,))
    assert t.index_test(card, corners, doubt).code is None
    doubt = identify.Identity(None, True, 0.3, candidate="6B", score=0.9, margin=0.01,
                              runners=("7B",), gaps=(0.01,), pairs=(0.3,))
    assert t.index_test(card, corners, doubt).code == "7B"
