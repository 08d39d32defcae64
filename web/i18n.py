"""Spanish and English strings for the pages and their scripts (one dict; no gettext build step)."""
from __future__ import annotations

from flask import request

LANGS = ("es", "en")

STRINGS = {
    "title": ("Brisca en la mesa", "Brisca at the table"),
    "live": ("En directo", "Live"),
    "replay": ("Repetición", "Replay"),
    "referee": ("Árbitro", "Referee"),
    "setup": ("Ajustes", "Set-up"),
    "trump": ("Triunfo", "Trump"),
    "turn": ("Turno", "Turn"),
    "stock": ("Mazo", "Stock"),
    "trick": ("Baza", "Trick"),
    "tricks": ("Bazas", "Tricks"),
    "points": ("Puntos", "Points"),
    "hands_won": ("Manos ganadas", "Hands won"),
    "hand": ("Mano", "Hand"),
    "match": ("Partida", "Match"),
    "no_match": ("Sin partida. El árbitro puede empezar una.", "No match yet. The referee can start one."),
    "waiting": ("Esperando la primera mano…", "Waiting for the first hand…"),
    "robot_says": ("El robot juega", "The robot plays"),
    "alerts": ("Avisos", "Alerts"),
    "devices": ("Dispositivos", "Devices"),
    "ok": ("bien", "ok"),
    "fault": ("fallo", "fault"),
    "last_trick": ("Última baza", "Last trick"),
    "hand_over": ("Mano terminada", "Hand over"),
    "wins": ("gana", "wins"),
    "draw": ("empate", "draw"),
    "connected": ("conectado", "connected"),
    "reconnecting": ("reconectando…", "reconnecting…"),
    "error": ("Error", "Error"),
    "matches": ("Partidas", "Matches"),
    "no_hands": ("Aún no hay manos.", "No hands yet."),
    "led": ("salió", "led"),
    "won_by": ("se la lleva", "won by"),
    "prev": ("Anterior", "Previous"),
    "next": ("Siguiente", "Next"),
    "score_chart": ("Puntos acumulados", "Running points"),
    "corrections": ("Correcciones", "Corrections"),
    "no_corrections": ("Sin correcciones.", "No corrections."),
    "export": ("Exportar", "Export"),
    "trick_photo": ("Foto de la baza", "Photo of the trick"),
    "no_photo": ("sin foto", "no photo"),
    "by": ("por", "by"),
    "why": ("motivo", "why"),
    "was": ("era", "was"),
    "now": ("ahora", "now"),
    "pin": ("PIN del árbitro", "Referee PIN"),
    "set_pin": ("Fijar el PIN (primera vez)", "Set the PIN (first run)"),
    "login": ("Entrar", "Log in"),
    "logout": ("Salir", "Log out"),
    "logged_in": ("Árbitro identificado", "Referee logged in"),
    "correct_card": ("Corregir una carta", "Correct a card"),
    "action": ("Jugada", "Play"),
    "new_card": ("Carta correcta", "Correct card"),
    "card": ("Carta", "Card"),
    "enter_card": ("Añadir una carta no leída", "Enter a card the camera missed"),
    "enter_card_help": ("Se juega por el jugador que tiene el turno.", "It is played for the seat whose turn it is."),
    "apply": ("Aplicar", "Apply"),
    "undo_last": ("Deshacer la última jugada", "Undo the last play"),
    "new_hand": ("Nueva mano", "New hand"),
    "dealer": ("Reparte", "Dealer"),
    "trump_card": ("Carta de triunfo", "Trump card"),
    "new_match": ("Nueva partida", "New match"),
    "rules": ("Reglas", "Rules"),
    "seats": ("Asientos (en orden de juego)", "Seats (in playing order)"),
    "robot_seat": ("Asiento del robot", "Robot seat"),
    "none": ("ninguno", "none"),
    "clear_alerts": ("Borrar avisos", "Clear alerts"),
    "done": ("Hecho", "Done"),
    "camera": ("Cámara", "Camera"),
    "no_controller": ("No hay cámara conectada a este panel.", "No camera is attached to this dashboard."),
    "zones": ("Zonas", "Zones"),
    "save_zones": ("Guardar zonas", "Save zones"),
    "drag_hint": ("Arrastra las esquinas de cada zona.", "Drag the corners of each zone."),
    "enroll": ("Registrar baraja", "Enroll a deck"),
    "enroll_steps": ("1. Coloca las 40 cartas en la cuadrícula. 2. Haz la foto. 3. Revisa los recortes y corrige los que estén mal.",
                     "1. Lay the 40 cards in the grid. 2. Take the photo. 3. Review the crops and fix any that are wrong."),
    "take_photo": ("Hacer la foto", "Take the photo"),
    "upload_photo": ("o sube una foto", "or upload a photo"),
    "save_deck": ("Guardar baraja", "Save deck"),
    "points_short": ("pts", "pts"),
    "seat": ("Asiento", "Seat"),
    "confidence": ("confianza", "confidence"),
}

RANKS = {1: ("as", "ace"), 2: ("dos", "two"), 3: ("tres", "three"), 4: ("cuatro", "four"),
         5: ("cinco", "five"), 6: ("seis", "six"), 7: ("siete", "seven"), 8: ("ocho", "eight"),
         9: ("nueve", "nine"), 10: ("sota", "jack"), 11: ("caballo", "knight"), 12: ("rey", "king")}
SUITS = {"O": ("oros", "coins"), "C": ("copas", "cups"), "E": ("espadas", "swords"), "B": ("bastos", "clubs")}


def current_lang() -> str:
    """``?lang=`` wins, then the ``lang`` cookie, then Accept-Language; Spanish by default."""
    lang = request.args.get("lang") or request.cookies.get("lang")
    if lang in LANGS:
        return lang
    best = request.accept_languages.best_match(LANGS)
    return best or "es"


def strings(lang: str) -> dict:
    i = LANGS.index(lang)
    out = {k: v[i] for k, v in STRINGS.items()}
    out["ranks"] = {r: v[i] for r, v in RANKS.items()}
    out["suits"] = {s: v[i] for s, v in SUITS.items()}
    return out
