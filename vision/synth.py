"""Synthetic overhead scenes: the test, benchmark and demo camera.

A scene is declarative (`Scene`: placed cards in table millimetres, camera, cloth, nuisances) so the
tracker can render whole games frame by frame; `render_scene` is deterministic for a given seed and
caches the warped cloth, the warped card patches and the noise-free image of the last few scenes,
so consecutive frames of a game are cheap.
"""
from __future__ import annotations

import functools
import itertools
import math
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import cv2
import numpy as np

from vision import builtin_deck
from vision.geometry import Camera, apply_h, card_corners_mm

TEX_W, TEX_H = 160, 248  # card texture size used for rendering


# ----------------------------------------------------------------------------- decks
_DECK_SERIAL = itertools.count()


@dataclass
class Deck:
    """Card faces (code -> BGRA portrait image) and an optional back. ``serial`` names this deck
    object in the render caches: ``id()`` may be reused once a deck is freed, which would paint the
    next deck's cards with the old deck's faces."""

    name: str
    faces: Dict[str, np.ndarray]
    back: Optional[np.ndarray] = None
    serial: int = field(default_factory=lambda: next(_DECK_SERIAL), compare=False)

    @property
    def codes(self) -> List[str]:
        return list(self.faces)


def _to_bgra(img: np.ndarray) -> np.ndarray:
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 3:
        img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
    if img.shape[1] > img.shape[0]:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    return img


def load_deck(folder, name: Optional[str] = None) -> Deck:
    """A deck from a folder of images named by card code (``3C.png``) plus optional ``back.*``."""
    from table.cards import Card, CardError

    folder = Path(folder)
    faces, back = {}, None
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
            continue
        img = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        if img is None:
            continue
        if p.stem.lower() == "back":
            back = _to_bgra(img)
            continue
        try:
            code = str(Card.parse(p.stem))
        except CardError:
            continue
        faces[code] = _to_bgra(img)
    if not faces:
        raise ValueError(f"no card images named by code in {folder}")
    return Deck(name or folder.name, faces, back)


@functools.lru_cache(maxsize=4)
def builtin(size: int = 48) -> Deck:
    """The project's own procedurally drawn deck (see vision.builtin_deck)."""
    return Deck(f"builtin-{size}", builtin_deck.builtin_faces(size), builtin_deck.draw_back())


_TEX_CACHE: "OrderedDict[Tuple[int, str], np.ndarray]" = OrderedDict()
_TEX_CACHE_SIZE = 256


def _texture(deck: Deck, code: Optional[str], face_up: bool) -> np.ndarray:
    key = (deck.serial, code if face_up else "back")
    tex = _TEX_CACHE.get(key)
    if tex is None:
        src = deck.faces[code] if face_up else (deck.back if deck.back is not None
                                                else builtin_deck.draw_back())
        tex = cv2.resize(src, (TEX_W, TEX_H), interpolation=cv2.INTER_AREA)
        _TEX_CACHE[key] = tex
        if len(_TEX_CACHE) > _TEX_CACHE_SIZE:
            _TEX_CACHE.popitem(last=False)
    else:
        _TEX_CACHE.move_to_end(key)
    return tex


# ----------------------------------------------------------------------------- scene description
@dataclass(frozen=True)
class Placed:
    """One card on the table: centre (x, y) in table mm, clockwise rotation in degrees. A face-down
    card may have code None (its identity is unknown to the camera anyway)."""

    code: Optional[str]
    face_up: bool
    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A hand-like occluder reaching in from direction `angle` (degrees, 0 = from the right edge),
    fingertips near (x, y) table mm."""

    x: float
    y: float
    angle: float = 0.0
    length_mm: float = 170.0
    skin: Tuple[int, int, int] = (120, 160, 210)


@dataclass(frozen=True)
class Nuisances:
    light: Tuple[float, float, float] = (1.0, 0.0, 0.0)  # base, x-gradient, y-gradient
    glare: Tuple[float, float, float, float] = (0, 0, 0, 0)  # x_px, y_px, radius_px, strength
    blur: float = 0.0  # gaussian sigma, pixels
    noise: float = 0.0  # gaussian sigma, grey levels
    jpeg: int = 0  # JPEG quality (0: none)
    hands: Tuple[Hand, ...] = ()


@dataclass(frozen=True)
class TableSpec:
    width_mm: float = 900.0
    height_mm: float = 500.0
    marker_mm: float = 50.0
    cloth_seed: int = 0
    markers: bool = True


@dataclass
class Scene:
    cards: Sequence[Placed]
    deck: Deck
    camera: Camera = field(default_factory=Camera)
    table: TableSpec = field(default_factory=TableSpec)
    nuisances: Nuisances = field(default_factory=Nuisances)


@dataclass
class Truth:
    code: Optional[str]
    face_up: bool
    corners: np.ndarray  # 4x2 image pixels, TL TR BR BL of the upright card
    visible: float  # fraction of the card not covered by cards above it or hands


@dataclass
class Rendered:
    image: np.ndarray
    truth: List[Truth]
    homography: np.ndarray  # table mm -> image


# ----------------------------------------------------------------------------- cloth and markers
PLANE_PX_PER_MM = 1.5
PLANE_PAD_MM = 300.0


def marker_positions(table: TableSpec) -> Dict[int, np.ndarray]:
    """Table-mm corners of ArUco markers 0-3 (the calibration module's convention)."""
    from vision.calibrate import marker_corners_mm

    return marker_corners_mm(table.width_mm, table.height_mm, table.marker_mm)


def _cloth_plane(table: TableSpec) -> np.ndarray:
    rng = np.random.default_rng(table.cloth_seed)
    s = PLANE_PX_PER_MM
    pw = int((table.width_mm + 2 * PLANE_PAD_MM) * s)
    ph = int((table.height_mm + 2 * PLANE_PAD_MM) * s)
    palettes = [(40, 95, 30), (90, 60, 25), (35, 35, 110), (60, 70, 60), (30, 70, 90), (80, 40, 70)]
    base = np.array(palettes[rng.integers(len(palettes))], np.float32) * rng.uniform(0.8, 1.2)
    small = rng.normal(0, 1, (ph // 24 + 2, pw // 24 + 2)).astype(np.float32)
    fbm = cv2.resize(small, (pw, ph), interpolation=cv2.INTER_CUBIC) * 8
    fbm += rng.normal(0, 5, (ph, pw)).astype(np.float32)
    img = np.clip(base[None, None, :] + fbm[..., None], 0, 255)
    pattern = rng.integers(4)
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    period = rng.uniform(18, 40) * s
    if pattern == 1:  # stripes
        pat = (np.sin(xx * 2 * np.pi / period) > 0.3).astype(np.float32)
    elif pattern == 2:  # checks
        pat = ((np.floor(xx / period) + np.floor(yy / period)) % 2).astype(np.float32)
    elif pattern == 3:  # diamonds / florals
        pat = ((np.abs(((xx + yy) % period) - period / 2) < period * 0.12)
               | (np.abs(((xx - yy) % period) - period / 2) < period * 0.12)).astype(np.float32)
    else:
        pat = np.zeros_like(xx)
    tint = rng.uniform(-35, 35, 3).astype(np.float32)
    img = np.clip(img + pat[..., None] * tint[None, None, :], 0, 125).astype(np.uint8)
    if table.markers:
        aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        for i, c in marker_positions(table).items():
            q = 10.0  # white quiet zone, mm
            x0, y0 = ((c[0] - q + PLANE_PAD_MM) * s).astype(int)
            x1, y1 = ((c[2] + q + PLANE_PAD_MM) * s).astype(int)
            img[y0:y1, x0:x1] = 235
            mx0, my0 = ((c[0] + PLANE_PAD_MM) * s).astype(int)
            side = int(table.marker_mm * s)
            mk = cv2.aruco.generateImageMarker(aruco, i, side)
            img[my0:my0 + side, mx0:mx0 + side] = cv2.cvtColor(mk, cv2.COLOR_GRAY2BGR)
    return img


@functools.lru_cache(maxsize=8)
def _background(table: TableSpec, camera: Camera) -> np.ndarray:
    plane = _cloth_plane(table)
    s = PLANE_PX_PER_MM
    plane_to_table = np.array([[1 / s, 0, -PLANE_PAD_MM], [0, 1 / s, -PLANE_PAD_MM], [0, 0, 1]])
    h = camera.homography() @ plane_to_table
    return cv2.warpPerspective(plane, h, (camera.width, camera.height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


# ----------------------------------------------------------------------------- rendering
_PATCH_CACHE: "OrderedDict[tuple, tuple]" = OrderedDict()
_PATCH_CACHE_SIZE = 1024


def _card_patch(deck: Deck, code, face_up: bool, corners: np.ndarray, size: Tuple[int, int]):
    """Warped BGRA patch of one card and its top-left offset, cached by quantised corners."""
    key = (deck.serial, code, face_up, tuple(np.round(corners.ravel() * 4).astype(int)))
    hit = _PATCH_CACHE.get(key)
    if hit is not None:
        _PATCH_CACHE.move_to_end(key)
        return hit
    tex = _texture(deck, code, face_up)
    x0 = max(int(math.floor(corners[:, 0].min())) - 4, 0)
    y0 = max(int(math.floor(corners[:, 1].min())) - 4, 0)
    x1 = min(int(math.ceil(corners[:, 0].max())) + 5, size[0])
    y1 = min(int(math.ceil(corners[:, 1].max())) + 5, size[1])
    if x1 <= x0 or y1 <= y0:
        hit = (0, 0, None)
    else:
        src = np.float32([[0, 0], [TEX_W, 0], [TEX_W, TEX_H], [0, TEX_H]])
        m = cv2.getPerspectiveTransform(src, np.float32(corners - [x0, y0]))
        patch = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA
                                    if False else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        hit = (x0, y0, patch)
    _PATCH_CACHE[key] = hit
    if len(_PATCH_CACHE) > _PATCH_CACHE_SIZE:
        _PATCH_CACHE.popitem(last=False)
    return hit


def _draw_hand(img, gloss, labels, hand: Hand, h: np.ndarray, scale_lab: float):
    """Palm, fingers and an arm running off the image; drawn in image space with a soft shadow."""
    a = math.radians(hand.angle)
    d = np.array([math.cos(a), math.sin(a)])  # from fingertips towards the wrist
    n = np.array([-d[1], d[0]])
    L = hand.length_mm
    tip = np.array([hand.x, hand.y])
    palm_c = tip + d * L * 0.55
    pts_mm = {"palm": palm_c, "wrist": tip + d * L * 0.95, "far": tip + d * L * 8}
    fingers = [(tip + n * off * L * 0.13 + d * back * L, palm_c + n * off * L * 0.12)
               for off, back in ((-1.5, 0.08), (-0.5, 0.0), (0.5, 0.03), (1.5, 0.12))]
    thumb = (palm_c + n * L * 0.42 - d * L * 0.05, palm_c + n * L * 0.15)
    px_per_mm = np.linalg.norm(apply_h(h, [palm_c + [1, 0]])[0] - apply_h(h, [palm_c])[0])
    mask = np.zeros(img.shape[:2], np.uint8)
    P = lambda p: tuple(int(v) for v in apply_h(h, [p])[0])  # noqa: E731
    cv2.ellipse(mask, P(pts_mm["palm"]), (int(L * 0.3 * px_per_mm), int(L * 0.26 * px_per_mm)),
                math.degrees(a), 0, 360, 255, -1, cv2.LINE_AA)
    for s, e in fingers + [thumb]:
        cv2.line(mask, P(s), P(e), 255, max(3, int(L * 0.1 * px_per_mm)), cv2.LINE_AA)
    cv2.line(mask, P(pts_mm["wrist"]), P(pts_mm["far"]), 255, max(5, int(L * 0.42 * px_per_mm)),
             cv2.LINE_AA)
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw and bh:  # shade and paint only around the hand (its shadow reaches ~30 px further)
        pad = 30
        x0, y0 = max(bx - pad, 0), max(by - pad, 0)
        x1, y1 = min(bx + bw + pad, img.shape[1]), min(by + bh + pad, img.shape[0])
        sub, msub = img[y0:y1, x0:x1], mask[y0:y1, x0:x1]
        shifted = np.zeros_like(msub)
        shifted[6:, 8:] = msub[:-6, :-8] if msub.shape[0] > 6 and msub.shape[1] > 8 else 0
        shadow = cv2.GaussianBlur(shifted, (0, 0), 6).astype(np.float32)
        sub *= (1 - 0.45 * shadow / 255.0)[..., None]
        m = msub.astype(np.float32)[..., None] / 255.0
        yy = np.linspace(0.85, 1.1, img.shape[0], dtype=np.float32)[y0:y1, None, None]
        sub[:] = sub * (1 - m) + (np.array(hand.skin, np.float32) * yy) * m
        gloss[y0:y1, x0:x1][msub > 0] = 0.4
    small = cv2.resize(mask, (labels.shape[1], labels.shape[0]), interpolation=cv2.INTER_NEAREST)
    labels[small > 127] = -2


_CLEAN_CACHE: "OrderedDict[tuple, tuple]" = OrderedDict()
_CLEAN_CACHE_SIZE = 3  # ~11 MB each: enough for a still table filmed frame after frame


def render_scene(scene: Scene, seed: int = 0) -> Rendered:
    """Render one overhead frame of `scene`; the same scene and seed give the same image.

    Everything but the sensor noise and the JPEG step depends on the scene alone, so a still table
    filmed frame after frame (most of a simulated game) renders that part once; each frame still
    gets its own noise and compression."""
    nz = scene.nuisances
    key = (scene.deck.serial, tuple(scene.cards), scene.camera, scene.table, replace(nz, noise=0.0, jpeg=0))
    hit = _CLEAN_CACHE.get(key)
    if hit is None:
        hit = _render_clean(scene)
        _CLEAN_CACHE[key] = hit
        if len(_CLEAN_CACHE) > _CLEAN_CACHE_SIZE:
            _CLEAN_CACHE.popitem(last=False)
    else:
        _CLEAN_CACHE.move_to_end(key)
    clean, truth, h = hit
    out = clean
    if nz.noise > 0:  # grey sensor noise, the same in each channel
        cv2.setRNGSeed(int(seed) & 0x7FFFFFFF)
        noise = np.empty(clean.shape[:2], np.int16)
        cv2.randn(noise, 0.0, float(nz.noise))
        out = cv2.add(clean, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    if nz.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(nz.jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return Rendered(out, [replace(t) for t in truth], h)


def _render_clean(scene: Scene):
    """The noise-free image of a scene, its ground truth and its homography."""
    cam, nz = scene.camera, scene.nuisances
    h = cam.homography()
    img = _background(scene.table, cam).astype(np.float32)
    gloss = np.full(img.shape[:2], 0.25, np.float32)
    lab_scale = 0.25
    labels = np.full((int(cam.height * lab_scale), int(cam.width * lab_scale)), -1, np.int16)
    truth = []
    areas = []
    for idx, pc in enumerate(scene.cards):
        corners = apply_h(h, card_corners_mm(pc.x, pc.y, pc.angle))
        x0, y0, patch = _card_patch(scene.deck, pc.code, pc.face_up, corners, (cam.width, cam.height))
        truth.append(Truth(pc.code if pc.face_up else (pc.code if pc.code else None), pc.face_up,
                           corners.astype(np.float32), 0.0))
        poly = np.round(corners * lab_scale).astype(np.int32)
        before = (labels == idx).sum()
        cv2.fillPoly(labels, [poly], int(idx))
        areas.append(max((labels == idx).sum() - before, 1))
        if patch is None:
            continue
        ph, pw = patch.shape[:2]
        roi = img[y0:y0 + ph, x0:x0 + pw]
        alpha = patch[:, :, 3].astype(np.float32) / 255.0
        sh = cv2.GaussianBlur(alpha, (0, 0), 2.0)
        sh = np.roll(sh, (2, 2), axis=(0, 1))
        roi *= (1 - 0.35 * sh)[..., None]
        roi[:] = roi * (1 - alpha[..., None]) + patch[:, :, :3].astype(np.float32) * alpha[..., None]
        g = gloss[y0:y0 + ph, x0:x0 + pw]
        g[alpha > 0.5] = 1.0
    for hand in nz.hands:
        _draw_hand(img, gloss, labels, hand, h, lab_scale)
    for t, (idx, area) in zip(truth, enumerate(areas)):
        t.visible = float((labels == idx).sum()) / area
    img *= _light_field(cam.width, cam.height, tuple(nz.light))[..., None]
    gx_, gy_, gr, gs = nz.glare
    if gs > 0 and gr > 0:
        x0, x1 = int(max(gx_ - 3 * gr, 0)), int(min(gx_ + 3 * gr, cam.width))
        y0, y1 = int(max(gy_ - 3 * gr, 0)), int(min(gy_ + 3 * gr, cam.height))
        if x1 > x0 and y1 > y0:
            yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            spot = gs * np.exp(-((xx - gx_) ** 2 + (yy - gy_) ** 2) / (2 * gr * gr))
            img[y0:y1, x0:x1] += (spot * gloss[y0:y1, x0:x1])[..., None]
    if nz.blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), nz.blur)
    return np.clip(img, 0, 255).astype(np.uint8), truth, h


@functools.lru_cache(maxsize=4)
def _light_field(width: int, height: int, light: Tuple[float, float, float]) -> np.ndarray:
    """A linear lighting gradient plus a soft vignette, one gain per pixel."""
    base, gx, gy = light
    yy, xx = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
    xn, yn = xx / width - 0.5, yy / height - 0.5
    light_small = base + gx * xn + gy * yn - 0.15 * (xn ** 2 + yn ** 2)
    return cv2.resize(light_small, (width, height), interpolation=cv2.INTER_LINEAR)


# ----------------------------------------------------------------------------- random scenes
def random_camera(rng: np.random.Generator, table: TableSpec = TableSpec()) -> Camera:
    return Camera(hfov_deg=float(rng.uniform(60, 72)), height_mm=float(rng.uniform(650, 900)),
                  cx_mm=table.width_mm / 2 + float(rng.uniform(-30, 30)),
                  cy_mm=table.height_mm / 2 + float(rng.uniform(-20, 20)),
                  pitch_deg=float(rng.uniform(-6, 6)), roll_deg=float(rng.uniform(-6, 6)),
                  yaw_deg=float(rng.uniform(-5, 5)))


def random_nuisances(rng: np.random.Generator, camera: Camera, hands: Tuple[Hand, ...] = ()):
    return Nuisances(
        light=(float(rng.uniform(0.8, 1.05)), float(rng.uniform(-0.25, 0.25)),
               float(rng.uniform(-0.25, 0.25))),
        glare=(float(rng.uniform(0, camera.width)), float(rng.uniform(0, camera.height)),
               float(rng.uniform(25, 90)), float(rng.uniform(0, 110)) if rng.random() < 0.7 else 0.0),
        blur=float(rng.uniform(0, 1.2)), noise=float(rng.uniform(0, 5)),
        jpeg=int(rng.integers(70, 96)), hands=hands)


def _inside(camera: Camera, points_mm: np.ndarray, margin: float) -> bool:
    """Whether the table points (mm) all fall in the camera's picture, ``margin`` px in from its
    edges."""
    c = apply_h(camera.homography(), points_mm)
    return bool((c[:, 0] > margin).all() and (c[:, 0] < camera.width - margin).all()
                and (c[:, 1] > margin).all() and (c[:, 1] < camera.height - margin).all())


def _in_view(camera: Camera, pc: Placed, margin: float = 6) -> bool:
    return _inside(camera, card_corners_mm(pc.x, pc.y, pc.angle), margin)


def whole_table_camera(camera: Camera, table: TableSpec, margin_px: float = 8.0) -> Camera:
    """The same camera raised until the whole table (markers, stock, every seat) is in the picture,
    as an installer aims it: a game film needs every zone in view, so its cards are small (84-100
    px long at 720p)."""
    corners = np.array([[0, 0], [table.width_mm, 0], [table.width_mm, table.height_mm],
                        [0, table.height_mm]])
    for _ in range(60):
        if _inside(camera, corners, margin_px):
            return camera
        camera = replace(camera, height_mm=camera.height_mm + 20.0)
    return camera


def random_scene(rng: np.random.Generator, deck: Deck, table: TableSpec = None,
                 hand_prob: float = 0.5, whole_table: bool = False) -> Scene:
    """A plausible mid-game table: a trick of 2-4 overlapping face-up cards, the stock (backs) with
    the trump card crosswise under it, won piles of backs, a few loose face-up cards, maybe a hand.
    ``whole_table``: the camera raised to see the whole table (`whole_table_camera`), the same
    scene otherwise."""
    table = table or TableSpec(cloth_seed=int(rng.integers(1 << 30)))
    camera = random_camera(rng, table)
    if whole_table:
        camera = whole_table_camera(camera, table)
    codes = list(rng.permutation(deck.codes))
    cards: List[Placed] = []

    def add(p: Placed) -> bool:
        if _in_view(camera, p):
            cards.append(p)
            return True
        return False

    # stock: the trump card crosswise, half under a stack of backs
    sx, sy = float(rng.uniform(200, 300)), float(rng.uniform(180, 320))
    ang = float(rng.uniform(-15, 15))
    add(Placed(codes.pop(), True, sx + 40 * math.cos(math.radians(ang)),
               sy + 40 * math.sin(math.radians(ang)), ang + 90 + float(rng.uniform(-5, 5))))
    for k in range(int(rng.integers(2, 8))):
        add(Placed(None, False, sx + float(rng.normal(0, 1.2)), sy + float(rng.normal(0, 1.2)),
                   ang + float(rng.normal(0, 2))))
    # won piles
    for _ in range(int(rng.integers(0, 3))):
        px, py = float(rng.uniform(120, 780)), float(rng.choice([90.0, 410.0]))
        pa = float(rng.uniform(0, 180))
        for k in range(int(rng.integers(1, 6))):
            add(Placed(None, False, px + float(rng.normal(0, 2)), py + float(rng.normal(0, 2)),
                       pa + float(rng.normal(0, 6))))
    # the trick, overlapping like real play
    tx, ty = float(rng.uniform(450, 600)), float(rng.uniform(200, 300))
    n = int(rng.integers(2, 5))
    base = float(rng.uniform(0, 360))
    trick = []
    for i in range(n):
        a = math.radians(base + i * 360 / n + float(rng.uniform(-20, 20)))
        r = float(rng.uniform(42, 56))
        trick.append(Placed(codes.pop(), True, tx + r * math.cos(a), ty + r * math.sin(a),
                            float(rng.uniform(0, 360))))
    for p in trick:
        add(p)
    # loose face-up cards (a hand laid out, the robot tray)
    for _ in range(int(rng.integers(1, 4))):
        for _try in range(10):
            p = Placed(codes.pop(), True, float(rng.uniform(100, 800)), float(rng.uniform(80, 420)),
                       float(rng.uniform(0, 360)))
            if _clear(p, cards) and add(p):
                break
            codes.insert(0, p.code)
    hands: Tuple[Hand, ...] = ()
    if rng.random() < hand_prob:
        ha = float(rng.uniform(0, 360))
        reach = float(rng.uniform(75, 110))
        hands = (Hand(tx + reach * math.cos(math.radians(ha)), ty + reach * math.sin(math.radians(ha)),
                      ha, float(rng.uniform(150, 185)),
                      tuple(int(v) for v in rng.uniform([90, 130, 180], [150, 180, 235]))),)
    return Scene(cards, deck, camera, table, random_nuisances(rng, camera, hands))


def _clear(p: Placed, cards: Sequence[Placed], gap: float = 85.0) -> bool:
    return all(math.hypot(p.x - c.x, p.y - c.y) > gap for c in cards)


def with_nuisances(scene: Scene, **kw) -> Scene:
    """A copy of `scene` with some nuisance parameters replaced (e.g. no hands, no blur)."""
    return Scene(scene.cards, scene.deck, scene.camera, scene.table, replace(scene.nuisances, **kw))
