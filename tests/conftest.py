"""Shared fixtures: the ../shared folder (test data, never copied into the repo)."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_dir():
    if not SHARED.is_dir():
        pytest.skip("../shared is absent (reference decks and peers are test data kept beside the repo)")
    return SHARED


@pytest.fixture
def scene_reading(shared_dir):
    """``read(deck_name, seed, code)``: the deck-agnostic reading of card ``code`` in the
    benchmark's kind of scene ``seed`` (rendered as the benchmark renders it), through the
    whole pipeline ("builtin-40": the built-in deck). Each call reads afresh, so a test can
    change a setting between calls."""
    import numpy as np

    from vision import synth
    from vision.agnostic import Reader
    from vision.recognise import Recogniser

    def read(deck_name, seed, code):
        deck = synth.builtin(40) if deck_name == "builtin-40" else \
            synth.load_deck(shared_dir / "decks" / deck_name)
        frame = synth.render_scene(synth.random_scene(np.random.default_rng(seed), deck),
                                   seed=seed % 10_000)
        truth, = [t for t in frame.truth if t.code == code]
        seen = Recogniser(Reader()).recognise(frame.image)
        near, = [s for s in seen if np.hypot(*(s.corners.mean(0) - truth.corners.mean(0))) < 12]
        return near.code
    return read
