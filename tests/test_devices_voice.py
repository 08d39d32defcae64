"""Phrases, number words, and speech rendered by the real espeak-ng, measured by sox."""
import re
import shutil
import subprocess
import threading

import pytest

from table.devices.phrases import Phrases, join_names, number_en, number_es
from table.devices.voice import EspeakSpeaker, SilentSpeaker, make_speaker, render_wav

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("sox") is None,
                                  reason="espeak-ng/sox not installed (CI installs them)")


@pytest.mark.parametrize("n,words", [
    (0, "cero"), (1, "uno"), (11, "once"), (15, "quince"), (16, "dieciséis"), (21, "veintiuno"),
    (22, "veintidós"), (26, "veintiséis"), (30, "treinta"), (31, "treinta y uno"),
    (52, "cincuenta y dos"), (68, "sesenta y ocho"), (99, "noventa y nueve"), (100, "cien"),
    (101, "ciento uno"), (120, "ciento veinte"), (115, "ciento quince"), (200, "doscientos"),
])
def test_spanish_numbers(n, words):
    assert number_es(n) == words


@pytest.mark.parametrize("n,words", [
    (0, "zero"), (11, "eleven"), (13, "thirteen"), (21, "twenty-one"), (40, "forty"),
    (52, "fifty-two"), (68, "sixty-eight"), (100, "one hundred"), (101, "one hundred and one"),
    (120, "one hundred and twenty"),
])
def test_english_numbers(n, words):
    assert number_en(n) == words


def test_all_numbers_0_to_120_are_words():
    for n in range(121):
        for w in (number_es(n), number_en(n)):
            assert re.fullmatch(r"[a-záéíóúñ -]+", w), w
    assert len({number_es(n) for n in range(121)}) == 121
    assert len({number_en(n) for n in range(121)}) == 121
    with pytest.raises(ValueError):
        number_es(1000)


def test_apocope_before_puntos():
    p = Phrases("es")
    assert p.points(1) == "un punto"
    assert p.points(21) == "veintiún puntos"
    assert p.points(31) == "treinta y un puntos"
    assert p.points(0) == "cero puntos"
    assert Phrases("en").points(1) == "one point"


def test_spanish_phrases():
    p = Phrases("es")
    assert p.play("3C") == "Juego el tres de copas"
    assert p.swap("7O", "12O") == "Cambio el siete de oros por el rey"
    assert p.trick("Ana", 11) == "Baza para Ana, once puntos"
    assert p.game_winner(["Ana", "Luis"], 68, 52) == \
        "Gana la partida el equipo de Ana y Luis, sesenta y ocho a cincuenta y dos"
    assert p.game_winner(["Eva"], 70, 50) == "Gana la partida Eva, setenta a cincuenta"
    assert p.play("1E") == "Juego el as de espadas"
    assert p.draw() == "Empate a sesenta"


def test_english_phrases():
    p = Phrases("en")
    assert p.play("3C") == "I play the three of cups"
    assert p.swap("7O", "12O") == "I swap the seven of coins for the king"
    assert p.trick("Ana", 11) == "Trick to Ana, eleven points"
    assert p.game_winner(["Ana", "Luis"], 68, 52) == \
        "The team of Ana and Luis wins the game, sixty-eight to fifty-two"


def test_join_names():
    assert join_names(["Ana", "Isabel"]) == "Ana e Isabel"
    assert join_names(["Ana", "Luis", "Eva"]) == "Ana, Luis y Eva"
    assert join_names(["Ana", "Luis"], "en") == "Ana and Luis"


def test_silent_speaker_remembers_and_repeats():
    s = SilentSpeaker()
    s.say("Juego el tres de copas")
    s.repeat_last()
    assert s.spoken == ["Juego el tres de copas"] * 2
    assert isinstance(make_speaker("silent"), SilentSpeaker)


def sox_stat(path):
    r = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True)
    stats = {}
    for line in r.stderr.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            try:
                stats[k.strip()] = float(v.split()[0])
            except (ValueError, IndexError):
                pass
    return stats


@needs_espeak
@pytest.mark.parametrize("lang,text", [
    ("es", "Gana la partida el equipo de Ana y Luis, sesenta y ocho a cincuenta y dos"),
    ("en", "The team of Ana and Luis wins the game, sixty-eight to fifty-two"),
])
def test_phrase_renders_to_plausible_speech(tmp_path, lang, text):
    wav = render_wav(text, str(tmp_path / f"{lang}.wav"), voice=lang)
    st = sox_stat(wav)
    # ~14 words at 150 words/min is about 5 s; allow a wide band, but not a click or a hang
    assert 2.0 < st["Length (seconds)"] < 15.0, st
    assert st["RMS     amplitude"] > 0.02, st      # not silence
    assert st["Maximum amplitude"] > 0.2, st


@needs_espeak
def test_short_and_long_phrases_differ_in_length(tmp_path):
    a = sox_stat(render_wav("Juego el tres de copas", str(tmp_path / "a.wav")))
    b = sox_stat(render_wav(Phrases("es").game_winner(["Ana", "Luis"], 68, 52), str(tmp_path / "b.wav")))
    assert 0.8 < a["Length (seconds)"] < b["Length (seconds)"]


@needs_espeak
def test_worker_thread_speaks_in_order_to_files(tmp_path):
    sp = EspeakSpeaker("es", out_dir=str(tmp_path), max_pending=10)
    try:
        texts = [Phrases("es").play(c) for c in ("3C", "7O", "1B")]
        for t in texts:
            sp.say(t)
        assert sp.wait_idle(60)
        assert sp.spoken == texts and len(sp.files) == 3 and sp.errors == 0
        assert all(sox_stat(f)["Length (seconds)"] > 0.5 for f in sp.files)
    finally:
        sp.close()


@needs_espeak
def test_say_never_blocks_and_drops_the_oldest(tmp_path, monkeypatch):
    import table.devices.voice as voice
    gate = threading.Event()
    real_run = subprocess.run

    def slow_run(cmd, **kw):
        gate.wait(30)
        return real_run(["true"], **{k: v for k, v in kw.items() if k != "input"})
    monkeypatch.setattr(voice.subprocess, "run", slow_run)
    sp = EspeakSpeaker("es", max_pending=2)
    try:
        for i in range(10):
            sp.say(f"frase {i}")      # the worker is stuck on the first: these must not wait
        assert sp.dropped >= 6
        gate.set()
        assert sp.wait_idle(30)
        assert sp.spoken[-1] == "frase 9"
    finally:
        gate.set()
        sp.close()
