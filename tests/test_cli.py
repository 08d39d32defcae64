import json
import re
import subprocess
import sys

from tests.test_record import random_record


def cli(*args, input=None):
    return subprocess.run([sys.executable, "-m", "table", *args], capture_output=True, text=True, input=input)


def test_score_json(tmp_path):
    rec, g = random_record("partners-4", 8)
    f = tmp_path / "hand.json"
    f.write_text(rec.dumps())
    r = cli("score", str(f), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["complete"] and out["points"] == g.side_points() and len(out["tricks"]) == 10
    assert out["winner"] == (None if out["points"][0] == 60 else int(out["points"][1] > 60))
    assert set(out["tricks"][0]) == {"leader", "cards", "winner", "points"}


def test_score_text_and_pbn(tmp_path):
    rec, _ = random_record("classic-2", 9)
    f = tmp_path / "hand.pbn"
    f.write_text(rec.to_pbn())
    r = cli("score", str(f))
    assert r.returncode == 0 and "points:" in r.stdout and "result:" in r.stdout


def test_invalid_record_exits_2_with_one_line(tmp_path):
    rec, _ = random_record("classic-2", 10)
    data = rec.to_json()
    data["actions"][3]["seat"] = 1 - data["actions"][3]["seat"]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = cli("score", str(f), "--json")
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "action 3" in r.stderr
    r = cli("score", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_rules_lists_presets():
    r = cli("rules")
    assert r.returncode == 0 and "classic-2" in r.stdout and "partners-4" in r.stdout
    assert "classic-3" in json.loads(cli("rules", "--json").stdout)


def test_score_and_rules_do_not_load_heavy_libraries(tmp_path):
    rec, _ = random_record("classic-2", 11)
    f = tmp_path / "h.json"
    f.write_text(rec.dumps())
    code = ("import sys; from table.cli import main; main(['score', %r, '--json']); main(['rules']);"
            "heavy = [m for m in ('cv2', 'flask', 'numpy', 'serial', 'gpiozero') if m in sys.modules];"
            "print('HEAVY', heavy)" % str(f))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "HEAVY []" in r.stdout, r.stdout + r.stderr


def test_bench_rules_prints_measured_rate():
    r = cli("bench", "rules", "--seconds", "0.2")
    assert r.returncode == 0 and "complete hands/s" in r.stdout


def test_bench_tracker_tracks_a_game_and_says_which_reader():
    r = cli("bench", "tracker", "--mode", "truth", "--games", "1", "--presets", "classic-2",
            "--decks", "builtin", "--agnostic")
    assert r.returncode == 0, r.stderr
    assert "deck-agnostic reader" in r.stdout
    assert "tracked record equals ground truth in 1/1 games" in r.stdout, r.stdout


def test_simulate_then_track_scores_the_game_and_takes_corrections(tmp_path):
    """A rendered game (the built-in deck) tracked from its frames on disk gives the ground-truth
    record and score; --correct replaces a play's reading the moment it is stored."""
    out = tmp_path / "game"
    r = cli("simulate", "--rules", "rapida-2", "--seed", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    truth = json.loads((out / "record.json").read_text())
    args = ("track", str(out / "frames"), "--rules", "rapida-2", "--zones", str(out / "zones.json"), "--json")
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["record"]["actions"] == truth["actions"]
    assert got["score"]["complete"] and sum(got["score"]["points"]) == 120
    assert [t["winner"] for t in got["score"]["tricks"]] == [t["winner"] for t in
                                                              json.loads(cli("score", str(out / "record.json"),
                                                                             "--json").stdout)["tricks"]]
    plays = [e for e in got["events"] if e["type"] == "play"]
    first = plays[0]
    other = next(c for c in ("1O", "3O", "1C", "3C") if c != first["data"]["card"])
    r = cli(*args, "--correct", f"{first['id']}={other}", "--by", "Marta", "--why", "bent corner")
    assert r.returncode == 0, r.stderr
    fixed = json.loads(r.stdout)
    corr = [e for e in fixed["events"] if e["type"] == "correction"]
    assert len(corr) == 1 and corr[0]["data"] == {"target": first["id"], "play": other, "by": "Marta",
                                                  "why": "bent corner"}
    assert fixed["record"]["corrections"][0]["by"] == "Marta"
    r = cli(*args, "--correct", "1=3O")  # event 1 is the match start, not a play
    assert r.returncode == 2 and "not a play or swap" in r.stderr


def test_bench_vision_prints_accuracy_and_time_by_stage(tmp_path):
    """Two scenes of the built-in deck (no reference decks in an empty folder): the table has a
    row per identifier with measured shares, and the time line splits detect from identify."""
    r = cli("bench", "vision", "--scenes", "2", "--warm", "3", "--decks", str(tmp_path))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "no reference decks" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("builtin-40")]
    assert [row[1] for row in rows] == ["enrolled", "agnostic", "learning", "warmed"]
    for row in rows:
        assert int(row[2]) > 0 and row[3].endswith("%") and "of" in row
    assert re.search(r"enrolled\s+ms per frame: median [\d.]+\s+p95 [\d.]+\s+\(detect median [\d.]+, "
                     r"identify median [\d.]+; 2 frames\)", out)
    # which of two overlapping cards lies on top, against the scenes' truth
    order = re.search(r"builtin-40\s+(\d+) pairs: right\s+([\d.]+)%, tied \(both read as below\)\s+"
                      r"([\d.]+)%, wrong\s+([\d.]+)%", out)
    assert order and int(order[1]) > 0
    assert abs(sum(float(order[k]) for k in (2, 3, 4)) - 100) < 0.2
    # and by step: detection's and identification's, each a measured figure
    steps = re.search(r"by step, mean ms a frame: detect: (.*); identify: (.*)", out)
    assert steps and "mask" in steps[1] and "blob hypotheses" in steps[1] and "first read" in steps[2]
    assert "templates" in steps[2]  # a new frame's templates are identification's time
    assert all(float(x.rsplit(" ", 1)[1]) >= 0 for x in (steps[1] + ", " + steps[2]).split(", "))


def test_bench_compare_reads_the_same_scenes_with_a_setting_changed_card_for_card(tmp_path):
    """`bench compare` reads each scene as the settings are and with the one given changed: with
    no rule left out (a setting set to its own value) nothing differs; with every blob taken for
    an ornament (no pinta counted), cards are lost and none gained."""
    r = cli("bench", "compare", "agnostic.NUMERAL_SHAPES=True", "--scenes", "1", "--decks", str(tmp_path))
    assert r.returncode == 0, r.stderr
    row = re.search(r"builtin-40\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)",
                    r.stdout)
    cards, right_a, right_b, gained, lost, new_wrong, gone, fp_a, fp_b = map(int, row.groups())
    assert cards > 0 and right_a == right_b and gained == lost == new_wrong == gone == 0 and fp_a == fp_b
    r = cli("bench", "compare", "agnostic.PINTA_MIN_PX=100000", "--scenes", "1", "--list",
            "--decks", str(tmp_path))
    assert r.returncode == 0, r.stderr
    row = re.search(r"builtin-40\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", r.stdout)
    assert int(row[4]) == 0 and int(row[5]) > 0 and int(row[2]) - int(row[3]) == int(row[5])
    assert "cards read differently" in r.stdout


def test_bench_compare_gives_each_learner_its_own_settings(tmp_path):
    """With `--reader learning` each side is a learner of its own (after `--warm` scenes it
    watched under its own settings): a setting that stops all learning changes nothing in the
    learner's first scenes, whose readings are the agnostic reader's."""
    r = cli("bench", "compare", "learn.SIGHTINGS=0", "--reader", "learning", "--warm", "1",
            "--scenes", "1", "--decks", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "learning reader (warmed on 1 scenes)" in r.stdout
    row = re.search(r"builtin-40\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", r.stdout)
    assert int(row[1]) > 0 and row[2] == row[3] and row[4] == row[5] == row[6] == "0"


def test_bench_compare_refuses_a_setting_it_cannot_apply():
    """Each malformed SETTING gets a clear error and exit status 2, before any scene is read."""
    for bad, said in [("nonsense", "expected module.NAME=value"), ("nomod.X=1", "no module vision.nomod"),
                      ("agnostic.NOPE=1", "vision.agnostic has no NOPE"),
                      ("agnostic.MIRRORED=maybe", "is no Python literal")]:
        r = cli("bench", "compare", bad, "--scenes", "1")
        assert r.returncode == 2 and said in r.stderr, (bad, r.stderr)
        assert "scenes" not in r.stdout


def test_a_compared_setting_is_put_back_after_the_block_even_on_an_error():
    from table.bench.compare import Setting, changed
    from vision import agnostic

    s = Setting.parse("agnostic.MIRRORED=False")
    assert agnostic.MIRRORED is True
    try:
        with changed([s]):
            assert agnostic.MIRRORED is False
            raise RuntimeError("a reader failed")
    except RuntimeError:
        pass
    assert agnostic.MIRRORED is True


def test_bench_vision_can_see_the_whole_table_as_an_installed_camera_does(tmp_path):
    """`--whole-table` raises the camera over the same scenes until the whole table is in view:
    the cards read are smaller, and the header says so."""
    import numpy as np

    from vision import synth

    r = cli("bench", "vision", "--scenes", "1", "--warm", "0", "--no-agnostic", "--whole-table",
            "--decks", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "the whole table in view" in r.stdout
    assert re.search(r"builtin-40\s+enrolled\s+\d+", r.stdout)
    near = synth.random_scene(np.random.default_rng(10_000), synth.builtin(40))
    far = synth.random_scene(np.random.default_rng(10_000), synth.builtin(40), whole_table=True)
    assert far.camera.height_mm > near.camera.height_mm and set(near.cards) <= set(far.cards)
