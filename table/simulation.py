"""Simulated games end to end: a played record, its film, and the tracker following it.

Shared by `brisca-table simulate`, `brisca-table bench tracker`, the tests and the demo so that all
of them run the same code path: frames -> (pixels -> vision ->) observations -> tracker -> store.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from table.cards import deck as make_deck
from table.game import Game, Swap
from table.record import Record
from table.rules import Rules


def played_record(rules, seed: int, swap_prob: float = 0.7, dealer: Optional[int] = None,
                  seats=None) -> Record:
    """A complete hand played by random legal moves (swapping when allowed, with some probability),
    with its deck order: the ground truth of a simulated game."""
    rules = Rules.parse(rules)
    rng = random.Random(seed)
    cards = make_deck(rules.deck_size)
    rng.shuffle(cards)
    dealer = rng.randrange(rules.players) if dealer is None else dealer
    g = Game.deal(rules, cards, dealer)
    while not g.is_over():
        legal = list(g.legal_actions)
        swaps = [a for a in legal if isinstance(a, Swap)]
        plays = [a for a in legal if not isinstance(a, Swap)]
        g.apply(swaps[0] if swaps and rng.random() < swap_prob else rng.choice(plays))
    names = seats or [f"P{i}" for i in range(rules.players)]
    return Record.from_game(g, names, cards)


@dataclass
class Camera3D:
    """What the pixel path needs to render and read a film: deck, templates, camera, cloth, nuisances."""

    deck: object
    recogniser: object
    camera: object
    table: object
    nuisances: object


def pixel_setup(deck_dir: Optional[str], seed: int, glare: bool = True, enrolled: bool = True,
                size: int = 40, camera=None) -> Camera3D:
    """A random camera pose (or the given one), cloth and nuisances for one simulated game, with the
    recogniser."""
    import numpy as np

    from vision import synth
    from vision.identify import Templates
    from vision.recognise import Recogniser

    rng = np.random.default_rng(seed)
    deck = synth.load_deck(deck_dir) if deck_dir else synth.builtin(48 if size == 48 else 40)
    table = synth.TableSpec(cloth_seed=int(rng.integers(1 << 30)))
    camera = synth.whole_table_camera(camera or synth.random_camera(rng, table), table)
    nz = synth.random_nuisances(rng, camera, ())
    if not glare:
        from dataclasses import replace
        nz = replace(nz, glare=(0, 0, 0, 0))
    if enrolled:
        ident = Templates.from_deck(deck)
    else:  # a deck nobody enrolled: read agnostically, and learned as the game shows it
        from vision.learn import Learner
        ident = Learner()
    return Camera3D(deck, Recogniser(ident), camera, table, nz)


def film_observations(film, setup: Optional[Camera3D] = None, seed: int = 0, timing: Optional[dict] = None,
                      keep_image: bool = False, settle: bool = True):
    """Observations of every frame of a film: from pixels (``setup`` given) or from the ground truth.
    ``settle``: cards lying still keep their readings (`vision.settled`), as in the service."""
    import time

    from vision.simgame import render_frame, truth_observation

    observer = None
    for f in film.frames():
        if setup is None:
            yield truth_observation(f, film.layout)
            continue
        t0 = time.perf_counter()
        r = render_frame(f, setup.deck, setup.camera, setup.table, setup.nuisances, seed)
        t1 = time.perf_counter()
        if observer is None:
            import numpy as np

            from vision.observe import Observer
            observer = Observer(setup.recogniser, np.linalg.inv(r.homography), film.layout.zone_of,
                                settle=settle)
        obs = observer.observe(r.image, f.ts, f.index, keep_image=keep_image)
        if timing is not None:
            timing.setdefault("render", []).append(t1 - t0)
            timing.setdefault("vision", []).append(time.perf_counter() - t1)
            if not obs.moving:
                timing.setdefault("still", []).append(time.perf_counter() - t1)
            if observer.settled is not None:  # cards kept unread, cards read (so far)
                timing["kept"], timing["read"] = observer.settled.kept, observer.settled.read
                timing["frames kept"] = observer.settled.frames_kept
        yield obs
