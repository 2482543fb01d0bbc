"""Die bodies around found pips: is there a die there, how big, and how many pips does it hold.

The pip search (vision.dice) finds faces from their pips. This module looks at the die around a
face, in the face's own colours, so every threshold follows that die and that frame:
1. the body colour is sampled right around the face's pips and the colour distance of every pixel
   near the face to it is measured (Lab, blurred a little so marbled or speckled bodies hold);
2. the threshold between body and not-body sits between the body's own spread and the distance of
   the surroundings (the table, a tray wall, a neighbouring die of another colour);
3. the body pixels connected to the face, with the pips' holes filled, are the die's body: a
   compact, about square blob of a die's size is a clean die; a blob running off in all directions
   is a surface (a plate, a printed panel), so the "pips" on it are no die;
4. inside a clean die the pips are spots far from the body colour towards the pip colour, of
   about the face's pip size; touching spots count by their area. This recounts faces whose pips
   the pip search split or lost.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.common import magnitude as _magnitude
from vision.common import median, percentile

# body check around a face (look)
BODY_SPREAD_K = 1.5  # body pixels lie within this many times the body ring's median distance (+6)
AROUND_K = 1.3  # the surroundings must be at least this much farther from the body than that
GAP_K = 1.5  # ... and the pips too
DIE_FILL = 0.72  # a die's body fills at least this share of its min-area rectangle
DIE_ASPECT = 1.4  # ... and that rectangle is at most this elongated
ONE_FILL = 0.84  # a one needs a squarer body (a letter's round hole is no one)
ONE_ASPECT = 1.25
ONE_PIP = 0.36  # ... and a pip at most this share of its side (a bold O's hole is larger)
FRAME_REACH = 0.8  # a faint die's outline is sought up to this many die sides beyond the pips
FRAME_K = 2.0  # an outline differs from the body by more than this many times the body's spread (+4)
FRAME_MIN = 8.0  # ... and by at least this (8-bit Lab units)
FRAME_RAYS = 14  # of 16 rays from the face's centre, this many must cross an outline
SQUARE_FIT = 0.06  # a lone pip's outline is a square around it: its rays end within this share of the fitted
SQUARE_SPAN = 1.2  # ... square's half side, and the longest (to a corner) this many times the shortest (a coin's
# rim is a circle)
SYM_CENTRE = 0.2  # the pips' centre lies within this share of the side from the body's centre
SYM_D = 0.8  # every pip's mirror image through that centre lies this many pip diameters from a pip
SYM_SIDE = 0.1  # ... or this share of the side
DIAG_TOL = 22.0  # degrees a two's or three's pips may lie off the body's diagonal
LOOK_PIP = 5.0  # faces with pips of 2 x this (pixels) or more are looked at on a halved frame

# die search off the table (find_dice)
WORK_SIDE = 400  # long side of the working image for the blob search (pixels)
BG_SHRINK = 8  # the background median runs on an image this many times smaller again
BG_KERNEL = 9  # median window on that tiny image (BG_KERNEL * BG_SHRINK working pixels)
NOISE_K = 3.0  # foreground: colour distance above NOISE_K x the frame's typical one
MIN_FG = 14.0  # ... and above this (8-bit Lab units)
SHADOW_W = 0.4  # weight of darkening in that distance (a shadow only darkens the table)
BLOB_MAX = 0.35  # blobs wider than this share of the frame's short side are the table's own parts
SEEDS_PER_BLOB = 4  # the strongest spots of a blob seed a look; the rest are its other pips or print
MAX_SEEDS = 60  # looks per frame at most (time stays bounded on a cluttered table)
BLOB_DICE = 6  # a blob of touching dice gets seeds for at most this many dice
OUTLINE_SIZE = (0.7, 1.5)  # a die known by its outline alone is this many times the frame's read dice' side
OUTLINE_PIP = (0.06, 0.3)  # ... its pips are this share of its side across
OUTLINE_FIT = 0.15  # ... in a face's layout within this share of the layout's scale
OUTLINE_SCALE = (0.14, 0.4)  # ... which spans this share of its side (centre to a corner pip, per axis)
OUTLINE_ONE = 0.1  # ... and a one's pip is this near its centre
LOCAL_BODY = 0.35  # a blob's spots are measured against its median colour over this share of a die side
LOCAL_KERNEL = 15  # ... taken with a median window of this many pixels on a shrunk copy
INNER_RIM = 0.1  # a lone die's rim (this share of its side) is left out when its inner colour is taken
INNER_K = 2.0  # ... and its pips differ from that colour by more than this many times its median spread
RED_PIP = 0.16  # red pips on a lone blob (see _red_spots): about this share of a die side across
RED_HALF = 0.5  # ... each at least this share as much redder than the body as the reddest spot
RED_SHARE = 0.13  # ... and red by this share of the frame's median brightness (dice.REDNESS_FLOOR's rule)
RED_OWN = True  # ... and read at the die's own scale where they fit no layout at the blob's (see _red_face)
RED_FINE = 0.15  # a red face read at no layout is sought again in redness smoothed over this share of a pip only
RED_CUT = True  # touching dice read from their red pips in die-sized parts of their blob (see _cut_parts)
CUT_TAKEN = 1.2  # ... a read die's square (this share of its half side) taken out of the blob
CUT_OPEN = 0.25  # ... the rest opened over this share of the frame's dice' side
CUT_TWO = 2.6  # ... a part up to this many dice' sides long is two dice, cut at its neck
CUT_DARK = True  # ... and from their dark pips (see _dark_spots) where no red face was read in a part
RED_GRID = True  # ... and read at a face's grid of pip places where the peaks are too few (see _red_grid)
RED_FINE_MIN = 0.5  # ... (at least this many pixels: half a pixel, as a JPEG holds its colour at half size)
DARK_PIPS = True  # a lone blob nothing else read is read from its dark pips too (see _dark_spots):
DARK_HALF = 0.7  # ... each at least this share as deep below the body's lightness as the deepest
DARK_LONG = 2.5  # ... its dip at that depth at most this many pips' widths (RED_PIP of the side) long
DARK_RING = 0.75  # ... and on a ring this many pips' widths from its centre
DARK_AROUND = 7  # ... at least this many of 12 samples lighter than its lowest point
DARK_LIFT = 0.3  # ... by this share of its depth
DARK_REACH = 0.6  # ... its face's pips sought within this share of the blob's side from its centre
GOLD_PIPS = True  # ... and from its gold pips: rises of warmth, log(R/B), above its own body's (see _dark_spots)
GOLD_RATIO = True  # ... in log(R/B), where a lamp's cast adds one constant to body and pips (False: Lab b*)
GOLD_SCALE = 40.0  # ... log units times this: 0.15 (pips 16 % warmer) is the 6 levels the dark path's floor asks
GOLD_OWN = True  # ... each pip's rise a share of the warmest rise that is itself a pip (False: of the warmest rise in the blob)
GOLD_HALF = 0.6  # ... that share (DARK_HALF for dark dips; a gold pip's warmth is diluted by blur and glare)
GOLD_FEW = 3  # ... and only for a face of this many pips or more (at DARK_HALF, any face)
GOLD_LIGHT = 0.9  # ... its pips at least this share of its body's grey (gold on white: 1.0-1.3; red on smoky: 0.7-0.8)
DARK_RED_MIN = 3  # ... and at least this many of them where the blob has red peaks (a red-pipped die)
TWO_ALIKE = 0.5  # a two's pips differ in colour by at most this share of their difference from the body
ONE_REACH = 0.4  # a lone pip off its blob's centre: this share of the blob's short side from its outline
FACE_CORNER = 0.8  # ... its face's square corners (this share of that distance on each axis) inside it
ONE_SPECK = 0.13  # ... and the pip at least this share of that face across (a glare speck is smaller)
CORNER_AT = 0.55  # ... and the places of other faces' corner pips (this share of that distance along each
CORNER_T = 0.5  # diagonal) nearer its body's colour than this share of the way to its pip's
AXES = ((1, 0), (-1, 0), (0, 1), (0, -1))  # unit steps along a face's axes and diagonals
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ONE_CENTRE = 0.12  # a spot this near a die's centre (a share of its side) is a one's pip, not a two's
OFF_LAYOUT = 0.2  # a clean die's three or more spots this far off any face's layout (layout_fit's misfit) take in
# glare or a neighbour's spot: the die is read from the part of them in a face's layout (see _layout_part)
PART_FAINT = 0.9  # ... when the spots left out differ from the body by at most this share of the pips kept
BAR_THREE = True  # a spot the area counts as two pips that is a bar of three (a six's column) counts three (see _bar_of_three)
BAR_LONG = 3.2  # ... its length at least this many times its width (two touching discs: about 2.2, three: 3.4)
BAR_PIPS = 2.3  # ... and at least this many pip widths of the area unit long (two discs: 1.9, three: 3.0)


_RING = np.linspace(0, 2 * np.pi, 12, endpoint=False, dtype=np.float32)
_RING12 = _RING.astype(np.float64)
RING_COS, RING_SIN = np.cos(_RING)[None, :], np.sin(_RING)[None, :]  # the body ring's 12 directions


@dataclass
class DieBody:
    """What was seen around one face: a clean die (with its own pip count), a surface, or unsure."""

    # "die" (a clean, square body), "surface" (the body runs on: a plate, a panel), "faint" (the
    # body hardly differs from its surroundings), "framed" (faint, but an outline all round),
    # "touch" (the body runs into a neighbour or a wall), "shape" (not square), "small"
    kind: str
    x: float = 0.0
    y: float = 0.0
    side: float = 0.0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    count: int = 0  # pips counted inside a clean die (0 = could not count)
    pips: list[tuple[float, float]] = field(default_factory=list)
    dark: bool = True  # pips darker than the body
    body_l: float = 0.0  # lightness of body and pips (0-255)
    pip_l: float = 0.0
    pip_d: float = 0.0  # pip diameter
    angle: float = 0.0  # of the body's min-area rectangle (degrees)


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)


def _dist(lab: list[np.ndarray], ref: np.ndarray) -> np.ndarray:
    """Colour distance of every pixel (Lab planes) to ``ref``, chroma weighted 1.3."""
    return _magnitude(lab[0] - ref[0], 1.3 * _magnitude(lab[1] - ref[1], lab[2] - ref[2]))


class Pyramid:
    """A frame and its halvings (cv2.pyrDown), made once per frame as looks ask for them."""

    def __init__(self, frame: np.ndarray) -> None:
        self.levels = [frame]
        self.looks: dict[tuple, DieBody] = {}  # look() answers of this frame, by their question

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k and min(self.levels[-1].shape[:2]) >= 32:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[min(k, len(self.levels) - 1)]


def look(frame: np.ndarray | Pyramid, pips: list[tuple[float, float, float]], reach: float,
         expect: int = 0) -> DieBody:
    """The die around a face with pips (x, y, diameter), searched up to ``reach`` pixels from its centre.

    ``expect`` is the pip search's count for the face (0 if none): of two plausible recounts, the
    one that agrees with it is taken. A large die is looked at on a halved copy of the frame (a
    ``Pyramid`` level) where its pips are LOOK_PIP-2xLOOK_PIP pixels: the same answer, a fraction
    of the work.
    """
    pyr = frame if isinstance(frame, Pyramid) else Pyramid(frame)
    # the same face is often asked about twice (a face and the same pips as another pass's
    # alternative, a left-over pip that seeded a die-first look): the answer is kept per frame
    key = (tuple(tuple(float(v) for v in p) for p in pips), float(reach), expect)
    if key not in pyr.looks:
        pyr.looks[key] = _look_scaled(pyr, pips, reach, expect)
    return dataclasses.replace(pyr.looks[key])


def _look_scaled(pyr: Pyramid, pips: list[tuple[float, float, float]], reach: float, expect: int) -> DieBody:
    """look() on the pyramid level where the pips are LOOK_PIP-2xLOOK_PIP pixels, in frame pixels."""
    d = float(statistics.median([p[2] for p in pips]))
    k = max(int(math.floor(math.log2(max(d, 1e-3) / LOOK_PIP))), 0)
    img = pyr.level(k)
    s = pyr.levels[0].shape[1] / img.shape[1]
    if s == 1.0:
        return _look(img, pips, reach, expect)

    def to_frame(x: float, y: float) -> tuple[float, float]:
        return (x + 0.5) * s - 0.5, (y + 0.5) * s - 0.5

    b = _look(img, [((x + 0.5) / s - 0.5, (y + 0.5) / s - 0.5, pd / s) for x, y, pd in pips], reach / s, expect)
    if b.kind not in ("die", "square"):
        return b
    b.x, b.y = to_frame(b.x, b.y)
    b.side *= s
    bx, by, bw, bh = b.box
    b.box = (int(bx * s), int(by * s), int(math.ceil(bw * s)), int(math.ceil(bh * s)))
    b.pips = [to_frame(x, y) for x, y in b.pips]
    b.pip_d *= s
    return b


def _look(frame: np.ndarray, pips: list[tuple[float, float, float]], reach: float, expect: int) -> DieBody:
    """look() at the frame's own scale."""
    fh, fw = frame.shape[:2]
    xs = np.float32([p[0] for p in pips])
    ys = np.float32([p[1] for p in pips])
    d = float(statistics.median([p[2] for p in pips]))
    cx, cy = float(xs.mean()), float(ys.mean())
    x0, y0 = max(int(cx - reach), 0), max(int(cy - reach), 0)
    x1, y1 = min(int(math.ceil(cx + reach)) + 1, fw), min(int(math.ceil(cy + reach)) + 1, fh)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return DieBody("small")
    roi = frame[y0:y1, x0:x1]
    sigma = max(0.15 * d, 0.6)
    # Lab as three float planes (the distances below are made per plane, without copies)
    lab8 = cv2.cvtColor(cv2.GaussianBlur(roi, (0, 0), sigma), cv2.COLOR_BGR2LAB)
    lab = [p.astype(np.float32) for p in cv2.split(lab8)]
    lx, ly = xs - x0, ys - y0
    # body samples: a ring just outside each pip (np.minimum/np.maximum: np.clip without its overhead)
    r = 0.5 * d * 1.7 + 1.0
    rw_, rh_ = x1 - x0, y1 - y0
    sx = np.minimum(np.maximum(np.rint((lx[:, None] + r * RING_COS).ravel()), 0), rw_ - 1).astype(int)
    sy = np.minimum(np.maximum(np.rint((ly[:, None] + r * RING_SIN).ravel()), 0), rh_ - 1).astype(int)
    ring = lab8[sy, sx].astype(np.float32)
    body = median(ring)
    pip_px = lab8[np.minimum(np.maximum(np.rint(ly).astype(int), 0), rh_ - 1),
                  np.minimum(np.maximum(np.rint(lx).astype(int), 0), rw_ - 1)].astype(np.float32)
    pip = median(pip_px)
    dist = _dist(lab, body)
    ring_d = dist[sy, sx]
    pip_gap = float(np.linalg.norm((pip - body) * np.float32([1, 1.3, 1.3])))
    spread = float(median(ring_d.ravel()))
    # the surroundings: the ROI border, where the table (or whatever is next to the die) lies
    border = np.concatenate([dist[0], dist[-1], dist[:, 0], dist[:, -1]])
    around = float(median(border))
    lo_thr = BODY_SPREAD_K * spread + 6.0
    if around < AROUND_K * lo_thr or pip_gap < GAP_K * lo_thr:
        if not _framed(dist, lx, ly, d, spread):
            return DieBody("faint")
        if len(pips) == 1:
            side = _square_side(dist, lx, ly, d, spread)
            if side:
                # a lone pip framed by a square of a die's size: a one on a die the colour of the table
                return DieBody("square", cx, cy, side, dark=bool(pip[0] < body[0]), body_l=float(body[0]),
                               pip_l=float(pip[0]), pip_d=d)
        return DieBody("framed")
    thr = max(min(0.5 * around, 0.45 * pip_gap), lo_thr)
    body_mask = (dist <= thr).astype(np.uint8)
    n, lbl = cv2.connectedComponents(body_mask, connectivity=4)
    if n < 2:
        return DieBody("faint")
    hits = lbl[sy, sx]
    hits = hits[hits > 0]
    if hits.size < 0.4 * sx.size:
        return DieBody("faint")
    label = int(np.bincount(hits).argmax())
    comp = (lbl == label).astype(np.uint8)
    # fill the pips' holes (and anything else enclosed by body)
    cnts, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cnt = max(cnts, key=cv2.contourArea)
    solid = np.zeros_like(comp)
    cv2.drawContours(solid, [cnt], -1, 1, -1)
    bx, by, bw, bh = cv2.boundingRect(cnt)
    touches = int(bx <= 0) + int(by <= 0) + int(bx + bw >= rw_) + int(by + bh >= rh_)
    if touches >= 2 and (bw >= 0.95 * rw_ or bh >= 0.95 * rh_):
        return DieBody("surface")
    (rcx, rcy), (rw, rh), rect_angle = cv2.minAreaRect(cnt)
    area = float(cv2.contourArea(cnt))
    side = max(rw, rh)
    fill = area / max(rw * rh, 1.0)
    aspect = side / max(min(rw, rh), 1.0)
    if touches:
        return DieBody("touch")
    if fill < DIE_FILL or aspect > DIE_ASPECT or side < 2.2 * d:
        return DieBody("shape")
    out = DieBody("die", rcx + x0, rcy + y0, side, (bx + x0, by + y0, bw, bh), dark=bool(pip[0] < body[0]),
                  body_l=float(body[0]), pip_l=float(pip[0]), pip_d=d, angle=float(rect_angle))
    # pips inside: far from the body colour, towards the pip colour
    er = max(int(round(0.05 * side)), 1)
    inner = cv2.erode(solid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 1, 2 * er + 1)))
    to_pip = _dist(lab, pip)
    spots = ((dist > 0.5 * pip_gap) & (to_pip < dist) & (inner > 0)).astype(np.uint8)
    n, lbl, stats, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    pip_area = math.pi * (0.5 * d) ** 2
    # the found pips' size is measured at a threshold and runs small on blurred pips: the spots'
    # own typical area is the unit when it is close to it; when some pips touch, the median spot
    # may be two pips, so the lower quartile is tried next
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float32)
    areas = areas[areas >= 0.3 * pip_area]
    units = [float(median(areas)), float(percentile(areas, 25))] if areas.size else []
    units = [u for u in units if 0.6 * pip_area <= u <= 2.2 * pip_area] or [pip_area]
    readings = []
    for unit in units:
        count, found, largest = _count_spots(stats, cents, lbl, unit, side, x0, y0)
        if count == 1 and (fill < ONE_FILL or aspect > ONE_ASPECT
                           or 2 * math.sqrt(largest / math.pi) > ONE_PIP * side):
            return out  # a lone spot in a round or long blob, or a big hole, is a letter or a stud
        if count == 2 and _glare_two(found, out.x, out.y, side, [_at(lab, x - x0, y - y0) for x, y in found], body):
            # a pip and a glare spot on a glossy die are no two: a one when one of them is its centre
            if fill < ONE_FILL or aspect > ONE_ASPECT:
                continue
            count, found = 1, [p for p in found if math.hypot(p[0] - out.x, p[1] - out.y) <= ONE_CENTRE * side][:1]
            if not found:
                continue
        if 1 <= count <= 6 and _symmetric(found, out.x, out.y, side, d) and diagonal(found, out.angle):
            if count >= 3 and count != expect and layout_fit(found)[0] > OFF_LAYOUT:
                # spots off every layout: glare or another face's spot taken in (unless the pip
                # search read the face so too); the part of them in a layout, if there is one
                at = [(min(max(int(round(x - x0)), 0), rw_ - 1), min(max(int(round(y - y0)), 0), rh_ - 1)) for x, y in found]
                # the pip search's own pips (ring-checked) are pips: the spot nearest each stays
                keep = {min(range(len(found)), key=lambda i: math.hypot(found[i][0] - px, found[i][1] - py))
                        for px, py, _ in pips} if expect else set()
                part = _layout_part(found, [float(dist[j, i]) for i, j in at], out, d,
                                    fill >= ONE_FILL and aspect <= ONE_ASPECT, keep)
                if part is not None:
                    count, found = len(part), part
            readings.append((count, found))
    if readings:
        # where the pip search's own count is one of the readings, the two agree: take it
        out.count, out.pips = next((r for r in readings if r[0] == expect), readings[0])
    return out


def _layout_part(found: list[tuple[float, float]], contrast: list[float], die: DieBody, d: float,
                 one_ok: bool, keep: set[int] | None = None) -> list[tuple[float, float]] | None:
    """The pips among a clean die's spots that lie off every face's layout, or None (no part found).

    Glare on a glossy die (a streak across its middle, a ring round a pip) and a spot of a
    neighbour's or of the die's own bevel add spots to its pips; the pips alone still lie in their
    face's exact layout. The largest part of the spots that does, as a die's face at this die's
    scale (OUTLINE_FIT, OUTLINE_SCALE of its side), about its centre (_symmetric; a two or three on
    a diagonal), is taken when it is the only such part of its size; a part counts only when every
    spot left out differs from the body (``contrast``: the look's colour distance at each spot's centre) by
    at most PART_FAINT of the least of the pips kept (glare and bevels are fainter than the pips; a
    one's yellow pip stands out more than the white glare ringing it). A one: the spot at the die's
    centre, on a square die (``one_ok``). Spots of ``keep`` (the pip search's own pips) are in every part.
    """
    side = die.side
    for k in range(len(found) - 1, 0, -1):
        parts = []
        for part in itertools.combinations(range(len(found)), k):
            if keep and not keep.issubset(part):
                continue
            if max(contrast[i] for i in range(len(found)) if i not in part) > PART_FAINT * min(contrast[i] for i in part):
                continue
            xy = [found[i] for i in part]
            if k == 1:
                if one_ok and math.hypot(xy[0][0] - die.x, xy[0][1] - die.y) <= ONE_CENTRE * side:
                    parts.append(xy)
                continue
            misfit, scale = layout_fit(xy)
            if (misfit <= OUTLINE_FIT and OUTLINE_SCALE[0] * side <= scale <= OUTLINE_SCALE[1] * side
                    and _symmetric(xy, die.x, die.y, side, d) and diagonal(xy, die.angle)):
                parts.append(xy)
        if parts:
            return parts[0] if len(parts) == 1 else None
    return None


def _count_spots(stats: np.ndarray, cents: np.ndarray, lbl: np.ndarray, unit: float, side: float, x0: int,
                 y0: int, bars: bool = True) -> tuple[int, list[tuple[float, float]], float]:
    """Pips in the spots of a die (touching pips count by area): count, centres, largest spot area.

    A spot the area counts two that is a bar of three (see _bar_of_three) counts three, with
    ``bars``, when the die's spots then make a six in its layout (a six's two columns); else the
    area's count stands (two pips of a small five or three bridged by blur make such a bar too)."""
    count = 0
    barred = False
    found: list[tuple[float, float]] = []
    largest = 0.0
    for i in range(1, len(stats)):
        a = float(stats[i, cv2.CC_STAT_AREA])
        if a < 0.3 * unit or a > 4.2 * unit:
            continue
        if max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]) > 0.75 * side:
            continue
        k = min(max(int(round(a / unit)), 1), 3) if a > 1.6 * unit else 1
        if k == 2 and bars and BAR_THREE and _bar_of_three(lbl, i, stats[i], unit):
            k, barred = 3, True
        count += k
        largest = max(largest, a)
        if k == 1:
            found.append((float(cents[i][0]) + x0, float(cents[i][1]) + y0))
        else:
            bx, by, bw, bh = (int(v) for v in stats[i, :4])
            found += _split_spot(lbl[by:by + bh, bx:bx + bw] == i, k, x0 + bx, y0 + by)
    if barred and (count != 6 or layout_fit(found)[0] > OFF_LAYOUT):
        return _count_spots(stats, cents, lbl, unit, side, x0, y0, bars=False)
    return count, found, largest


def _bar_of_three(lbl: np.ndarray, i: int, stat: np.ndarray, unit: float) -> bool:
    """True when spot ``i``, which its area counts as two touching pips, is a bar of three: a
    six's column of three touching pips on a small or blurred die, whose spot is narrower than a
    pip at the look's threshold (so that its area reads two pips). Its shape says three: its length
    (a uniform bar's, from its spread along its long axis) is at least BAR_LONG times its width and
    BAR_PIPS times the area unit's diameter. Two touching discs make a bar about 2.2 times as long as
    wide and 1.9 discs long, three about 3.4 and 3.0. Only the spot's own shape and the die's own
    pip unit are used, not its light."""
    bx, by, bw, bh = (int(v) for v in stat[:4])
    ys, xs = np.nonzero(lbl[by:by + bh, bx:bx + bw] == i)
    if xs.size < 4:
        return False
    vals = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float32)))
    length, width = math.sqrt(12.0 * max(float(vals[1]), 0.0)), math.sqrt(12.0 * max(float(vals[0]), 0.0))
    return length >= BAR_LONG * width and length >= BAR_PIPS * 2.0 * math.sqrt(unit / math.pi)


def _at(lab: list[np.ndarray], x: float, y: float) -> np.ndarray:
    """Lab (three planes) at a point, clipped into the image."""
    h, w = lab[0].shape
    xi, yi = min(max(int(round(x)), 0), w - 1), min(max(int(round(y)), 0), h - 1)
    return np.float32([p[yi, xi] for p in lab])


def _alike_two(colours: list[np.ndarray], body: np.ndarray) -> bool:
    """True when a two's two pips have one colour: they differ by at most TWO_ALIKE of their
    difference from the body (a red pip and a white glare spot on a glossy die differ more)."""
    w = np.float32([1, 1.3, 1.3])
    apart = float(np.linalg.norm((colours[0] - colours[1]) * w))
    return apart <= TWO_ALIKE * min(float(np.linalg.norm((c - body) * w)) for c in colours)


def _glare_two(pips: list[tuple[float, float]], cx: float, cy: float, side: float, colours: list[np.ndarray],
               body: np.ndarray) -> bool:
    """True when a "two" is a one's pip and a glare spot: one spot at the die's centre (a two's pips
    never are), the two of different colours (see _alike_two)."""
    centred = min(math.hypot(x - cx, y - cy) for x, y in pips) <= ONE_CENTRE * side
    return centred and not _alike_two(colours, body)


def _framed(dist: np.ndarray, lx: np.ndarray, ly: np.ndarray, d: float, spread: float) -> bool:
    """True when the body around the pips ends within a die's reach on nearly every side.

    A die on a table of nearly its own colour still shows its outline (shading, a shadow, an edge
    line); a printed mark on a panel or a hole in a plate has the same plain surround far beyond.
    """
    h, w = dist.shape
    cx, cy = float(lx.mean()), float(ly.mean())
    r_in = float(np.sqrt((lx - cx) ** 2 + (ly - cy) ** 2).max()) + 0.9 * d
    side = max(2.0 * r_in, 3.5 * d)
    ts = np.linspace(r_in, r_in + FRAME_REACH * side, 24, dtype=np.float32)
    ang = np.linspace(0, 2 * np.pi, 16, endpoint=False, dtype=np.float32)
    xs = np.clip(np.rint(cx + np.cos(ang)[:, None] * ts[None, :]), 0, w - 1).astype(int)
    ys = np.clip(np.rint(cy + np.sin(ang)[:, None] * ts[None, :]), 0, h - 1).astype(int)
    vals = dist[ys, xs]
    hits = (vals > max(FRAME_K * spread + 4.0, FRAME_MIN)).any(1)
    return int(hits.sum()) >= FRAME_RAYS


def _square_side(dist: np.ndarray, lx: np.ndarray, ly: np.ndarray, d: float, spread: float) -> float:
    """The side of the square outline centred on a lone pip (0 when the outline is no such square).

    The rays of _framed end where they cross the outline; around a one they end on a square (its
    corners SQUARE_SPAN or more farther than its sides), around a coin or a round stud on a circle.
    """
    h, w = dist.shape
    cx, cy = float(lx[0]), float(ly[0])
    ts = np.linspace(0.9 * d, 0.9 * d + FRAME_REACH * 3.5 * d, 48, dtype=np.float32)
    ang = np.linspace(0, 2 * np.pi, 32, endpoint=False, dtype=np.float32)
    xs = np.clip(np.rint(cx + np.cos(ang)[:, None] * ts[None, :]), 0, w - 1).astype(int)
    ys = np.clip(np.rint(cy + np.sin(ang)[:, None] * ts[None, :]), 0, h - 1).astype(int)
    hit = dist[ys, xs] > max(FRAME_K * spread + 4.0, FRAME_MIN)
    if not hit.any(1).all():
        return 0.0
    t = ts[hit.argmax(1)]
    if t.max() < SQUARE_SPAN * t.min():
        return 0.0
    best = None
    for phi in np.linspace(0, 0.5 * np.pi, 18, endpoint=False):
        m = np.maximum(np.abs(np.cos(ang - phi)), np.abs(np.sin(ang - phi)))
        half = float(np.median(t * m))
        misfit = float(np.median(np.abs(t * m - half))) / max(half, 1e-3)
        if best is None or misfit < best[0]:
            best = (misfit, half)
    misfit, half = best
    if misfit > SQUARE_FIT or d > ONE_PIP * 2 * half:
        return 0.0
    return 2 * half


def _split_spot(spot: np.ndarray, k: int, x0: int, y0: int) -> list[tuple[float, float]]:
    """Centres of the k touching pips in one spot, spread along its long axis."""
    ys, xs = np.nonzero(spot)
    cx, cy = float(xs.mean()), float(ys.mean())
    if k == 1:
        return [(cx + x0, cy + y0)]
    cov = np.cov(np.stack([xs, ys]).astype(np.float32))
    vals, vecs = np.linalg.eigh(cov)
    ax = vecs[:, 1]
    # a uniform bar of k discs: centres at +-(k-1)/k of the half length, half length = sqrt(3 var)
    half = math.sqrt(3.0 * max(float(vals[1]), 0.0)) * (k - 1) / k
    return [(cx + x0 + t * half * float(ax[0]), cy + y0 + t * half * float(ax[1]))
            for t in np.linspace(-1.0, 1.0, k)]


def diagonal(pips: list[tuple[float, float]], body_angle: float) -> bool:
    """A two or three lies along a diagonal of its die (an 8's or a colon's holes line up with a side)."""
    if len(pips) not in (2, 3):
        return True
    xy = np.float32(pips)
    dx, dy = xy[-1] - xy[0] if len(pips) == 2 else _far_pair(xy)
    rel = (math.degrees(math.atan2(float(dy), float(dx))) - body_angle) % 90.0
    return abs(rel - 45.0) <= DIAG_TOL


def _far_pair(xy: np.ndarray) -> np.ndarray:
    d2 = ((xy[:, None] - xy[None]) ** 2).sum(2)
    i, j = np.unravel_index(int(np.argmax(d2)), d2.shape)
    return xy[j] - xy[i]


def _symmetric(pips: list[tuple[float, float]], cx: float, cy: float, side: float, d: float) -> bool:
    """Every die face's pips are point-symmetric about the face's centre (a one sits at the centre).

    Spots that break this are glare, a chip, or a neighbouring face's pips, so the count is not
    trusted.
    """
    xy = np.float32(pips)
    mid = xy.mean(0)
    if math.hypot(mid[0] - cx, mid[1] - cy) > SYM_CENTRE * side:
        return False
    mirrored = 2 * mid - xy
    dists = np.sqrt(((mirrored[:, None] - xy[None]) ** 2).sum(2)).min(1)
    return bool((dists <= max(SYM_D * d, SYM_SIDE * side)).all())


def _lab_diff(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    """The Lab difference of two BGR images plane by plane (L, a, b; float32): _lab(a) - _lab(b)
    exactly (8-bit Lab differences are whole numbers), without 3-channel float copies, and each
    plane contiguous for cv2.magnitude."""
    return [cv2.subtract(p, q, dtype=cv2.CV_32F) for p, q in zip(
        cv2.split(cv2.cvtColor(a, cv2.COLOR_BGR2LAB)), cv2.split(cv2.cvtColor(b, cv2.COLOR_BGR2LAB)), strict=True)]


def foreground(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """Mask (working size) of pixels that differ from the local table colour, and the working scale."""
    h, w = frame.shape[:2]
    scale = max(max(h, w) / WORK_SIDE, 1.0)
    size = (max(int(round(w / scale)), 8), max(int(round(h / scale)), 8))
    # exact 2x2 box halvings first, then a short linear step: nearly INTER_AREA's result, a
    # fraction of its time at non-integer ratios
    small = frame
    while small.shape[1] >= 2 * size[0] and small.shape[0] >= 2 * size[1]:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if small.shape[1] != size[0] or small.shape[0] != size[1]:
        small = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    sh, sw = small.shape[:2]
    tiny = cv2.resize(small, (max(sw // BG_SHRINK, 3), max(sh // BG_SHRINK, 3)), interpolation=cv2.INTER_AREA)
    k = min(BG_KERNEL, (min(tiny.shape[:2]) // 2) * 2 - 1)
    if k >= 3:
        tiny = cv2.medianBlur(tiny, k)
    bg = cv2.resize(tiny, (sw, sh), interpolation=cv2.INTER_LINEAR)
    dist = _fg_dist(small, bg)
    mask = (dist > _fg_threshold(dist)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    return mask, scale


def _fg_dist(small: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """The foreground's colour distance of each pixel from the table colour (float32, working size).

    A shadow only darkens the table: darkening counts less than brightening or a change of hue, so
    dice stand out from their own shadows (a black die is dark enough to stand out anyway).
    SHADOW_W * d where d < 0, else d, is the larger of d and SHADOW_W * d (0 < SHADOW_W < 1): the
    float32 values np.where gave, in two passes over the plane and no boolean one; the Lab planes
    are dropped as soon as they are used (the read's traced peak lies here)."""
    dl, da, db = _lab_diff(small, bg)
    ab = _magnitude(da, db)
    np.multiply(ab, 1.3, out=ab)
    np.multiply(dl, SHADOW_W, out=da)
    cv2.max(dl, da, dst=dl)
    del da, db
    return _magnitude(dl, ab)


FG_PROOF = True  # foreground: the sparse median is skipped where a count proves it too low to matter (False: always taken)


def _fg_threshold(dist: np.ndarray) -> float:
    """The foreground's colour distance threshold: max(NOISE_K x the frame's typical distance (the
    median of every other pixel of every other row), MIN_FG).

    Where more than half of those pixels lie at or below MIN_FG / NOISE_K (less a margin of 1 %),
    both middle values do, so NOISE_K x the median is below MIN_FG and the threshold is MIN_FG:
    then the count (one pass) stands for the median (a copy and a partition). The same threshold
    either way. 91 frames sampled from the tuning sets (every eighth real dev photo, 40 renders) had
    a typical distance of 1.0-4.6 (MIN_FG / NOISE_K = 4.67), so the count nearly always decides;
    a noisy or busy frame takes the median as before."""
    sample = dist[::2, ::2]
    if FG_PROOF and np.count_nonzero(sample <= 0.99 * MIN_FG / NOISE_K) > sample.size // 2:
        return MIN_FG
    return max(NOISE_K * float(median(sample.ravel())), MIN_FG)


def _dist_img(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a - b
    return _magnitude(d[..., 0], 1.3 * _magnitude(d[..., 1], d[..., 2]))


def find_dice(frame: np.ndarray, taken: list[tuple[float, float, float]],
              pyramid: Pyramid | None = None, fg: tuple[np.ndarray, float] | None = None,
              gains: np.ndarray | None = None) -> list[DieBody]:
    """Dice the pip search missed: spots inside blobs off the table seed a look at the die around them.

    ``taken`` are (x, y, half side) of dice already read; spots inside them are skipped, and every
    die found here is added to it. ``fg`` is foreground(frame) when the caller has it already.
    Dice that touch (or share a shadow) make one blob: its spots are measured against each die's
    own body (see _blob_spots), and it gets seeds for as many dice as it could hold, by the size
    of the dice already read in this frame. ``gains`` (the frame's white-balance gains, B, G, R)
    let a lone die-sized blob be read from its red pips too (see _red_spots).
    """
    mask, scale = fg if fg is not None else foreground(frame)
    # two-level contours: a die inside a tray (itself a ring of foreground) is an outer contour too
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    sh, sw = mask.shape
    # the frame's die size: of the dice already read, or (none read) of its lone die-like blobs
    die_side = 2.0 * median(np.float32([r for _, _, r in taken])) if taken else _blob_die_side(contours, hier, scale,
                                                                                           BLOB_MAX * min(sh, sw))
    out = []
    tries = 0
    light = None  # the frame's median brightness, when a blob is read from red pips
    for ci, cnt in enumerate(contours):
        if hier[0][ci][3] != -1 or cv2.contourArea(cnt) < 30:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
        if max(rw, rh) > BLOB_MAX * min(sh, sw):
            continue
        bx, by, bw, bh = (v * scale for v in cv2.boundingRect(cnt))
        # a blob no bigger than the die already read inside it is that die
        inside = [r for tx, ty, r in taken if bx <= tx <= bx + bw and by <= ty <= by + bh]
        if inside and max(bw, bh) <= 2.6 * max(inside):
            continue
        side = max(rw, rh) * scale
        holds = 1
        if die_side > 0:
            holds = min(max(int(round(cv2.contourArea(cnt) * scale * scale / (die_side * die_side))), 1), BLOB_DICE)
        outline = cnt.astype(np.float32) * scale
        spots = _blob_spots(frame, outline, side, min(die_side, side) if die_side else side)
        free = _untaken(spots, taken)
        found = False
        red: list[tuple[float, float, float]] = []
        for x, y, d in free[:SEEDS_PER_BLOB * holds]:
            if tries >= MAX_SEEDS:
                return out
            if any(abs(x - tx) < r and abs(y - ty) < r for tx, ty, r in taken):
                continue
            tries += 1
            die = look(pyramid or frame, [(x, y, d)], 1.3 * 5.0 * d)
            if die.kind == "die" and die.count:
                out.append(die)
                taken.append((die.x, die.y, 0.5 * die.side))
                found = True
        die = None
        # an outline _outline_die refuses reads no die on any of the paths below (see _die_shaped)
        shaped = die_side > 0 and (not SHAPE_FIRST or _die_shaped(outline, die_side))
        if not found and shaped and (free or (gains is not None and not inside)):
            die = _outline_sizes(frame, outline, die_side, free) if free else None
            if die is None and not inside and free:
                # a lone die-sized blob whose spots did not make a face: its spots against its own body
                spots = [s for s in _inner_spots(frame, outline, die_side)
                         if not any(abs(s[0] - tx) < r and abs(s[1] - ty) < r for tx, ty, r in taken)]
                die = _outline_sizes(frame, outline, die_side, spots) if spots else None
            if die is None and not inside and gains is not None:
                # nor against its colour: red pips on a smoky or marbled body, in redness alone
                if light is None:
                    light = float(median(frame[::16, ::16].max(2).ravel()))
                die, red = _red_read(frame, outline, die_side, gains, RED_SHARE * light, taken)
            if die is None and not inside and DARK_PIPS:
                # nor in redness: dark pips whose bevels and the die's dark rim hid them, against its body
                spots = _untaken(_dark_spots(frame, outline, die_side), taken)
                die = _outline_sizes(frame, outline, die_side, spots, DARK_REACH) if spots else None
                if die is not None and red and die.count < DARK_RED_MIN:
                    die = None  # a red-pipped die's dark marbling flecks: a one or a two of them is no face
            if die is not None:
                out.append(die)
                taken.append((die.x, die.y, 0.5 * die.side))
                found = True
        if GOLD_PIPS and not found and die is None and shaped and not inside:
            # nor from dark dips: gold pips on a white die, as light as its body but warmer, are rises
            # of log(R/B) above its own body (their blurred pips may leave no spot for _blob_spots)
            spots = _untaken(_dark_spots(frame, outline, die_side, yellow=True, half=DARK_HALF), taken)
            die = _outline_sizes(frame, outline, die_side, spots, DARK_REACH) if spots else None
            if die is None and GOLD_HALF < DARK_HALF:
                # pips in the face's shaded or blurred part are less warm: down to GOLD_HALF of the
                # warmest, for a face of GOLD_FEW pips or more (a token's warm shading makes a two)
                spots = _untaken(_dark_spots(frame, outline, die_side, yellow=True), taken)
                die = _outline_sizes(frame, outline, die_side, spots, DARK_REACH) if spots else None
                if die is not None and die.count < GOLD_FEW:
                    die = None
            if die is not None and red and die.count < DARK_RED_MIN:
                die = None
            if die is not None and die.pip_l < GOLD_LIGHT * die.body_l:
                die = None  # pips far darker than the body in grey: a smoky die's red pips, no gold on white
            if die is not None:
                die.dark = _darker_in_blue(frame, die)
                out.append(die)
                taken.append((die.x, die.y, 0.5 * die.side))
                found = True
        if (RED_CUT and not found and die_side > 0 and gains is not None
                and (inside or side > OUTLINE_SIZE[1] * die_side)):
            # touching dice: the blob cut into parts of the frame's die size, each read from its red pips
            if light is None:
                light = float(median(frame[::16, ::16].max(2).ravel()))
            for part in _cut_parts(frame, outline, die_side, taken):
                if SHAPE_FIRST and not _die_shaped(part, die_side):
                    continue  # neither the red nor the dark read below can give a die on this part
                die, red = _red_read(frame, part, die_side, gains, RED_SHARE * light, taken)
                if die is None and CUT_DARK:
                    # nor in redness: a gold or bronze die's black pips, dips of lightness below the part's own body
                    spots = _untaken(_dark_spots(frame, part, die_side), taken)
                    die = _outline_sizes(frame, part, die_side, spots, DARK_REACH) if spots else None
                    if die is not None and die.count < DARK_RED_MIN and len(red) >= die.count:
                        die = None  # a red-pipped die's flecks; a gold body's glint or two is fewer than its pips
                if die is not None:
                    out.append(die)
                    taken.append((die.x, die.y, 0.5 * die.side))
    return out


def _red_read(frame: np.ndarray, outline: np.ndarray, die_side: float, gains: np.ndarray, floor: float,
              taken: list[tuple[float, float, float]]) -> tuple[DieBody | None, list[tuple[float, float, float]]]:
    """A lone blob's (or a cut part's) die read from its red pips, and the redness peaks found: the
    peaks not taken in a face's layout (_outline_sizes), else at the die's own scale (_red_face,
    RED_OWN), else at a face's grid of pip places (_red_grid, RED_GRID)."""
    red = _red_spots(frame, outline, die_side, gains, floor)
    spots = _untaken(red, taken)
    die = _outline_sizes(frame, outline, die_side, spots) if spots else None
    if die is None and RED_OWN:
        die = _red_face(frame, outline, die_side, gains, floor, spots, taken)
    if die is None and RED_GRID:
        die = _red_grid(frame, outline, die_side, gains, floor, taken)
    return die, red


def _cut_parts(frame: np.ndarray, contour: np.ndarray, die_side: float,
               taken: list[tuple[float, float, float]]) -> list[np.ndarray]:
    """Die-sized parts (outlines, frame pixels) of a blob of touching dice.

    The squares of the dice read inside it are taken out (CUT_TAKEN of their half side); what is
    left is opened over CUT_OPEN of the frame's dice' side (slivers of a read die's rim go); a part
    no longer than OUTLINE_SIZE's largest of that side is one die, a part at most CUT_TWO of it long
    and no wider than one die is two, cut across its long axis where it is narrowest (the neck
    between them) in its middle third."""
    cut = _blob_roi(frame, contour)
    if cut is None:
        return []
    roi, solid, x0, y0 = cut
    h, w = solid.shape
    for tx, ty, r in taken:
        k = CUT_TAKEN * r
        xa, xb = max(int(tx - k) - x0, 0), min(int(math.ceil(tx + k)) - x0 + 1, w)
        ya, yb = max(int(ty - k) - y0, 0), min(int(math.ceil(ty + k)) - y0 + 1, h)
        if xa < xb and ya < yb:
            solid[ya:yb, xa:xb] = 0
    o = max(int(round(CUT_OPEN * die_side)) | 1, 3)
    solid = cv2.morphologyEx(solid, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (o, o)))
    parts: list[np.ndarray] = []
    cnts, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    big = OUTLINE_SIZE[1] * die_side
    for c in cnts:
        if cv2.contourArea(c) < 0.5 * die_side * die_side:
            continue
        (_, _), (rw, rh), ang = cv2.minAreaRect(c)
        long, short = max(rw, rh), min(rw, rh)
        if long <= big:
            parts.append(c.astype(np.float32) + np.float32([x0, y0]))
            continue
        if long > CUT_TWO * die_side or short > big:
            continue
        one = np.zeros_like(solid)
        cv2.drawContours(one, [c], -1, 1, -1)
        ys, xs = np.nonzero(one)
        a = math.radians(ang if rw >= rh else ang + 90.0)
        t = xs * math.cos(a) + ys * math.sin(a)
        lo, hi = float(t.min()), float(t.max())
        bins = np.histogram(t, bins=max(int(hi - lo), 3), range=(lo, hi))[0]
        m = len(bins)
        mid = bins[m // 3: m - m // 3]
        at = lo + (m // 3 + int(np.argmin(mid)) + 0.5) * (hi - lo) / m
        for side_sel in (t < at, t >= at):
            half = np.zeros_like(solid)
            half[ys[side_sel], xs[side_sel]] = 1
            hc, _ = cv2.findContours(half, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            if hc:
                best = max(hc, key=cv2.contourArea)
                parts.append(best.astype(np.float32) + np.float32([x0, y0]))
    return parts


def _darker_in_blue(frame: np.ndarray, die: DieBody) -> bool:
    """True when a die's pips are darker than its body in the blue+green mean (the pip search's dark
    plane, where gold pips on a white die are dark): its body the median over its square, its pips'
    the median at their centres. _outline_die tells dark pips by luminance, where gold pips on a
    white die are as light as the body."""
    fh, fw = frame.shape[:2]
    x0, y0 = max(int(die.x - 0.5 * die.side), 0), max(int(die.y - 0.5 * die.side), 0)
    roi = frame[y0:min(int(math.ceil(die.y + 0.5 * die.side)) + 1, fh), x0:min(int(math.ceil(die.x + 0.5 * die.side)) + 1, fw)]
    if not roi.size:
        return die.dark
    bg = roi[..., 0].astype(np.float32) + roi[..., 1]
    h, w = bg.shape
    pips = [bg[min(max(int(round(y)) - y0, 0), h - 1), min(max(int(round(x)) - x0, 0), w - 1)] for x, y in die.pips]
    return bool(median(np.float32(pips)) < median(bg.ravel()))


def _blob_die_side(contours: Any, hier: np.ndarray, scale: float, limit: float) -> float:
    """The median side (frame pixels) of the blobs shaped like one die (about square, filling
    their rectangle, at most ``limit`` working pixels long): the dice' size when no die was read
    yet (0 if there is no such blob)."""
    sides = []
    for ci, cnt in enumerate(contours):
        if hier[0][ci][3] != -1 or cv2.contourArea(cnt) < 30:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
        if (max(rw, rh) <= min(limit, DIE_ASPECT * max(min(rw, rh), 1.0))
                and cv2.contourArea(cnt) >= DIE_FILL * rw * rh):
            sides.append(max(rw, rh) * scale)
    return float(median(np.float32(sides))) if sides else 0.0


SHAPE_FIRST = True  # find_dice reads a lone blob (or a cut part) only when _die_shaped passes (False: every path asked)


def _die_shaped(contour: np.ndarray, die_side: float) -> bool:
    """True when a blob's outline is shaped like one of the frame's dice: its min-area rectangle's
    long side OUTLINE_SIZE of ``die_side``, filled DIE_FILL and at most DIE_ASPECT elongated.

    _outline_die refuses any other outline whatever its spots, so find_dice asks this before it
    seeks spots to read the outline from (_inner_spots, _red_read, _dark_spots): on an outline it
    refuses, every one of those paths ends in no die (_red_face and _red_grid end in _outline_die
    on the same outline too)."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    side = max(rw, rh)
    return _shape_fits(side, float(cv2.contourArea(contour)) / max(rw * rh, 1.0), side / max(min(rw, rh), 1.0), die_side)


def _shape_fits(side: float, fill: float, aspect: float, die_side: float) -> bool:
    """_die_shaped's test on an outline's long side, fill and aspect (_outline_die's first test)."""
    return bool(OUTLINE_SIZE[0] * die_side <= side <= OUTLINE_SIZE[1] * die_side and fill >= DIE_FILL and aspect <= DIE_ASPECT)


def _outline_die(frame: np.ndarray, contour: np.ndarray, die_side: float,
                 spots: list[tuple[float, float, float]], reach: float = 0.0, scale_side: float = 0.0) -> DieBody | None:
    """A die known by its own outline off the table: a square blob of this frame's dice size whose
    spots lie in a die face's exact layout (its scale OUTLINE_SCALE of the blob's side, or of
    ``scale_side`` when given: the die's own side where the blob takes in its shadow).

    Marbled, glossy and translucent bodies defeat look()'s body-colour test (their own colour
    varies as much as the table differs from it), but the table around them still outlines them.
    """
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    side = max(rw, rh)
    fill = float(cv2.contourArea(contour)) / max(rw * rh, 1.0)
    aspect = side / max(min(rw, rh), 1.0)
    if not _shape_fits(side, fill, aspect, die_side):
        return None
    inside = [s for s in spots if math.hypot(s[0] - cx, s[1] - cy) <= (reach * side if reach else 0.5 * min(rw, rh))]
    if not inside:
        return None
    # the pips are the face's most contrasting spots (spots come sorted so) of one size
    d = inside[0][2]
    pips = [s for s in inside if 0.6 * d <= s[2] <= 1.6 * d]
    d = float(median(np.float32([s[2] for s in pips])))
    if len(pips) > 6 or not OUTLINE_PIP[0] * side <= d <= OUTLINE_PIP[1] * side:
        return None
    xy = [(x, y) for x, y, _ in pips]
    if len(pips) == 2:
        # a pip and a glare spot are no two (see _alike_two): a one when one of them is the centre
        x0, y0 = max(int(cx - 0.5 * side), 0), max(int(cy - 0.5 * side), 0)
        roi = frame[y0:int(math.ceil(cy + 0.5 * side)) + 1, x0:int(math.ceil(cx + 0.5 * side)) + 1]
        if roi.shape[0] >= 3 and roi.shape[1] >= 3:
            lab = cv2.split(_lab(cv2.GaussianBlur(roi, (3, 3), 0)))
            if _glare_two(xy, cx, cy, side, [_at(lab, x - x0, y - y0) for x, y in xy],
                          np.median(np.stack(lab, -1).reshape(-1, 3), 0)):
                xy = [p for p in xy if math.hypot(p[0] - cx, p[1] - cy) <= ONE_CENTRE * side][:1]
                pips = [s for s in pips if (s[0], s[1]) in xy]
    if len(pips) == 1:
        if (math.hypot(xy[0][0] - cx, xy[0][1] - cy) > OUTLINE_ONE * side or fill < ONE_FILL or aspect > ONE_ASPECT
                or d > ONE_PIP * side):
            face = _face_around(contour, xy[0], min(rw, rh), angle, d)
            if not face or not _plain_corners(frame, xy[0], 0.5 * face, angle, d):
                return None
            (cx, cy), side = xy[0], face  # the top face around its one pip (the blob holds a side face too)
    else:
        misfit, fit_scale = layout_fit(xy)
        if (misfit > OUTLINE_FIT or not OUTLINE_SCALE[0] * (scale_side or side) <= fit_scale <= OUTLINE_SCALE[1] * side
                or not _symmetric(xy, cx, cy, side, d) or not diagonal(xy, angle)):
            return None
    fh, fw = frame.shape[:2]
    x0, y0 = max(int(cx - 0.5 * side), 0), max(int(cy - 0.5 * side), 0)
    roi = frame[y0:min(int(math.ceil(cy + 0.5 * side)) + 1, fh), x0:min(int(math.ceil(cx + 0.5 * side)) + 1, fw)]
    grey = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.size else np.zeros((1, 1), np.uint8)
    body_l = float(np.median(grey))
    pip_l = float(median(np.float32([grey[min(max(int(round(y)) - y0, 0), grey.shape[0] - 1),
                                          min(max(int(round(x)) - x0, 0), grey.shape[1] - 1)] for x, y in xy])))
    bx, by, bw, bh = cv2.boundingRect(np.rint(contour).astype(np.int32))
    return DieBody("die", float(cx), float(cy), float(side), (bx, by, bw, bh), len(pips), xy, pip_l < body_l,
                   body_l, pip_l, d, float(angle))


def _outline_sizes(
    frame: np.ndarray, contour: np.ndarray, die_side: float, spots: list[tuple[float, float, float]],
    reach: float = 0.0, scale_side: float = 0.0,
) -> DieBody | None:
    """_outline_die with the face's pip size taken from each of the blob's spots in turn.

    _outline_die takes the pips' size from the blob's most contrasting spot; where that is a speck
    (glare, a fleck of marbling, a pip's dark rim) the face's real pips, of another size, are left
    out and fit no layout. Each other spot of a different size (strongest first) then sets the
    size instead; the face must still fit a die's exact layout, so spots of no one size stay no die.
    """
    die = _outline_die(frame, contour, die_side, spots, reach, scale_side)
    tried = [spots[0][2]] if spots else []
    for k, s in enumerate(spots[1:], 1):
        if die is not None:
            break
        if any(0.6 * t <= s[2] <= 1.6 * t and 0.6 * s[2] <= t <= 1.6 * s[2] for t in tried):
            continue
        tried.append(s[2])
        die = _outline_die(frame, contour, die_side, [s] + spots[:k] + spots[k + 1 :], reach, scale_side)
        if die is not None and die.count < 2:
            die = None
    return die


def _face_around(
    contour: np.ndarray, pip: tuple[float, float], short: float, angle: float, d: float
) -> float:
    """The side of a die's top face centred on a lone pip inside a die's blob (0: none).

    Seen from above but off the camera's axis, a die's blob holds a side face too (and a rounded
    die fills less of its rectangle), so a one's pip lies off the blob's centre. The pip is a one
    when it is the centre of a square face inside the blob: its distance to the outline is at least
    ONE_REACH of the blob's short side (a two's or a corner pip lies nearer an edge), and the square
    of that half side (FACE_CORNER of it towards each corner) lies inside the blob too (a disc, a
    coin or a washer, reaches no corner). The pip must be a one's against that face: not larger
    than ONE_PIP of it, nor smaller than ONE_SPECK (a glare speck or a bit of marbling).
    """
    reach = cv2.pointPolygonTest(contour, (float(pip[0]), float(pip[1])), True)
    if reach < ONE_REACH * short or not ONE_SPECK * 2.0 * reach <= d <= ONE_PIP * 2.0 * reach:
        return 0.0
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    h = FACE_CORNER * reach
    for u, v in DIAGONALS:
        q = (pip[0] + h * (u * ca - v * sa), pip[1] + h * (u * sa + v * ca))
        if cv2.pointPolygonTest(contour, q, False) < 0:
            return 0.0
    return 2.0 * reach


def _plain_corners(frame: np.ndarray, pip: tuple[float, float], reach: float, angle: float, d: float) -> bool:
    """True when a one's face around a lone pip has plain body where the other faces have corner pips.

    A three's or a five's centre pip found alone also sits at its face's centre: their corner pips
    (CORNER_AT of the pip's distance to the outline along each diagonal) are pip-coloured. Colours
    are the face's own: the body the median of the four edge midpoints (plain on a one, a two, a
    three, a four and a five), the pip the lone pip's; each corner must lie less than CORNER_T of
    the way from body to pip (a median over a small disc each)."""
    r = max(int(math.ceil(reach + d)), 2)
    fh, fw = frame.shape[:2]
    x0, y0 = max(int(pip[0]) - r, 0), max(int(pip[1]) - r, 0)
    y1, x1 = min(int(pip[1]) + r + 1, fh), min(int(pip[0]) + r + 1, fw)
    roi = frame[y0:y1, x0:x1]
    if roi.shape[0] < 5 or roi.shape[1] < 5:
        return False
    lab = _lab(cv2.GaussianBlur(roi, (3, 3), 0)).reshape(-1, 3)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    xx, yy = xx.ravel(), yy.ravel()
    rad = max(0.3 * d, 1.0)

    def at(x: float, y: float) -> np.ndarray | None:
        near = (xx - x) ** 2 + (yy - y) ** 2 <= rad * rad
        return np.median(lab[near], 0) if near.any() else None

    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    k = CORNER_AT * reach
    pip_c = at(pip[0], pip[1])
    mids = [at(pip[0] + k * (u * ca - v * sa), pip[1] + k * (u * sa + v * ca)) for u, v in AXES]
    corners = [at(pip[0] + k * (u * ca - v * sa), pip[1] + k * (u * sa + v * ca)) for u, v in DIAGONALS]
    if pip_c is None or any(c is None for c in mids + corners):
        return False
    body = np.median(np.stack(mids), 0)
    axis = pip_c - body
    gap = float(axis @ axis)
    if gap < 1.0:
        return False
    return all(float((c - body) @ axis) / gap < CORNER_T for c in corners)


def _blob_roi(frame: np.ndarray, contour: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int] | None:
    """The frame around a blob (2 px beyond its box), the blob filled in it (0/1), and the box's
    top-left corner; None when the blob is under 8 px across."""
    fh, fw = frame.shape[:2]
    x, y, w, h = cv2.boundingRect(np.rint(contour).astype(np.int32))
    x0, y0, x1, y1 = max(x - 2, 0), max(y - 2, 0), min(x + w + 2, fw), min(y + h + 2, fh)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    roi = frame[y0:y1, x0:x1]
    solid = np.zeros(roi.shape[:2], np.uint8)
    cv2.drawContours(solid, [np.rint(contour - np.float32([x0, y0])).astype(np.int32)], -1, 1, -1)
    return roi, solid, x0, y0


def _blob_inner(frame: np.ndarray, contour: np.ndarray, die_side: float
                ) -> tuple[float, np.ndarray, np.ndarray, int, int] | None:
    """A lone die-sized blob's inner part: (its side, its ROI, the ROI's pixels inside the blob with
    its rim (INNER_RIM of its side) eroded off, the ROI's x and y in the frame); None for a blob not
    OUTLINE_SIZE of ``die_side`` or with under 30 inner pixels."""
    _, (rw, rh), _ = cv2.minAreaRect(contour)
    side = max(rw, rh)
    if not OUTLINE_SIZE[0] * die_side <= side <= OUTLINE_SIZE[1] * die_side:
        return None
    cut = _blob_roi(frame, contour)
    if cut is None:
        return None
    roi, solid, x0, y0 = cut
    er = max(int(round(INNER_RIM * side)), 1)
    inner = cv2.erode(solid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 1, 2 * er + 1))) > 0
    if int(inner.sum()) < 30:
        return None
    return side, roi, inner, x0, y0


def _inner_spots(frame: np.ndarray, contour: np.ndarray, die_side: float) -> list[tuple[float, float, float]]:
    """Spots inside a lone die-sized blob, against the blob's own inner colour (x, y, d), strongest first.

    _blob_spots measures pips against a local median a third of a die wide: on a small die (pips of
    3-5 px) that window holds the die's dark rim and the table too. A blob that is one die's outline
    has one body: its inner part (the rim eroded off) has the body as its median colour.
    """
    got = _blob_inner(frame, contour, die_side)
    if got is None:
        return []
    side, roi, inner, x0, y0 = got
    lab = _lab(cv2.GaussianBlur(roi, (3, 3), 0))
    body = np.median(lab[inner], 0)
    dist = _dist_img(lab, body.reshape(1, 1, 3))
    vals = np.clip(dist[inner], 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    spread = float(np.median(vals))
    spots = ((dist > max(otsu, INNER_K * spread + 6.0)) & inner).astype(np.uint8)
    n, lbl, stats, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    out = []
    for i in range(1, n):
        a = float(stats[i, cv2.CC_STAT_AREA])
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if a < 3 or max(bw, bh) > 1.8 * min(bw, bh) + 1 or a < 0.5 * bw * bh:
            continue
        d = 2.0 * math.sqrt(a / math.pi)
        if d > OUTLINE_PIP[1] * side:
            continue
        out.append((float(dist[lbl == i].mean()), float(cents[i][0] + x0), float(cents[i][1] + y0), d))
    out.sort(reverse=True)
    return [(sx, sy, d) for _, sx, sy, d in out]


def _red_plane(frame: np.ndarray, contour: np.ndarray, die_side: float, gains: np.ndarray, smooth: float = 0.25,
               least: float = 0.8) -> tuple[np.ndarray, np.ndarray, int, int, float] | None:
    """A lone die-sized blob's redness (white-balanced red over the larger other channel) smoothed
    over ``smooth`` of a pip (at least ``least`` pixels): (the plane over the blob's ROI, its inner
    part (see _blob_inner), the ROI's x and y in the frame, the pip size RED_PIP of the frame's
    dice' side or the blob's when smaller); None where _blob_inner gives none."""
    got = _blob_inner(frame, contour, die_side)
    if got is None:
        return None
    side, roi, inner, x0, y0 = got
    d = RED_PIP * min(side, die_side)
    b, g, r = (c.astype(np.float32) * float(k) for c, k in zip(cv2.split(roi), gains, strict=True))
    red = cv2.GaussianBlur(r - cv2.max(g, b), (0, 0), max(smooth * d, least))
    return red, inner, x0, y0, d


def _red_spots(frame: np.ndarray, contour: np.ndarray, die_side: float, gains: np.ndarray,
               floor: float, fine: bool = False) -> list[tuple[float, float, float]]:
    """Red pips inside a lone die-sized blob (x, y, d), reddest first: peaks of redness against the blob's own.

    Red pips on a smoky, black or marbled die hardly differ from its body in lightness, and glare and
    marbling differ more in colour (see _inner_spots), but the pips are the die's reddest parts:
    redness (white-balanced red over the larger other channel) peaks at each pip, smoothed over a
    quarter of a pip so a pip's glare dot or uneven dye makes one peak. A peak is a pip when it is
    red (above ``floor``, RED_SHARE of the frame's brightness) and at least RED_HALF as far above the
    blob's median redness as the reddest, which stands out of the body's own spread (INNER_K, as
    for _inner_spots). Pips of a die are RED_PIP of its side across (the frame's dice' side, or the
    blob's when smaller): the peaks are taken at least 0.8 of that apart. The caller keeps the
    spots only in a die face's exact layout (_outline_sizes). ``fine``: smoothed over RED_FINE of
    a pip only (see _red_face).
    """
    got = _red_plane(frame, contour, die_side, gains, *((RED_FINE, RED_FINE_MIN) if fine else (0.25, 0.8)))
    if got is None:
        return []
    red, inner, x0, y0, d = got
    body = float(np.median(red[inner]))
    spread = float(np.median(np.abs(red[inner] - body)))
    k = max(int(round(0.7 * d)) | 1, 3)
    peak = (red >= cv2.dilate(red, np.ones((k, k), np.uint8))) & inner & (red > floor)
    ys, xs = np.nonzero(peak)
    if not len(xs):
        return []
    over = red[ys, xs] - body
    top = float(over.max())
    if top < INNER_K * spread + 6.0:
        return []
    out: list[tuple[float, float, float]] = []
    for i in np.argsort(-over, kind="stable"):
        if over[i] < RED_HALF * top:
            break
        x, y = float(xs[i] + x0), float(ys[i] + y0)
        if all(math.hypot(x - px, y - py) > 0.8 * d for px, py, _ in out):
            out.append((x, y, d))
    return out


def _red_face(frame: np.ndarray, contour: np.ndarray, die_side: float, gains: np.ndarray, floor: float,
              spots: list[tuple[float, float, float]], taken: list[tuple[float, float, float]]) -> DieBody | None:
    """A lone blob's red pips read at the die's own scale when they fit no layout at the blob's.

    A JPEG holds colour at half size, and its blocks blur a 30-40 px die's red pips into one red
    blob: the redness peaks (``spots``, _red_spots) lie nearer each other than the pips, and the
    blob (the die and its shadow) is larger than the die, so a face's layout falls short of
    OUTLINE_SCALE of the blob's side. It is measured here against the frame's dice' side when the
    blob is larger (the die's own size), with those spots and then with the peaks of a redness
    smoothed over RED_FINE of a pip only (merged pips part again). A face read so (two pips or
    more) must show plain body where the other faces have pips (see _plain_cells): a six or a
    five whose pips were partly lost leaves red where a four or a three has none.
    """
    _, (rw, rh), _ = cv2.minAreaRect(contour)
    own = min(max(rw, rh), die_side)
    plane = None
    for k in range(2):
        if k:
            spots = _untaken(_red_spots(frame, contour, die_side, gains, floor, fine=True), taken)
        die = _outline_sizes(frame, contour, die_side, spots, scale_side=own) if spots else None
        if die is None or die.count < 2:
            continue
        plane = plane or _red_plane(frame, contour, die_side, gains)
        if plane is not None and _plain_cells(plane, die):
            return die
    return None


GRID_PITCH = np.linspace(0.18, 0.34, 9)  # a face's pip pitch (centre to a corner pip, per axis) sought at these shares of its side
GRID_TURN = (-8.0, 0.0, 8.0)  # ... and at these degrees off its blob's outline
GRID_ON = 0.4  # every pip cell at least this share of the way from the body to the reddest cell
GRID_GAP = 0.15  # ... and this share above every plain cell
GRID_WARM = 3  # ... or, a face of this many pips or more, red over green above it (a blue body's blur; 0: off)
GRID_PLAIN = 4  # ... where none stands out of the blob's spread, a face of this many pips or more out of its plain cells (0: off)
GRID_PROOF = True  # _red_grid returns at once where the plane's reddest pixel proves no cell stands out (False: every grid laid)


def _red_grid(frame: np.ndarray, contour: np.ndarray, die_side: float, gains: np.ndarray, floor: float,
              taken: list[tuple[float, float, float]]) -> DieBody | None:
    """A lone blob's face read from its redness at a face's 3 x 3 grid of pip places.

    Where a die's red pips merged in the JPEG's half-size colour, its redness peaks are fewer than its
    pips, but the redness at each pip place still stands above the plain body between them. The grid
    is laid at the blob's outline angle (GRID_TURN off it), at each pip pitch of GRID_PITCH of the
    die's own side (the blob's or the frame's dice', the smaller), centred on every inner pixel; a
    face is the grid whose pips' cells are all red (GRID_ON of the way from the blob's median to its
    reddest cell, and above the red floor) and stand GRID_GAP above every plain cell, for exactly
    one face's layout (no ones). The reddest cell must stand out of the blob's redness spread
    (INNER_K); where no face does, a face of GRID_PLAIN pips or more may instead stand INNER_K times
    above its grid's reddest plain cell and once above the blob's spread, on a body under the red
    floor (a blue marbled body's white swirls raise the blob's spread, not the plain places'
    redness). The face then passes
    _outline_die's tests on those places.
    """
    plane = _red_plane(frame, contour, die_side, gains)
    if plane is None:
        return None
    red, inner, x0, y0, d = plane
    (_, _), (rw, rh), angle = cv2.minAreaRect(contour)
    own = min(max(rw, rh), die_side)
    body = float(np.median(red[inner]))
    spread = float(np.median(np.abs(red[inner] - body)))
    # the least any face's reddest cell must reach: INNER_K x the blob's spread, or (GRID_PLAIN, a
    # body under the floor) the spread itself, less a margin for float32 rounding
    need = INNER_K * spread + 6.0 if not (GRID_PLAIN and body < floor) else spread + 6.0 - 1e-3
    if GRID_PROOF and not ((red.max(keepdims=True) - body) >= need).any():
        # every cell's redness over the body is at most the plane's highest (the same float32
        # subtraction as below): no grid's reddest cell can reach what either kind of face needs
        return None
    warm = _warm_plane(frame, contour, gains, d) if GRID_WARM else None  # red over green
    h, w = red.shape
    ys, xs = np.nonzero(inner)
    cells = np.array([complex(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)])
    best: list[tuple[float, int, list[tuple[float, float]]] | None] = [None, None]  # the best face standing out of the blob's spread, and of its plain places only
    for turn in GRID_TURN:
        rot = complex(math.cos(math.radians(angle + turn)), math.sin(math.radians(angle + turn)))
        for k in GRID_PITCH:
            off = cells * rot * k * own
            px = np.rint(xs[:, None] + off.real[None]).astype(int)
            py = np.rint(ys[:, None] + off.imag[None]).astype(int)
            ok = ((px >= 0) & (px < w) & (py >= 0) & (py < h)).all(1)
            if not ok.any():
                continue
            v = red[py[ok].clip(0, h - 1), px[ok].clip(0, w - 1)] - body  # (positions, 9)
            vw = None if warm is None else warm[py[ok].clip(0, h - 1), px[ok].clip(0, w - 1)]
            top = v.max(1)
            for n, on in GRID_FACES:
                low = v[:, on].min(1)
                high = v[:, ~on].max(1)
                face = (low >= GRID_ON * top) & (low - high >= GRID_GAP * top) \
                    & ((low + body > floor) | (vw is not None and n >= GRID_WARM and vw[:, on].min(1) > floor))
                blob = top >= INNER_K * spread + 6.0  # the reddest place stands out of the blob's spread
                plain = None  # ... or out of its plain cells, on a body that is not itself red (a red token)
                if GRID_PLAIN and n >= GRID_PLAIN and body < floor:
                    plain = top >= np.maximum(INNER_K * high, spread) + 6.0
                for tier, good in enumerate((face & blob, None if plain is None else face & plain & ~blob)):
                    if good is None or not good.any():
                        continue
                    q = int(np.argmax(np.where(good, (low - high) / np.maximum(top, 1e-6), -1.0)))
                    score = float((low[q] - high[q]) / top[q])
                    at = int(np.flatnonzero(ok)[q])
                    if best[tier] is None or score > best[tier][0]:
                        best[tier] = (score, n, [(float(xs[at] + x0 + o.real), float(ys[at] + y0 + o.imag)) for o, f in zip(off, on, strict=True) if f])
    pick = best[0] or best[1]  # the plain places' face only where no face stood out of the blob's spread
    if pick is None:
        return None
    spots = [(x, y, d) for x, y in pick[2]]
    if _untaken(spots, taken) != spots:
        return None
    die = _outline_die(frame, contour, die_side, spots, scale_side=own)
    return die if die is not None and die.count == pick[1] else None


def _warm_plane(frame: np.ndarray, contour: np.ndarray, gains: np.ndarray, d: float) -> np.ndarray | None:
    """A blob's red over green (white-balanced), smoothed as _red_plane's redness, over the same ROI."""
    cut = _blob_roi(frame, contour)
    if cut is None:
        return None
    roi = cut[0]
    g, r = (roi[..., c].astype(np.float32) * float(gains[c]) for c in (1, 2))
    return cv2.GaussianBlur(r - g, (0, 0), max(0.25 * d, 0.8))


def _plain_cells(plane: tuple[np.ndarray, np.ndarray, int, int, float], die: DieBody) -> bool:
    """True when a face's pips stand in its 3 x 3 grid with plain body in every other cell.

    The grid is the face's own: its layout fitted to its pips (_layout_pose), so each cell lies a
    pip pitch from its neighbours at the face's scale and angle. In ``plane`` (a redness, see
    _red_plane) each cell off the layout must lie less than CORNER_T of the way from the body (the
    blob's inner median) to the pips (their median): a four whose six's middle pips or a three
    whose five's corners were lost in the redness shows them there."""
    red, inner, x0, y0, _ = plane
    body = float(np.median(red[inner]))
    h, w = red.shape

    def at(z: complex) -> float | None:
        x, y = int(round(z.real)) - x0, int(round(z.imag)) - y0
        return float(red[y, x]) if 0 <= x < w and 0 <= y < h else None

    centre, a, k_x = _layout_pose(die.pips)
    on = set(LAYOUTS[die.count])
    pips = [at(complex(x, y)) for x, y in die.pips]
    cells = [at(centre + a * complex(i * k_x, j)) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) not in on]
    if any(v is None for v in pips + cells):
        return False
    pip = float(median(np.float32(pips)))
    return pip - body >= 1.0 and all((v - body) / (pip - body) < CORNER_T for v in cells)


def _untaken(spots: list[tuple[float, float, float]], taken: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """The spots (x, y, d) that lie in none of the squares ``taken`` (centre x, y and half side r)."""
    return [s for s in spots if not any(abs(s[0] - tx) < r and abs(s[1] - ty) < r for tx, ty, r in taken)]


def _dark_spots(frame: np.ndarray, contour: np.ndarray, die_side: float,
                yellow: bool = False, half: float = 0.0) -> list[tuple[float, float, float]]:
    """Dark pips inside a lone die-sized blob (x, y, d), deepest first: dips of lightness below the blob's body.

    Black pips on a gold, bronze or brass die: a pip's bright bevel ring and the die's dark rim
    make one dark blob with it at a box-mean threshold, and the metallic body's own shading and
    glare spread its colour as much as the pips differ from it (see _inner_spots). But each pip is
    a round dip of lightness: smoothed over a quarter of a pip (RED_PIP of the side, as
    _red_spots), every local minimum in the blob (grown by half a pip: its outline may cut through
    a pip) that lies at least DARK_HALF as deep below the body (the median of the blob's inner
    part, its rim eroded) as the deepest, which stands out of the body's own spread, is a pip
    when its dip at that depth is short (at most DARK_LONG pips: the die's dark rim or a vein runs
    on) and it is a dip all round: on at least DARK_AROUND of 12 samples DARK_RING pips from it the
    lightness climbs DARK_LIFT of its depth (a side face stays dark on one side). The caller keeps
    the spots only in a die face's exact layout (find_dice: within DARK_REACH of the blob's side
    from its centre, the blob often taking in the die's shadow).

    With ``yellow``: gold pips on a white die (GOLD_PIPS), as light as the body but warmer: the same
    search in -log(R/B) (GOLD_RATIO; Lab b* without it), its body the median of the blob's less
    warm half (a small die's blurred pips fill much of it) and without the DARK_LONG test (a six's
    touching gold pips make one long rise; a white die has no dark rim in it), and (GOLD_OWN) each
    rise's share taken of the warmest rise that passes the ring test, a pip of its own: the deepest
    minimum in the grown blob may be a warm wooden table at its edge. ``half`` sets that share
    (default GOLD_HALF with ``yellow``, else DARK_HALF).
    """
    got = _blob_inner(frame, contour, die_side)
    if got is None:
        return []
    side, roi, inner, x0, y0 = got
    d = RED_PIP * min(side, die_side)
    cut = _blob_roi(frame, contour)
    if cut is None:
        return []
    g = max(int(round(0.5 * d)), 0)
    sel = cv2.dilate(cut[1], np.ones((2 * g + 1, 2 * g + 1), np.uint8)) > 0
    # (yellow: gold pips on a white body, rises of warmth above the body's; a lamp's gains multiply
    # R and B, so log(R/B) of body and pips shifts by one constant and their difference stays)
    if yellow and GOLD_RATIO:
        f = roi.astype(np.float32) + 1.0
        plane = GOLD_SCALE * cv2.log(f[..., 0] / f[..., 2])  # log(B/R), falling where the pips are warmer
    else:
        plane = _lab(roi)[..., 2 if yellow else 0].astype(np.float32)
        if yellow:
            plane = -plane
    light = cv2.GaussianBlur(plane, (0, 0), max(0.25 * d, 0.8))
    vals = light[inner]
    if yellow:
        vals = vals[vals >= np.median(vals)]  # (its less warm half: blurred pips fill much of a small die)
    body = float(np.median(vals))
    spread = float(np.median(np.abs(vals - body)))
    deep = body - light
    k = max(int(round(0.7 * d)) | 1, 3)
    ys, xs = np.nonzero((deep >= cv2.dilate(deep, np.ones((k, k), np.uint8))) & sel)
    if not len(xs):
        return []
    over = deep[ys, xs]
    top = float(over.max())
    if top < spread + 6.0:
        return []
    # each pip's own dip at that depth: the die's dark rim or a vein is one long stretch of it
    n, lbl, stats, _ = cv2.connectedComponentsWithStats(((deep >= DARK_HALF * top) & sel).astype(np.uint8),
                                                        connectivity=8)
    long = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) > DARK_LONG * d
    h, w = light.shape
    ring = DARK_RING * d
    rx = np.cos(_RING12) * ring
    ry = np.sin(_RING12) * ring
    out: list[tuple[float, float, float]] = []
    own = yellow and GOLD_OWN  # (the share taken of the warmest rise that is a pip: see GOLD_OWN)
    for i in np.argsort(-over, kind="stable"):
        if own and not out:
            if over[i] < spread + 6.0:
                break  # no rise that is a pip stands out of the body's spread
        elif over[i] < (half or (GOLD_HALF if yellow else DARK_HALF)) * top:
            break
        x, y = float(xs[i] + x0), float(ys[i] + y0)
        if (long[lbl[ys[i], xs[i]]] and not yellow) or not all(math.hypot(x - px, y - py) > 0.8 * d for px, py, _ in out):
            continue
        sx = np.clip(np.rint(xs[i] + rx).astype(int), 0, w - 1)
        sy = np.clip(np.rint(ys[i] + ry).astype(int), 0, h - 1)
        if int((light[sy, sx] - light[ys[i], xs[i]] >= DARK_LIFT * over[i]).sum()) >= DARK_AROUND:
            if own and not out:
                top = float(over[i])  # the warmest pip: the table's warmth in the blob's grown rim sets no share
            out.append((x, y, d))
    return out


def _blob_spots(frame: np.ndarray, contour: np.ndarray, side: float,
                die_side: float | None = None) -> list[tuple[float, float, float]]:
    """Round spots inside a blob that stand out from the body around them: pip candidates (x, y, d).

    The body is the blob's local median colour over about a third of a die (LOCAL_BODY x
    ``die_side``, default the blob's ``side``): in a blob of two touching dice, or a die and its shadow, each pip is measured
    against its own die, not against the blob's overall median, which may be neither die's colour.
    """
    die_side = die_side or side
    cut = _blob_roi(frame, contour)
    if cut is None:
        return []
    roi, solid, x0, y0 = cut
    sel = solid > 0
    if int(sel.sum()) < 30:
        return []
    smooth = cv2.GaussianBlur(roi, (3, 3), 0)
    lab = _lab(smooth)
    body = _local_body(smooth, LOCAL_BODY * die_side)
    if body is None:
        body = np.median(lab[sel], 0).reshape(1, 1, 3)
    dist = _dist_img(lab, body)
    vals = np.clip(dist[sel], 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    spots = ((dist > max(otsu, 20.0)) & sel).astype(np.uint8)
    # a spot touching the blob's rim is its shadow, its edge or a neighbour, not a pip
    rim = sel & ~(cv2.erode(solid, np.ones((3, 3), np.uint8)) > 0)
    n, lbl, stats, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    on_rim = np.zeros(n, bool)
    on_rim[np.unique(lbl[rim])] = True
    out = []
    for i in range(1, n):
        a = float(stats[i, cv2.CC_STAT_AREA])
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if on_rim[i] or a < 4 or max(bw, bh) > 1.8 * min(bw, bh) + 1 or a < 0.5 * bw * bh:
            continue
        d = 2.0 * math.sqrt(a / math.pi)
        if d > 0.35 * die_side and die_side < 3 * max(bw, bh):
            continue
        # its pixels in its own box (the same pixels in the same order as over the whole ROI)
        x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        contrast = float(dist[y:y + bh, x:x + bw][lbl[y:y + bh, x:x + bw] == i].mean())
        out.append((contrast, float(cents[i][0] + x0), float(cents[i][1] + y0), d))
    out.sort(reverse=True)
    return [(cx, cy, d) for _, cx, cy, d in out]


def _local_body(img: np.ndarray, width: float) -> np.ndarray | None:
    """Lab of the median colour over about ``width`` pixels around each pixel (None: too small to tell).

    The median runs on a copy shrunk until its window is LOCAL_KERNEL pixels: pips vanish from it
    all the same, at a small part of a wide median's cost.
    """
    h, w = img.shape[:2]
    f = max(width / LOCAL_KERNEL, 1.0)
    sw, sh = max(int(round(w / f)), 1), max(int(round(h / f)), 1)
    k = min(int(width / f) | 1, (min(sw, sh) - 1) | 1)
    if k < 5:
        return None
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA) if f > 1.0 else img
    med = cv2.medianBlur(small, k)
    if f > 1.0:
        med = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)
    return _lab(med)


# a six's columns lie this many times the layout's 2 pitches apart: makers differ (most real
# top-down sixes fit best at 0.7-0.8, columns 1.4-1.6 pitches apart; 0.7 also fits a four plus
# the first row of its side face); the other faces are square by symmetry
SIX_STRETCH = (0.8, 0.9, 1.0)
LAYOUTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
           4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
           6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


# _red_grid's faces as masks of its 3 x 3 cells (x, y in -1, 0, 1; rows first): both diagonals of a two
# and a three, a six's columns or rows
_CELLS = [(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)]
GRID_FACES = [(n, np.array([c in set(cs) for c in _CELLS])) for n, cs in (
    (2, LAYOUTS[2]), (2, [(1, -1), (-1, 1)]), (3, LAYOUTS[3]), (3, [(1, -1), (0, 0), (-1, 1)]),
    (4, LAYOUTS[4]), (5, LAYOUTS[5]), (6, LAYOUTS[6]), (6, [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)]))]


def face_layout(n: int, k_x: float = 1.0) -> np.ndarray:
    """A face's pip layout as complex x + iy, a six's columns ``k_x`` times as far apart."""
    return np.array([complex(k_x * x, y) for x, y in LAYOUTS[n]])


PERMS = {n: np.array(list(itertools.permutations(range(n)))) for n in range(2, 7)}
# each face's layout centred, one row per six's stretch (the textbook layout last)
LAYOUTS_C = {n: np.array([face_layout(n, k_x) for k_x in (SIX_STRETCH if n == 6 else (1.0,))]) for n in range(2, 7)}
LAYOUTS_C = {n: w - w.mean(1, keepdims=True) for n, w in LAYOUTS_C.items()}


def _best_fit(points: list[tuple[float, float]], stretch: bool = True) -> tuple[float, float, Any, Any, float]:
    """The fit of 2-6 pips to a die face's layout by the best rotation, scale and shift (any pip
    order; a six's columns also nearer, ``SIX_STRETCH``, unless ``stretch`` is False): (rms misfit /
    layout scale, layout scale in pixels, the complex factor on the layout's units, the pips' mean
    in the best order, the six's column stretch). See layout_fit and _layout_pose."""
    n = len(points)
    z = np.array([complex(x, y) for x, y in points])
    zp = z[PERMS[n]]  # (P, n): the pips in every order
    mean = zp.mean(1, keepdims=True)
    zc = zp - mean
    wc = LAYOUTS_C[n] if n == 6 and stretch else LAYOUTS_C[n][-1:]  # (S, n): each stretch's layout
    a = (zc[None] * np.conj(wc[:, None])).sum(2) / (np.abs(wc) ** 2).sum(1)[:, None]  # (S, P)
    res = np.sqrt((np.abs(zc[None] - a[..., None] * wc[:, None]) ** 2).mean(2))
    scale = np.maximum(np.abs(a), 1e-6)
    s, q = np.unravel_index(int(np.argmin(res / scale)), res.shape)
    k_x = (SIX_STRETCH[s] if stretch else SIX_STRETCH[-1]) if n == 6 else 1.0
    return float(res[s, q] / scale[s, q]), float(np.abs(a[s, q])), a[s, q], mean[q, 0], k_x


def layout_fit(points: list[tuple[float, float]], stretch: bool = True) -> tuple[float, float]:
    """How well pips match a die face's layout: (rms misfit / layout scale, layout scale in pixels).

    The face's pattern is fitted by the best rotation, scale and shift (any pip order); a real face
    fits within a small share of its scale, a row of print or a keyboard's keys rarely do. A six
    may have its columns nearer (``SIX_STRETCH``) unless ``stretch`` is False (a slanted face, whose
    foreshortening would pass for that).
    """
    if len(points) < 2 or len(points) > 6:
        return 0.0, 0.0
    return _best_fit(points, stretch)[:2]


def _layout_pose(points: list[tuple[float, float]]) -> tuple[complex, complex, float]:
    """The best fit of layout_fit (2-6 pips): the layout's centre (its (0, 0) cell) and its scale and
    rotation (a complex factor on the layout's units) in the frame, and its six's column stretch."""
    _, _, a, mean, k_x = _best_fit(points)
    return complex(mean - a * face_layout(len(points), k_x).mean()), complex(a), k_x
