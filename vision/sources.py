"""Frame sources behind one small interface: iterate and get `Frame(image, timestamp)`.

Live cameras (Picamera2, a USB camera) run a grab thread that keeps only the newest frame, so a
slow consumer never sees stale frames piling up; video files and image folders are read in order
(every frame matters when replaying a recorded game).
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List, Optional, Sequence

import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


@dataclass
class Frame:
    image: np.ndarray  # BGR uint8
    timestamp: float  # seconds (monotonic for cameras, position for files)
    name: str = ""  # file name or frame index, for logs and archives


class SourceError(RuntimeError):
    """A source that cannot be opened at all (missing camera, unreadable video)."""


class FrameSource:
    """Iterate to get frames; `close()` (or a with-block) releases the device."""

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_image(path, warn: bool = True) -> Optional[np.ndarray]:
    """A BGR image, or None (with a warning unless warn=False) when the file is missing, not an
    image or corrupt."""
    import cv2

    p = Path(path)
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as e:
        if warn:
            log.warning("cannot read %s: %s", p, e)
        return None
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None and warn:
        log.warning("not a readable image (corrupt or unknown format): %s", p)
    return img


class ImageFolderSource(FrameSource):
    """Still images from a folder (sorted by name) or an explicit list of files. Unreadable files are
    skipped with a warning each, and listed in `skipped`."""

    def __init__(self, folder_or_files, loop: bool = False):
        if isinstance(folder_or_files, (str, Path)):
            folder = Path(folder_or_files)
            if not folder.is_dir():
                raise SourceError(f"not a folder: {folder}")
            self.files: List[Path] = sorted(p for p in folder.iterdir()
                                            if p.suffix.lower() in IMAGE_SUFFIXES)
        else:
            self.files = [Path(p) for p in folder_or_files]
        self.loop = loop
        self.skipped: List[Path] = []

    def __iter__(self):
        while True:
            for i, p in enumerate(self.files):
                img = read_image(p)
                if img is None:
                    if p not in self.skipped:
                        self.skipped.append(p)
                    continue
                yield Frame(img, float(i), p.name)
            if not self.loop:
                return


class OpenCVSource(FrameSource):
    """A USB camera (integer index or device path) or a video file, through cv2.VideoCapture.
    Cameras use a grab thread that keeps only the newest frame; files are read sequentially with
    their own timestamps."""

    def __init__(self, target, width: int = 1280, height: int = 720, live: Optional[bool] = None):
        import cv2

        self.target = target
        is_file = isinstance(target, (str, Path)) and Path(str(target)).is_file()
        self.live = (not is_file) if live is None else live
        if isinstance(target, (str, Path)) and not is_file and not str(target).startswith("/dev/") \
                and not str(target).isdigit():
            raise SourceError(f"no such video file or camera: {target}")
        cap_target = int(target) if str(target).isdigit() else str(target)
        self.cap = cv2.VideoCapture(cap_target)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open {target!r} with OpenCV")
        if self.live:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._latest: Optional[Frame] = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._seq = 0

    def _grab_loop(self):
        while not self._stop.is_set():
            ok, img = self.cap.read()
            if not ok:
                log.warning("camera %r stopped delivering frames", self.target)
                break
            with self._cond:
                self._seq += 1
                self._latest = Frame(img, time.monotonic(), str(self._seq))
                self._cond.notify_all()
        with self._cond:
            self._stop.set()
            self._cond.notify_all()

    def __iter__(self):
        import cv2

        if not self.live:
            i = 0
            while True:
                ok, img = self.cap.read()
                if not ok:
                    return
                ts = self.cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                yield Frame(img, ts, str(i))
                i += 1
        if self._thread is None:
            self._thread = threading.Thread(target=self._grab_loop, name="camera-grab", daemon=True)
            self._thread.start()
        seen = 0
        while True:
            with self._cond:
                while self._seq == seen and not self._stop.is_set():
                    self._cond.wait(1.0)
                if self._seq == seen:
                    return
                seen, frame = self._seq, self._latest
            yield frame

    def close(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.cap.release()


class PicameraSource(FrameSource):
    """The Raspberry Pi camera through Picamera2 (imported only here: it exists only on a Pi)."""

    def __init__(self, width: int = 1280, height: int = 720):
        try:
            from picamera2 import Picamera2  # type: ignore
        except ImportError as e:
            raise SourceError("Picamera2 is not available (only on a Raspberry Pi, with the venv "
                              "created with --system-site-packages)") from e
        self.cam = Picamera2()
        cfg = self.cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"},
                                                  buffer_count=2)
        self.cam.configure(cfg)
        self.cam.start()

    def __iter__(self):
        while True:
            # capture_array returns the newest completed buffer; RGB888 is BGR in memory order
            img = self.cam.capture_array("main")
            yield Frame(np.ascontiguousarray(img[:, :, :3]), time.monotonic(), "")

    def close(self):
        self.cam.stop()
        self.cam.close()


class SimulatedSource(FrameSource):
    """Frames rendered from synthetic scenes (vision.synth): a list of `Scene`s, one per frame,
    or a callable frame_index -> Scene (or None to stop). Ground truth stays on `last_truth`."""

    def __init__(self, scenes, fps: float = 10.0, realtime: bool = False, seed: int = 0):
        self.scenes = scenes
        self.fps = fps
        self.realtime = realtime
        self.seed = seed
        self.last_truth = None

    def _scene(self, i):
        if callable(self.scenes):
            return self.scenes(i)
        return self.scenes[i] if i < len(self.scenes) else None

    def __iter__(self):
        from vision.synth import render_scene

        i, t0 = 0, time.monotonic()
        while True:
            scene = self._scene(i)
            if scene is None:
                return
            r = render_scene(scene, seed=self.seed + i)
            self.last_truth = r.truth
            if self.realtime:
                delay = t0 + i / self.fps - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            yield Frame(r.image, i / self.fps, str(i))
            i += 1


def open_source(spec: str) -> FrameSource:
    """`picamera`, a camera index ("0"), a /dev/video path, a video file, or an image folder."""
    if spec == "picamera":
        return PicameraSource()
    p = Path(spec)
    if p.is_dir():
        return ImageFolderSource(p)
    return OpenCVSource(spec)


def frames(source: FrameSource, limit: Optional[int] = None) -> Sequence[Frame]:
    """Up to `limit` frames as a list (tests and tools)."""
    out = []
    for f in source:
        out.append(f)
        if limit is not None and len(out) >= limit:
            break
    return out
