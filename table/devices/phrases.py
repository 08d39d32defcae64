"""What the table says, in Spanish (default) and English: numbers, card names, game moments.

Number words are written out here (0-999) rather than left to the speech engine, so the phrase
text is exact, testable and the same on the screen as in the ear (e.g. "veintiún puntos").
"""
from __future__ import annotations

from typing import Sequence

from table.cards import Card

_ES_0_29 = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
            "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés "
            "veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve").split()
_ES_TENS = {30: "treinta", 40: "cuarenta", 50: "cincuenta", 60: "sesenta", 70: "setenta",
            80: "ochenta", 90: "noventa"}
_ES_HUNDREDS = {1: "ciento", 2: "doscientos", 3: "trescientos", 4: "cuatrocientos", 5: "quinientos",
                6: "seiscientos", 7: "setecientos", 8: "ochocientos", 9: "novecientos"}
_EN_0_19 = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
            "fifteen sixteen seventeen eighteen nineteen").split()
_EN_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy",
            80: "eighty", 90: "ninety"}


def number_es(n: int, apocope: bool = False) -> str:
    """Spanish words for 0..999. ``apocope`` for a masculine noun after it: "veintiún puntos"."""
    if not 0 <= n <= 999:
        raise ValueError(f"number out of range 0..999: {n}")
    if n == 100:
        return "cien"
    if n > 100:
        h, rest = divmod(n, 100)
        head = _ES_HUNDREDS[h]
        return head if rest == 0 else f"{head} {number_es(rest, apocope)}"
    if n < 30:
        word = _ES_0_29[n]
    else:
        t, u = divmod(n, 10)
        word = _ES_TENS[t * 10] if u == 0 else f"{_ES_TENS[t * 10]} y {_ES_0_29[u]}"
    if apocope and word.endswith("uno"):
        word = word[:-3] + ("ún" if word.endswith("veintiuno") else "un")
    return word


def number_en(n: int) -> str:
    """English words for 0..999: "sixty-eight", "one hundred and twenty"."""
    if not 0 <= n <= 999:
        raise ValueError(f"number out of range 0..999: {n}")
    if n >= 100:
        h, rest = divmod(n, 100)
        head = f"{_EN_0_19[h]} hundred"
        return head if rest == 0 else f"{head} and {number_en(rest)}"
    if n < 20:
        return _EN_0_19[n]
    t, u = divmod(n, 10)
    return _EN_TENS[t * 10] + ("" if u == 0 else "-" + _EN_0_19[u])


def number_words(n: int, lang: str = "es") -> str:
    return number_en(n) if lang.startswith("en") else number_es(n)


def join_names(names: Sequence[str], lang: str = "es") -> str:
    """ "Ana y Luis", "Ana e Isabel" (y -> e before an /i/ sound), "Ana and Luis"."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    if lang.startswith("en"):
        return ", ".join(names[:-1]) + " and " + names[-1]
    last = names[-1]
    low = last.lower()
    conj = "e" if (low.startswith(("i", "hi", "í")) and not low.startswith(("hia", "hie", "hio", "hiu"))) else "y"
    return ", ".join(names[:-1]) + f" {conj} " + last


class Phrases:
    """Sentences for the robot's moves and the game's moments in one language."""

    def __init__(self, lang: str = "es"):
        self.lang = "en" if lang.startswith("en") else "es"

    @property
    def en(self) -> bool:
        return self.lang == "en"

    def card(self, card) -> str:
        """With its article: "el tres de copas", "the three of cups"."""
        c = Card.parse(card)
        return f"the {c.name_en()}" if self.en else f"el {c.name_es()}"

    def points(self, n: int) -> str:
        if self.en:
            return f"{number_en(n)} point" + ("" if n == 1 else "s")
        return f"{number_es(n, apocope=True)} punto" + ("" if n == 1 else "s")

    def play(self, card) -> str:
        return f"I play {self.card(card)}" if self.en else f"Juego {self.card(card)}"

    def swap(self, give, take) -> str:
        """The robot gives its low trump (``give``) for the turned-up card (``take``), same suit."""
        g, t = Card.parse(give), Card.parse(take)
        if self.en:
            return f"I swap {self.card(g)} for the {t.rank.name_en()}"
        return f"Cambio {self.card(g)} por el {t.rank.name_es()}"

    def trick(self, name: str, points: int) -> str:
        if self.en:
            return f"Trick to {name}, {self.points(points)}"
        return f"Baza para {name}, {self.points(points)}"

    def turn(self, name: str) -> str:
        return f"Your turn, {name}" if self.en else f"Te toca, {name}"

    def trump(self, card) -> str:
        return f"Trumps: {self.card(card)}" if self.en else f"Pinta {self.card(card)}"

    def game_winner(self, names: Sequence[str], points_for: int, points_against: int) -> str:
        """Winner of a hand: a team when there are two names or more, a player otherwise."""
        return self._winner(names, points_for, points_against, "the game", "la partida")

    def draw(self, points: int = 60) -> str:
        if self.en:
            return f"A draw, {number_en(points)} all"
        return f"Empate a {number_es(points)}"

    def match_winner(self, names: Sequence[str], hands_for: int, hands_against: int) -> str:
        return self._winner(names, hands_for, hands_against, "the match", "el juego")

    def _winner(self, names: Sequence[str], a: int, b: int, what_en: str, what_es: str) -> str:
        who = join_names(names, self.lang)
        score = f"{number_words(a, self.lang)} {'to' if self.en else 'a'} {number_words(b, self.lang)}"
        if self.en:
            subject = f"The team of {who} wins" if len(names) > 1 else f"{who} wins"
            return f"{subject} {what_en}, {score}"
        subject = f"el equipo de {who}" if len(names) > 1 else who
        return f"Gana {what_es} {subject}, {score}"

    def confirm_undo(self) -> str:
        return "Press undo again to confirm" if self.en else "Pulsa deshacer otra vez para confirmar"
