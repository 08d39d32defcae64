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
