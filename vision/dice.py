"""Dice reader: find dice on a plain surface, count the pips of the top face, name body and pip colour.

The reader works from the pips outwards, so it does not care what colour the table is:
1. pips are small round blobs clearly darker (or brighter) than their immediate surround, found
   with a ratio threshold against a local mean on a small image pyramid (small and large dice);
   dark pips are sought in a blue+green plane (gold pips on a white die are dark there), bright
   pips in luminance; blobs of touching pips (a six on a small die) count as two or three; a
   second pass searches both polarities in the brightest channel (coloured pips on coloured
   bodies), but not on dice the first pass read cleanly (see _explained), and where both passes
   found a face on one die the one with more pips is kept; on
   frames with red pixels a third pass seeks bright pips in the red channel (red pips on blue or
   black dice), its local mean taken over the dice alone so a white table does not lift it; the
   two finest levels are searched only in boxes where a cheap pre-pass (vision.dice_scout) sees
   spots on the next coarser level;
2. a blob counts as a pip only if a ring around it is a uniform die body (or touching pips) and
   it is solid inside; a blob holding pips of the other polarity is a whole small die, not a pip;
3. pips of one polarity are linked when they are close for their size, sit on bodies of the same
   grey value, and the straight line between them stays on die body (no die edge, table gap or
   shadow in between): each linked group is one visible face; a face of 2-5 pips is fitted onto
   the larger faces' layouts, and pips the search missed are taken where the layout puts them
   when they look like the face's own;
4. in oblique views the side faces of a die form further groups next to the top face: of two
   groups that touch, the one on the darker body of the same colour, with flatter pips, or lower
   in the frame with narrower pips is a side face and is dropped;
5. the die around each face is looked at in the face's own colours (vision.dice_body): a face on
   a surface that runs on (a plate, a printed panel) is dropped, and so is one whose body does not
   stand out from its surroundings unless its pips lie in a die's exact layout; a lone pip needs a
   clean square die around it; inside a clean die the pips are counted again relative to its body
   colour, which mends faces whose pips the search split or lost (small dice, marbled bodies); with
   no clean die around it, a two with more pip-coloured matter beside its pips (print) and a face
   whose pips are much flatter than the frame's clean dice' (a side face, print) are dropped;
6. dice the pip search missed are looked for from their bodies: pips that made no face, and round
   spots inside blobs that differ from a median-estimated table colour (each spot measured against
   its own die's local body colour, so dice that touch in one blob are seen one by one), each seed
   a look at the die around them, kept when a clean die with a die's pip layout is there; a blob
   of the frame's dice size whose spots lie in a face's exact layout is a die by its outline
   (marbled and glossy bodies), and a lone "one" inside such a die is one of its pips;
7. body and pip colour come from white-balanced Lab samples (pip darker or brighter than the body
   is the strongest cue); a profile taught from the players' own dice replaces the built-in rules.

Confidence drops for a lone pip with no die edge around it (a coin looks like a one), for blurred
rims, low contrast and pip layouts that do not fit a face.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import statistics
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision import dice_body, dice_scout
from vision.common import CLIPPED, ImageError, Observation, check_frame, median, percentile

BODIES = ("white", "black", "other")
PIP_COLOURS = ("gold", "white", "black")

# Pyramid levels: pips of equivalent diameter [lo, hi) (frame pixels) are taken from the level
# whose scale brings them to 3-10 level pixels; the ratio threshold uses a box mean of BLOCK pixels.
LEVEL_DIAMETERS = ((2.6, 10.0), (10.0, 20.0), (20.0, 40.0), (40.0, 80.0))
BLOCK = 25
DARK_RATIO = 0.74  # a dark pip is below this fraction of its local mean
BRIGHT_RATIO = 1.28  # a bright pip is above this multiple of its local mean (plus an offset)
DARK_LUT = np.clip(np.arange(256) * DARK_RATIO - 3, 0, 255).astype(np.uint8)
BRIGHT_LUT = np.clip(np.arange(256) * BRIGHT_RATIO + 8, 0, 255).astype(np.uint8)
MIN_CONTRAST = 0.28  # |body - pip| / max(body, pip) below this is not a pip
LINK_SPAN = 4.6  # pips of one face are at most this many pip diameters apart
RING_K = 1.35  # the body ring around a pip, in pip radii
WAIST = 0.3  # touching pips show a waist this share of their contrast lighter (darker) between them
MIN_UNIFORM = 0.72  # at least this fraction of the ring must look like body (or a touching pip)
BODY_TOL = 0.15  # bodies of one face's pips differ by at most this share of the pip contrast
SIDE_BODY_RATIO = 0.86  # a neighbouring face whose body is darker than this x the other's is a side face
SIDE_PIP_RATIO = 3.5  # a side face's pips are the top face's, foreshortened: as long within this ratio (2 read 3 more
# oblique dev dice and dropped fewer dark dice beside bright table patches, but cost 4-5 % of the time)
SIDE_CHROMA = 0.06  # chromaticity shares of a die's lit and shaded faces differ by at most this
MAX_MASK_FRACTION = 0.18  # real frames put at most ~10 % of pixels in a pip mask
MAX_BLOBS = 2500  # blobs per megapixel of a level above which the level is noise
FG_SUPPORT = 0.2  # the foreground-only mean needs this share of foreground in its box
NEUTRAL_CHROMA = 0.3  # a colour whose channels differ by less than this share of the largest is grey
REDNESS_FLOOR = 0.13  # red pips: red above the other channels by this share of the frame's median brightness
REDNESS_HUE = 0.5  # ... and pips whose green exceeds their blue by at most this share of red's excess over green
# (red, not gold: gold pips are red above green and blue too)
REDNESS_LAYOUT_MIN = 4  # a redness face is kept off a clean die only with this many pips in a die's layout
RED_K, RED_MIN, RED_PIXELS = 1.5, 20.0, 12  # the red pass runs when this many pixels have a
# (white-balanced) red channel above RED_K x their larger other channel + RED_MIN
MAX_SIDE = 2000  # frames are shrunk to this long side first (keeps time bounded on huge photos)
ONE_INSIDE = 0.6  # a one this much smaller than a die-first die around it is one of that die's pips
RESEED_MAX = 40  # pips that made no face seed at most this many die-body looks per frame
RESEED_SMALL = 0.5  # ... and a die they find under this share of the frame's read faces' median size is a pip
# (its glare ring or rim read as the die's outline), not a die (see _reseed)
LAYOUT_MIN = 3  # a faint-bodied face is kept when it has at least this many pips ...
LAYOUT_TOL = 0.15  # ... in a die's layout within this share of the layout's scale
COMPLETE_TOL = 0.4  # a pip the search missed: inside within this share of the face's contrast of its pips
COMPLETE_RING = 1.75  # ... and a ring of body at this many pip radii around it
LAYOUT_LOOSE = 0.3  # a looser fit for faces on a clean body whose recount failed
# a die-first die whose centre lies within this many sides of a die read from its pips is that die
# read again (two dice on a table have centres at least a side apart: the circles inscribed in
# their top faces cannot overlap)
REREAD_D = 0.4
UNREAD_CONF = 0.7  # confidence factor of dice found by their bodies in a frame where none was read from its pips
FRONT_C = 0.8  # ... or its pips' contrast below this share of the top face's lit pips' (see _top_few)
FRONT_ROW = True  # a face's front-face pips below its round top pips dropped after the body check (see _front_row)
FRONT_MOST = 5  # ... at most this many top pips
FRONT_GAP = 1.0  # ... the dropped pips this many top pip diameters below them
FRONT_TWO = 2.0  # ... two top pips at least this many pip diameters apart
FRONT_RECOUNTED = True  # ... also where the body check recounted the face (then three top pips or more)
FRONT_LONE = True  # ... also a single dimmer light pip below two or more top pips when the face lies in no exact layout
FAINT_FRONT = True  # a faint face in no layout cut to its top face as _front_row cuts a kept one (see _faint_front)
FRONT_SIX = True  # a six whose lowest row lies closer to the row above it than that row to the first: a four and its front pips (see _front_six)
FRONT_ROWS = 0.8  # ... the lowest row's gap below this share of the gap above it
GROUP_FRONT = True  # a linked group of more than six pips that is an oblique die's top face and its front face's first row: the top read (see _group_top)
DIE_AS_PIP = True  # a lone bright "pip" that is a whole pale die on a dark table: its dark pips sought inside it (see _pips_inside)
INSIDE_PIP = 0.45  # ... pips up to this share of the blob's diameter
INSIDE_RIM = 0.05  # ... the blob's rim this share of its diameter wide left out of its body
TOP_FEW = True  # an oblique die's top one or two read apart from its front face's pips (see _top_few; False: not)
TOP_ROWS = True  # ... its top pips alike in size row by row and row to row (the near row larger; see _alike_rows)
LONE_CENTRE = True  # ... measured about the pip's own centre of light too (see _own_centre; False: as found)
TWO_TWOS = True  # a group of four pips off a four's layout that is two twos is cut in two (see _two_twos)
TWO_APART = 1.5  # ... each two's pips at least this many pip diameters apart (a six's column's: about 1)
LONE_RIM = 0.68  # a lone pip's inside, 0.6 radii from its centre, lies this share of the way from body to pip
# (a sharp rim; 0.72 before: a 5-6 px pip's inside is blurred by the camera and JPEG, 0.70-0.71 there)
SPLIT_GAP, SPLIT_FIT = 1.25, 0.3  # ... and a group of six cut too: see _two_dice_linked
SPLIT_MAX = 18  # a linked group of more than six pips, up to this many (three dice), is cut into faces
SQUARE_ON = 1.35  # a face whose pips are at most this elongated is seen square-on (top-down: 1.0-1.3)
FRONT_D = 0.85  # a squashed pip below an oblique die's top: at most this share of its round pips' diameter
OWN_APART = 0.75  # a square-on face this far (share of the face size) from another is no side face of it
CHAIN_LONG, CHAIN_MIN = 5.0, 1.6  # a slanted blob of touching pips: upright box at most this x the
# level's largest pip, its own box at least this many times as long as wide ...
CHAIN_FILL = 0.62  # ... and it fills at most this share of its upright box
WB_BRIGHT, WB_REACH, WB_RADIUS = 0.7, 0.9, 0.1  # the dice's own white: see _dice_white
WB_PIP_BODY = 0.35  # ... bright pips count when their tint (log channel ratios) is within this of their body's
WB_LONE = 0.3  # ... a single white body this near neutral after the frame's light estimate confirms it
WB_CAMERA = True  # ... or, with no set, a white body this near neutral in the camera's own balance is taken
GOLD_UNMIX = True  # gold pips on a coloured body told by _unmixed_blue (False: by the Lab projection)
GOLD_BLUE = -0.6  # ... gold when the unmixed pip's log(B/G) is below this (white: about 0; gold -0.7 to -3.4)
GOLD_DARK = 0.45  # a dark pip is gold only at this share of its body's Lab L or more (black: at most 0.3)
WB_CLIP_REACH = 0.45  # ... a clipped pip channel's ratio is taken at most this far past the frame's light
WB_NOISE = 1.0  # ... widened by this many levels of a dark body's channel (its log ratios are loose)
WB_LIMITS = (0.5, 2.0)  # the frame's gains for the pip search: a coloured table cannot push them further
CAST_LIMITS = (0.1, 10.0)  # the frame's light estimate itself (a lamp's cast goes far beyond WB_LIMITS)
EXPOSURE_MIN, EXPOSURE_MAX = 120.0, 3.0  # colours of a dim frame are named as if brighter: see _exposure
CAST_MARGIN = 1.3  # with no white among the dice, a cast beyond WB_LIMITS by more than this is taken off
OFF_FACE = 1.45  # a recount's added pip this far out in its face's layout (corner pips at 1) is off that face
PRINT_REACH = 0.9  # a two's face reaches this many pip diameters beyond its pips (a die's margin) ...
PRINT_MATTER = 1.5  # ... and holds no more pip-coloured matter beside its pips than this many pips' area
VOUCH = True  # see _vouched (False: faint ones and twos stay refused)
VOUCH_D = (0.75, 1.5)  # a faint face's pips: this share of the frame's alike dice' pip diameter
VOUCH_ONE = 1.6  # ... a one's pip up to this share (many dice have a larger one)
VOUCH_TWO = 1.75  # ... a two's pips up to this share (a faint black two's pips spread into the body)
VOUCH_ONE_SET = True  # a one is vouched for by twos only when no dice of three pips vouched for them (False: any twos)
VOUCH_COLOUR = 0.2  # ... body colour within this share of those dice' pip-to-body difference
VOUCH_GAP = (0.65, 1.6)  # ... its own pip-to-body difference this share of theirs (a glare spot's is less)
VOUCH_PIP = 1.1  # ... and its pip colour within this share of it from theirs (gold and white pips on
# black dice are about that far apart; a coloured coin farther)
TWO_DIAG = (0.45, 0.95)  # ... a two's pips this share of those dice' side apart (a die's diagonal)
FLAT_UNCLEAN = 1.4  # a face with no clean die around it, its pips this much flatter than the frame's clean dice', is none
SMALL_UNCLEAN = 0.5  # a face of two or more pips with no clean die around it, its pips under this share of
# the pip diameter of the frame's smallest clean die, is none (woven or printed dots; a side pip split in two)
ONE_D = (0.45, 3.0)  # a one's pip: this share of the frame's other faces' pip diameter (else print or glare)
SCOUT = True  # search the fine pyramid levels only where vision.dice_scout sees spots (False: everywhere)
SKIP_EXPLAINED = True  # the brightest-channel pass skips dice the first pass read (see _explained)
CENTRE_T = 0.25  # a "two" read as a three's centre and corner pip: a layout spot is a pip (body) when its
# colour lies within this share of the body-to-pip contrast of the pips' (body's) colour (see _centre_corner)
CENTRE_BELOW = 0.5  # ... a three's plain corner may lie this share beyond the body, away from the pips (a
# streak of a marbled body among its body samples lifts their median towards the pips' colour)
CENTRE_REACH = 0.5  # ... and the die runs on past each corner pip's place by this share of the pips' distance
MID_SEP = 2.5  # a "two" whose pips lie this many pip diameters apart may be a three's or five's corners
MID_T = 0.35  # ... when the spot halfway between them is this near their colour (share of body-to-pip) ...
MID_SPREAD = 1.5  # ... on a body whose four samples differ by at most this share of that contrast (marbled) ...
MID_REACH = 0.2  # ... and the die runs on past each corner's place by this share of the half diagonal (see _corners_mid)
L_LEGS = 1.2  # a "three" at three corners of a square: its legs within this ratio ...
L_ANGLE = 0.1  # ... and its long side within this share of the right angle's (see _corner_l)
SIX_LEGS = (1.25, 2.0)  # ... or legs of this ratio: pips of a six's two columns
L_REACH = 0.25  # ... and the die runs on past each pip by this share of its distance from the centre
COLUMN_BEND = 0.1  # a "three" in a straight row: its middle pip this near halfway (share of its length) ...
COLUMN_MIN = 2.2  # ... its end pips this many pip diameters apart (see _column_six)
SIDE_SEP = 1.5  # a "two" whose pips lie this many pip diameters apart may be two corners along a side (_side_two)
MIDDLE_PIP = 0.12  # a three's or five's middle pip this near its die's centre (share of its side) is its
# centre pip: the die is no four or six, whose faces have none (see _centre_kept)
TWO_CLOSE = 0.3  # a die-first "two" whose pips lie under this share of its side apart, one of them at its
# centre (dice_body.ONE_CENTRE), is a one: its pip split in two, or with a glare spot beside it (see _close_two)
ONE_FRONT = True  # an oblique die's top one read over its front face's pips (see _under_one; False: not)
ONE_FRONT_BELOW = 2.0  # ... every front pip this many of the one's pip diameters below it
ONE_FRONT_REACH = 7.0  # ... their centre within this many of them, no farther to the side than below
ONE_FRONT_D = (0.6, 1.5)  # ... their median diameter this share of the one's pip's
ONE_FRONT_BODY = 0.99  # ... and their body at most this share of the one's (a top face is lit from above)
ONE_FRONT_EACH = True  # ... every front pip's body, not their median: a pip as lit as the one lies on its top face
ONE_FRONT_LIT = 1  # ... but for this many lit ones (a glare on the front face; 0: every front pip darker), when
ONE_FRONT_DARK = 2  # ... this many front pips are darker and no lit one lies above the darker ones' top row by
ONE_FRONT_ROW = 0.5  # ... more than this share of the one's pip diameter (a two's other pip lies on the top face)
# (the one is a two's pip, see _under_one)


@dataclass
class Pip:
    """One pip candidate in frame pixels."""

    x: float
    y: float
    d: float  # minor axis (diameter across the pip)
    major: float
    dark: bool  # darker than the body
    pip_v: float  # grey value of the pip
    body_v: float  # typical grey value of the ring of body around it
    uniform: float  # fraction of ring samples that look like body
    angle: float = 0.0  # direction of the major axis (radians, 0-pi)
    merged: int = 1  # pips this blob would hold if it is touching pips of a six merged into one
    count: int = 1  # pips this blob stands for once its face is known
    chain: bool = False  # touching pips lying across the frame's axes: only a six's column


def _ring_offsets(n: int) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([np.cos(a), np.sin(a)], 1).astype(np.float32)


RING12 = _ring_offsets(12)


def _row_samples(gray: np.ndarray, cand: np.ndarray, m: int, along: np.ndarray, du: np.ndarray,
                 dv: np.ndarray) -> np.ndarray:
    """Samples of rows of m touching pips (candidate rows as _check_rings takes them): at ``along``
    pitches from the row's middle along it, offset by ``du`` along and ``dv`` across in pip radii."""
    fx, fy, major, minor, angle = (cand[:, k, None].astype(np.float32) for k in range(5))
    # pitch of the pips along the row (see _pip_spots), and the pips' radius
    q = np.sqrt(np.maximum((major / 4) ** 2 - (minor / 4) ** 2, 0.0) * 12.0 / (m * m - 1))
    r = 0.5 * minor
    u, v = along * q + du * r, dv * r
    ca, sa = np.cos(angle), np.sin(angle)
    return _sample(gray, fx + u * ca - v * sa, fy + u * sa + v * ca).astype(np.float32)


def _chain_inner(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inside samples of m touching pips in a row: (pip centre along the row in pitches, offset along
    and across in pip radii), five per pip: its centre and four points 0.35 radii from it."""
    offsets = np.float32([[0, 0], [0.35, 0], [-0.35, 0], [0, 0.35], [0, -0.35]])
    along = np.repeat(np.arange(m, dtype=np.float32) - 0.5 * (m - 1), len(offsets))
    return along, np.tile(offsets[:, 0], m), np.tile(offsets[:, 1], m)


CHAIN_INNER = {3: _chain_inner(3)}
BEAD_SIDE = 0.8  # beads are sought this many pip radii beside a row's axis; beside its waists the
BEAD_MIN = 0.2  # plane is at least this share of the contrast nearer the body than beside its pips
RING16 = _ring_offsets(16)
PIP_SPOTS = np.float64([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]])  # where a pip's colour is sampled
INNER = np.concatenate([np.zeros((1, 2), np.float32), 0.3 * _ring_offsets(4), 0.5 * _ring_offsets(8)])


def _sample(img: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    # np.minimum/np.maximum: the same as np.clip for integers, without its per-call overhead
    xi = np.minimum(np.maximum(np.rint(xs).astype(np.int32), 0), w - 1)
    yi = np.minimum(np.maximum(np.rint(ys).astype(np.int32), 0), h - 1)
    return img[yi, xi]


def _blob_shape(contour: np.ndarray, x: int, y: int, w: int, h: int) -> tuple[float, float, float, float, float]:
    """Pixel area, centroid, and major/minor axis (full widths) and angle of a filled outer contour."""
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour], -1, 1, -1, offset=(-x, -y))
    m = cv2.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        return 0.0, x + w / 2, y + h / 2, float(max(w, h)), float(min(w, h)), 0.0
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(max((mu20 - mu02) ** 2 + 4 * mu11 * mu11, 0.0))
    l1 = (mu20 + mu02 + common) / 2
    l2 = max((mu20 + mu02 - common) / 2, 0.0)
    angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02) % math.pi
    return (m["m00"], x + m["m10"] / m["m00"], y + m["m01"] / m["m00"],
            4 * math.sqrt(l1) + 1.0, 4 * math.sqrt(l2) + 1.0, angle)


def _pip_shape(cnt: np.ndarray, x0: int, y0: int, w0: int, h0: int, lo: float,
               hi: float) -> tuple[float, float, float, float, float, int, bool] | None:
    """Centre, axes, angle, merged-pip count and slant (see _slanted_shape) of a contour that looks
    like a pip (or touching pips)."""
    short, long_ = min(w0, h0), max(w0, h0)
    if short < lo * 0.7:
        return None
    # a single pip's width ~ short side; touching pips of a six make the long side 2-3x
    if short >= hi * 1.3 or long_ > short * 3.6 + 1:
        return _slanted_shape(cnt, x0, y0, w0, h0, lo, hi)
    area, cx, cy, major, minor, angle = _blob_shape(cnt, x0, y0, w0, h0)
    if area / (w0 * h0) < 0.42:
        return _slanted_shape(cnt, x0, y0, w0, h0, lo, hi)
    if area < 0.4 * lo * lo or minor < 0.85 * lo or minor >= 1.15 * hi:
        return None
    ratio = major / max(minor, 1.0)
    merged = 1 if ratio < 1.8 else (2 if ratio < 2.7 else 3)
    return cx, cy, major, minor, angle, merged, False


def _slanted_shape(cnt: np.ndarray, x0: int, y0: int, w0: int, h0: int, lo: float,
                   hi: float) -> tuple[float, float, float, float, float, int, bool] | None:
    """_pip_shape's size and fill checks in the blob's own (rotated) box: touching pips of a six's
    column lying across the frame's axes fill little of their upright box.

    Bars of print and key edges pass them too, so such a blob is flagged: it counts only in a six.
    """
    if max(w0, h0) > CHAIN_LONG * hi or cv2.contourArea(cnt) > CHAIN_FILL * w0 * h0:
        return None  # too big, or a round blob that fills its upright box (a slanted one does not)
    (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
    short, long_ = min(rw, rh) + 1.0, max(rw, rh) + 1.0
    if long_ < CHAIN_MIN * short or short < lo * 0.7 or short >= hi * 1.3 or long_ > short * 3.6 + 1:
        return None
    area, cx, cy, major, minor, angle = _blob_shape(cnt, x0, y0, w0, h0)
    ratio = major / max(minor, 1.0)
    if (area / (short * long_) < 0.42 or area < 0.4 * lo * lo or minor < 0.85 * lo or minor >= 1.15 * hi
            or ratio < 1.8):
        return None
    return cx, cy, major, minor, angle, 2 if ratio < 2.7 else 3, True


def _split_blob(g: np.ndarray, mask: np.ndarray, x0: int, y0: int, w0: int, h0: int, lo: float, hi: float,
                is_dark: bool) -> list[tuple[float, float, float, float, float, int, bool]]:
    """Pips of a small die can merge into one blob at the local-mean threshold: split it with Otsu."""
    pad = 2
    ya, yb = max(y0 - pad, 0), min(y0 + h0 + pad, g.shape[0])
    xa, xb = max(x0 - pad, 0), min(x0 + w0 + pad, g.shape[1])
    roi = g[ya:yb, xa:xb]
    kind = cv2.THRESH_BINARY_INV if is_dark else cv2.THRESH_BINARY
    _, sub = cv2.threshold(roi, 0, 255, kind | cv2.THRESH_OTSU)
    sub &= mask[ya:yb, xa:xb]
    out = []
    for cnt in cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        x, y, w, h = cv2.boundingRect(cnt)
        shape = _pip_shape(cnt, x, y, w, h, lo, hi)
        if shape is not None:
            out.append((shape[0] + xa, shape[1] + ya) + shape[2:])
    return out


SPLIT_STEPS = {m: np.linspace(-0.5, 0.5, m, dtype=np.float32)[None, :] for m in (2, 3)}  # see _split_touching


def _split_touching(g: np.ndarray, mean: np.ndarray, cand: list[tuple], is_dark: bool) -> list[tuple]:
    """Touching pips taken as one blob, also tried one by one where the blob has a waist between them.

    The light waist between two small pips of a six can fail the blob's own ring and inside checks
    where each pip passes alone; a foreshortened single pip (a side face) has no waist, so it stays one.
    """
    out: list[tuple] = []
    if not any(c[5] > 1 and not c[6] for c in cand):
        return out  # no blob of touching pips (most boxes): no arrays made
    if SPLIT_PROOF and _no_waists(g, mean, cand, is_dark):
        return out  # (the same answer as below, from a few pixels read one by one)
    for merged in (2, 3):
        # (not slanted blobs: _check_rings would refuse their pieces, which show no beads)
        rows = [c[:5] for c in cand if c[5] == merged and not c[6]]
        if not rows:
            continue
        group = np.float32(rows).reshape(-1, 5)
        cx, cy, major, minor, angle = (group[:, k:k + 1] for k in range(5))
        ts = SPLIT_STEPS[merged] * (major - minor)  # (K, merged)
        mids = 0.5 * (ts[:, 1:] + ts[:, :-1])
        ca, sa = np.cos(angle), np.sin(angle)
        subs = _sample(g, cx + ts * ca, cy + ts * sa).astype(np.float32)
        waist = _sample(g, cx + mids * ca, cy + mids * sa).astype(np.float32)
        local = _sample(mean, cx[:, 0], cy[:, 0]).astype(np.float32)
        sub = subs.mean(1)
        step = (waist - sub[:, None]) if is_dark else (sub[:, None] - waist)
        split = (step >= WAIST * np.abs(local - sub)[:, None]).all(1)
        for k in np.flatnonzero(split):
            # each keeps its share of the blob's length: a foreshortened side face stays flat
            length = max(float(major[k, 0]) / merged, float(minor[k, 0]))
            out += [(float(cx[k, 0] + t * ca[k, 0]), float(cy[k, 0] + t * sa[k, 0]), length, float(minor[k, 0]),
                     float(angle[k, 0]), 1, False) for t in ts[k]]
    return out


SPLIT_PROOF = True  # _split_touching skips rows _no_waists proves unsplit (False: every row sampled as arrays)
SPLIT_EPS = 0.002  # a sample point this near a half pixel is placed in float32 steps (see _no_waists)
SPLIT_TIE = 0.01  # a waist's step this near its threshold proves nothing (see _no_waists)
SPLIT_TS = {2: ((-0.5, 0.5), (0.0,)), 3: ((-0.5, 0.0, 0.5), (-0.25, 0.25))}  # SPLIT_STEPS and their midpoints


def _f32(v: float) -> float:
    """``v`` rounded to float32 (as numpy's float32 arithmetic rounds each result)."""
    return float(np.float32(v))


def _rint_at(c: float, t: float, u: float, n: int) -> int:
    """The pixel index _sample takes for float32 ``c + t * u`` (c, t, u float32 values) in 0..n-1.

    In double precision the point is off float32's by far less than SPLIT_EPS; nearer a half pixel
    than that it is rounded in float32's own steps (numpy rounds each float32 result once)."""
    v = c + t * u
    if abs(v - math.floor(v) - 0.5) < SPLIT_EPS:
        v = _f32(c + _f32(t * u))  # (products and sums of float32 values are exact in double)
        i = round(v)  # half to even, as np.rint
    else:
        i = math.floor(v + 0.5)
    return min(max(i, 0), n - 1)


def _no_waists(g: np.ndarray, mean: np.ndarray, cand: list[tuple], is_dark: bool) -> bool:
    """True when no row of touching pips in ``cand`` would be split by _split_touching: each has a
    waist no lighter (darker) than its pips by the share WAIST of their contrast.

    The same pixels are read as there (the pips' centres, the waists between them, the box mean at
    the row's centre), placed from the same float32 values, but one by one in Python instead of as
    some 30 array operations. A waist whose step lies within SPLIT_TIE of its threshold proves
    nothing (the float32 means and products there round differently), and the arrays decide. So
    the answer is _split_touching's own.
    """
    rows = [c for c in cand if c[5] > 1 and not c[6]]
    group = np.float32([c[:5] for c in rows])
    ang = group[:, 4:5]  # (the view _split_touching takes the cosines of)
    h, w = g.shape[:2]
    for (cx, cy, major, minor, _), merged, ca, sa in zip(group.tolist(), (c[5] for c in rows), np.cos(ang).ravel().tolist(),
                                                        np.sin(ang).ravel().tolist(), strict=True):
        length = _f32(major - minor)
        steps, mids = SPLIT_TS[merged]
        sub = sum(float(g[_rint_at(cy, t * length, sa, h), _rint_at(cx, t * length, ca, w)]) for t in steps) / merged
        need = WAIST * abs(float(mean[_rint_at(cy, 0.0, 0.0, h), _rint_at(cx, 0.0, 0.0, w)]) - sub)
        waists = [float(g[_rint_at(cy, t * length, sa, h), _rint_at(cx, t * length, ca, w)]) for t in mids]
        if not any(((v - sub) if is_dark else (sub - v)) < need - SPLIT_TIE for v in waists):
            return False  # a row that may split: the arrays decide
    return True


def _level_mask(g: np.ndarray, mean: np.ndarray, is_dark: bool) -> np.ndarray:
    """Pixels of one pyramid level clearly darker (or brighter) than their BLOCK box mean ``mean``."""
    if is_dark:
        return cv2.compare(g, cv2.LUT(mean, DARK_LUT), cv2.CMP_LT)
    return cv2.compare(g, cv2.LUT(mean, BRIGHT_LUT), cv2.CMP_GT)


def _level_blobs(g: np.ndarray, mean: np.ndarray, mask: np.ndarray, contours: Any, scale: float,
                 offset: tuple[int, int],
                 lo: float, hi: float, is_dark: bool, sides: tuple[int, int, int, int] = (0, 0, 0, 0),
                 skip: list[tuple[float, float, float, float]] | None = None) -> list[tuple]:
    """Pip-shaped blobs of one level's mask (touching pips split by Otsu), in frame pixels.

    ``g`` and ``mask`` may be a region of the level whose top-left corner is ``offset`` frame pixels;
    blobs closer than ``sides`` pixels to its left, top, right or bottom side are left out, and so
    are blobs within the bounds of such a blob (a box cuts the blobs that cross its side, and opens
    their holes; a pip is found whole in its own box). Blobs whose every candidate would lie in a
    frame box of ``skip`` (see find_pips) are not looked at.
    """
    ox, oy = offset[0] + (scale - 1) / 2, offset[1] + (scale - 1) / 2
    # skip boxes in this region's pixels: a blob's candidates lie in its bounds and the 2 pixels
    # _split_blob looks around it, so those must lie in the box (x0 <= x < x1 in frame pixels)
    inside = [((x0 - ox) / scale + 2, (y0 - oy) / scale + 2, (x1 - ox) / scale - 1, (y1 - oy) / scale - 1)
              for x0, y0, x1, y1 in skip or ()]
    cand: list[tuple] = []
    left, top = sides[0], sides[1]
    right, bottom = g.shape[1] - sides[2], g.shape[0] - sides[3]
    rects = [cv2.boundingRect(cnt) for cnt in contours]
    cut = [(x, y, x + w, y + h) for x, y, w, h in rects if x < left or y < top or x + w > right or y + h > bottom] \
        if any(sides) else []  # (a whole level cuts no blob)
    for cnt, (x0, y0, w0, h0) in zip(contours, rects, strict=True):
        if min(w0, h0) < lo * 0.8 or x0 < left or y0 < top or x0 + w0 > right or y0 + h0 > bottom:
            continue
        if cut and any(a <= x0 and b <= y0 and x0 + w0 <= c and y0 + h0 <= d for a, b, c, d in cut):
            continue  # within a blob the box cuts open: on the whole level it may lie in that blob's hole
        if inside and any(a <= x0 and b <= y0 and x0 + w0 + 2 < c and y0 + h0 + 2 < d for a, b, c, d in inside):
            continue  # explained already: its pips would be dropped
        shape = _pip_shape(cnt, x0, y0, w0, h0, lo, hi)
        if shape is not None:
            cand.append(shape)
        # a slanted blob is also split, as the blobs that are no pip shape at all are
        if (shape is None or shape[6]) and max(w0, h0) <= 7 * hi:
            cand += _split_blob(g, mask, x0, y0, w0, h0, lo, hi, is_dark)
    cand += _split_touching(g, mean, cand, is_dark)
    return [(cx * scale + ox, cy * scale + oy, major * scale, minor * scale, angle, merged, is_dark, chain)
            for cx, cy, major, minor, angle, merged, chain in cand]


def _check_rings(cand: np.ndarray, gray0: np.ndarray) -> list[Pip]:
    """Keep candidates with a uniform ring of body around them and a solid inside (all at once)."""
    fx, fy, major, minor, angle = (cand[:, k].astype(np.float32) for k in range(5))
    is_dark = cand[:, 6] > 0
    ca, sa = np.cos(angle)[:, None], np.sin(angle)[:, None]

    def pts(unit: np.ndarray, ru: np.ndarray, rv: np.ndarray) -> np.ndarray:
        u, v = unit[None, :, 0] * ru[:, None], unit[None, :, 1] * rv[:, None]
        return _sample(gray0, fx[:, None] + u * ca - v * sa, fy[:, None] + u * sa + v * ca).astype(np.float32)

    # the ring keeps the same gap to the rim all round, so touching pips of a six (a long blob)
    # are not measured against the table beyond their ends
    vals = pts(RING16, 0.5 * major + 0.5 * minor * (RING_K - 1.0) + 1.0, 0.5 * minor * (RING_K + 0.15) + 1.0)
    # the pip's value is the median of its inside, not its centre pixel alone: the centroid of a
    # small JPEG-blurred pip often lands on a lighter pixel than the pip really is
    ivals = pts(INNER, 0.5 * major, 0.5 * minor)
    pip_v = np.partition(ivals, len(INNER) // 2, 1)[:, len(INNER) // 2]  # the median (odd count)
    # three touching pips (a six's column) are sampled inside each pip, not at the waists between
    # them, where the body between pips that barely touch is light (the ellipse's samples miss the
    # one waist of two touching pips but for its centre)
    # the body is the ring's typical value on the body side (neighbour pips or an edge may cross
    # a few ring samples of a small die)
    srt = np.sort(vals, 1)
    body_v = np.where(is_dark, srt[:, 11], srt[:, 4])
    diff = np.abs(body_v - pip_v)
    contrast = diff / np.maximum(np.maximum(body_v, pip_v), 1.0)
    body_like = np.abs(vals - body_v[:, None]) <= 0.4 * diff[:, None]
    # touching pips of a six put some ring samples on the neighbouring pips: allowed, but anything
    # neither body nor pip (a die edge, the table, clutter) is not
    pip_like = np.abs(vals - pip_v[:, None]) <= 0.3 * diff[:, None]
    uniform = np.where(np.mean(body_like, 1) >= 0.45, np.mean(body_like | pip_like, 1), 0.0)
    # a pip is solid inside; a whole die seen as one blob at a coarse level has pips inside
    solid = np.mean(np.abs(ivals - pip_v[:, None]) <= 0.45 * diff[:, None], 1) >= 0.9
    ok = (is_dark == (body_v > pip_v)) & (contrast >= MIN_CONTRAST) & (uniform >= MIN_UNIFORM)
    chain = cand[:, 7] > 0
    # (only candidates that pass every other check are looked at further)
    for m in (2, 3):
        # a row of three that is solid only inside each pip is flagged like a slanted blob: it
        # counts only as a six's column (a word of print is a solid bar too)
        if m == 3:
            rows = np.flatnonzero((cand[:, 5] == m) & ok & ~solid)
            if rows.size:
                along, ou, ov = CHAIN_INNER[m]
                civ = _row_samples(gray0, cand[rows], m, along[None, :], ou[None, :], ov[None, :])
                each = np.mean(np.abs(civ - pip_v[rows, None]) <= 0.45 * diff[rows, None], 1) >= 0.9
                chain[rows] |= each
                solid[rows] = each
        # a flagged row must show its beads: beside the waist between two pips lies body, beside
        # a pip's centre the pip itself (a bar of print is as wide all along)
        rows = np.flatnonzero((cand[:, 5] == m) & ok & solid & chain)
        if rows.size:
            centres = np.arange(m, dtype=np.float32) - 0.5 * (m - 1)
            waists = 0.5 * (centres[1:] + centres[:-1])
            zero_p, zero_w = np.zeros((1, m), np.float32), np.zeros((1, m - 1), np.float32)
            beside_pips = sum(_row_samples(gray0, cand[rows], m, centres[None, :], zero_p, zero_p + k * BEAD_SIDE)
                              for k in (1, -1)).mean(1)
            beside_waists = sum(_row_samples(gray0, cand[rows], m, waists[None, :], zero_w, zero_w + k * BEAD_SIDE)
                                for k in (1, -1)).mean(1)
            towards_body = np.where(is_dark[rows], 1.0, -1.0) * 0.5 * (beside_waists - beside_pips)
            solid[rows] = towards_body >= BEAD_MIN * np.maximum(diff[rows], 1.0)
    ok &= solid
    return [Pip(float(fx[i]), float(fy[i]), float(minor[i]), float(major[i]), bool(is_dark[i]),
                float(pip_v[i]), float(body_v[i]), float(uniform[i]), float(angle[i]), int(cand[i, 5]),
                chain=bool(chain[i]))
            for i in np.flatnonzero(ok)]


def planes_of(frame: np.ndarray, channels: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The two grey planes pips are found in: (bright pips, dark pips).

    Bright pips (white, gold on a black die) stand out in plain luminance. Dark pips are sought in
    the blue+green mean, where gold pips on a white die are as dark as black ones while yellow and
    white bodies stay bright. ``channels`` is cv2.split(frame) when the caller has it already.
    """
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    blue, green, _ = channels if channels is not None else cv2.split(frame)
    dark_plane = cv2.addWeighted(blue, 0.5, green, 0.5, 0.0)
    return gray, dark_plane


def _pyramid(plane: np.ndarray, pip_range: tuple[float, float]) -> list[np.ndarray]:
    """The pyramid levels of a plane the pip search needs (level k is halved k times)."""
    pyramid: list[np.ndarray] = []
    for dlo, _ in LEVEL_DIAMETERS:
        if dlo >= pip_range[1]:
            break
        g = plane if not pyramid else cv2.pyrDown(pyramid[-1])
        if min(g.shape[:2]) < BLOCK:
            break
        pyramid.append(g)
    return pyramid


def _local_mean(g: np.ndarray, fg: np.ndarray | None) -> np.ndarray:
    """BLOCK box mean of a level; on the dice (foreground) the mean of the foreground pixels alone.

    Around a small die the box holds more table than die: a bright table lifts the mean above a
    dark die's bright pips (white or red pips on a black or blue die are then no brighter than
    it), and a dark table lowers it below a pale die's body. Taking the mean over the pixels that
    differ from the table keeps the threshold on the die's own body.
    """
    plain = cv2.blur(g, (BLOCK, BLOCK))
    if fg is None:
        return plain
    h, w = g.shape[:2]
    f = cv2.resize(fg, (w, h), interpolation=cv2.INTER_LINEAR)  # 0 or 255, blended at the edges
    den = cv2.blur(f, (BLOCK, BLOCK))
    num = cv2.blur(cv2.multiply(g, f, scale=1 / 255), (BLOCK, BLOCK))
    masked = cv2.divide(num, den, scale=255)
    on_die = cv2.bitwise_and(cv2.compare(f, 127, cv2.CMP_GT), cv2.compare(den, int(255 * FG_SUPPORT), cv2.CMP_GT))
    cv2.copyTo(masked, on_die, plain)
    return plain


def find_pips(planes: tuple[np.ndarray, np.ndarray], pip_range: tuple[float, float] = (2.6, 80.0),
              fg: np.ndarray | None = None, polarities: tuple[bool, ...] = (True, False),
              scout: bool = False, skip: list[tuple[float, float, float, float]] | None = None) -> list[Pip]:
    """All pip candidates of a frame's planes, each from the pyramid level that suits its size.

    ``fg`` is the foreground mask (uint8 0/255, any size) of dice_body.foreground: where it is set
    the local mean is taken over the dice alone (see _local_mean).

    With ``scout`` (and no ``fg``) the two finest levels (about 94 % of the pixels) are searched only in
    the boxes where vision.dice_scout sees spots on the next coarser level; the coarser levels are
    searched whole. ``skip`` are frame boxes (x0, y0, x1, y1) already explained (dice an earlier pass
    read): the scout sees no spots there, and no pip is kept whose centre lies in one.
    """
    # one plane can serve both polarities (the brightest-channel pass): its pyramid and box means
    # are made once (a dict comprehension over the planes would make its pyramid twice)
    pyramids: dict[int, list[np.ndarray]] = {}
    for p in planes:
        if id(p) not in pyramids:
            pyramids[id(p)] = _pyramid(p, pip_range)
    means: dict[tuple, np.ndarray] = {}

    def mean_of(plane: np.ndarray, k: int, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """BLOCK box mean of level k of a plane, or of a box (x, y, w, h) of that level."""
        key = (id(plane), k, box)
        if key not in means:
            g = pyramids[id(plane)][k]
            if fg is not None:
                means[key] = _local_mean(g, fg)  # never boxed: see below
            elif box is None:
                means[key] = cv2.blur(g, (BLOCK, BLOCK))
            else:
                # with the box's surroundings, so the mean is the whole level's all over the box
                x, y, w, h = box
                m = BLOCK // 2 + 1
                x0, y0 = max(x - m, 0), max(y - m, 0)
                wide = cv2.blur(g[y0:min(y + h + m, g.shape[0]), x0:min(x + w + m, g.shape[1])], (BLOCK, BLOCK))
                means[key] = wide[y - y0:y - y0 + h, x - x0:x - x0 + w]
        return means[key]

    # boxes of the fine levels to search (level -> boxes in that level's pixels; None: all of it).
    # Not with ``fg``: the scout's spots are made against the plain box mean, which is what hides
    # the pips the foreground-only mean is there to find.
    boxes: dict[int, list[tuple[int, int, int, int]] | None] = {}
    for k in range(dice_scout.LEVELS if scout and fg is None else 0):
        if pip_range[0] < LEVEL_DIAMETERS[k][1] and all(len(pyramids[id(p)]) > k + 1 for p in planes):
            levels = [pyramids[id(planes[int(is_dark)])][k + 1] for is_dark in polarities]
            # (one plane for both polarities, the brightest-channel pass: its spot mean is made once)
            same = len(levels) == 2 and levels[0] is levels[1]
            shared = dice_scout.spot_mean(levels[0]) if same else None
            spots = [dice_scout.loose_spots(lv, is_dark, shared) for lv, is_dark in zip(levels, polarities, strict=True)]
            spot = functools.reduce(cv2.bitwise_or, spots)
            if skip:
                dice_scout.blank(spot, skip, 2.0 ** (k + 1))
            boxes[k] = dice_scout.fine_boxes(spot, pyramids[id(planes[0])][k].shape[:2])
    pips: list[Pip] = []
    for is_dark in polarities:
        plane = planes[int(is_dark)]
        pyramid = pyramids[id(plane)]
        cand: list[tuple] = []
        scale = 1.0
        for k, (dlo, dhi) in enumerate(LEVEL_DIAMETERS[:len(pyramid)]):
            lo, hi = max(dlo, pip_range[0]) / scale, min(dhi, pip_range[1]) / scale
            if dhi > pip_range[0] and lo < hi:
                g = pyramid[k]
                if boxes.get(k) is not None:
                    parts = [(g[y:y + h, x:x + w], mean_of(plane, k, (x, y, w, h)), (int(x * scale), int(y * scale)),
                              _inner_sides((x, y, w, h), g.shape[:2])) for x, y, w, h in boxes[k]]
                else:
                    parts = [(g, mean_of(plane, k), (0, 0), (0, 0, 0, 0))]
                cand += _level_cands(parts, g.size, scale, lo, hi, is_dark, skip)
            scale *= 2.0
        if cand:
            pips += _check_rings(np.array(cand, np.float64), plane)
    if skip:
        pips = [p for p in pips if not any(x0 <= p.x < x1 and y0 <= p.y < y1 for x0, y0, x1, y1 in skip)]
    return _dedupe(pips)


def _inner_sides(box: tuple[int, int, int, int], shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """How far from each side (left, top, right, bottom) of a box a blob must stay where the side lies
    inside the level: a blob reaching it may go on beyond the box (it is one blob on the whole level,
    found whole in the box that holds it), and Otsu splitting looks 2 pixels around a blob."""
    x, y, w, h = box
    m = 3
    return (m if x > 0 else 0, m if y > 0 else 0, m if x + w < shape[1] else 0, m if y + h < shape[0] else 0)


def _level_cands(parts: list[tuple[np.ndarray, np.ndarray, tuple[int, int], tuple[int, int, int, int]]],
                 level_size: int, scale: float, lo: float, hi: float, is_dark: bool,
                 skip: list[tuple[float, float, float, float]] | None = None) -> list[tuple]:
    """Pip-shaped blobs of one pyramid level, searched in ``parts`` (image, box mean, offset, inner
    sides), but for those in ``skip`` boxes (see _level_blobs)."""
    masks = [_level_mask(g, mean, is_dark) for g, mean, _, _ in parts]
    marked = sum(cv2.countNonZero(m) for m in masks)
    if marked > MAX_MASK_FRACTION * level_size:
        return []  # sensor noise or a busy pattern: pips are a small part of any real frame
    most = MAX_BLOBS * level_size / 1e6
    # lone pixels are blobs of their own: counted first, because outlining hundreds of thousands of
    # specks of sensor noise takes most of a second
    if marked > most and sum(_band_marked(m) for m in masks) > most and sum(_specks(m) for m in masks) > most:
        return []
    contours = [cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0] for m in masks]
    if sum(len(c) for c in contours) > most:
        return []  # sensor noise or a busy pattern at this scale, not pips on plain dice
    cand: list[tuple] = []
    for (g, mean, offset, sides), m, cs in zip(parts, masks, contours, strict=True):
        cand += _level_blobs(g, mean, m, cs, scale, offset, lo, hi, is_dark, sides, skip)
    return cand


def _band(h: int) -> tuple[int, int]:
    """The rows _specks looks at in a mask of ``h`` rows (an eighth of them across the middle, and
    one more each side for their neighbours)."""
    return max(h // 2 - h // 16 - 1, 0), min(h // 2 + h // 16 + 1, h)


def _band_marked(mask: np.ndarray) -> int:
    """The marked pixels of the rows _specks counts in: at least its count (checked first: much cheaper)."""
    y0, y1 = _band(mask.shape[0])
    return cv2.countNonZero(mask[y0 + 1:y1 - 1]) if y1 - y0 > 2 else 0


def _specks(mask: np.ndarray) -> int:
    """How many pixels of a band of a 0/255 mask have no marked neighbour (each is a blob of its own).

    The band (an eighth of the rows, across the middle) keeps the count cheap; it is a lower bound
    of the mask's blob count, which is all the noise check needs.
    """
    y0, y1 = _band(mask.shape[0])
    ones = cv2.bitwise_and(mask[y0:y1], 1)
    near = cv2.boxFilter(ones, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
    lone = cv2.bitwise_and(ones, cv2.compare(near, 1, cv2.CMP_EQ))
    return cv2.countNonZero(lone[1:-1]) if lone.shape[0] > 2 else 0


def _dedupe(pips: list[Pip]) -> list[Pip]:
    """One pip seen on two pyramid levels (size near a level boundary) is kept once, the cleaner one."""
    if len(pips) < 2:
        return pips
    order = sorted(pips, key=lambda p: -(p.uniform * abs(p.body_v - p.pip_v) / max(_flat(p), 1.0)))
    xy = np.float32([[p.x, p.y] for p in order])
    major = np.float32([p.major for p in order])
    dark = np.array([p.dark for p in order], bool)
    near = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(2) <= (0.5 * np.maximum(major[:, None], major[None, :])) ** 2
    near &= dark[:, None] == dark[None, :]
    # a flagged row of touching pips (see _slanted_shape) and the pips it covers are two readings of
    # one place: both are kept, and group_faces takes the row only where it makes a six
    chain = np.array([p.chain for p in order], bool)
    near &= chain[:, None] == chain[None, :]
    kept = np.zeros(len(order), bool)
    for i in range(len(order)):
        if not (near[i] & kept).any():
            kept[i] = True
    kept_pips = [p for p, k in zip(order, kept, strict=True) if k]
    return _drop_whole_dice(kept_pips)


def _drop_whole_dice(pips: list[Pip]) -> list[Pip]:
    """A small die seen whole is a dark (or bright) blob too; it is no pip when pips of the other
    polarity lie inside it (a black die with white pips on a light table)."""
    if len(pips) < 2:
        return pips
    xy = np.float32([[p.x, p.y] for p in pips])
    rad = np.float32([0.5 * p.d for p in pips])
    dark = np.array([p.dark for p in pips], bool)
    d2 = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(2)
    inside = (d2 < rad[:, None] ** 2) & (dark[:, None] != dark[None, :]) & (rad[None, :] < 0.6 * rad[:, None])
    return [p for p, holds in zip(pips, inside.any(1), strict=True) if not holds]


@functools.lru_cache(maxsize=512)
def _line_steps(n: int) -> np.ndarray:
    """n evenly spaced fractions strictly between 0 and 1 (cached: links ask for the same few n)."""
    t = np.linspace(0, 1, n + 2, dtype=np.float32)[1:-1]
    t.flags.writeable = False
    return t


def _same_body(planes: tuple[np.ndarray, np.ndarray], a: Pip, b: Pip, xy: np.ndarray,
               keep_out: np.ndarray) -> bool:
    """True when the straight line from pip a to pip b stays on die body (no edge or gap).

    ``xy`` are the centres of the pips of a's polarity and ``keep_out`` their squared radii: the
    inside of any pip on the way (the centre pip of a five) is skipped.
    """
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    t = _line_steps(max(int(dist / 1.5), 6))
    xs, ys = a.x + dx * t, a.y + dy * t
    d2 = (xs[:, None] - xy[None, :, 0]) ** 2 + (ys[:, None] - xy[None, :, 1]) ** 2
    keep = (d2 > keep_out[None, :]).all(1)
    if keep.sum() < 2:
        return True
    vals = _sample(planes[int(a.dark)], xs[keep], ys[keep]).astype(np.float32)
    body = 0.5 * (a.body_v + b.body_v)
    tol = 0.38 * abs(body - 0.5 * (a.pip_v + b.pip_v))
    return np.count_nonzero(np.abs(vals - body) > tol) / vals.size <= 0.06  # (np.mean's value, less overhead)


def _flat(p: Pip) -> float:
    return p.major / max(p.d * p.merged, 1.0)


def _compatible(a: Pip, b: Pip) -> bool:
    """Two blobs can be pips of one face: same polarity, size, and the same foreshortening."""
    if a.dark != b.dark or max(a.d, b.d) > 1.45 * min(a.d, b.d):
        return False
    # pips of one face sit on one body: a black die touching a green one are two faces
    if abs(a.body_v - b.body_v) > BODY_TOL * min(abs(a.body_v - a.pip_v), abs(b.body_v - b.pip_v)):
        return False
    fa, fb = _flat(a), _flat(b)
    if abs(math.log(fa / fb)) > 0.3:
        return False
    if min(fa, fb) > 1.22:
        diff = abs(a.angle - b.angle) % math.pi
        if min(diff, math.pi - diff) > 0.5:
            return False
    return True


def _near_pairs(xy: np.ndarray, size: np.ndarray) -> list[list[bool]]:
    """Which pips (centres ``xy``, float32 (n, 2); sizes ``size``) are near enough to link, all
    pairs at once: row i holds pip i's squared distance to each pip below (LINK_SPAN x the larger
    size)^2, the same float32 sums group_faces once made pip by pip."""
    d2 = ((xy[:, None] - xy[None]) ** 2).sum(2)
    return (d2 < (LINK_SPAN * np.maximum(size[:, None], size[None])) ** 2).tolist()


def group_faces(planes: tuple[np.ndarray, np.ndarray], pips: list[Pip]) -> list[list[Pip]]:
    """Link pips that are close for their size, alike, and share a body: one visible face each."""
    if len(pips) > 400:  # a noise field, not dice: keep the strongest few hundred
        pips = sorted(pips, key=lambda p: -abs(p.body_v - p.pip_v))[:400]
    n = len(pips)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    xy = np.float32([[p.x, p.y] for p in pips]).reshape(-1, 2)
    size = np.float32([p.major / p.merged for p in pips])
    dark = np.array([p.dark for p in pips], bool)
    keep_out = np.float32([(0.5 * p.major + 1.5) ** 2 for p in pips])
    chain = np.array([p.chain for p in pips], bool)
    near = _near_pairs(xy, size)

    def link(i: int, others: list[int], on_way: np.ndarray) -> None:
        """Link pip i with the pips ``others`` (indices) that are near, alike and on its body; the
        pips ``on_way`` (a mask) are skipped where the line between two pips crosses them."""
        a = pips[i]
        near_i = near[i]
        way = None  # the centres and radii of the pips on the way, made once per pip i
        for j in others:
            if not near_i[j]:
                continue
            b = pips[j]
            if find(i) == find(j) or not _compatible(a, b):
                continue
            if way is None:
                sel = on_way & (dark == a.dark)
                way = xy[sel], keep_out[sel]
            if _same_body(planes, a, b, *way):
                parent[find(i)] = find(j)

    # the pips proper first; slanted blobs of touching pips (see _slanted_shape) are linked after,
    # and a group they join keeps them only when it then makes a six
    plain = np.flatnonzero(~chain).tolist()
    not_chain = ~chain
    for k, i in enumerate(plain):
        link(i, plain[k + 1:], not_chain)
    groups: dict[int, list[Pip]] = {}
    if chain.any():
        plain_root = [find(i) for i in range(n)]
        for i in np.flatnonzero(chain).tolist():
            link(i, [j for j in range(n) if j != i], np.ones(n, bool))
        for root, whole in _groups(pips, find).items():
            rows = [p for p in whole if not any(_covers(c, p) for c in whole if c.chain)]
            if _six_of_rows(rows):
                groups[root] = rows
            else:
                for i in range(n):
                    if not chain[i] and find(i) == root:
                        groups.setdefault(n + plain_root[i], []).append(pips[i])
    else:
        groups = _groups(pips, find)
    faces = list(groups.values())
    for face in faces:
        # only the columns of a six touch: merged blobs count as 2-3 pips when the face then holds
        # exactly six; otherwise long blobs are foreshortened single pips (a side face, a tilt)
        merged_total = sum(p.merged for p in face)
        use_merged = len(face) > 1 and merged_total == 6
        for p in face:
            p.count = p.merged if use_merged else 1
    return faces


def _six_of_rows(face: list[Pip]) -> bool:
    """True when blobs with a flagged row of touching pips among them make a six in a six's layout."""
    if sum(p.merged for p in face) != 6 or len(face) < 2 or not any(p.chain for p in face):
        return False
    spots = [xy for p in face for xy in _pip_spots(p, p.merged)]
    # the narrower sixes only on a face seen square-on, as in _fits_layout
    misfit, scale = dice_body.layout_fit(spots, stretch=statistics.median([_flat(p) for p in face]) <= SQUARE_ON)
    d = statistics.median([p.d for p in face])
    return misfit <= LAYOUT_TOL and 0.75 * d <= scale <= 3.5 * d


def _covers(row: Pip, p: Pip) -> bool:
    """True when pip p lies within the blob of touching pips ``row`` (a piece of it)."""
    if p is row or p.chain:
        return False
    dx, dy = p.x - row.x, p.y - row.y
    along = dx * math.cos(row.angle) + dy * math.sin(row.angle)
    across = -dx * math.sin(row.angle) + dy * math.cos(row.angle)
    return abs(along) <= 0.5 * row.major and abs(across) <= 0.5 * row.d


def _groups(pips: list[Pip], find: Any) -> dict[int, list[Pip]]:
    """Pips by the root of their linked group."""
    groups: dict[int, list[Pip]] = {}
    for i, p in enumerate(pips):
        groups.setdefault(find(i), []).append(p)
    return groups


def _face_stats(face: list[Pip]) -> dict[str, float]:
    xs = np.float32([p.x for p in face])
    ys = np.float32([p.y for p in face])
    d = statistics.median([p.d for p in face])
    flat = statistics.median([p.major / max(p.d * p.count, 1.0) for p in face])
    body = statistics.median([p.body_v for p in face])
    pip = statistics.median([p.pip_v for p in face])
    span = float(max(xs.max() - xs.min(), ys.max() - ys.min()))
    return {"x": float(xs.mean()), "y": float(ys.mean()), "d": d, "flat": flat, "body": body, "pip": pip,
            "span": span, "count": float(sum(p.count for p in face))}


def _lone_pip_ok(planes: tuple[np.ndarray, np.ndarray], p: Pip) -> bool:
    """A face with a single pip must sit in a wide uniform patch of body (a one), not in clutter."""
    gray = planes[int(p.dark)]
    r = 0.5 * p.major
    tol = 0.35 * abs(p.body_v - p.pip_v)
    # a printed pip has a sharp rim; a glare spot or a soft shadow fades out slowly. The centre a
    # coarse pyramid level gives can lie 1.5-2.5 pixels off a large pip's own (and its mask's
    # radius is the faint skirt's), so 0.6 radii out on one side fall beyond its rim: the inside is
    # also taken about the pip's own centre (_own_centre), and the sharper of the two counts
    inner = RING12 * np.float32([0.6 * r, 0.6 * r * p.d / max(p.major, 1.0)])
    centres = [(p.x, p.y), _own_centre(gray, p)] if LONE_CENTRE else [(p.x, p.y)]
    rims = [float(np.mean((_sample(gray, x + inner[:, 0], y + inner[:, 1]).astype(np.float32) - p.body_v)
                          / (p.pip_v - p.body_v))) for x, y in centres]
    if max(rims) < LONE_RIM:
        return False
    for k in (2.0, 2.7):
        ring = RING16 * np.float32([k * r, k * r * p.d / p.major if p.major > 0 else k * r])
        vals = _sample(gray, p.x + ring[:, 0], p.y + ring[:, 1]).astype(np.float32)
        if np.mean(np.abs(vals - p.body_v) <= tol) < 0.9:
            return False
    return True


OWN_STEPS = np.linspace(-1.0, 1.0, 13, dtype=np.float32)
OWN_GRID = np.stack(np.meshgrid(OWN_STEPS, OWN_STEPS), -1).reshape(-1, 2)  # (a square of half side 1)


def _own_centre(gray: np.ndarray, p: Pip) -> tuple[float, float]:
    """The centre of a pip's own light (or dark): the centroid of the points within its mask's
    radius (a grid of 13 x 13 across it) that lie more than halfway from its body's value to its
    pip's. Measured in the pip's own values, so it holds at any light level; a glare spot, round
    and fading out evenly, keeps its centre (and its soft rim)."""
    r = 0.5 * p.major
    pts = OWN_GRID * np.float32(r)
    pts = pts[(pts ** 2).sum(1) <= r * r]
    vals = _sample(gray, p.x + pts[:, 0], p.y + pts[:, 1]).astype(np.float32)
    w = (vals - p.body_v) / (p.pip_v - p.body_v) if p.pip_v != p.body_v else np.zeros_like(vals)
    on = w > 0.5
    if on.sum() < 3:
        return p.x, p.y
    dx, dy = pts[on].mean(0)
    return p.x + float(dx), p.y + float(dy)


def _rim_width(planes: tuple[np.ndarray, np.ndarray], p: Pip) -> float:
    """Width in pixels of the step from pip to body (contrast / steepest slope): large when blurred."""
    plane = planes[int(p.dark)]
    r = 0.5 * p.d
    t = np.arange(0.0, 2.2 * r + 4.0, 1.0, dtype=np.float32)
    steep = 0.0
    if t.size > 2:
        # right, left, down, up from the centre, all sampled at once
        dirs = np.float32([[1, 0], [-1, 0], [0, 1], [0, -1]])
        xs = (p.x + dirs[:, :1] * t[None, :]).astype(np.float32)
        ys = (p.y + dirs[:, 1:] * t[None, :]).astype(np.float32)
        vals = _sample(plane, xs, ys).astype(np.float32)
        steep = statistics.median(float(v) for v in np.abs(np.diff(vals, axis=1)).max(1))
    return abs(p.body_v - p.pip_v) / max(steep, 1e-3)


def _lone_pip_framed(planes: tuple[np.ndarray, np.ndarray], p: Pip) -> bool:
    """True when the body around a lone pip ends within a die's reach (an edge on most rays).

    A one's face ends 3-5 pip radii from the pip; a coin or a blurred blob on a plain table has
    the same flat surround far beyond that, so without an edge a lone pip stays unsure.
    """
    r = 0.5 * p.major
    ks = np.float32([2.2, 2.8, 3.4, 4.0, 4.6, 5.2, 5.8])
    hits = np.zeros(8, bool)
    dirs = _ring_offsets(8)
    xs = p.x + dirs[:, None, 0] * ks[None, :] * r
    ys = p.y + dirs[:, None, 1] * ks[None, :] * r
    for plane in planes:
        vals = _sample(plane, xs, ys).astype(np.float32)
        body = float(_sample(plane, xs[:, :1], ys[:, :1]).astype(np.float32).mean())
        hits |= (np.abs(vals - body) > max(0.1 * abs(p.body_v - p.pip_v), 6.0)).any(1)
    return int(hits.sum()) >= 6


def _drop_side_faces(faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of two faces on one die, keep the top one: brighter, rounder pips, farther from the camera.

    In an oblique view the side faces lie between the top face and the camera, i.e. lower in the
    image, and their pips are foreshortened (flatter, narrower); touching dice seen from above
    have alike faces side by side and are both kept, and so is a die of another colour below a
    die with larger pips (a side face keeps its top face's body colour).
    """
    keep = [True] * len(faces)
    order = sorted(range(len(faces)), key=lambda i: -faces[i]["score"])
    for pos, i in enumerate(order):
        if not keep[i]:
            continue
        fi = faces[i]
        if fi.get("redness"):
            continue  # its body lightness is measured in the redness plane: not comparable
        for j in order[pos + 1:]:
            fj = faces[j]
            if not keep[j] or fi["dark"] != fj["dark"]:
                continue
            size = max(fi["size"], fj["size"])
            if max(fi["major"], fj["major"]) > SIDE_PIP_RATIO * min(fi["major"], fj["major"]):
                continue
            if math.hypot(fi["x"] - fj["x"], fi["y"] - fj["y"]) > 1.5 * size:
                continue
            # a shaded side face keeps its body's colour; a darker die of another colour is no side
            same_colour = float(np.abs(fi["chroma"] - fj["chroma"]).max()) <= SIDE_CHROMA
            darker = same_colour and fj["body_rel"] < SIDE_BODY_RATIO * fi["body_rel"]
            flatter = fj["flat"] > 1.2 * fi["flat"]
            below_narrower = same_colour and fj["y"] > fi["y"] + 0.25 * size and fj["d"] < 0.8 * fi["d"]
            if (darker or flatter or below_narrower) and not _top_of_own(fi, fj, size, same_colour):
                keep[j] = False
                fi["sides"] = fi.get("sides", 0) + 1
                fi.setdefault("dropped", []).append(fj)  # its place back if fi proves no die (_check_bodies)
    return [f for f, k in zip(faces, keep, strict=True) if k]


def _top_of_own(fi: dict[str, Any], fj: dict[str, Any], size: float, same_colour: bool = True) -> bool:
    """True when face ``fj``, which _drop_side_faces would take for a side face of ``fi``, is the
    top face of a die of its own beside fi's: its pips are round (``SQUARE_ON``), it lies at least
    ``OWN_APART`` of the larger face's size from fi (two dice's top faces cannot overlap), and
    either its body has another colour than fi's (a side face has its top face's body) or it holds
    four or more pips in a die's exact layout (a similarity fit, so not foreshortened: a side face
    is seen at a slant and its layout is squashed across the edge it shares with the top face; a
    two's or a three's pips lie on a line, which foreshortening keeps, so they prove nothing).

    Seen from above (a tray photo), a neighbouring die of the same colour in a shadow or a darker
    corner of the frame is square-on like the top face beside it, and a die of another colour
    beside a die with rounder pips is no side face of it."""
    if fj["flat"] > SQUARE_ON or math.hypot(fi["x"] - fj["x"], fi["y"] - fj["y"]) < OWN_APART * size:
        return False
    if not _fits_layout(fi):
        return False  # (a lone pip or a face off its layout does not show that the view is square-on)
    return not same_colour or (fj["count"] >= 4 and _fits_layout(fj))


def _light_gains(frame: np.ndarray) -> np.ndarray:
    """The frame's own estimate of the light: channel gains that make it neutral (within CAST_LIMITS).

    Grey-world and the brightest pixels (white dice, white pips, glare) from a sparse grid of
    pixels (cheap; gains only, frame untouched); a coloured table fools grey-world alone, so the two
    estimates are blended.
    """
    step = max(1, min(frame.shape[:2]) // 60)
    small = frame[::step, ::step].reshape(-1, 3).astype(np.float32)
    means = np.maximum(small.mean(0), 1.0)
    grey_world = means.mean() / means
    tops = np.maximum(np.percentile(small, 99, axis=0), 1.0)
    white_patch = tops.mean() / tops
    return np.clip(np.sqrt(grey_world * white_patch), *CAST_LIMITS)


def _wb_gains(frame: np.ndarray) -> np.ndarray:
    """The frame's gains for the pip search and the colour samples (_light_gains within WB_LIMITS)."""
    return np.clip(_light_gains(frame), *WB_LIMITS)


def _white_ref(body: np.ndarray, pips: np.ndarray, is_dark: bool, gains: np.ndarray,
               shift: np.ndarray) -> tuple[float, float, bool, bool, float] | None:
    """A die's bright side as a candidate for white: (log R/G, log B/G) after the frame's light
    estimate, whether each of the two is only a lower bound (that channel clipped), brightness.

    None when it cannot tell the light: green clipped, red and blue both clipped, too dark, or
    bright pips whose tint is not their body's own (see _dice_white).
    """
    c = np.asarray(body if is_dark else pips, np.float32)
    raw = c / gains
    clipped = raw >= CLIPPED
    if clipped[1] or (clipped[0] and clipped[2]) or c.max() < 40 or c.min() < 3:
        return None
    s = c * shift
    u, v = math.log(s[2] / s[1]), math.log(s[0] / s[1])
    if not is_dark:
        # pips of a translucent coloured die carry its colour: they count only when their tint is
        # the body's own (both shifted alike by the light: a black or grey die). A clipped pip
        # channel reads low: its true ratio may be the body's, but not beyond WB_CLIP_REACH past
        # the frame's light estimate (0 here), so a red die's pink pips, clipped in red under a warm
        # light, are not taken for a black die's white ones. A dark body's channels are loose by
        # about WB_NOISE levels.
        b = np.maximum(np.asarray(body, np.float32) / gains, 1.0)
        sb = np.maximum(np.asarray(body, np.float32), 1.0) * shift
        tol_u = WB_PIP_BODY + WB_NOISE * (1 / b[2] + 1 / b[1])
        tol_v = WB_PIP_BODY + WB_NOISE * (1 / b[0] + 1 / b[1])
        bu, bv = math.log(sb[2] / sb[1]), math.log(sb[0] / sb[1])
        du = bu - (min(max(bu, u), max(u, WB_CLIP_REACH)) if clipped[2] else u)
        dv = bv - (min(max(bv, v), max(v, WB_CLIP_REACH)) if clipped[0] else v)
        if math.hypot(du / tol_u, dv / tol_v) > 1.0:
            return None
    return (u, v, bool(clipped[2]), bool(clipped[0]), float(c.mean()))


def _agree(p: tuple, q: tuple) -> bool:
    """Two white candidates agree within WB_RADIUS (a clipped coordinate is a lower bound)."""
    for a, b, bound_a, bound_b in ((p[0], q[0], p[2], q[2]), (p[1], q[1], p[3], q[3])):
        if (bound_a and not bound_b and b < a - WB_RADIUS) or (bound_b and not bound_a and a < b - WB_RADIUS):
            return False
        if not bound_a and not bound_b and abs(a - b) > WB_RADIUS:
            return False
    return True


def _dice_white(colours: list[tuple[np.ndarray, np.ndarray]], dark: list[bool], gains: np.ndarray,
                light: np.ndarray | None = None) -> np.ndarray:
    """Channel factors that make the dice's own white neutral (see below; with no white among the
    dice, the part of the frame's light estimate that WB_LIMITS kept out, if large).

    ``colours`` are the dice's (body, pip) BGR balanced with the frame's ``gains``, ``dark`` their
    pip polarity, ``light`` the frame's own estimate of the light (_light_gains; default ``gains``).
    The table fills most of a frame, and a coloured (wooden) table pulls the frame's own estimate
    its way; the dice do not. The brighter side of each die (the body when its pips are dark, else
    the pips) is white on most dice and gold, or a body colour, on the others. Of those bright sides
    (at least WB_BRIGHT of the brightest, within WB_REACH of neutral as log channel ratios after the
    frame's light estimate) the largest set of dice agreeing within WB_RADIUS is taken as white:
    gold pips are darker than white ones under the same light, and dice colours lie farther from
    neutral than a wrong white balance puts white. Bright pips count only on a body of their own
    tint (a black die under the same light): the pips of a translucent purple die are purple. Two
    sets of pips alone may be two dice with gold pips, so a set needs a body among them (a white
    die) or three dice.

    A warm lamp clips the red channel of every white: its blue-to-green ratio still tells the light,
    and its red ratio is then only a lower bound. Where every white of the set is clipped in a
    channel, the frame's own estimate is taken for it unless the bound says the light is redder.
    The search is made after the frame's light estimate, not its limited gains, so that under a
    lamp's strong cast white lies as near neutral as under daylight.
    """
    light = gains if light is None else light
    shift = np.asarray(light, np.float32) / np.asarray(gains, np.float32)
    refs = [(r, is_dark) for (body, pips), is_dark in zip(colours, dark, strict=True)
            if (r := _white_ref(body, pips, is_dark, gains, shift)) is not None]
    centre = None
    if refs:
        # a clipped white is brighter than it reads: the bar is set by the others when there are any
        unclipped = [r[4] for r, _ in refs if not (r[2] or r[3])]
        top = max(unclipped) if unclipped else max(r[4] for r, _ in refs)
        # (a clipped coordinate, a lower bound, is as far as the frame's estimate allows: see below)
        refs = [(r, d) for r, d in refs if r[4] >= WB_BRIGHT * top
                and math.hypot(max(r[0], 0.0) if r[2] else r[0], max(r[1], 0.0) if r[3] else r[1]) <= WB_REACH]
        best = 1
        for p, _ in refs:
            near = [(q, d) for q, d in refs if _agree(p, q)]
            if len(near) < 3 and not any(d for _, d in near):
                continue
            mid = []
            for axis, bound in ((0, 2), (1, 3)):
                exact = [q[axis] for q, _ in near if not q[bound]]
                # every white of the set clipped in this channel: the frame's estimate (0 here),
                # unless the set's bound says the light is redder (bluer)
                mid.append(float(np.median(exact)) if exact
                           else max(float(np.median([q[axis] for q, _ in near])), 0.0))
            if len(near) > best or (len(near) == best and centre is not None
                                    and math.hypot(*mid) < math.hypot(*centre)):
                best, centre = len(near), mid
    if centre is None and len(refs) == 1 and refs[0][1] and math.hypot(refs[0][0][0], refs[0][0][1]) <= WB_LONE:
        return np.float32(shift / shift[1])  # a lone die's white body confirms the frame's own estimate
    if centre is None and WB_CAMERA:
        # a white body within WB_LONE of neutral in the camera's own balance (before the frame's
        # light estimate) while the estimate puts it farther off: the estimate, not the die, was
        # fooled (a coloured table fills most of the frame), so the die's white is taken
        cam = (math.log(light[2] / light[1]), math.log(light[0] / light[1]))
        bodies = [(math.hypot(r[0] - cam[0], r[1] - cam[1]), r) for r, d in refs
                  if d and not (r[2] or r[3]) and math.hypot(r[0], r[1]) > WB_LONE]
        near_cam = [x for x in bodies if x[0] <= WB_LONE]
        if near_cam:
            r = min(near_cam, key=lambda x: x[0])[1]
            centre = [r[0], r[1]]
    if centre is None:
        # no white among the dice: the frame's estimate, where it goes well beyond the gains' limits
        factor = np.where(shift > CAST_MARGIN, shift / CAST_MARGIN,
                          np.where(shift < 1 / CAST_MARGIN, shift * CAST_MARGIN, 1.0))
        return np.float32(factor / factor[1])
    u, v = centre
    factor = shift * np.float32([math.exp(-v), 1.0, math.exp(-u)])
    return np.float32(factor / factor[1])


def _balanced(bgr: np.ndarray, gains: np.ndarray, white: np.ndarray) -> np.ndarray:
    """A colour sample (balanced with the frame's ``gains``) balanced by the dice's ``white``.

    A clipped channel's true value lies above what it reads, so the dice's white never lowers it:
    under a cold light that clips blue, a white pip on a coloured die would turn yellow (gold) once
    the light's blue is taken off a channel that never held all of it.
    """
    bgr = np.asarray(bgr, np.float32)
    out = bgr * white
    return np.where(bgr / gains >= CLIPPED, np.maximum(out, bgr), out)


def _exposure(colours: list[tuple[np.ndarray, np.ndarray]], dark: list[bool], gains: np.ndarray,
              white: np.ndarray) -> float:
    """How much to brighten the dice's colours before naming them: in a dim frame (the brightest
    side of any die below EXPOSURE_MIN) up to that level (at most EXPOSURE_MAX times).

    Lab's chroma shrinks towards black, so a red or blue body in a dim, noisy frame falls under the
    "other" rule's chroma and reads black, and gold pips read white; judged at a normal exposure
    they keep their colour. Frames with a bright side at or above EXPOSURE_MIN are left as they are.
    """
    brightest = max((float(np.max(_balanced(body if is_dark else pips, gains, white)))
                     for (body, pips), is_dark in zip(colours, dark, strict=True)), default=0.0)
    return float(np.clip(EXPOSURE_MIN / max(brightest, 1.0), 1.0, EXPOSURE_MAX))


SRGB_TO_XYZ = np.float32([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
D65 = np.float32([0.95047, 1.0, 1.08883])


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100, a, b about -128..127) of float BGR rows 0-255 (sRGB, D65)."""
    rgb = np.clip(np.asarray(bgr, np.float32).reshape(-1, 3)[:, ::-1] / 255.0, 0, 1)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = lin @ SRGB_TO_XYZ.T / D65
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], 1)


def face_colours(frame: np.ndarray, face: list[Pip], gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """White-balanced Lab of the die body (ring between pips) and of the pips' centres."""
    body, pips = _face_bgr(frame, face, gains)
    return _lab(body)[0], _lab(pips)[0]


def _face_bgr(frame: np.ndarray, face: list[Pip], gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """White-balanced BGR of the die body (ring between pips) and of the pips' centres."""
    xymd = np.float64([(p.x, p.y, p.major, p.d) for p in face])
    x, y = xymd[:, :1], xymd[:, 1:2]
    r = (0.5 * xymd[:, 2:3] * 1.6 + 1.0).astype(np.float32)  # body ring: 12 points per pip
    rr = 0.2 * xymd[:, 3:4, None] * PIP_SPOTS  # pips: the centre and four points 0.2 diameters off it
    xs = np.concatenate([(x.astype(np.float32) + RING12[:, 0] * r).ravel(), (x + rr[..., 0]).astype(np.float32).ravel()])
    ys = np.concatenate([(y.astype(np.float32) + RING12[:, 1] * r).ravel(), (y + rr[..., 1]).astype(np.float32).ravel()])
    both = _sample(frame, xs, ys).astype(np.float32) * gains
    body, pips = both[:12 * len(face)], both[12 * len(face):]
    grey_b = body.mean(1)
    off = np.abs(grey_b - median(grey_b))
    body = body[off <= percentile(off, 70) + 1]
    return median(body), median(pips)


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """Chromaticity (each channel's share of the sum): alike on a die's lit and shaded faces."""
    # an offset keeps the noisy chromaticity of a nearly black body near grey
    bgr = np.asarray(bgr, np.float32) + 24.0
    return bgr / float(np.sum(bgr))


UNMIX_T = np.linspace(0.0, 0.8, 33)  # shares of a coloured body's light a pip may hold (see _unmixed_blue)


def _linear_rgb(lab: np.ndarray) -> np.ndarray:
    """Linear RGB (0-1) of a Lab colour (the inverse of _lab, before its clipping)."""
    L, a, b = (float(v) for v in lab)
    fy = (L + 16) / 116
    f = np.float64([fy + a / 500, fy, fy - b / 200])
    xyz = np.where(f ** 3 > 0.008856, f ** 3, (f - 16 / 116) / 7.787) * D65
    return np.maximum(np.linalg.solve(SRGB_TO_XYZ.astype(np.float64), xyz), 1e-6)


def _unmixed_blue(body: np.ndarray, pip: np.ndarray) -> float:
    """log(B/G) of a pip (linear RGB) with the share t of its body's light that leaves it most nearly
    neutral taken off: about 0 for a white pip on any body, well below for a gold one."""
    rest = (pip[None, :] - UNMIX_T[:, None] * body[None, :]) / (1 - UNMIX_T[:, None])
    ok = np.all(rest > 1e-4, axis=1)
    ok[0] = True
    rest = np.maximum(rest[ok], 1e-4)
    u, v = np.log(rest[:, 0] / rest[:, 1]), np.log(rest[:, 2] / rest[:, 1])
    i = int(np.argmin(np.hypot(u, v)))
    return float(v[i])


def classify_colours(body_lab: np.ndarray, pip_lab: np.ndarray, dark_pips: bool) -> tuple[str, str]:
    """Built-in body/pip colour rules in white-balanced Lab; pip polarity decides white vs black body."""
    bl, ba, bb = (float(v) for v in body_lab)
    pl, pa, pb = (float(v) for v in pip_lab)
    body_chroma = math.hypot(ba, bb)
    if body_chroma > 45 or (body_chroma > 12 and body_chroma > 0.7 * bl):
        body = "other"
    else:
        body = "white" if dark_pips else "black"
    if body == "other" and not dark_pips and GOLD_UNMIX:
        # small or blurred pips take on some of a coloured body's colour: light mixes linearly, so
        # the pip is its own colour plus a share t of the body's. The share that leaves the pip
        # most neutral is taken off; a white pip is then grey, a gold one still short of blue
        v = _unmixed_blue(_linear_rgb(body_lab), _linear_rgb(pip_lab))
        return body, ("gold" if v < GOLD_BLUE and pl > 8 else "white")
    if body == "other":
        # small or blurred pips take on some of a coloured body's colour: the share of the pip's
        # chroma that lies along the body's is that mixing, what is left is the pip's own colour
        s = min(max((pa * ba + pb * bb) / (ba * ba + bb * bb), 0.0), 1.0)
        pa, pb = pa - s * ba, pb - s * bb
    # a dark gold pip is a mid tone on its body (0.64-0.87 of its Lab L on the tuning renders), a
    # black one dark (at most 0.3, even small and blurred): a ratio within the die, so the light's
    # level and colour do not move it, while the black pip's yellow tint under a warm light would
    gold = (pb > 10 and pb > 0.8 * abs(pa) and math.hypot(pa, pb) > 12 and pl > 8
            and (not dark_pips or pl >= GOLD_DARK * bl))
    pip = "gold" if gold else ("black" if dark_pips else "white")
    return body, pip


def _nearest_class(profile: dict[str, Any], body_lab: np.ndarray, pip_lab: np.ndarray,
                   dark: bool) -> tuple[str, str, float] | None:
    """The taught class (body, pip, Lab distance) nearest to a die, among classes of its pip polarity."""
    best = None
    for name, c in profile.get("classes", {}).items():
        if bool(c["dark_pips"]) != dark:
            continue
        dist = float(np.linalg.norm((body_lab - np.float32(c["body"])) * np.float32([0.5, 1, 1]))
                     + np.linalg.norm((pip_lab - np.float32(c["pip"])) * np.float32([0.5, 1, 1])))
        if best is None or dist < best[2]:
            body, pip = name.split("-", 1)
            best = (body, pip, dist)
    return best


def _pattern_fit(face: list[Pip], count: int) -> float:
    """How well the pip layout fits a die face (0-1): a one is less sure than a spread of pips."""
    if count == 1:
        return 0.8
    st = _face_stats(face)
    rel = st["span"] / max(st["d"], 1.0)
    return 1.0 if 0.9 <= rel <= 4.8 else 0.5


def has_colour(frame: np.ndarray) -> bool:
    """True when the channels of a frame differ (a grey frame gets no colour pass)."""
    small = frame[::16, ::16].astype(np.int16)
    return bool(np.abs(small[..., 0] - small[..., 2]).max() > 12 or np.abs(small[..., 1] - small[..., 2]).max() > 12)


RED_ROWS = 128  # _has_red counts red pixels in bands of this many rows and stops at RED_PIXELS


def _has_red(frame: np.ndarray, channels: tuple[np.ndarray, ...], gains: np.ndarray | None = None) -> bool:
    """True when a few pixels are clearly red after white balance (a warm light tints everything).

    ``gains`` are _wb_gains(frame) when the caller has them. The pixels are counted band by band,
    and the count stops once it is reached (the same answer as counting the whole frame)."""
    gb, gg, gr = (float(v) for v in (_wb_gains(frame) if gains is None else gains))
    found = 0
    for y in range(0, frame.shape[0], RED_ROWS):
        blue, green, red = (c[y:y + RED_ROWS] for c in channels)
        others = cv2.max(cv2.convertScaleAbs(blue, alpha=gb), cv2.convertScaleAbs(green, alpha=gg))
        reddish = cv2.compare(cv2.convertScaleAbs(red, alpha=gr), cv2.convertScaleAbs(others, alpha=RED_K, beta=RED_MIN),
                              cv2.CMP_GT)
        found += cv2.countNonZero(reddish)
        if found >= RED_PIXELS:
            return True
    return False


def _redness(frame: np.ndarray, channels: tuple[np.ndarray, ...], gains: np.ndarray) -> np.ndarray:
    """How much redder than its larger other channel each pixel is (white-balanced, less a floor; 0 for
    grey, blue and black): dull red pips on a smoky, black or blue body stand out of it here even where
    the red channel alone shows them hardly brighter than the body."""
    gb, gg, gr = (float(v) for v in gains)
    blue, green, red = channels
    # a floor in step with the frame's light: JPEG colour noise and a warm white are a little red too
    floor = REDNESS_FLOOR * float(np.median(frame[::16, ::16].max(2)))
    others = cv2.max(cv2.convertScaleAbs(blue, alpha=gb), cv2.convertScaleAbs(green, alpha=gg))
    return cv2.subtract(cv2.convertScaleAbs(red, alpha=gr, beta=-floor), others)


def _red_pips(frame: np.ndarray, face: list[Pip], gains: np.ndarray) -> bool:
    """True when a face's pips are red (white-balanced red above green and blue, green not far above
    blue): the redness pass's faces must be red pips, not gold ones."""
    b, g, r = (float(v) for v in _face_bgr(frame, _spot_pips(face), gains)[1])
    return r > max(g, b) and g - b < REDNESS_HUE * (r - g)


def _merge_passes(first: list[dict[str, Any]], second: list[dict[str, Any]],
                  any_polarity: bool = False) -> list[dict[str, Any]]:
    """Faces of two search passes, one per die: where both found a face, the one holding more pips.

    The faces that lose are kept with the winner (``alt``): when the die-body check refuses the
    winner (side-face pips linked with the top face's into one "face"), they are checked instead.
    ``any_polarity``: faces clash whatever their pips' polarity (a die's red pips are bright in the
    red channel and dark in blue+green).
    """
    out = list(first)
    for f in second:
        clash = [k for k, g in enumerate(out) if (any_polarity or g["dark"] == f["dark"])
                 and math.hypot(g["x"] - f["x"], g["y"] - f["y"]) < 0.5 * max(g["size"], f["size"])]
        if not clash:
            out.append(f)
        elif all(_merge_rank(f) > _merge_rank(out[k]) for k in clash):
            f.setdefault("alt", []).extend(out[k] for k in clash)
            for k in sorted(clash, reverse=True):
                del out[k]
            out.append(f)
        else:
            out[clash[0]].setdefault("alt", []).append(f)
    return out


def _merge_rank(f: dict[str, Any]) -> tuple[bool, int]:
    """Of two passes' faces on one die the one that stays: a face linked as it was found before
    one cut from a larger group (see _split_group), then the one with more pips."""
    return not f.get("split", False), f["count"]


def _with_alts(faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every face and, at any depth, the faces it won over in the merges (``alt``, see _merge_passes):
    a face that lost a later merge keeps its own alternatives, and any of them may be checked."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    queue = list(faces)
    while queue:
        f = queue.pop(0)
        if id(f) not in seen:
            seen.add(id(f))
            out.append(f)
            queue += f.get("alt", [])
    return out


def _layout_hypotheses(n: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Every larger face n found pips could belong to, larger faces first: (six's column stretch,
    layout spots taken, spots left, wc) per hypothesis, a six once per column stretch
    (dice_body.SIX_STRETCH, the textbook layout first).

    ``wc`` are the taken spots centred on their mean (for the similarity fit).
    """
    out = []
    for m in range(6, n, -1):
        perms = np.array(list(itertools.permutations(range(m), n)))
        rest = np.array([[j for j in range(m) if j not in set(p.tolist())] for p in perms])
        stretches = sorted(dice_body.SIX_STRETCH, key=lambda k: abs(k - 1.0)) if m == 6 else [1.0]
        ws = [dice_body.face_layout(m, k_x) for k_x in stretches]
        taken = np.concatenate([w[perms] for w in ws])
        left = np.concatenate([w[rest] for w in ws])
        k_xs = np.repeat(np.float64(stretches), len(perms))
        out.append((k_xs, taken, left, taken - taken.mean(1, keepdims=True)))
    return out


LAYOUT_HYPOTHESES = {n: _layout_hypotheses(n) for n in range(2, 6)}


_FIT_TERMS: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _fit_terms(wc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """conj(wc) and its rows' square sums for _complete_face's least-squares fit, made once per layout
    array. The fit multiplies and sums in numpy, not with ``@``: where numpy runs more than one BLAS
    thread (a process that loaded numpy before vision: see vision.single_threaded_blas), a product
    of a few thousand rows goes to the BLAS workers, whose hand-over took 8-28 ms a call on the
    loaded 2-core machine (0.2 ms in numpy; 0.02 ms with one BLAS thread)."""
    got = _FIT_TERMS.get(id(wc))
    if got is None or got[0] is not wc:
        got = _FIT_TERMS[id(wc)] = (wc, np.conj(wc), (np.abs(wc) ** 2).sum(1))
    return got[1], got[2]


def _complete_face(plane: np.ndarray, face: list[Pip]) -> list[Pip]:
    """Pips a face's search missed where its layout says they are (a low-contrast or blurred pip).

    The found pips are fitted onto each larger face's layout (similarity: rotation, scale, shift,
    any pip order, the layout's step 1-2.6 pip diameters); every layout spot left over must then
    look like the face's own pips: its inside near their value, a ring of body around it. The
    largest face whose every spot passes is taken.
    """
    n = len(face)
    if n not in LAYOUT_HYPOTHESES or any(p.merged != 1 for p in face):
        return []
    z = np.array([complex(p.x, p.y) for p in face])
    zm = z.mean()
    zc = z - zm
    # (statistics.median: np.median's value for a few floats, without its overhead)
    d = float(statistics.median([p.d for p in face]))
    body = float(statistics.median([p.body_v for p in face]))
    pip = float(statistics.median([p.pip_v for p in face]))
    tol = COMPLETE_TOL * abs(body - pip)
    r = 0.5 * d
    h, w = plane.shape[:2]
    square_on = statistics.median([_flat(p) for p in face]) <= SQUARE_ON  # see _fits_layout
    for k_x, taken, rest, wc in LAYOUT_HYPOTHESES[n]:
        # least squares: the residual's square sum is |zc|^2 - |a|^2 |wc|^2 (no (K, n) array)
        cw, den = _fit_terms(wc)
        a = (cw * zc).sum(1) / den
        scale = np.abs(a)
        res = np.sqrt(np.maximum(float((np.abs(zc) ** 2).sum()) - scale ** 2 * den, 0.0) / n)
        ok = np.flatnonzero((res <= LAYOUT_TOL * scale) & (scale >= 1.0 * d) & (scale <= 2.6 * d)
                            & (square_on | (k_x == 1.0)))
        if not ok.size:
            continue
        # the left-over spots of every fitting hypothesis, sampled at once: (K, spots)
        spots = a[ok, None] * (rest[ok] - taken[ok].mean(1, keepdims=True)) + zm
        xs, ys = spots.real.astype(np.float32), spots.imag.astype(np.float32)
        inside = _sample(plane, xs[..., None] + INNER[:, 0] * r, ys[..., None] + INNER[:, 1] * r)
        ring = _sample(plane, xs[..., None] + RING16[:, 0] * COMPLETE_RING * r,
                       ys[..., None] + RING16[:, 1] * COMPLETE_RING * r).astype(np.float32)
        inside_ok = np.abs(median(inside, -1) - pip) <= tol
        uniform = np.count_nonzero(np.abs(ring - body) <= tol, -1) / ring.shape[-1]  # (np.mean's value)
        in_frame = (xs >= r) & (ys >= r) & (xs <= w - 1 - r) & (ys <= h - 1 - r)
        good = (inside_ok & (uniform >= MIN_UNIFORM) & in_frame).all(1)
        if good.any():
            k = int(np.argmax(good))
            return [Pip(float(x), float(y), d, d, face[0].dark, pip, body, float(u))
                    for x, y, u in zip(xs[k], ys[k], uniform[k], strict=True)]
    return []


def _face_size(st: dict[str, float], count: int) -> float:
    """A face's die size from its pips' stats (``_face_stats``): their span and a margin, at least a
    one's or a face's size in pip diameters."""
    return max(st["span"] + 2.4 * st["d"], (3.2 if count == 1 else 4.6) * st["d"])


def _frame_mid(gray: np.ndarray) -> float:
    """The frame's middle grey (a sparse median, plus one): faces' bodies are told against it."""
    return float(np.median(gray[::8, ::8])) + 1.0


def _top_score(body_rel: float, flat: float, y: float, h: int) -> float:
    """A face's rank as a die's top face: a bright body (``body_rel``, its body over _frame_mid), round
    pips (``flat``) and, in oblique views, higher in the frame (``y`` of the frame's height ``h``)."""
    return body_rel / flat ** 2 - 0.2 * y / h


def _faces_of(planes: tuple[np.ndarray, np.ndarray], pip_range: tuple[float, float],
              leftover: list[Pip] | None = None, round_only: bool = False,
              fg: np.ndarray | None = None, polarities: tuple[bool, ...] = (True, False),
              scout: bool = False, skip: list[tuple[float, float, float, float]] | None = None) -> list[dict[str, Any]]:
    """Every plausible face (linked pips, 1-6 of them) found in one pair of search planes.

    Pips of groups that make no face (more than six, a lone pip in clutter) go to ``leftover``;
    ``round_only`` keeps only faces of round single pips (no touching pips taken as one blob, but
    for the flagged rows of a six);
    ``scout`` limits the two finest pyramid levels to where vision.dice_scout sees spots; ``skip``
    are frame boxes already explained (see find_pips).
    """
    pips = find_pips(planes, pip_range, fg, polarities, scout, skip)
    if not pips:
        return []
    gray = planes[0]
    faces = []
    frame_mid = _frame_mid(gray)
    groups = group_faces(planes, pips)
    cut: set[int] = set()  # the pips of parts cut from larger groups (ids)
    while groups:
        face = groups.pop(0)
        if round_only and any(p.merged != 1 and not p.chain for p in face):
            continue  # (a flagged row is kept only in a six's exact layout: see group_faces)
        top = _group_top(face) if GROUP_FRONT and sum(p.count for p in face) > 6 else None
        if top is not None:
            # an oblique die's top face and the first row of its front face: the top is the face
            # (the front pips are this die's: they seed no die-body look, which would find the die
            # again around them, outside the top's box)
            face = top
        elif (sum(p.count for p in face) > 6 and 1 < len(face) <= SPLIT_MAX) or _two_dice_linked(face) or _two_twos(face):
            # more than six pips: two faces linked (dice that touch, a top and a side face), each
            # face's pips nearer each other than the other face's: split at the widest link (its
            # pips still seed die-body looks, as any group that made no face)
            parts = _split_group(face)
            groups += parts
            cut.update(id(p) for part in parts for p in part)
            if leftover is not None:
                leftover += face
            continue
        if 2 <= len(face) <= 5:
            face = face + _complete_face(planes[int(face[0].dark)], face)
        count = sum(p.count for p in face)
        if count > 6 or (count == 1 and not _lone_pip_ok(planes, face[0])):
            if leftover is not None:
                leftover += face
            continue
        st = _face_stats(face)
        size = _face_size(st, count)
        contrast = abs(st["body"] - st["pip"]) / max(st["body"], st["pip"], 1.0)
        uniform = statistics.fmean([p.uniform for p in face])
        conf = min(1.0, 0.35 + contrast) * uniform * _pattern_fit(face, count)
        if count == 1:
            conf *= 0.85 if _lone_pip_framed(planes, face[0]) else 0.45
        # a blurred frame (out of focus, moving hand) blurs every rim: read it, but unsure
        conf *= float(np.clip(1.6 - _rim_width(planes, face[0]) / (0.15 * st["d"] + 3.0), 0.3, 1.0))
        body_rel = st["body"] / frame_mid
        faces.append({"face": face, "count": count, "x": st["x"], "y": st["y"], "size": size, "split": id(face[0]) in cut,
                      "dark": face[0].dark, "flat": st["flat"], "d": st["d"],
                      "major": statistics.median([p.major / p.count for p in face]), "body_rel": body_rel,
                      # top faces: bright body, round pips, and (in oblique views) higher in the frame
                      "score": _top_score(body_rel, st["flat"], st["y"], gray.shape[0]), "conf": conf})
    return faces


def _pips_inside(planes: tuple[np.ndarray, np.ndarray], faces: list[dict[str, Any]],
                 pip_range: tuple[float, float]) -> list[dict[str, Any]]:
    """Lone bright "ones" that are a whole pale die on a darker table, replaced by the dark pips inside.

    A small white die on a dark table is a bright blob of a pip's shape; its own pips (gold ones
    above all: in the blue+green plane about half the white body's level) are then lost, since the
    box mean around them takes in the dark table and falls below the body, so the pips are no
    darker than DARK_RATIO of it. Inside the blob the dark pips are sought again against the
    die's own body: the blob is the part of its box brighter than halfway between the blob's
    level and its ring's (the table), holes filled, and the rest of the box is set to the blob's
    median level in the dark plane. Only pips up to INSIDE_PIP of the blob's diameter, and only faces
    whose centre lies on the blob, replace it; a lone bright pip with none inside stays as it was.
    """
    gray, dark = planes
    h, w = gray.shape[:2]
    frame_mid = _frame_mid(gray)
    out: list[dict[str, Any]] = []
    for f in faces:
        p = f["face"][0]
        hi = min(INSIDE_PIP * p.d, pip_range[1])
        if f["count"] != 1 or f["dark"] or p.merged != 1 or hi <= pip_range[0] + 1.0:
            out.append(f)
            continue
        reach = 0.5 * p.major + 0.25 * p.d + 2.0
        x0, y0 = max(int(p.x - reach), 0), max(int(p.y - reach), 0)
        x1, y1 = min(int(math.ceil(p.x + reach)) + 1, w), min(int(math.ceil(p.y + reach)) + 1, h)
        if min(x1 - x0, y1 - y0) < BLOCK:
            out.append(f)
            continue
        g, dk = gray[y0:y1, x0:x1], dark[y0:y1, x0:x1]
        blob = (g > 0.5 * (p.pip_v + p.body_v)).astype(np.uint8)
        cnts, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        fg = np.zeros_like(blob)
        cv2.drawContours(fg, cnts, -1, 255, -1)
        # (less its rim, where the die's edge blends into the table: no body, and dark in blue+green)
        fg = cv2.erode(fg, np.ones((3, 3), np.uint8), iterations=max(1, round(INSIDE_RIM * p.d)))
        if not fg.any():
            out.append(f)
            continue
        # the table around the blob is set to the blob's own level: the box mean is then the
        # die's body all over, and the table's ring is no dark blob enclosing the pips
        dk = dk.copy()
        dk[fg == 0] = int(np.median(dk[fg > 0]))
        inside = [g_ for g_ in _faces_of((g, dk), (pip_range[0], hi), polarities=(True,))
                  if math.hypot(g_["x"] + x0 - p.x, g_["y"] + y0 - p.y) < 0.5 * p.d]
        if not inside:
            out.append(f)
            continue
        for g_ in inside:
            g_["face"] = [dataclasses.replace(q, x=q.x + x0, y=q.y + y0) for q in g_["face"]]
            g_["x"] += x0
            g_["y"] += y0
            st = _face_stats(g_["face"])
            g_["body_rel"] = st["body"] / frame_mid
            g_["score"] = _top_score(g_["body_rel"], st["flat"], g_["y"], h)
            out.append(g_)
    return out


def _explained(pyramid: dice_body.Pyramid, f: dict[str, Any], faces: list[dict[str, Any]]) -> bool:
    """A first-pass face the brightest-channel pass need not look at again: three or more pips in a
    die's exact layout, linked as found (not cut from a larger group), the only face of its pips'
    polarity on its die (no other as near as _merge_passes' clash), and kept by the die-body check
    with its own count. A die whose pips made two faces, whose recount differs (a six found as two
    rows of three) or that the check refuses is searched again: the other pass's face there may be
    the one that passes. The check's looks are kept per frame: _check_bodies asks again for free."""
    if f["split"] or f["count"] < LAYOUT_MIN or not _fits_layout(f):
        return False
    if any(g is not f and g["dark"] == f["dark"] and math.hypot(g["x"] - f["x"], g["y"] - f["y"]) < 0.5 * max(g["size"], f["size"])
           for g in faces):
        return False
    kept = _body_checked(pyramid, dict(f))  # (a copy: the check recounts in place)
    return kept is not None and kept["count"] == f["count"]


def _spanning_links(face: list[Pip]) -> list[tuple[float, int, int]]:
    """The links (length in pip diameters, i, j) of a group's minimum spanning tree (Prim's)."""
    n = len(face)
    xy = np.float32([[p.x, p.y] for p in face])
    d = np.float32([p.d for p in face])
    dist = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(2)) / np.maximum(d[:, None], d[None])
    inside = np.zeros(n, bool)
    inside[0] = True
    best, frm = dist[0].copy(), np.zeros(n, int)
    edges = []
    for _ in range(n - 1):
        j = int(np.argmin(np.where(inside, np.inf, best)))
        edges.append((float(best[j]), int(frm[j]), j))
        inside[j] = True
        closer = dist[j] < best
        best, frm = np.where(closer, dist[j], best), np.where(closer, j, frm)
    return edges


def _split_group(face: list[Pip]) -> list[list[Pip]]:
    """A linked group of more than six pips cut at the longest link of its minimum spanning tree,
    and its parts again while a part holds more than six pips, or three or more off a face's
    layout (so the pips of two dice are not read as one die). Each part's blobs count again as
    group_faces counts them (merged blobs as their pips only in a six)."""
    edges = _spanning_links(face)
    cut = max(edges)
    adj: dict[int, list[int]] = {i: [] for i in range(len(face))}
    for e in edges:
        if e is not cut:
            adj[e[1]].append(e[2])
            adj[e[2]].append(e[1])
    seen, stack = {cut[1]}, [cut[1]]
    while stack:
        for k in adj[stack.pop()]:
            if k not in seen:
                seen.add(k)
                stack.append(k)
    out = []
    for part in ([p for i, p in enumerate(face) if i in seen], [p for i, p in enumerate(face) if i not in seen]):
        if len(part) > 6 or (len(part) >= 3 and dice_body.layout_fit([(p.x, p.y) for p in part])[0] > LAYOUT_TOL):
            out += _split_group(part)
            continue
        use_merged = len(part) > 1 and sum(p.merged for p in part) == 6
        out.append([dataclasses.replace(p, count=p.merged if use_merged else 1) for p in part])
    return out


def _group_top(face: list[Pip]) -> list[Pip] | None:
    """The top face's pips of a linked group of seven to nine light single pips that is an oblique
    die's top face (three to six pips) and the first row of its front face (one to three pips)
    below it, or None (the group is then split as any group of more than six pips: see
    _split_group, which cut such a die's five into twos and lone pips).

    The front pips are the group's lowest in the frame (the face the camera sees at a slant is the
    die's front); the top, the rest, must lie in a die's exact layout once its foreshortening down
    the frame is undone by its pips' own flatness (as _front_six). The front pips lie below the top's
    lowest pip by at least FRONT_GAP of the top's pip diameter (each pip lies its radius and a margin
    from the edge between the faces) and by less than FRONT_ROWS of the top's own corner-to-corner
    pitch (two layout scales): a top pip and a front pip each lie one margin, about one layout scale,
    from that edge, the front one foreshortened, where a neighbouring die's pips lie two margins and
    the gap between the dice away. Only the group's own pips (places, sizes, shapes) are used, not
    their light: the front pips of a die lit from above may be as bright as the top's."""
    if len(face) > 9 or any(p.count != 1 or p.merged != 1 or p.chain or p.dark for p in face):
        return None
    order = sorted(face, key=lambda p: p.y)
    for k in (1, 2, 3):
        top, front = order[:-k], order[-k:]
        if not LAYOUT_MIN <= len(top) <= 6:
            continue
        st = _face_stats(top)
        fits, scale, flat = _unsquashed_fit(top, st)
        if not fits:
            continue
        gap = front[0].y - max(p.y for p in top)
        if FRONT_GAP * st["d"] <= gap < FRONT_ROWS * 2.0 * scale / flat:
            return top
    return None


def _two_dice_linked(face: list[Pip]) -> bool:
    """True when a linked group of six round single pips is the faces of two touching dice.

    Touching dice of one colour link their pips into one group (the line between two pips stays
    on die body); a four and a two, or a three and three pips of a four, are then read as a six.
    A six's pips lie in its layout; a group far off it (misfit above SPLIT_FIT) whose longest link
    is clearly its longest (SPLIT_GAP x the next) is cut there as a group of more than six is (see
    _split_group), when that leaves a face of three or more pips in its exact layout and at most
    two other parts (a slanted six's pips scatter into single pips). A group whose two longest
    links are clearly longer than the rest (a four linked with one pip of each of two neighbours)
    is cut too, when every part of two or more pips is a face in a die's layout at a die's scale
    (the top and side faces of one die leave a row, or two pips nearer than a two's).
    """
    if len(face) != 6 or any(p.merged != 1 or p.chain for p in face):
        return False
    links = sorted(length for length, _, _ in _spanning_links(face))
    one = links[-1] >= SPLIT_GAP * links[-2]
    two = links[-2] >= SPLIT_GAP * links[-3]
    if not (one or two) or dice_body.layout_fit([(p.x, p.y) for p in face])[0] <= SPLIT_FIT:
        return False
    parts = _split_group(face)
    if len(parts) > 3 or max(len(part) for part in parts) < 3:
        return False
    return one or all(_part_is_face(part) for part in parts if len(part) > 1)


def _two_twos(face: list[Pip]) -> bool:
    """True when a linked group of four round single pips is two twos of neighbouring dice.

    Two twos lying near each other link their pips into one group (each pip within LINK_SPAN of
    the other die's nearer pip), and four pips off a four's layout make no face. Such a group is
    cut at its longest link (see _split_group) when that link is clearly its longest (SPLIT_GAP x
    the next) and leaves two pairs spaced alike (within a quarter: one set's dice show a two's
    diagonal at one size). Everything is measured in the group's own pips; a four in its layout
    is never cut, and each two still goes through the body check (and _vouched) as any two.
    """
    if not TWO_TWOS or len(face) != 4 or any(p.merged != 1 or p.chain or _flat(p) > SQUARE_ON for p in face):
        return False
    misfit, scale = dice_body.layout_fit([(p.x, p.y) for p in face])
    if _in_layout(misfit, scale, statistics.median([p.d for p in face]), LAYOUT_LOOSE):
        return False
    links = sorted(_spanning_links(face))
    if links[-1][0] < SPLIT_GAP * links[-2][0]:
        return False
    a, b = links[0], links[1]  # (the cut must leave two pairs: the two shorter links share no pip)
    if not {a[1], a[2]}.isdisjoint({b[1], b[2]}) or a[0] < TWO_APART:
        return False
    return 0.8 * a[0] <= b[0] <= 1.25 * a[0]


def _part_is_face(part: list[Pip]) -> bool:
    """A cut part of two or more pips in a die's layout at a die's scale (_in_layout)."""
    misfit, scale = dice_body.layout_fit([(p.x, p.y) for p in part])
    return _in_layout(misfit, scale, statistics.median([p.d for p in part]))


def _reseed(pyramid: dice_body.Pyramid, leftover: list[Pip], faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Dice around pips that made no face: a clean die body around the pip with a die's pips in it.

    A left-over pip is often a glare spot inside a pip of a die read already or missed: the look
    around it may then take the pip itself, ringed by the die's body, for a die and count the
    glare in it as pips (img_0048: a 7 px "die", a yellow pip of a 42 px two, read three). Such a
    "die" is a pip's size, under RESEED_SMALL of the frame's read faces' median size (the real
    dice the look found on the dev photos and renders are 0.63 of it and more): it is no die.
    """
    taken = [(f["x"], f["y"], 0.5 * f["size"]) for f in faces]
    small = RESEED_SMALL * statistics.median([f["size"] for f in faces]) if faces else 0.0
    out: list[dict[str, Any]] = []
    for p in sorted(leftover, key=lambda q: -abs(q.body_v - q.pip_v))[:RESEED_MAX]:
        if any(abs(p.x - x) < r and abs(p.y - y) < r for x, y, r in taken):
            continue
        b = dice_body.look(pyramid, [(p.x, p.y, p.d)], 1.3 * 5.0 * p.d)
        if b.kind != "die" or not b.count or not b.pips or b.side < small:
            continue
        out.append(_body_face(b))
        taken.append((b.x, b.y, 0.5 * b.side))
    return out


def _close_two(b: dice_body.DieBody) -> list[tuple[float, float]] | None:
    """The pip of a one that the die-first search read as a two, or None.

    A two's pips lie on its die's diagonal, about 0.7 of its side apart (0.40-0.63 of the die-first
    search's own side on the real dev photos' twos, where the side takes in a little of the side
    faces and shadow); the only pips of any face nearer each other than TWO_CLOSE of the side are
    neighbours in a six's column. Two spots that near, one of them at the die's centre (within
    dice_body.ONE_CENTRE of its side, where a two has none), are a one's pip split in two (a spot
    counted as two pips by its area) or a one's pip with a glare spot or a ring of its logo beside
    it. The pip nearer the centre is kept.
    """
    if b.count != 2 or len(b.pips) != 2 or b.side <= 0.0:
        return None
    (ax, ay), (cx, cy) = b.pips
    if math.hypot(ax - cx, ay - cy) >= TWO_CLOSE * b.side:
        return None
    near = min(b.pips, key=lambda p: math.hypot(p[0] - b.x, p[1] - b.y))
    if math.hypot(near[0] - b.x, near[1] - b.y) > dice_body.ONE_CENTRE * b.side:
        return None
    return [near]


def _body_face(b: dice_body.DieBody) -> dict[str, Any]:
    """A face dict (as _faces_of makes) for a die read from its body (a two read as a one: see _close_two)."""
    one = _close_two(b)
    count, spots = (1, one) if one is not None else (b.count, b.pips)
    pips = [Pip(x, y, b.pip_d, b.pip_d, b.dark, b.pip_l, b.body_l, 1.0) for x, y in spots]
    contrast = abs(b.body_l - b.pip_l) / max(b.body_l, b.pip_l, 1.0)
    return {"face": pips, "count": count, "x": b.x, "y": b.y, "size": b.side, "dark": b.dark, "from_body": True,
            "flat": 1.0, "d": b.pip_d, "major": b.pip_d, "body_rel": 1.0, "score": 0.0,
            "conf": 0.7 * min(1.0, 0.35 + contrast)}


def _pip_spots(p: Pip, count: int = 0) -> list[tuple[float, float]]:
    """Centres of the ``count`` (default: its count) pips one blob stands for: touching pips of a
    six's column lie along its long axis."""
    count = count or p.count
    if count == 1:
        return [(p.x, p.y)]
    # a row of k discs of diameter d at pitch q has a second moment along it of d^2/16 + q^2 (k^2-1)/12
    # (major and minor are 4 x the square roots of the moments, plus 1)
    var = max(((p.major - 1.0) / 4) ** 2 - ((p.d - 1.0) / 4) ** 2, 0.0)
    q = math.sqrt(var * 12.0 / (count ** 2 - 1))
    ca, sa = math.cos(p.angle), math.sin(p.angle)
    return [(p.x + t * q * ca, p.y + t * q * sa) for t in np.arange(count) - 0.5 * (count - 1)]


def _spot_pips(face: list[Pip]) -> list[Pip]:
    """A face's pips one by one (a row of touching pips as its pips): colours are sampled around
    each pip, and around a row's middle that ring would reach past the die."""
    if all(p.count == 1 for p in face):
        return face
    return [Pip(x, y, p.d, p.d, p.dark, p.pip_v, p.body_v, p.uniform) for p in face for x, y in _pip_spots(p)]


def _face_spots(face: list[Pip]) -> list[tuple[float, float]]:
    """Centres of every pip of a face, touching pips counted one by one."""
    return [xy for p in face for xy in _pip_spots(p)]


def _fits_layout(f: dict[str, Any], tol: float = LAYOUT_TOL) -> bool:
    """A face of three or more pips in a die's exact layout (keeps a die the body check missed)."""
    spots = _face_spots(f["face"])
    if f["count"] < LAYOUT_MIN or len(spots) != f["count"]:
        return False
    # a six's narrower columns (see dice_body.SIX_STRETCH) only on a face seen square-on (a slanted
    # face's foreshortening narrows them too: the side six below an oblique die's top), and only in
    # the strict fit (the loose one would then take a four and the first row of its side face)
    misfit, scale = dice_body.layout_fit(spots, stretch=f["flat"] <= SQUARE_ON and tol <= LAYOUT_TOL)
    return _in_layout(misfit, scale, f["d"], tol)


def _in_layout(misfit: float, scale: float, d: float, tol: float = LAYOUT_TOL) -> bool:
    """A layout fit (dice_body.layout_fit) that is a die's face: within ``tol`` of the layout, at a
    pitch of 0.75-3.5 pip diameters ``d`` (the pitch of touching pips is about their width, which
    the threshold and blur widen)."""
    return misfit <= tol and 0.75 * d <= scale <= 3.5 * d


def _neutral(bgr: np.ndarray) -> bool:
    """True for a grey or white colour (glare, a white mark), false for a coloured one (a red pip)."""
    hi, lo = float(np.max(bgr)), float(np.min(bgr))
    return hi - lo < NEUTRAL_CHROMA * max(hi, 1.0)


def _check_bodies(pyramid: dice_body.Pyramid, faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Look at the die body around each face: drop faces with no die around them, recount clean dice.

    A face on a surface (a plate, a printed panel) is dropped; so is one whose body hardly differs
    from its surroundings, unless its pips sit in a die's exact layout; a lone pip needs a clean die.
    """
    out = []
    alts = []
    faint = []  # ones and twos refused for a body that hardly differs from its surroundings
    result: dict[int, dict[str, Any] | None] = {}
    for f in faces:
        kept = _body_checked(pyramid, f)
        if kept is None and ONE_FRONT:
            one = _top_one(f)  # (an oblique die's one linked with its front face's pips)
            if one is not None:
                kept = _body_checked(pyramid, one)
        result[id(f)] = kept
        if kept is None and f.get("body_kind") in ("faint", "framed") and f["count"] in (1, 2):
            faint.append(f)
        if kept is None and "faint_top" in f:
            faint.append(f["faint_top"])
        if kept is not None:
            # two faces the body check found to be one die (pips of a group split in two, each
            # recounted on the die): one die
            if not any(abs(kept["x"] - g["x"]) < 0.25 * g["size"] and abs(kept["y"] - g["y"]) < 0.25 * g["size"]
                       and abs(kept["size"] - g["size"]) < 0.2 * g["size"] for g in out):
                out.append(kept)
        else:
            alts += f.get("alt", []) + f.get("dropped", [])
    if ONE_FRONT:
        out = _ones_over_fronts(pyramid, faces, result, out)
    # the faces a refused face won over in another search pass (see _merge_passes), or took for
    # its side faces (see _drop_side_faces: a glare spot or a coin read as a large one is no die
    # and has no side faces), are tried instead, where no kept face already covers them
    passed: list[dict[str, Any]] = []
    for a in alts:
        if any(math.hypot(a["x"] - g["x"], a["y"] - g["y"]) < 0.5 * max(a["size"], g["size"]) for g in out + passed):
            continue
        kept = _body_checked(pyramid, a)
        if kept is not None:
            passed.append(kept)
    # nor the side face of a kept face or of another such face
    fronts = {id(g) for g in _drop_side_faces(out + passed)}
    kept = _drop_odd_ones(_drop_small_unclean(_drop_flat_unclean(out + [g for g in passed if id(g) in fronts])))
    return kept + _vouched(faint, kept) if VOUCH else kept


def _under_one(p: Pip, front: list[Pip]) -> bool:
    """True when the pips ``front`` lie where the front face of the die whose top one is pip ``p``
    shows its pips in an oblique view.

    Seen at a slant (about 45 degrees on the real webcam photos), a die shows its top face and,
    below it in the frame, its front face, foreshortened alike: the front face's pips are as round
    and about as large as the top face's (0.74-1.2 of a one's pip diameter on the real dev photos),
    so the squashed-pip tests of _top_part and _top_few do not tell them apart. What does: a one's
    pip sits at the middle of its top face, half a face and a margin from the edge, so every front
    pip lies ONE_FRONT_BELOW of its diameter or more below it (2.9-4.6 on those photos; the pips of
    one face lie about 1.4 diameters apart across a slanted row), their centre within
    ONE_FRONT_REACH of it (4.3-5.8) and no farther to the side than below; and a table lit from
    above lights the top face more than the vertical front face (the front bodies at 0.85-0.98 of
    the one's). Everything is measured in the pips themselves (sizes, places, the ratio of two
    bodies' grey values), not in the light's level.

    Every front pip's body must be darker (ONE_FRONT_EACH): a pip as lit as the one is mostly a
    two's other pip, on the same top face. A glare can light one pip of a real front face as much,
    though; ONE_FRONT_LIT such pip is allowed when ONE_FRONT_DARK front pips are darker and it does
    not lie above their top row (ONE_FRONT_ROW of the one's diameter): the top face, where a two's
    other pip lies, is above the whole front face in the frame."""
    if sum(q.count for q in front) < 2 or p.count != 1:
        return False
    if any(q.y - p.y < ONE_FRONT_BELOW * p.d for q in front):
        return False
    cx, cy = statistics.fmean([q.x for q in front]), statistics.fmean([q.y for q in front])
    if abs(cx - p.x) > cy - p.y or math.hypot(cx - p.x, cy - p.y) > ONE_FRONT_REACH * p.d:
        return False
    d = statistics.median([q.d for q in front])
    if not ONE_FRONT_D[0] * p.d <= d <= ONE_FRONT_D[1] * p.d:
        return False
    if not ONE_FRONT_EACH:
        return statistics.median([q.body_v for q in front]) <= ONE_FRONT_BODY * p.body_v
    lit = [q for q in front if q.body_v > ONE_FRONT_BODY * p.body_v]
    if not lit:
        return True
    dark = [q for q in front if q.body_v <= ONE_FRONT_BODY * p.body_v]
    # a front pip as lit as the one: a glare on the front face when the face's other pips are darker
    # and it lies among them (a two's other pip lies on the one's top face, above the front face)
    return (len(lit) <= ONE_FRONT_LIT and len(dark) >= ONE_FRONT_DARK
            and all(q.y >= min(r.y for r in dark) - ONE_FRONT_ROW * p.d for q in lit))


def _top_one(f: dict[str, Any]) -> dict[str, Any] | None:
    """The one of an oblique die whose pip the search linked with its front face's pips (see
    _under_one), as a face of its own that has had its side face taken off, or None. Tried on
    faces the body check refused: a one and its front face are no die's face together."""
    face = f["face"]
    if len(face) < 3:
        return None
    p = min(face, key=lambda q: q.y)
    if not _under_one(p, [q for q in face if q is not p]):
        return None
    one = dict(f, face=[p], count=1, x=p.x, y=p.y, d=p.d, flat=_flat(p), major=p.major, size=3.2 * p.d,
               sides=f.get("sides", 0) + 1)
    one.pop("faint_top", None)
    return one


def _ones_over_fronts(pyramid: dice_body.Pyramid, faces: list[dict[str, Any]],
                      result: dict[int, dict[str, Any] | None], out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The faces the body check kept, with the lone ones it refused for a body that touches the
    table or is only framed (a white die on a pale table) that lie over their die's front face
    (another face of the frame, see _under_one) taken back, and that front face dropped.

    The front face must not have been read as a clean die (then the spot above it is more likely
    not its one)."""
    clean = ("die", "square")
    for f in faces:
        if (result.get(id(f)) is not None or f["count"] != 1 or len(f["face"]) != 1 or f.get("sides")
                or f.get("body_kind") not in ("touch", "framed")):
            continue
        p = f["face"][0]
        fronts = [g for g in faces if g is not f and g["dark"] == f["dark"] and _under_one(p, g["face"])]
        kept_fronts = [result.get(id(g)) for g in fronts]
        if not fronts or any(k is not None and k.get("body_kind") in clean for k in kept_fronts):
            continue
        kept = _body_checked(pyramid, dict(f, sides=1))
        if kept is None:
            continue
        drop = {id(k) for k in kept_fronts if k is not None}
        out = [g for g in out if id(g) not in drop] + [kept]
    return out


def _two_apart(f: dict[str, Any]) -> float:
    """The distance between the two pips of a two's face."""
    a, b = f["face"][0], f["face"][1]
    return math.hypot(a.x - b.x, a.y - b.y)


def _vouched(faint: list[dict[str, Any]], kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ones and twos of light pips refused as faint (see _body_checked) whose pips and body are
    those of dice read in the same frame.

    A black die on a dark table in dim light differs from the table by about the noise (3-7 units
    of 8-bit Lab where the body check asks for 6 and more), so its body cannot be told from the
    table; its pips can. The pips of one set of dice are round holes of one size on a body of one
    colour, so a face of one or two round, single pips is taken for a die of the set when a die read
    in the frame from three or more light pips has: a body within VOUCH_COLOUR of its pip-to-body
    difference of the face's body, a pip-to-body difference VOUCH_GAP of its own (a glare spot's is
    smaller) and pips within VOUCH_PIP of it (gold or white, not a coloured coin); and the face's
    pips are VOUCH_D of those dice' median pip diameter (a one's up to VOUCH_ONE), a two's TWO_DIAG
    of their side apart (a die's diagonal). It takes their side, where no die is read already.
    Dark pips are left out: on a pale tray a white die's two whose other pip was lost would be
    taken for a one (3 of 5 such faces on the real photos). Everything is measured on the frame's
    own dice. With no die of three or more pips read alike (a roll of ones and twos), faint twos
    alike in colours, pip size and pip spacing (_alike_twos) vouch for each other, their side taken
    as their spacing over the middle of TWO_DIAG, and a one is vouched by the twos so taken; a lone
    faint face has nothing to be measured against and is not kept. A two's pips may be up to
    VOUCH_TWO of the dice' pip size (a faint black two's spread into its body), and a two vouched
    for by dice of three pips or more vouches for no one (VOUCH_ONE_SET): a one unlike the dice
    that measured the two is unlike the set (a coloured disc beside a black two)."""
    out: list[dict[str, Any]] = []
    by_dice: set[int] = set()  # (the twos vouched for by dice of three pips or more)
    for f in sorted(faint, key=lambda g: -g["count"]):
        face = f["face"]
        if f["dark"] or any(p.count != 1 for p in face) or f["flat"] > SQUARE_ON or "bgr" not in f:
            continue
        refs = [g for g in kept if g["count"] >= LAYOUT_MIN and not g["dark"] and _alike(f, g)]
        if not refs and f["count"] == 2:
            # no such die read: twos alike in their pips' spacing too vouch for each other
            mates = [g for g in faint if g is not f and _alike_twos(f, g)]
            refs = [dict(g, size=_two_apart(f) / (0.5 * sum(TWO_DIAG))) for g in mates]
        elif not refs:
            # (ones: by the twos taken; a two vouched for by dice of three pips or more only when the
            # one is alike those dice too, which it is not here: it would have them for refs)
            refs = [g for g in out if g["count"] == 2 and _alike(f, g) and not (VOUCH_ONE_SET and id(g) in by_dice)]
        if not refs:
            continue
        d_ref = statistics.median([g["d"] for g in refs])
        side = statistics.median([g["size"] for g in refs])
        hi = VOUCH_ONE if f["count"] == 1 else VOUCH_TWO
        if not all(VOUCH_D[0] * d_ref <= p.d <= hi * d_ref for p in face):
            continue
        if f["count"] == 2 and not TWO_DIAG[0] * side <= _two_apart(f) <= TWO_DIAG[1] * side:
            continue
        x, y = float(np.mean([p.x for p in face])), float(np.mean([p.y for p in face]))
        if any(math.hypot(x - g["x"], y - g["y"]) < 0.5 * (side + g["size"]) for g in kept + out):
            continue
        f["x"], f["y"], f["size"] = x, y, side
        out.append(f)
        if any(g["count"] >= LAYOUT_MIN for g in refs):
            by_dice.add(id(f))
    return out


def _alike(f: dict[str, Any], g: dict[str, Any]) -> bool:
    """Face f's body and pips are those of die g (see _vouched): bodies within VOUCH_COLOUR of g's
    pip-to-body difference, f's own difference VOUCH_GAP of it, pips within VOUCH_PIP of it."""
    if "bgr" not in g:
        return False
    body, pip = _lab(f["bgr"][0])[0], _lab(f["bgr"][1])[0]
    gb, gp = _lab(g["bgr"][0])[0], _lab(g["bgr"][1])[0]
    gap = float(np.linalg.norm(gp - gb))
    own = float(np.linalg.norm(pip - body))
    return bool(np.linalg.norm(body - gb) <= VOUCH_COLOUR * gap and VOUCH_GAP[0] * gap <= own <= VOUCH_GAP[1] * gap
                and np.linalg.norm(pip - gp) <= VOUCH_PIP * gap)


def _alike_twos(f: dict[str, Any], g: dict[str, Any]) -> bool:
    """Two faint twos of light, round, single pips of one set of dice (see _vouched): colours, pip
    sizes and pip spacing (within a quarter) alike."""
    if g["count"] != 2 or g["dark"] or any(p.count != 1 for p in g["face"]) or g["flat"] > SQUARE_ON or not _alike(f, g):
        return False
    af, ag = _two_apart(f), _two_apart(g)
    return VOUCH_D[0] * g["d"] <= f["d"] <= VOUCH_D[1] * g["d"] and 0.8 * ag <= af <= 1.25 * ag


def _body_checked(pyramid: dice_body.Pyramid, f: dict[str, Any]) -> dict[str, Any] | None:
    """One face after the die-body check of _check_bodies (recounted), or None when it is dropped."""
    pts = [(x, y, p.d) for p in f["face"] for x, y in _pip_spots(p)]
    spots = [(x, y) for x, y, _ in pts]
    h, w = pyramid.levels[0].shape[:2]
    r = 0.5 * f["d"]
    if len(spots) > len(f["face"]) and not all(r <= x <= w - 1 - r and r <= y <= h - 1 - r for x, y in spots):
        return None  # touching pips running out of the frame: no whole six in view
    xy = np.float32(spots)
    far = float(np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(2)).max()) if len(xy) > 1 else 0.0
    side = max(1.5 * far, 5.0 * f["d"])
    b = dice_body.look(pyramid, pts, 1.3 * side, f["count"])
    f["body_kind"] = b.kind  # (see _drop_flat_unclean)
    if b.kind == "surface" or (b.kind == "faint" and not _fits_layout(f)):
        top = (_top_part(f) or _top_few(f)) if b.kind == "faint" and TOP_FEW else None
        if top is None and b.kind == "faint" and FAINT_FRONT:
            top = _faint_front(f)
        if top is None:
            return None
        kept = _body_checked(pyramid, top)
        if kept is None and top.get("body_kind") in ("faint", "framed"):
            f["faint_top"] = top  # (for _vouched: see _check_bodies)
        return kept
    if f.get("redness") and b.kind != "die" and (f["count"] < REDNESS_LAYOUT_MIN or not _fits_layout(f)):
        return None  # red specks off a clean die (reflections, colour fringes): a die needs a fuller layout
    if f.get("red_pass") and _neutral(f["bgr"][1]):
        return None  # white spots that the red pass found too (glare on black plastic): no red pips
    if f["count"] == 1 and b.kind in ("touch", "framed") and not f.get("sides"):
        return None  # a lone spot with no clean die around it: glare, a stud, a coin
    if b.kind == "square":
        f["x"], f["y"], f["size"] = b.x, b.y, b.side  # a one framed by a die the colour of the table
    if f["count"] == 2 and b.kind != "die" and _print_beside(pyramid.levels[0], f):
        return None  # two gaps in print (the counters of letters, a key's legend), not a two
    if b.kind == "die" and not b.count and not dice_body.diagonal(spots, b.angle):
        count = _side_pair(pyramid.levels[0], f, b)
        if not count:
            return None  # two or three spots along a side of their blob: print, not a die
        f["count"], f["x"], f["y"], f["size"] = count, b.x, b.y, b.side
        return f
    if b.kind == "die" and not b.count and f["count"] >= LAYOUT_MIN and not _fits_layout(f, LAYOUT_LOOSE):
        top = _top_part(f)  # (the pips of the face below an oblique die's top taken in: see there)
        if top is None and TOP_FEW:
            top = _top_few(f)
        return _body_checked(pyramid, top) if top is not None else None
        # (else: spots on a blob that neither recount as a die nor lie in a die's layout)
    if not b.count and len(f["face"]) < f["count"] and not _fits_layout(f):
        return None  # long blobs taken for touching pips, with no clean die around them: print (an 8)
    if b.kind == "die" and b.count > f["count"] >= 4 and _added_off_face(f, spots, b.pips):
        # the die's blob holds another face's pips too (see _added_off_face): the face's own count
        f["x"], f["y"], f["size"] = b.x, b.y, b.side
        return f
    if b.kind == "die" and b.count:
        # the recount mends split or lost pips; it can lose pips too (a six's columns merge into
        # two bars on a small die): a face whose own pips lie in their face's exact layout, all on
        # this die (two touching threes make a six's layout too), keeps them
        on_die = all(math.hypot(x - b.x, y - b.y) <= 0.5 * b.side for x, y in spots)
        if not ((b.count < f["count"] or _centre_kept(f, spots, b)) and on_die and _fits_layout(f)):
            f["count"] = b.count
        f["x"], f["y"] = b.x, b.y
        f["size"] = b.side
    return f


def _top_part(f: dict[str, Any]) -> dict[str, Any] | None:
    """The top face of a face that took in pips of the face below it (an oblique die), or None.

    Seen at a slant, the die's front face shows its pips squashed across the slant: narrower
    (at most FRONT_D of the top face's pip diameter) and elongated (flatter than SQUARE_ON), where
    the top face's own pips are round. A face whose pips lie in no die's layout and whose clean
    die does not recount (see _body_checked) is read again without such pips when the round ones
    left, three or more, lie in a die's exact layout. Sizes and roundness are the face's own.
    """
    face = f["face"]
    if any(p.count != 1 for p in face):
        return None
    round_ = [p for p in face if _flat(p) <= SQUARE_ON]
    if len(round_) < LAYOUT_MIN or len(round_) == len(face):
        return None
    d = statistics.median([p.d for p in round_])
    if any(p.d >= FRONT_D * d for p in face if _flat(p) > SQUARE_ON):
        return None  # an elongated pip as large as the round ones: no foreshortened face
    st = _face_stats(round_)
    top = dict(f, face=round_, count=len(round_), d=st["d"], flat=st["flat"])
    top.update(x=st["x"], y=st["y"], size=_face_size(st, 4))
    return top if _fits_layout(top) else None


def _top_few(f: dict[str, Any], most: int = 2, gap: float = 0.5, lone: bool = False) -> dict[str, Any] | None:
    """The one or two round pips of an oblique die's top face whose face took in the squashed pips
    of the face below it (see _top_part, which needs three round pips in a layout), or None.

    The top pips are the round single ones (at most SQUARE_ON flat) within FRONT_C of the face's
    strongest contrast, one or two alike in size (within a quarter, or row by row: _alike_rows); every other pip is squashed
    (elongated and narrower than FRONT_D of them) or, light pips only, of a contrast below FRONT_C
    of theirs (the front face is lit at a slant: on the tuning renders 0.48-0.79 of the top's,
    where a face's own pips are 0.77 and more, 0.83 at the 1 % quantile), at least two such pips
    then (one dimmer pip beside a bright one may be the top face's own, in shade); and every other
    pip lies below them in the frame by at least half their diameter (the face the camera sees at
    a slant is the die's front, and the edge between the two faces lies beyond the top pips' rims).
    Dark pips are kept to the squashed test: on a real top-down photo a small white die's merged
    pips have the lower contrast (a three read two). Everything is measured in the face's own pips
    (sizes, shapes, places), not in the light. A face the body check refused as faint is tried this
    way too (and with _top_part); a one or two so taken that the check refuses as faint goes to
    _vouched like any other. _front_row calls it with up to ``most`` top pips (three or more must
    then lie in a die's exact layout) and the front pips ``gap`` top pip diameters below them, and
    with ``lone`` (a face in no die's exact layout) takes a single dimmer light pip below two or more
    top pips as the front face's too."""
    face = f["face"]
    single = [p for p in face if p.count == 1 and _flat(p) <= SQUARE_ON]
    if not single:
        return None
    cmax = max(abs(p.pip_v - p.body_v) for p in single)
    round_ = [p for p in single if abs(p.pip_v - p.body_v) >= FRONT_C * cmax]
    rest = [p for p in face if all(p is not q for q in round_)]
    if not 1 <= len(round_) <= most or not rest:
        return None
    ds = [p.d for p in round_]
    if max(ds) > 1.25 * min(ds) and not (TOP_ROWS and _alike_rows(round_)):
        return None
    d = statistics.median(ds)
    cmin = min(abs(p.pip_v - p.body_v) for p in round_)
    squashed = [_flat(p) > SQUARE_ON and p.d < FRONT_D * d for p in rest]
    if any(abs(p.pip_v - p.body_v) >= FRONT_C * cmin and not sq for p, sq in zip(rest, squashed, strict=True)):
        return None
    if not all(squashed) and (f["dark"] or (sum(p.count for p in rest) < 2 and not (lone and len(round_) >= 2))):
        return None
    if min(p.y for p in rest) - max(p.y for p in round_) < gap * d:
        return None
    st = _face_stats(round_)
    top = dict(f, face=round_, count=len(round_), d=st["d"], flat=st["flat"])
    top.update(x=st["x"], y=st["y"], size=_face_size(st, len(round_)))
    top.pop("faint_top", None)
    if len(round_) >= LAYOUT_MIN and not _fits_layout(top):
        return None
    return top


def _alike_rows(pips: list[Pip], ratio: float = 1.25) -> bool:
    """True when pips of a die's top face are alike in size (within ``ratio``) row by row, and their
    rows' median sizes within ``ratio`` of each other: a face seen at a slant has its near row
    (lower in the frame) closer to the camera and so larger, and a diagonal pair then differs by
    both steps. A row is the pips less than half their median diameter apart in y."""
    d = statistics.median(p.d for p in pips)
    rows: list[list[float]] = []
    last = None
    for p in sorted(pips, key=lambda p: p.y):
        if last is None or p.y - last >= 0.5 * d:
            rows.append([])
        rows[-1].append(p.d)
        last = p.y
    if len(rows) < 2 or any(max(r) > ratio * min(r) for r in rows):
        return False
    meds = [statistics.median(r) for r in rows]
    return max(meds) <= ratio * min(meds)


def _faint_front(f: dict[str, Any]) -> dict[str, Any] | None:
    """The top face of a face refused as faint and in no die's layout that is an oblique die's top
    and the pips of its front face below it, or None: _front_row's cuts (_top_few with up to
    FRONT_MOST top pips, FRONT_GAP below them; _front_six), whose top of three or more pips must
    lie in a die's exact layout (and then passes the body check as any face in one)."""
    if f["dark"] or f["count"] < LAYOUT_MIN + 1 or f["count"] != sum(p.count for p in f["face"]):
        return None
    return _top_few(f, FRONT_MOST, FRONT_GAP) or _front_six(f)


def _front_row(f: dict[str, Any]) -> dict[str, Any]:
    """A face the body check kept, without the pips of its die's front face it took in (see
    _top_few, here with up to FRONT_MOST round top pips, three or more of them then in a die's
    exact layout): an oblique die's top four and the two front pips below it make a six's layout.

    The pips dropped must lie below the top ones by FRONT_GAP of their diameter (a top pip and a
    front pip each lie their radius and a margin from the edge between the faces), and two top
    pips must lie FRONT_TWO diameters apart (a two's pips sit at opposite corners of its face):
    a top-down die's dim or blurred last pip, in its row, is no front face."""
    if not FRONT_ROW or "face" not in f or f.get("from_body"):
        return f
    recounted = f["count"] != sum(p.count for p in f["face"])
    if recounted and not FRONT_RECOUNTED:
        return f
    # one dimmer pip below two or more top pips is the front face's when the face with it lies in
    # no die's exact layout (a top-down three's or five's dim last pip lies in its layout)
    top = _top_few(f, FRONT_MOST, FRONT_GAP)
    if top is None and FRONT_LONE and not recounted and not _fits_layout(f):
        top = _top_few(f, FRONT_MOST, FRONT_GAP, lone=True)
        if top is not None:
            # the die's box still spans the front pip (another die's seed there is this die's)
            top["size"] = max(top["size"], f["size"])
    if top is None and not recounted:
        top = _front_six(f)
    if top is None or (recounted and top["count"] < LAYOUT_MIN):
        return f
    if top["count"] == 2:
        a, b = top["face"]
        if math.hypot(a.x - b.x, a.y - b.y) < FRONT_TWO * top["d"]:
            return f
    # a recounted face already has its die body's centre and side (other dice' seeds keep off it)
    return dict(top, x=f["x"], y=f["y"], size=f["size"]) if recounted else top


def _unsquashed_fit(pips: list[Pip], st: dict[str, Any]) -> tuple[bool, float, float]:
    """Whether a top face's pips lie in a die's exact layout once its foreshortening down the frame
    is undone by their own flatness (a round pip on the top face is squashed as the face is), with
    the layout's scale and that flatness. ``st``: _face_stats of the pips."""
    flat = max(1.0, statistics.median([_flat(p) for p in pips]))
    misfit, scale = dice_body.layout_fit([(p.x, st["y"] + flat * (p.y - st["y"])) for p in pips], stretch=False)
    return _in_layout(misfit, scale, st["d"]), scale, flat


def _front_six(f: dict[str, Any]) -> dict[str, Any] | None:
    """The top four of a face read six that is an oblique die's four and the two pips of its front
    face in the four's columns below it (a six's 2 x 3 layout), or None.

    A six's three rows lie on one flat face: seen from above at a slant, its rows' gaps along the
    face's long axis are equal, the nearer (lower in the frame) one the larger if anything
    (perspective). A four's lower row and the front face's first row lie on two faces at right
    angles, each pip its radius and a margin from the edge between them: when the long axis runs
    down the frame (within 45 degrees of it) and the lowest row's gap is below FRONT_ROWS of the gap
    above it (and still FRONT_GAP top pip diameters, as _front_row's), that row is dropped and the four kept if it lies in a four's exact layout once its
    foreshortening down the frame is undone by its pips' own flatness (a round pip on the top face
    is squashed as much as the face). Only the face's own pips are used (ratios of its own gaps,
    their shape), not their light or the renderer's look."""
    face = f["face"]
    if not FRONT_SIX or f["count"] != 6 or len(face) != 6 or any(p.count != 1 for p in face):
        return None
    xy = np.array([(p.x, p.y) for p in face], float)
    c = xy - xy.mean(axis=0)
    u = np.linalg.eigh(c.T @ c)[1][:, 1]
    u = -u if u[1] < 0 else u
    if u[1] < math.sqrt(0.5):
        return None
    t = c @ u
    order = np.argsort(t)
    rows = [t[order[2 * i:2 * i + 2]].mean() for i in range(3)]
    top_face = [face[i] for i in order[:4]]
    st = _face_stats(top_face)
    if not FRONT_GAP * st["d"] <= rows[2] - rows[1] < FRONT_ROWS * (rows[1] - rows[0]):
        return None
    top = dict(f, face=top_face, count=4, d=st["d"], flat=st["flat"])
    top.update(x=st["x"], y=st["y"], size=_face_size(st, 4))
    top.pop("faint_top", None)
    return top if _unsquashed_fit(top_face, st)[0] else None


def _centre_kept(f: dict[str, Any], spots: list[tuple[float, float]], b: dice_body.DieBody) -> bool:
    """True when a recount to four or six contradicts the pip at the die's centre that the search found.

    A three's and a five's face (exact layout: see _fits_layout) have a pip at the die's centre; a
    four's and a six's have none, so a recount of four or six there took something else for a pip
    (a glare spot on a glossy die, a streak of a marbled one). The face's middle must lie at the
    die's centre (MIDDLE_PIP), and a three's pips along its diagonal: a six's column of three lies
    along a side, off the centre. Its pips must be round (seen square-on, SQUARE_ON).
    """
    if f["count"] not in (3, 5) or b.count not in (4, 6) or f["flat"] > SQUARE_ON:
        return False  # (long blobs are touching pips, a six's columns: not a three's round pips)
    cx, cy = float(np.mean([x for x, _ in spots])), float(np.mean([y for _, y in spots]))
    if math.hypot(cx - b.x, cy - b.y) > MIDDLE_PIP * b.side:
        return False
    return f["count"] == 5 or dice_body.diagonal(spots, b.angle)


def _reach(fg: tuple[np.ndarray, float], q: np.ndarray, u: np.ndarray, limit: float, gap: float = 0.0) -> float:
    """How far (frame pixels, at most ``limit``) the die-first search's foreground runs from frame
    point q in direction u (a unit vector): 0 when q is off it.

    With ``gap`` (a pip's diameter) it runs on across holes in the foreground shorter than that:
    pips of the table's colour (white pips on a white table) and glare are not foreground, so the
    die's blob has a hole at each. A hole that the foreground closes again within ``gap`` lies on the
    die; a longer gap, or the frame's edge, ends the reach where it began.
    """
    mask, scale = fg
    h, w = mask.shape
    start = None  # where the current hole began
    # (Python floats: the same float64 arithmetic as numpy's on these scalars, without its overhead)
    qx, qy, ux, uy = float(q[0]), float(q[1]), float(u[0]), float(u[1])
    for t in np.arange(0.0, limit + scale, scale).tolist():
        x, y = int((qx + t * ux) / scale), int((qy + t * uy) / scale)
        inside = 0 <= x < w and 0 <= y < h
        if inside and mask[y, x]:
            start = None
            continue
        if start is None:
            start = float(t)
        if not inside or t - start >= gap:
            return start
    return float(limit) if start is None else start


class _LabSampler:
    """Median Lab colours inside pip-sized discs at frame points, read from a blurred window's Lab
    (see _lab_sampler)."""

    def __init__(self, lab: np.ndarray, off: np.ndarray, inner: np.ndarray) -> None:
        self.lab, self.off, self.inner = lab, off, inner

    def __call__(self, p: np.ndarray) -> np.ndarray:
        """The median Lab colour inside a pip-sized disc at frame point p."""
        return self.many([p])[0]

    def many(self, points: list[np.ndarray]) -> np.ndarray:
        """The colours of several points at once, one row each: the same values as one point at a
        time (each point's samples placed with its own dtype's arithmetic, medians by partition),
        without numpy's per-call overhead on every point."""
        off, inner = self.off, self.inner
        xs = np.concatenate([p[0] - off[0] + inner[:, 0] for p in points])
        ys = np.concatenate([p[1] - off[1] + inner[:, 1] for p in points])
        return median(_sample(self.lab, xs, ys).reshape(len(points), len(inner), -1), 1)


def _lab_sampler(frame: np.ndarray, centre: np.ndarray, reach: float, d: float) -> _LabSampler | None:
    """A function giving the median Lab colour inside a pip-sized disc (pips of diameter ``d``) at a
    frame point, read from the frame blurred a little within ``reach`` of ``centre``; None when that
    window is under 8 px on a side (see _centre_corner and _layout_count). Its ``many`` gives the
    colours of a list of points."""
    fh, fw = frame.shape[:2]
    x0, y0 = max(int(centre[0] - reach), 0), max(int(centre[1] - reach), 0)
    x1, y1 = min(int(math.ceil(centre[0] + reach)) + 1, fw), min(int(math.ceil(centre[1] + reach)) + 1, fh)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    blurred = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), max(0.15 * d, 0.6))
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    return _LabSampler(lab, np.float32([x0, y0]), INNER * (0.5 * d))


def _in_frame(frame: np.ndarray, points: list[np.ndarray], r: float) -> bool:
    """Every point lies at least ``r`` inside the frame (a pip-sized disc there can be sampled)."""
    fh, fw = frame.shape[:2]
    return all(r <= q[0] <= fw - 1 - r and r <= q[1] <= fh - 1 - r for q in points)


def _pip_axis(pip: np.ndarray, plain: np.ndarray, spread: float) -> tuple[np.ndarray, np.ndarray, float] | None:
    """A face's own colour axis from body to pip (Lab): the body the median of the ``plain`` samples,
    ``pip`` the pips' colour. (body, axis, its length ``gap``), or None when body and pips differ by
    under 1 or a plain sample lies farther than ``spread`` of that difference from the body (no clear
    body). A spot's colour c lies at ``(c - body) @ axis / (gap * gap)`` along it: 0 body, 1 pip."""
    body = np.median(plain, 0)
    axis = pip - body
    gap = float(np.sqrt(axis @ axis))
    if gap < 1.0 or float(np.sqrt(((plain - body) ** 2).sum(1)).max()) > spread * gap:
        return None
    return body, axis, gap


def _centre_corner(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
    """The count of a "two" whose pips are a three's centre and corner pip: 3 (or 5; 0: a two).

    When the search loses one corner pip of a three (a pip with glare on it, a low-contrast pip),
    the two pips left, a centre and a corner, look like a two whose pips lie near each other, as
    they do on many real twos. Either pip may be the centre; the layout then says where the other
    pips are: the corner mirrored through the centre (three and five) and the two corners across
    (five only). Each spot is judged by its colour on the face's own axis from body to pip (the
    body taken at the four edge midpoints of that layout, plain body on a three and a five alike;
    the pip colour at the two pips found): a pip within CENTRE_T of the pips' colour, body within
    CENTRE_T of the body's. The die must show a clear body (its four samples within half the
    contrast of each other) and lie all round the centre pip: the die-first search's foreground
    runs on from it past all four corner pips' places by CENTRE_REACH of the pips' distance (across
    holes a pip wide: white pips on a white table are no foreground, see _reach). Beside
    a real two (whose pips may lie near its centre) the spot past a pip is the table, which may
    have the pips' colour, and a corner pip taken for the centre has the die's edge next to it.
    Exactly one choice of centre must give a three or five.
    """
    spots = _face_spots(f["face"])
    if f["count"] != 2 or len(spots) != 2:
        return 0
    a, b = np.float32(spots[0]), np.float32(spots[1])
    sep = float(np.hypot(*(a - b)))
    if sep <= 0.0:
        return 0
    d = float(np.median([p.d for p in f["face"]]))
    reach = 2.0 * sep + d + 2.0
    mid = 0.5 * (a + b)
    # the choices of centre whose other spots lie in the frame and whose die lies all round it (the
    # centre pip has the die around it: its corners beyond the corner pips all round); places
    # alone decide these, so with neither left no colour is needed
    far = (1.0 + CENTRE_REACH) * sep
    choices = []
    for c, k in ((a, b), (b, a)):
        v = k - c
        w = np.float32([-v[1], v[0]])
        others = [c - v, c + w, c - w]
        if _in_frame(frame, others, 0.5 * d) and not any(_reach(fg, c, u / sep, far, d) < far for u in (v, -v, w, -w)):
            choices.append((c, v, w, others))
    if not choices:
        return 0
    colour = _lab_sampler(frame, mid, reach, d)
    if colour is None:
        return 0
    pip = 0.5 * (colour(a) + colour(b))
    readings = []
    for c, v, w, others in choices:
        got = _pip_axis(pip, np.stack([colour(c + s * (v + t * w) / 2) for s in (1, -1) for t in (1, -1)]), 0.5)
        if got is None:
            continue
        body, axis, gap = got
        t = [float((colour(q) - body) @ axis) / (gap * gap) for q in others]
        pips = [abs(tq - 1.0) <= CENTRE_T for tq in t]
        if pips[0] and all(-CENTRE_BELOW <= tq <= CENTRE_T for tq in t[1:]):
            readings.append(3)
        elif all(pips):
            readings.append(5)
    return readings[0] if len(readings) == 1 else 0


def _corners_mid(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
    """The count of a "two" whose pips are two opposite corner pips of a three or five whose middle
    pip the search lost, or of a four whose other two corner pips it lost: 3, 4 or 5 (0: a two).

    A die's middle pip lies halfway between its corner pips; a real two has plain body there. With
    its pips at least MID_SEP pip diameters apart (the middle spot a pip's width clear of both), the
    spot halfway between them is judged on the face's own axis from body to pip as _centre_corner
    judges its spots (body: the four edge midpoints of the square the two pips span, plain on a
    one, three and five; pip: the two pips found): within MID_T of the pips' colour it is a pip.
    The other two corners then say three (both within CENTRE_T of the body) or five (both within
    CENTRE_T of the pips). The body samples may differ by up to MID_SPREAD of the contrast (a
    marbled or translucent body, where these misreads are: the middle pip's colour and the two
    corners' agreement decide). With the middle spot within CENTRE_T of the body instead, the face
    is a four when both other corners are within CENTRE_T of the pips (a real two has plain body at
    all three spots; a six, whose edge midpoints on one axis are pips too, puts the body's median
    between its pips' colour and its body's, so its middle spot lies far below the body on that
    axis and is read as no four). The die must lie all round its middle, past every corner by
    MID_REACH (the die-first search's foreground), so a pip of each of two dice with a dark gap or
    shadow between them is no three.
    """
    spots = _face_spots(f["face"])
    if f["count"] != 2 or len(spots) != 2:
        return 0
    a, b = np.float32(spots[0]), np.float32(spots[1])
    d = float(np.median([p.d for p in f["face"]]))
    half = 0.5 * (b - a)
    r = float(np.hypot(*half))
    if d <= 0.0 or 2.0 * r < MID_SEP * d:
        return 0
    mid = 0.5 * (a + b)
    w = np.float32([-half[1], half[0]])
    corners = [mid + w, mid - w]
    if not _in_frame(frame, corners, 0.5 * d):
        return 0
    far = (1.0 + MID_REACH) * r
    if any(_reach(fg, mid, u / r, far, d) < far for u in (half, -half, w, -w)):
        return 0  # (places alone: asked before any colour)
    colour = _lab_sampler(frame, mid, 1.5 * r + d + 2.0, d)
    if colour is None:
        return 0
    pip = 0.5 * (colour(a) + colour(b))
    got = _pip_axis(pip, np.stack([colour(mid + 0.5 * (s * half + t * w)) for s in (1, -1) for t in (1, -1)]),
                    MID_SPREAD)
    if got is None:
        return 0
    body, axis, gap = got
    t_mid = float((colour(mid) - body) @ axis) / (gap * gap)
    middle_pip = abs(t_mid - 1.0) <= MID_T
    if not middle_pip and abs(t_mid) > CENTRE_T:
        return 0
    t = [float((colour(q) - body) @ axis) / (gap * gap) for q in corners]
    corner_pips = all(abs(tq - 1.0) <= CENTRE_T for tq in t)
    if not middle_pip:
        # plain body in the middle: the other two corners pips make a four (a real two has body there)
        return 4 if corner_pips else 0
    if all(abs(tq) <= CENTRE_T for tq in t):
        return 3
    return 5 if corner_pips else 0


# a face's layout as _layout_count takes it: its pips to confirm, its plain spots, its count
Layout = tuple[list[np.ndarray], list[np.ndarray], int]


def _all_round(fg: tuple[np.ndarray, float], pips: list[np.ndarray], gap: float = 0.0) -> bool:
    """Whether the die-first search's foreground runs on from the pips' centre past each pip by
    L_REACH of its distance (with ``gap``, across holes that wide: see _reach), as a die's face does
    around its pips and two dice with table between them do not (_corner_l, _column_six)."""
    mid = np.mean(pips, 0)
    for p in pips:
        u = p - mid
        near = float(np.hypot(*u))
        far = (1.0 + L_REACH) * near
        if near > 0.0 and _reach(fg, mid, u / near, far, gap) < far:
            return False
    return True


def _corner_l(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
    """The count of a "three" whose pips make a right angle: 4, 5 or 6 (0: no reading).

    A three's pips lie on a line; three pips at a right angle are pips of a four, five or six whose
    other pips the search lost (a streak of a marbled die across them, glare). Each such face's
    layout says where its other pips and its plain body are: with legs alike (L_LEGS), the three
    are corners of a four (the fourth corner a pip; the centre and the four edge midpoints body), a
    five (the centre a pip too) or a six (two opposite edge midpoints pips too); with legs of
    SIX_LEGS ratio, they are pips of a six's two columns (the rest of both columns pips, the body
    between them). Each spot is judged by its colour on the face's own axis from body to pip (pip:
    the three found; body: the median of that layout's plain spots) as _centre_corner does: within
    CENTRE_T of the pips' colour or of the body's, the plain spots within half the contrast of each
    other. The die must lie all round: the die-first search's foreground runs on from the layout's
    centre past each of its pips by L_REACH of the pip's distance. The readings that pass must agree
    on one count.
    """
    spots = _face_spots(f["face"])
    if f["count"] != 3 or len(spots) != 3 or _fits_layout(f):
        return 0
    xy = np.float32(spots)
    dist = {(i, j): float(np.hypot(*(xy[i] - xy[j]))) for i in range(3) for j in range(i + 1, 3)}
    (i, j), hyp = max(dist.items(), key=lambda kv: kv[1])
    b = xy[3 - i - j]  # the right angle's corner
    legs = [(float(np.hypot(*(xy[m] - b))), xy[m] - b) for m in (i, j)]
    (ls, vs), (ll, vl) = sorted(legs, key=lambda lv: lv[0])  # (length, vector): short leg, long leg
    d = float(np.median([p.d for p in f["face"]]))
    if ls < 1.1 * d or abs(hyp / math.hypot(ls, ll) - 1.0) > L_ANGLE:
        return 0
    square, six = ll <= L_LEGS * ls, SIX_LEGS[0] <= ll / ls <= SIX_LEGS[1]
    # (pips to confirm, plain spots, count) of every layout the three may belong to
    layouts: list[Layout] = []
    if square:
        q = b + vs + vl
        centre = b + 0.5 * (vs + vl)
        mids = [b + 0.5 * vs, b + vs + 0.5 * vl, b + vl + 0.5 * vs, b + 0.5 * vl]  # (0, 2), (1, 3) opposite
        layouts += [
            ([q], [centre, *mids], 4),
            ([q, centre], mids, 5),
            ([q, mids[0], mids[2]], [centre, mids[1], mids[3]], 6),
            ([q, mids[1], mids[3]], [centre, mids[0], mids[2]], 6),
        ]
    if six:
        # a column along the short leg (b at its end or in its middle), the other column across
        layouts += [
            ([b + 2 * vs, b + vl + vs, b + vl + 2 * vs], [b + 0.5 * vl + k * vs for k in (0, 1, 2)], 6),
            ([b - vs, b + vl + vs, b + vl - vs], [b + 0.5 * vl + k * vs for k in (-1, 0, 1)], 6),
        ]
    if square or six:
        # a column along the long leg (its two ends found), the other column across the short one
        plain = [b + 0.5 * vs + k * vl for k in (0, 0.5, 1)]
        layouts.append(([b + 0.5 * vl, b + vs + 0.5 * vl, b + vs + vl], plain, 6))
    if not layouts:
        return 0

    return _layout_count(frame, xy, d, layouts, lambda pips: _all_round(fg, pips))


def _column_six(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
    """The count of a "three" whose pips are one column of a six: 6 (0: no reading).

    A three's pips lie on its die's diagonal; a six's column is three pips in a line too, spaced as
    a three's. A six's other column lies beside it, as far from it as its end pips are apart times
    the layout's stretch (dice_body.SIX_STRETCH), with plain body halfway between the columns; beside
    a real three those places are the die's corners and the table. Each side's column is judged by
    colour on the face's own axis from body to pip as _corner_l judges its layouts (_layout_count),
    and the die must lie all round (L_REACH, as _corner_l; across holes a pip wide, as _centre_corner).
    """
    spots = _face_spots(f["face"])
    if f["count"] != 3 or len(spots) != 3:
        return 0
    xy = np.float32(spots)
    dist = {(i, j): float(np.hypot(*(xy[i] - xy[j]))) for i in range(3) for j in range(i + 1, 3)}
    (i, j), length = max(dist.items(), key=lambda kv: kv[1])
    a, b, m = xy[i], xy[j], xy[3 - i - j]
    d = float(np.median([p.d for p in f["face"]]))
    # a straight row of three, its middle pip halfway (a right angle is _corner_l's)
    if length < COLUMN_MIN * d or float(np.hypot(*(m - 0.5 * (a + b)))) > COLUMN_BEND * length:
        return 0
    n = np.float32([-(b - a)[1], (b - a)[0]])  # across the row, as long as it
    layouts: list[Layout] = []
    for sign in (1.0, -1.0):
        for k in dice_body.SIX_STRETCH:
            off = sign * k * n
            layouts.append(([a + off, m + off, b + off], [a + 0.5 * off, m + 0.5 * off, b + 0.5 * off], 6))

    return _layout_count(frame, xy, d, layouts, lambda pips: _all_round(fg, pips, d))


def _two_spots(f: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float] | None:
    """A "two" face's two spots a and c, c - a, their distance and the face's median pip size; None
    when the face is no two of two spots."""
    spots = _face_spots(f["face"])
    if f["count"] != 2 or len(spots) != 2:
        return None
    a, c = np.float32(spots[0]), np.float32(spots[1])
    v = c - a
    return a, c, v, float(np.hypot(*v)), float(np.median([p.d for p in f["face"]]))


def _side_layouts(a: np.ndarray, c: np.ndarray, u: np.ndarray) -> list[Layout]:
    """The layouts of a four, five and six (pips, body, count) of which a and c are two corner pips
    along one side, the face lying towards ``u`` (across the side, as long as it): the two far
    corners are pips; the centre and the edge midpoints body, or pips on a five and a six."""
    q1, q2 = a + u, c + u
    centre = 0.5 * (a + c) + 0.5 * u
    mids = [a + 0.5 * u, 0.5 * (a + c) + u, c + 0.5 * u, 0.5 * (a + c)]  # (0, 2), (1, 3) opposite
    return [
        ([q1, q2], [centre, *mids], 4),
        ([q1, q2, centre], mids, 5),
        ([q1, q2, mids[0], mids[2]], [centre, mids[1], mids[3]], 6),
        ([q1, q2, mids[1], mids[3]], [centre, mids[0], mids[2]], 6),
    ]


def _side_two(frame: np.ndarray, fg: tuple[np.ndarray, float], f: dict[str, Any]) -> int:
    """The count of a "two" whose pips are two corner pips along a side of a four, five or six: 4,
    5 or 6 (0: a two).

    _side_pair reads such a pair on a clean die, whose body says on which side of the pair the face
    lies. Without one (a die touching another, a translucent or marbled body, a die with print on
    it) both sides are tried: on the face's side the layouts of _side_pair (the two far corners
    pips; the centre and the edge midpoints body, or pips on a five and a six) are judged by
    colour on the face's own axis from body to pip (_layout_count), and the die-first search's
    foreground must run on past every pip of the layout by L_REACH (across holes a pip wide, as
    _column_six). Beside a real two (its pips on the diagonal) those far corners lie off the die,
    on the table, and beside a three's centre and corner pip they are plain corners of its body.
    Exactly one count over both sides must agree.
    """
    pair = _two_spots(f)
    if pair is None:
        return 0
    a, c, v, apart, d = pair
    if d <= 0.0 or apart < SIDE_SEP * d:
        return 0
    n = np.float32([-v[1], v[0]])  # across the pair, as long as it
    counts = set()
    for u in (n, -n):
        got = _layout_count(frame, np.stack([a, c]), d, _side_layouts(a, c, u), lambda pips: _all_round(fg, pips, d))
        if got:
            counts.add(got)
    return counts.pop() if len(counts) == 1 else 0


def _side_pair(frame: np.ndarray, f: dict[str, Any], b: dice_body.DieBody) -> int:
    """The count of a "two" whose pips lie along a side of the clean die around them: 4, 5 or 6 (0: none).

    A two's pips lie on the die's diagonal; two pips along a side (parallel to an edge) are two
    corner pips of a four, five or six whose other pips the search and the recount lost. The die
    says on which side of them the face lies (towards its centre): the layouts of _corner_l with
    equal legs (the two far corners pips; the centre and edge midpoints body, or pips on a five
    and a six) are judged by colour, and every pip of a layout must lie on the die.
    """
    pair = _two_spots(f)
    if pair is None:
        return 0
    a, c, v, side, d = pair
    if side < 1.5 * d or side > 0.75 * b.side:
        return 0
    n = np.float32([-v[1], v[0]]) / side
    die = np.float32([b.x, b.y])
    if float((die - 0.5 * (a + c)) @ n) < 0:
        n = -n
    layouts = _side_layouts(a, c, n * side)

    def on_die(pips: list[np.ndarray]) -> bool:
        """Every pip of the layout lies on the die (within half its side of its centre)."""
        return all(float(np.hypot(*(p - die))) <= 0.5 * b.side for p in pips)

    return _layout_count(frame, np.stack([a, c]), d, layouts, on_die)


def _layout_count(frame: np.ndarray, xy: np.ndarray, d: float, layouts: list[Layout], on_die: Any) -> int:
    """The one count of the ``layouts`` (pips to confirm, plain spots, count) that the colours agree
    with, 0 when none or several do (see _corner_l and _side_pair). ``xy`` are the pips found, ``d``
    their diameter; ``on_die(points)`` says whether a layout's pips all lie on one die."""
    inside = [lay for lay in layouts if _in_frame(frame, lay[0] + lay[1], 0.5 * d)]
    # a layout counts only when its pips lie on one die: with none that does, no colour is needed
    # (on_die is a pure test of places, asked here first and kept for the loop below)
    on: dict[int, bool] = {}

    def die_ok(k: int) -> bool:
        if k not in on:
            on[k] = bool(on_die([*xy, *inside[k][0]]))
        return on[k]

    if not any(die_ok(k) for k in range(len(inside))):
        return 0
    centre = xy.mean(0)
    reach = max(float(np.hypot(*(p - centre))) for lay in layouts for p in lay[0] + lay[1]) + d + 2.0
    colour = _lab_sampler(frame, centre, reach, d)
    if colour is None:
        return 0
    # every spot's colour at once: the pips found, then each layout's plain spots and pips
    cols = colour.many([*xy, *(p for pips, plain, _ in inside for p in plain + pips)])
    pip = np.mean(cols[:len(xy)], 0)
    at = len(xy)
    counts = set()
    for k, (pips, plain, count) in enumerate(inside):
        cs, pcs = cols[at:at + len(plain)], cols[at + len(plain):at + len(plain) + len(pips)]
        at += len(plain) + len(pips)
        got = _pip_axis(pip, cs, 0.5)
        if got is None:
            continue
        body, axis, gap = got
        on_body = all(abs(float((c - body) @ axis)) <= CENTRE_T * gap * gap for c in cs)
        on_pips = all(abs(float((c - body) @ axis) / (gap * gap) - 1.0) <= CENTRE_T for c in pcs)
        if on_body and on_pips and die_ok(k):
            counts.add(count)
    return counts.pop() if len(counts) == 1 else 0


def _added_off_face(f: dict[str, Any], spots: list[tuple[float, float]], recount: list[tuple[float, float]]) -> bool:
    """True when every pip a die-body recount adds to a face of four or five pips in their exact
    layout lies off that face: beyond the square of its corner pips (at 1 in the layout) by
    OFF_FACE. The blob of a die's body then holds another face's pips: the side face below an
    oblique die's top (same body, a little darker), or a touching die of the same colour. The pips
    the search missed on the face itself lie inside that square (a six's middle row, a five's
    centre). Twos and threes are left to the recount: their diagonal does not fix the square (a
    six's column fits a three, and the other column lies beside it)."""
    n = len(spots)
    if n != f["count"] or n < 4 or not _fits_layout(f):
        return False
    z = np.array([complex(x, y) for x, y in spots])
    near = 0.6 * f["d"]
    added = [complex(x, y) for x, y in recount if min(abs(complex(x, y) - z)) > near]
    if not added:
        return False
    # the face's best fit onto its layout (rotation, scale, shift), as dice_body.layout_fit makes it
    centre = z.mean()
    zc = z[dice_body.PERMS[n]] - centre
    wc = dice_body.LAYOUTS_C[n][-1]
    a = (zc * np.conj(wc)).sum(1) / (np.abs(wc) ** 2).sum()
    k = int(np.argmin(np.abs(zc - a[:, None] * wc).sum(1) / np.maximum(np.abs(a), 1e-6)))
    w = (np.array(added) - centre) / a[k]
    return bool(np.all(np.maximum(np.abs(w.real), np.abs(w.imag)) > OFF_FACE))


def _drop_flat_unclean(faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The faces kept by the body check without a clean die around them, less those whose pips are
    FLAT_UNCLEAN times flatter than the typical pips of the frame's clean dice.

    One camera sees every die on the table from about the same angle, so the top faces' pips are
    foreshortened alike (round from above, ellipses in an oblique view). A face turned further
    from the camera than the frame's top faces is a side face (its top face missed), and strokes
    of print are long whatever the view: with no clean die around it, nothing says it is a top
    face. A frame with no clean die has no measure: its faces are all kept."""
    ref = [f["flat"] for f in faces if f.get("body_kind") == "die"]
    if not ref:
        return faces
    limit = FLAT_UNCLEAN * statistics.median(ref)
    return [f for f in faces if f.get("body_kind") in (None, "die", "square") or f["flat"] < limit]


def _drop_small_unclean(faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The faces kept by the body check without a clean die around them, less those of two or more
    pips whose pips are under SMALL_UNCLEAN of the pip diameter of the frame's smallest clean die.

    A die's pips are holes of a fixed share of its side, and one camera sees the dice of a table
    from about the same distance, so no die shows pips half the size of the smallest clean die
    ("die" body) beside it. Dots that are that small with no clean die around them are a woven
    basket (four_16 of the real oblique photos: 0.47 of the frame's die), a squashed side pip split
    in two (six_18: 0.30), and four false faces of the render tuning sets lay at 0.15-0.43. The smallest
    clean die, not the median, is the measure, as a tray holds dice of several sizes: the lowest
    true face this sees, a framed six among larger dice of a real top-down tray, lies at 0.54 of its
    smallest clean die (0.49 of their median). Everything is a ratio of pip diameters measured in
    the frame, so light, camera and distance cancel; a frame with no clean die keeps its faces."""
    ref = [f["d"] for f in faces if f.get("body_kind") == "die"]
    if not ref:
        return faces
    limit = SMALL_UNCLEAN * min(ref)
    return [f for f in faces if f.get("body_kind") in (None, "die", "square") or len(f["face"]) < 2 or f["d"] >= limit]


def _drop_odd_ones(faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The faces kept by the body check, less ones whose single pip is not ONE_D of the median pip
    diameter of the frame's faces of two or more pips found one by one.

    A one's pip is a round hole of its die, as large as the other pips of its set or larger, and
    the dice of one set seen by one camera are alike in size: the 591 lone pips on true ones on
    the four render tuning sets lie at 0.78-2.44 of that median (the frame's other faces include small or
    foreshortened pips), the 162 ones of the real dev photos at 0.56-2.12. A soft glare spot on
    the table or a coin is round and lone like a one's pip but mostly several times too large
    (3.4-11.6 times on the renders; one at 2.6 and one at 2.1 are kept); the counter of a small
    letter (the R of a printed word) is a lone round hole in a square of ink, but a fifth to a
    third of the dice' pips (0.17-0.37). The body look cannot tell either: it measures the die it
    needs from the spot itself. Everything is a ratio to the frame's own faces, so light, camera
    and distance cancel; a frame with no face of two or more pips has no measure and keeps its
    ones."""
    ref = [f["d"] for f in faces if len(f["face"]) >= 2 and all(p.count == 1 for p in f["face"])]
    if not ref:
        return faces
    d = statistics.median(ref)
    return [f for f in faces if not (f["count"] == 1 and len(f["face"]) == 1
                                     and not ONE_D[0] * d <= f["d"] <= ONE_D[1] * d)]


def _print_beside(frame: np.ndarray, f: dict[str, Any]) -> bool:
    """True when a face's disc (its pips and a die's margin of PRINT_REACH pip diameters around
    them) holds more than PRINT_MATTER pips' area of pip-coloured matter beside its pips.

    A two's face is plain body but for its two pips. Two holes in print (the counters of letters
    on a label, with the ink taken for the body) or two bits of a key's legend have more of the
    same colour right beside them: the rest of the label or the legend. Colours are the face's
    own (Lab medians of its pips and of a ring of body around them), so any light, body and pip
    colour and either polarity are measured alike."""
    spots = _face_spots(f["face"])
    d = float(f["d"])
    xy = np.float32(spots)
    cx, cy = (float(v) for v in xy.mean(0))
    far = float(np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(2)).max())
    reach = 0.5 * far + PRINT_REACH * d
    h, w = frame.shape[:2]
    x0, y0 = max(int(cx - reach) - 1, 0), max(int(cy - reach) - 1, 0)
    x1, y1 = min(int(math.ceil(cx + reach)) + 2, w), min(int(math.ceil(cy + reach)) + 2, h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = (xy[:, None, :] + 0.85 * d * RING16[None]).reshape(-1, 2)
    body = median(_sample(lab, ring[:, 0] - x0, ring[:, 1] - y0).astype(np.float32))
    pip = median(_sample(lab, xy[:, 0] - x0, xy[:, 1] - y0).astype(np.float32))
    wgt = np.float32([1.0, 1.3, 1.3])
    to_body = np.sqrt((((lab - body) * wgt) ** 2).sum(2))
    to_pip = np.sqrt((((lab - pip) * wgt) ** 2).sum(2))
    gap = float(np.sqrt((((pip - body) * wgt) ** 2).sum()))
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    beside = (xx - cx) ** 2 + (yy - cy) ** 2 <= reach**2
    own = 0.5 * max(p.major / p.count for p in f["face"]) + 1.5  # each pip's own blob (a flat pip's length)
    for x, y in spots:
        beside &= (xx - x) ** 2 + (yy - y) ** 2 > own**2
    matter = int(np.count_nonzero(beside & (to_body > 0.5 * gap) & (to_pip < to_body)))
    return matter > PRINT_MATTER * math.pi * (0.5 * d) ** 2


def _detect(frame: np.ndarray, profile: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Pips -> faces -> top faces -> one dict per die (see the module docstring)."""
    h0, w0 = frame.shape[:2]
    shrink = 1.0
    if max(h0, w0) > MAX_SIDE:
        shrink = MAX_SIDE / max(h0, w0)
        frame = cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    pip_range = (2.6, 80.0)
    if profile and "pip_diameter" in profile:
        lo, hi = profile["pip_diameter"]
        pip_range = (max(2.6, 0.5 * lo * shrink), min(80.0, 2.0 * hi * shrink))
    leftover: list[Pip] = []
    channels = cv2.split(frame)
    fg = None
    light = _light_gains(frame)
    gains = np.clip(light, *WB_LIMITS)
    planes = planes_of(frame, channels)
    faces = _faces_of(planes, pip_range, leftover, scout=SCOUT)
    if DIE_AS_PIP:
        faces = _pips_inside(planes, faces, pip_range)
    del planes  # two full-frame planes: not held through the rest of the read (2.5 MB at 1280x960)
    pyramid = dice_body.Pyramid(frame)
    has_red = False
    if has_colour(frame):
        # a second pass in the brightest channel finds coloured pips on coloured bodies (red on
        # black, black on red) that luminance and blue+green barely separate
        blue, green, red = channels
        value = cv2.max(cv2.max(blue, green), red)
        # it sees coloured print (text, logos) as dark blobs too: only faces of round single pips.
        # It looks only where the first pass left dice unexplained (see _explained)
        known = [f for f in faces if _explained(pyramid, f, faces)] if SKIP_EXPLAINED else []
        skip = [(f["x"] - 0.5 * f["size"], f["y"] - 0.5 * f["size"], f["x"] + 0.5 * f["size"], f["y"] + 0.5 * f["size"])
                for f in known]
        extra = [f for f in _faces_of((value, value), pip_range, round_only=True, scout=SCOUT, skip=skip)
                 if not any(math.hypot(f["x"] - g["x"], f["y"] - g["y"]) < 0.5 * max(f["size"], g["size"]) for g in known)]
        faces = _merge_passes(faces, extra)
        # a third pass: red pips on a blue or black body match its luminance and its brightest
        # channel, but stand out in the red channel alone (bright pips only: the red channel's dark
        # blobs are the blue and black dice themselves); around a small die the box mean there
        # is taken over the dice alone, or the white table would lift it above the pips. It runs
        # only when the frame holds red pixels at all (over the whole frame: see find_pips).
        has_red = _has_red(frame, channels, gains)
        if has_red:
            fg = dice_body.foreground(frame)  # shared with the die-first search below
            extra = _faces_of((red, red), pip_range, round_only=True, fg=fg[0], polarities=(False,))
            for f in extra:
                f["red_pass"] = True
            faces = _merge_passes(faces, extra, any_polarity=True)
            # a fourth: dull red pips on smoky, black or blue dice, in a plane of redness alone
            # (kept only on a clean die or in a die's layout: see _body_checked)
            redness = _redness(frame, channels, gains)
            extra = [f for f in _faces_of((redness, redness), pip_range, round_only=True, polarities=(False,), scout=SCOUT)
                     if _red_pips(frame, f["face"], gains)]
            for f in extra:
                f["red_pass"] = f["redness"] = True
            faces = _merge_passes(faces, extra, any_polarity=True)
    for f in _with_alts(faces):
        f["bgr"] = _face_bgr(frame, _spot_pips(f["face"]), gains)  # kept for the colour names below
        f["chroma"] = _chroma(f["bgr"][0])
    kept = _drop_side_faces(faces)
    # a redness face taken for a side face gives the faces it won over in the merge their place back
    ids = {id(f) for f in kept}
    back = [a for f in faces if id(f) not in ids and f.get("redness") for a in f.get("alt", [])]
    faces = _drop_side_faces(kept + back) if back else kept
    faces = [_front_row(f) for f in _check_bodies(pyramid, faces)]
    faces += _reseed(pyramid, leftover, faces)
    taken = [(f["x"], f["y"], 0.5 * f["size"]) for f in faces]
    # with no die read from its pips, the die-first search takes the dice' size from the blobs
    # alone (a blurred frame's smudges are die-shaped too): its dice are less sure
    unsure = UNREAD_CONF if not taken else 1.0
    fg = fg if fg is not None else dice_body.foreground(frame)  # (as find_dice would make it)
    read_dice = list(taken)
    bodies = [b for b in dice_body.find_dice(frame, taken, pyramid, fg, gains if has_red else None)
              if not _reread(b, read_dice)]
    # a lone pip read as a one inside a larger die that the die-first search then read is one of
    # that die's pips (a three's middle pip whose neighbours the pip search lost)
    faces = [f for f in faces if f["count"] != 1 or not any(
        f["size"] < ONE_INSIDE * b.side and abs(f["x"] - b.x) < 0.5 * b.side and abs(f["y"] - b.y) < 0.5 * b.side
        for b in bodies)]
    faces += [_body_face(b) for b in bodies]
    for f in faces[len(faces) - len(bodies):]:
        f["conf"] *= unsure
    for f in faces:
        f["count"] = (_centre_corner(frame, fg, f) or _corners_mid(frame, fg, f) or _corner_l(frame, fg, f)
                      or _column_six(frame, fg, f) or _side_two(frame, fg, f)
                      or f["count"])
    out = []
    colours = [f["bgr"] if "bgr" in f else _face_bgr(frame, _spot_pips(f["face"]), gains) for f in faces]
    white = _dice_white(colours, [f["dark"] for f in faces], gains, light)
    exposure = _exposure(colours, [f["dark"] for f in faces], gains, white)
    for f, (body_bgr, pip_bgr) in zip(faces, colours, strict=True):
        body_lab, pip_lab = _lab(body_bgr)[0], _lab(pip_bgr)[0]
        body, pip = classify_colours(_lab(_balanced(body_bgr, gains, white) * exposure)[0],
                                     _lab(_balanced(pip_bgr, gains, white) * exposure)[0], f["dark"])
        conf = f["conf"]
        if profile and profile.get("classes"):
            near = _nearest_class(profile, body_lab, pip_lab, f["dark"])
            if near is not None:
                body, pip, dist = near
                conf *= float(np.clip(1.2 - dist / 80.0, 0.3, 1.0))
        s = f["size"] / shrink
        x, y = f["x"] / shrink, f["y"] / shrink
        x0, y0 = max(int(round(x - s / 2)), 0), max(int(round(y - s / 2)), 0)
        x1, y1 = min(int(round(x + s / 2)), w0), min(int(round(y + s / 2)), h0)
        box = [x0, y0, x1 - x0, y1 - y0]
        out.append({"pips": int(f["count"]), "body": body, "pip_colour": pip,
                    "confidence": round(float(np.clip(conf, 0, 1)), 3), "box": box})
    out.sort(key=lambda o: (o["box"][1], o["box"][0]))
    return out


def _reread(body: dice_body.DieBody, read: list[tuple[float, float, float]]) -> bool:
    """True when the die-first search found a die already read from its pips: its centre lies
    within REREAD_D of that die's side (x, y, half side) from the read die's centre. It re-finds
    one when it is seeded from a spot of the read die's side or front face (outside the read
    face's half side) and its look settles on the same die."""
    return any(math.hypot(body.x - x, body.y - y) < REREAD_D * 2.0 * r for x, y, r in read)


def read(frame: np.ndarray, profile: dict[str, Any] | None = None) -> Observation:
    """Read every die in a frame: pips on the top face (1-6), body and pip colour, box, confidence."""
    try:
        img = check_frame(frame)
    except ImageError:
        return Observation("dice")
    h, w = img.shape[:2]
    if min(h, w) < 16:
        return Observation("dice", [], w, h)
    return Observation("dice", _detect(img, _usable_profile(profile)), w, h)


def _usable_profile(profile: Any) -> dict[str, Any] | None:
    """The parts of a profile that have the shape teach() writes; anything else is left out."""
    if not isinstance(profile, dict):
        return None
    out: dict[str, Any] = {}
    diam = profile.get("pip_diameter")
    if (isinstance(diam, list) and len(diam) == 2 and all(isinstance(v, int | float) for v in diam)
            and 0 < diam[0] <= diam[1]):
        out["pip_diameter"] = [float(diam[0]), float(diam[1])]
    classes = {}
    for name, c in (profile.get("classes") or {}).items() if isinstance(profile.get("classes"), dict) else ():
        try:
            _class_parts(name)
            body, pip = np.float32(c["body"]).reshape(3), np.float32(c["pip"]).reshape(3)
            classes[name] = {"body": body, "pip": pip, "dark_pips": bool(c["dark_pips"])}
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
    if classes:
        out["classes"] = classes
    return out or None


def _class_parts(name: str) -> tuple[str, str]:
    parts = name.lower().split("-")
    if len(parts) != 2 or parts[0] not in BODIES or parts[1] not in PIP_COLOURS:
        raise ValueError(f"unknown dice class '{name}': name folders BODY-PIP, body one of "
                         f"{'/'.join(BODIES)}, pip one of {'/'.join(PIP_COLOURS)} (e.g. black-gold)")
    return parts[0], parts[1]


def teach(examples: dict[str, list[np.ndarray]]) -> dict[str, Any]:
    """Learn body/pip Lab colours and pip size of each die class (folders BODY-PIP) from players' photos."""
    if not examples:
        raise ValueError("no example photos given")
    classes: dict[str, Any] = {}
    diameters: list[float] = []
    for name, photos in examples.items():
        _class_parts(name)
        bodies, pips_lab, darks = [], [], []
        for k, photo in enumerate(photos, 1):
            try:
                img = check_frame(photo)
            except ImageError as exc:
                raise ValueError(f"{name} photo {k}: {exc}") from None
            planes = planes_of(img)
            gains = _wb_gains(img)
            faces = [f for f in group_faces(planes, find_pips(planes)) if 1 < sum(p.count for p in f) <= 6
                     or (len(f) == 1 and _lone_pip_ok(planes, f[0]))]
            if not faces:
                raise ValueError(f"{name} photo {k}: no die found (plain background, pips in view?)")
            for face in faces:
                b, p = face_colours(img, face, gains)
                bodies.append(b)
                pips_lab.append(p)
                darks.append(face[0].dark)
                diameters += [q.d for q in face]
        dark = bool(np.mean(darks) >= 0.5)
        sel = [i for i, d in enumerate(darks) if d == dark]
        classes[name.lower()] = {
            "body": [round(float(v), 2) for v in np.median(np.float32(bodies)[sel], 0)],
            "pip": [round(float(v), 2) for v in np.median(np.float32(pips_lab)[sel], 0)],
            "dark_pips": dark,
        }
    return {"classes": classes,
            "pip_diameter": [round(float(np.percentile(diameters, 5)), 2),
                             round(float(np.percentile(diameters, 95)), 2)]}
