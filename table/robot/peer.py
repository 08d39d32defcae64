"""BriscolaBot-v3 as a benchmark opponent (an ONNX policy network; see ../shared/peers/README.md).

Benchmark data, not a dependency: the model is loaded with onnxruntime from the shared peers folder
when it is there, and never copied into the repository. It plays 2-player Briscola, which is
classic-2 with the swap off and no arrastre.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from table.game import RANK, SUIT, UNKNOWN, Action, Game

# our suit index (O, C, E, B) -> the model's (bastos 0, copas 1, oros 2, espadas 3)
_PEER_SUIT = {0: 2, 1: 1, 2: 3, 3: 0}
_PEER_RANK = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 10: 7, 11: 8, 12: 9}


def peer_index(c: int) -> int:
    """Our card int -> the model's card index (suit * 10 + rank index)."""
    return _PEER_SUIT[SUIT[c]] * 10 + _PEER_RANK[RANK[c]]


_FROM_PEER = {peer_index(i): i for s in range(4) for i in (s * 12 + r - 1 for r in _PEER_RANK)}


def default_model_path() -> Optional[Path]:
    """``$BRISCA_PEERS/briscola-bot-v3.onnx`` or ``../shared/peers/`` next to the checkout, if present."""
    candidates = []
    if os.environ.get("BRISCA_PEERS"):
        candidates.append(Path(os.environ["BRISCA_PEERS"]) / "briscola-bot-v3.onnx")
    root = Path(__file__).resolve().parents[2]
    candidates += [root.parent / "shared" / "peers" / "briscola-bot-v3.onnx",
                   Path.cwd().parent / "shared" / "peers" / "briscola-bot-v3.onnx"]
    for p in candidates:
        if p.is_file():
            return p
    return None


def encode(view: Game):
    """The 202 model inputs from the point of view of the seat to move."""
    import numpy as np

    x = np.zeros((1, 202), dtype=np.float32)
    seat = view.turn
    for _leader, plays, _w, _p in view.tricks:
        for _s, c in plays:
            x[0, peer_index(c)] = 1.0
    if view.turned_up is not None:
        x[0, 40 + peer_index(view.turned_up)] = 1.0
    for s, c in view.trick:
        if s != seat:
            x[0, 80 + peer_index(c)] = 1.0
    for c in view.hands[seat]:
        if c != UNKNOWN:
            x[0, 120 + peer_index(c)] = 1.0
            x[0, 162 + peer_index(c)] = 1.0
    pts = view.points
    x[0, 160] = pts[seat] / 120.0
    x[0, 161] = pts[1 - seat] / 120.0
    return x


class BriscolaBotPlayer:
    """Plays the network's (sampled) choice; falls back to the first legal card if it names another."""

    name = "briscolabot"

    def __init__(self, model_path=None) -> None:
        import onnxruntime as ort

        path = model_path or default_model_path()
        if path is None:
            raise FileNotFoundError("briscola-bot-v3.onnx not found (set BRISCA_PEERS or put ../shared/peers beside the checkout)")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self.fallbacks = 0

    def choose(self, view: Game) -> Action:
        if view.n != 2 or view.rules.swap != "off" or view.rules.arrastre != "off":
            raise ValueError("BriscolaBot plays 2-player Brisca with the swap off and no arrastre")
        legal = [a for a in view.legal_actions]
        out = self.session.run(["action"], {"input": encode(view)})[0]
        c = _FROM_PEER.get(int(out.reshape(-1)[0]))
        for a in legal:
            if a.card.index == c:
                return a
        self.fallbacks += 1
        return legal[0]

