"""Frame sources on real files: a video written by OpenCV, an image folder with a corrupt file,
and the simulator."""
import cv2
import numpy as np
import pytest

from vision import synth
from vision.sources import (ImageFolderSource, OpenCVSource, SimulatedSource, SourceError, frames,
                            open_source, read_image)


def _frame(i):
    img = np.full((120, 160, 3), 40, np.uint8)
    cv2.putText(img, str(i), (40, 90), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 4)
    return img


def test_video_file_read_in_order(tmp_path):
    path = tmp_path / "game.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert w.isOpened()
    for i in range(12):
        w.write(_frame(i))
    w.release()
    with open_source(str(path)) as src:
        assert isinstance(src, OpenCVSource) and not src.live
        got = frames(src)
    assert len(got) == 12
    assert all(f.image.shape == (120, 160, 3) for f in got)
    ts = [f.timestamp for f in got]
    assert ts == sorted(ts)
    # frames keep their content: each differs from the first less than from the others
    assert np.abs(got[5].image.astype(int) - _frame(5)).mean() < np.abs(got[5].image.astype(int) - _frame(0)).mean()


def test_missing_video_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError):
        OpenCVSource(str(tmp_path / "nope.mp4"))


def test_image_folder_skips_corrupt_files(tmp_path, caplog):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _frame(i))
    (tmp_path / "f1b.jpg").write_bytes(b"\xff\xd8 this is not really a jpeg")
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("ignored")
    src = ImageFolderSource(tmp_path)
    got = frames(src)
    assert [f.name for f in got] == ["f0.png", "f1.png", "f2.png"]
    assert sorted(p.name for p in src.skipped) == ["empty.png", "f1b.jpg"]
    assert "corrupt" in caplog.text


def test_read_image_corrupt_and_missing(tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    assert read_image(bad) is None
    assert read_image(tmp_path / "missing.png") is None


def test_simulated_source_gives_truth():
    deck = synth.builtin(40)
    scenes = [synth.Scene([synth.Placed("3C", True, 450, 250, 10.0 * i)], deck) for i in range(3)]
    src = SimulatedSource(scenes)
    got = []
    for f in src:
        got.append((f, src.last_truth))
    assert len(got) == 3
    assert got[0][0].image.shape == (720, 1280, 3)
    assert got[2][1][0].code == "3C"
