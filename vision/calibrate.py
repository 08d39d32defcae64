"""Table calibration and zones.

Four ArUco markers (DICT_4X4_50, ids 0-3 clockwise from the top-left) sit with their outer corners
on the table's corners; their 16 corners give the homography from image pixels to the table plane
in millimetres. Without markers, four clicked table corners do the same. Zones are named polygons
in table millimetres (each seat's play area, the stock, the robot's tray, won piles).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import numpy as np

from vision.geometry import CARD_H_MM, apply_h

ARUCO_DICT = "DICT_4X4_50"


class CalibrationError(RuntimeError):
    pass


def marker_corners_mm(width_mm: float, height_mm: float, marker_mm: float) -> Dict[int, np.ndarray]:
    """Table-mm corners (TL, TR, BR, BL) of markers 0-3, each with its outer corner on a table
    corner, numbered clockwise from the top-left."""
    m, w, h = marker_mm, width_mm, height_mm
    origins = {0: (0, 0), 1: (w - m, 0), 2: (w - m, h - m), 3: (0, h - m)}
    return {i: np.array([[x, y], [x + m, y], [x + m, y + m], [x, y + m]], float)
            for i, (x, y) in origins.items()}


def _dictionary():
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))


def detect_markers(image: np.ndarray) -> Dict[int, np.ndarray]:
    """Marker id -> its four image corners (TL, TR, BR, BL as printed), for ids 0-3."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    det = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(gray)
    out = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel()):
            if 0 <= int(i) <= 3:
                out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


@dataclass
class Calibration:
    """Image <-> table mapping for one fixed camera."""

    image_to_table: np.ndarray  # 3x3
    width_mm: float
    height_mm: float
    image_size: tuple = (1280, 720)
    markers_found: List[int] = field(default_factory=list)
    rms_mm: float = 0.0  # reprojection error of the marker corners

    @property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, pts) -> np.ndarray:
        return apply_h(self.image_to_table, pts)

    def to_image(self, pts) -> np.ndarray:
        return apply_h(self.table_to_image, pts)

    def card_long_px(self) -> float:
        """A card's long side in image pixels at the table centre (detection's size hint)."""
        c = np.array([self.width_mm / 2, self.height_mm / 2])
        a, b = self.to_image([c - [0, CARD_H_MM / 2], c + [0, CARD_H_MM / 2]])
        return float(np.hypot(*(a - b)))

    def to_json(self) -> dict:
        return {"format": "brisca-calibration/1", "image_to_table": self.image_to_table.tolist(),
                "width_mm": self.width_mm, "height_mm": self.height_mm,
                "image_size": list(self.image_size), "markers_found": self.markers_found,
                "rms_mm": self.rms_mm}

    @classmethod
    def from_json(cls, d: dict) -> "Calibration":
        if d.get("format") != "brisca-calibration/1":
            raise CalibrationError("not a brisca-calibration/1 file")
        return cls(np.array(d["image_to_table"], float), float(d["width_mm"]), float(d["height_mm"]),
                   tuple(d.get("image_size", (1280, 720))), list(d.get("markers_found", [])),
                   float(d.get("rms_mm", 0.0)))

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path) -> "Calibration":
        return cls.from_json(json.loads(Path(path).read_text()))


def calibrate_markers(image: np.ndarray, width_mm: float = 900.0, height_mm: float = 500.0,
                      marker_mm: float = 50.0, min_markers: int = 3) -> Calibration:
    """Homography from the markers seen (at least `min_markers` of the four)."""
    import cv2

    found = detect_markers(image)
    if len(found) < min_markers:
        raise CalibrationError(f"found markers {sorted(found)}; need {min_markers} of ids 0-3 "
                               f"({ARUCO_DICT}) at the table corners")
    ref = marker_corners_mm(width_mm, height_mm, marker_mm)
    src = np.concatenate([found[i] for i in sorted(found)])
    dst = np.concatenate([ref[i] for i in sorted(found)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("markers are degenerate (cannot compute a homography)")
    err = apply_h(h, src) - dst
    rms = float(math.sqrt((err ** 2).sum(axis=1).mean()))
    return Calibration(h, width_mm, height_mm, (image.shape[1], image.shape[0]), sorted(found), rms)


def calibrate_manual(corners_px: Sequence, width_mm: float, height_mm: float,
                     image_size=(1280, 720)) -> Calibration:
    """Fallback without markers: the table's four corners clicked in the image (TL, TR, BR, BL)."""
    import cv2

    src = np.asarray(corners_px, np.float64).reshape(4, 2)
    dst = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], np.float64)
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    return Calibration(h, width_mm, height_mm, tuple(image_size), [], 0.0)


# ------------------------------------------------------------------------------------- zones
@dataclass
class Zone:
    name: str
    polygon: np.ndarray  # Nx2 table mm

    def contains(self, pt) -> bool:
        import cv2

        return cv2.pointPolygonTest(self.polygon.astype(np.float32), tuple(map(float, pt)), False) >= 0


@dataclass
class Zones:
    zones: List[Zone]
    width_mm: float = 900.0
    height_mm: float = 500.0

    def locate(self, pt_mm) -> Optional[str]:
        """The first zone containing the point (table mm), or None."""
        for z in self.zones:
            if z.contains(pt_mm):
                return z.name
        return None

    def names(self) -> List[str]:
        return [z.name for z in self.zones]

    def to_json(self) -> dict:
        return {"format": "brisca-zones/1", "width_mm": self.width_mm, "height_mm": self.height_mm,
                "zones": [{"name": z.name, "polygon": np.round(z.polygon, 1).tolist()}
                          for z in self.zones]}

    @classmethod
    def from_json(cls, d: dict) -> "Zones":
        if d.get("format") != "brisca-zones/1":
            raise ValueError("not a brisca-zones/1 file")
        zs = [Zone(str(z["name"]), np.array(z["polygon"], float)) for z in d["zones"]]
        for z in zs:
            if z.polygon.ndim != 2 or z.polygon.shape[0] < 3 or z.polygon.shape[1] != 2:
                raise ValueError(f"zone {z.name!r}: polygon needs at least 3 [x, y] points")
        return cls(zs, float(d.get("width_mm", 900)), float(d.get("height_mm", 500)))

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    @classmethod
    def load(cls, path) -> "Zones":
        return cls.from_json(json.loads(Path(path).read_text()))


def _rect(cx, cy, w, h, angle_deg=0.0) -> np.ndarray:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ np.array([[c, -s], [s, c]]).T + [cx, cy]


def default_zones(n_seats: int, width_mm: float = 900.0, height_mm: float = 500.0) -> Zones:
    """Seats evenly round an ellipse (seat 0 at the bottom, then counter-clockwise as seen from
    above, the default playing direction); each seat has a play zone towards the centre and a won
    pile near its edge; the stock sits left of centre, the robot's tray along the top edge."""
    cx, cy = width_mm / 2, height_mm / 2
    zones = [Zone("stock", _rect(cx - 0.28 * width_mm, cy, 150, 150)),
             Zone("robot_tray", _rect(cx, 45, 0.4 * width_mm, 70))]
    for i in range(n_seats):
        ang = math.pi / 2 - 2 * math.pi * i / n_seats  # y grows downwards: +pi/2 is the bottom
        ux, uy = math.cos(ang), math.sin(ang)
        rx, ry = 0.17 * width_mm, 0.17 * height_mm
        zones.append(Zone(f"play{i}", _rect(cx + ux * rx * 0.9, cy + uy * ry * 0.9, 120, 120,
                                            math.degrees(ang))))
        zones.append(Zone(f"won{i}", _rect(cx + ux * (width_mm / 2 - 90), cy + uy * (height_mm / 2 - 70),
                                           110, 110, math.degrees(ang))))
    return Zones(zones, width_mm, height_mm)


# ------------------------------------------------------------------------------------- markers
def marker_sheet(marker_mm: float = 50.0, dpi: int = 200) -> np.ndarray:
    """A printable sheet (A4 portrait, white) with markers 0-3, each labelled with its corner."""
    import cv2

    px_mm = dpi / 25.4
    w, h = int(210 * px_mm), int(297 * px_mm)
    sheet = np.full((h, w), 255, np.uint8)
    side = int(round(marker_mm * px_mm))
    labels = ["0 top-left", "1 top-right", "2 bottom-right", "3 bottom-left"]
    for i in range(4):
        col, row = i % 2, i // 2
        x = int((30 + col * 95) * px_mm)
        y = int((40 + row * 120) * px_mm)
        sheet[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(_dictionary(), i, side)
        cv2.putText(sheet, labels[i], (x, y + side + int(10 * px_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.09 * px_mm, 0, max(1, int(0.3 * px_mm)), cv2.LINE_AA)
    cv2.putText(sheet, f"ArUco {ARUCO_DICT}, {marker_mm:g} mm: outer corner on the table corner, "
                "ids clockwise from top-left", (int(15 * px_mm), int(280 * px_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.055 * px_mm, 0, max(1, int(0.2 * px_mm)), cv2.LINE_AA)
    return sheet


def write_marker_sheet(path, marker_mm: float = 50.0, dpi: int = 200) -> Path:
    """PNG (any image suffix OpenCV knows) or PDF (the sheet at true size, as one JPEG page)."""
    import cv2

    path = Path(path)
    sheet = marker_sheet(marker_mm, dpi)
    if path.suffix.lower() == ".pdf":
        ok, jpg = cv2.imencode(".jpg", sheet, [cv2.IMWRITE_JPEG_QUALITY, 95])
        path.write_bytes(_one_image_pdf(jpg.tobytes(), sheet.shape[1], sheet.shape[0]))
    elif not cv2.imwrite(str(path), sheet):
        raise ValueError(f"cannot write {path} (use .png or .pdf)")
    return path


def _one_image_pdf(jpeg: bytes, w_px: int, h_px: int) -> bytes:
    """A minimal one-page A4 PDF showing a greyscale JPEG full page (so markers print to size)."""
    pw, ph = 595.28, 841.89  # A4 in points
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
             f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
            (f"<< /Type /XObject /Subtype /Image /Width {w_px} /Height {h_px} /ColorSpace "
             f"/DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length {len(jpeg)} >>\nstream\n"
             ).encode() + jpeg + b"\nendstream",
            f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + o + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
