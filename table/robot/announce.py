"""Words for the robot's moves: "Juego el tres de copas", "Cambio el siete de oros por el rey".

Returns text only; the service passes it to the voice, the dashboard and the LEDs, and keeps the
last phrase so it can be repeated on request.
"""
from __future__ import annotations

from typing import Optional

from table.cards import Card, Rank
from table.game import Action, Game, Swap


def _es(card: Card, with_suit: bool = True) -> str:
    article = "la" if card.rank == Rank.SOTA else "el"
    return f"{article} {card.name_es() if with_suit else card.rank.name_es()}"


def _en(card: Card, with_suit: bool = True) -> str:
    return f"the {card.name_en() if with_suit else card.rank.name_en()}"


def announce(action: Action, view: Optional[Game] = None, lang: str = "es") -> str:
    """The phrase for ``action``; ``view`` (the game before the action) names the card a swap takes."""
    en = lang.lower().startswith("en")
    name = _en if en else _es
    if isinstance(action, Swap):
        took = view.trump if view is not None else None
        if took is None:
            return f"I swap {name(action.card)}" if en else f"Cambio {name(action.card)}"
        if en:
            return f"I swap {name(action.card)} for {name(took, False)}"
        return f"Cambio {name(action.card)} por {name(took, False)}"
    return f"I play {name(action.card)}" if en else f"Juego {name(action.card)}"
