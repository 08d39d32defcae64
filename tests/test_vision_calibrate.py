"""Calibration from a rendered frame with ArUco markers, the manual fallback, zones, marker sheets."""
import numpy as np
import pytest

from vision import calibrate, synth
from vision.geometry import Camera


def _frame(**cam):
    camera = Camera(height_mm=900, hfov_deg=70, pitch_deg=4, roll_deg=-3, yaw_deg=2, **cam)
    table = synth.TableSpec(cloth_seed=5)
    cards = [synth.Placed("3C", True, 300, 200, 15), synth.Placed("12B", True, 650, 320, -40)]
    scene = synth.Scene(cards, synth.builtin(40), camera, table,
                        synth.Nuisances(light=(0.95, 0.1, -0.1), noise=2, jpeg=85))
    return synth.render_scene(scene, seed=1), cards


def test_markers_give_table_millimetres():
    fr, cards = _frame()
    cal = calibrate.calibrate_markers(fr.image, 900, 500, 50)
    assert cal.markers_found == [0, 1, 2, 3]
    assert cal.rms_mm < 2.0
    for t, p in zip(fr.truth, cards):
        centre = cal.to_table(t.corners).mean(axis=0)
        assert np.hypot(*(centre - [p.x, p.y])) < 4.0
    # round trip image -> table -> image, and a sensible card size hint
    pts = np.array([[100.0, 100.0], [1000.0, 600.0]])
    assert np.allclose(cal.to_image(cal.to_table(pts)), pts, atol=1e-6)
    assert 80 < cal.card_long_px() < 160


def test_calibration_json_round_trip(tmp_path):
    fr, _ = _frame()
    cal = calibrate.calibrate_markers(fr.image)
    cal.save(tmp_path / "cal.json")
    back = calibrate.Calibration.load(tmp_path / "cal.json")
    assert np.allclose(back.image_to_table, cal.image_to_table)


def test_no_markers_is_a_clear_error():
    img = np.full((720, 1280, 3), 60, np.uint8)
    with pytest.raises(calibrate.CalibrationError, match="found markers"):
        calibrate.calibrate_markers(img)


def test_manual_four_corners():
    camera = Camera(height_mm=900, hfov_deg=70)
    h = camera.homography()
    from vision.geometry import apply_h

    corners_px = apply_h(h, [[0, 0], [900, 0], [900, 500], [0, 500]])
    cal = calibrate.calibrate_manual(corners_px, 900, 500)
    assert np.allclose(cal.to_table(apply_h(h, [[450, 250]])), [[450, 250]], atol=0.1)


def test_zones_default_layout_and_json(tmp_path):
    for n in (2, 3, 4, 5):
        z = calibrate.default_zones(n)
        assert {f"play{i}" for i in range(n)} <= set(z.names())
        assert {"stock", "robot_tray"} <= set(z.names())
    z = calibrate.default_zones(4)
    play0 = next(x for x in z.zones if x.name == "play0")
    assert z.locate(play0.polygon.mean(axis=0)) == "play0"
    assert z.locate((-50, -50)) is None
    z.save(tmp_path / "zones.json")
    z2 = calibrate.Zones.load(tmp_path / "zones.json")
    assert z2.names() == z.names()
    with pytest.raises(ValueError):
        calibrate.Zones.from_json({"format": "brisca-zones/1", "zones": [{"name": "x", "polygon": [[0, 0]]}]})


def test_marker_sheet_is_detectable(tmp_path):
    import cv2

    sheet = calibrate.marker_sheet(50, 150)
    found = calibrate.detect_markers(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR))
    assert sorted(found) == [0, 1, 2, 3]
    png = calibrate.write_marker_sheet(tmp_path / "m.png")
    assert cv2.imread(str(png)) is not None
    pdf = calibrate.write_marker_sheet(tmp_path / "m.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
