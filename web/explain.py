"""Words for the replay: why a trick's winner won, and the per-trick detail of a hand.

A dispute at the bar is settled by a sentence people can read aloud ("el dos de espadas es triunfo
y gana al tres de copas"), so each completed trick gets one in Spanish and one in English.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from table.cards import Card, Rank
from table.game import IllegalAction, Play


def _es(card: Card, article: bool = True, prep: str = "") -> str:
    """Spanish name with its article; ``prep='a'`` contracts a + el to "al" (la sota stays "a la")."""
    fem = card.rank == Rank.SOTA
    name = card.name_es()
    if not article:
        return name
    if prep == "a":
        return ("a la " if fem else "al ") + name
    return ("la " if fem else "el ") + name


def _join(items: List[str], word: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def why(plays, winner_pos: int, trump_suit: Optional[str]) -> Dict[str, str]:
    """Explain why ``plays[winner_pos]`` (a list of (seat, Card)) took the trick, in es and en."""
    w = plays[winner_pos][1]
    led = plays[0][1].suit
    others = [c for i, (_, c) in enumerate(plays) if i != winner_pos]
    beats_es = "gana " + _join([_es(c, prep="a") for c in others], "y")
    beats_en = "beats " + _join(["the " + c.name_en() for c in others], "and")
    trumps = [c for _, c in plays if trump_suit and c.suit.value == trump_suit]
    if not others:
        return {"es": f"{_es(w).capitalize()} es la única carta", "en": f"The {w.name_en()} is the only card"}
    if trump_suit and w.suit.value == trump_suit:
        if len(trumps) == 1:
            return {"es": f"{_es(w).capitalize()} es triunfo y {beats_es}",
                    "en": f"The {w.name_en()} is a trump and {beats_en}"}
        return {"es": f"{_es(w).capitalize()} es el triunfo más alto y {beats_es}",
                "en": f"The {w.name_en()} is the highest trump and {beats_en}"}
    followers = [c for c in others if c.suit == led]
    suit_es, suit_en = w.suit.name_es(), w.suit.name_en()
    if not followers:
        return {"es": f"{_es(w).capitalize()} salió y nadie echó {suit_es} ni triunfo: {beats_es}",
                "en": f"The {w.name_en()} was led and nobody played {suit_en} or a trump: it {beats_en}"}
    return {"es": f"{_es(w).capitalize()} es la carta más alta de {suit_es}, el palo de salida, y {beats_es}",
            "en": f"The {w.name_en()} is the highest card of {suit_en}, the suit led, and {beats_en}"}


def hand_detail(match_log, hand_log, frame_url) -> Dict[str, Any]:
    """Everything the replay page shows for one hand, with the action event behind every card."""
    rec = hand_log.record
    g = rec.new_game()
    if rec.rules.auction:
        try:
            from table import subastada  # type: ignore
            subastada.apply_record_extra(g, rec)
        except ImportError:
            pass
    tricks: List[Dict[str, Any]] = []
    swaps: List[Dict[str, Any]] = []
    current: List[Dict[str, Any]] = []
    error = None
    try:
        acts = rec.effective_actions()
    except Exception as e:  # a correction naming a removed action: show the hand as it stands
        acts, error = list(rec.actions), str(e)
    corrected = {c.index for c in rec.corrections}
    for i, (seat, action) in enumerate(acts):
        ev = hand_log.action_events[i] if i < len(hand_log.action_events) else None
        frame = hand_log.frames.get(ev) if ev is not None else None
        entry = {"index": i, "event": ev, "seat": seat, "card": action.card.code,
                 "frame": frame_url(frame) if frame else None, "corrected": i in corrected}
        try:
            t = g.apply(action, seat)
        except IllegalAction as e:
            error = error or f"{type(e).__name__}: {e}"
            entry["illegal"] = str(e)
            current.append(entry)
            break
        if not isinstance(action, Play):
            swaps.append(entry)
            continue
        current.append(entry)
        if t is not None:
            pos = [s for s, _ in t.plays].index(t.winner)
            n = len(tricks) + 1
            tf = hand_log.trick_frames.get(n)
            tricks.append({"number": n, "leader": t.leader, "winner": t.winner, "points": t.points,
                           "cards": current, "why": why(list(t.plays), pos, g.trump_suit_letter),
                           "score": g.side_points(), "frame": frame_url(tf) if tf else None})
            current = []
    out = g.outcome()
    return {
        "match": match_log.number, "hand": hand_log.number, "seats": rec.seats,
        "partnerships": rec.rules.partnerships, "rules": str(rec.rules),
        "dealer": rec.dealer, "trump": rec.trump.code if rec.trump else None,
        "trump_suit": g.trump_suit_letter, "tricks": tricks, "pending": current, "swaps": swaps,
        "points": list(out.points), "over": g.is_over(), "winner": out.winner,
        "error": error or hand_log.error,
        "corrections": list(hand_log.correction_events),
    }
