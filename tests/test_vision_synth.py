"""Synthetic scenes: deterministic by seed, truthful corners, the built-in deck."""
import numpy as np

from vision import synth
from vision.builtin_deck import draw_back, draw_card
from table.cards import deck


def test_builtin_deck_complete_and_distinct():
    d = synth.builtin(48)
    assert sorted(d.codes) == sorted(str(c) for c in deck(48))
    assert draw_card("3C").shape[2] == 4 and draw_back().shape == draw_card("1O").shape
    assert not np.array_equal(draw_card("6E"), draw_card("7E"))


def test_render_is_deterministic_and_truthful():
    rng = np.random.default_rng(1)
    scene = synth.random_scene(rng, synth.builtin(40))
    a = synth.render_scene(scene, seed=3)
    b = synth.render_scene(scene, seed=3)
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (720, 1280, 3)
    ups = [t for t in a.truth if t.face_up]
    assert ups and all(t.code for t in ups)
    for t in a.truth:
        assert t.corners.shape == (4, 2) and 0.0 <= t.visible <= 1.0
        assert (t.corners[:, 0] > 0).all() and (t.corners[:, 0] < 1280).all()


def test_scene_from_description_places_cards_where_asked():
    cam = synth.Camera(height_mm=800, hfov_deg=66)
    cards = [synth.Placed("1O", True, 450, 250, 0.0), synth.Placed(None, False, 200, 250, 90.0)]
    r = synth.render_scene(synth.Scene(cards, synth.builtin(40), cam), seed=0)
    centre = r.truth[0].corners.mean(axis=0)
    assert np.hypot(*(centre - [640, 360])) < 2  # the camera looks at the table centre
    # the face-up ace is mostly light paper, the back is dark blue pattern
    x, y = centre.astype(int)
    assert r.image[y - 30:y + 30, x - 20:x + 20].mean() > 120
    assert r.truth[1].code is None and not r.truth[1].face_up


def test_folder_deck(tmp_path):
    import cv2

    for code in ("1O", "2C"):
        cv2.imwrite(str(tmp_path / f"{code}.png"), draw_card(code))
    (tmp_path / "README.txt").write_text("x")
    d = synth.load_deck(tmp_path)
    assert sorted(d.codes) == ["1O", "2C"] and d.back is None
