"""The printable play mat: ArUco markers fix the play area, three drawing zones for the groups of
Bag of Butts, and a white and a mid-grey patch that correct each frame's colour.

``companion mat --size A4 --out mat.pdf`` prints it; ``find_mat(frame)`` finds it in a camera
frame and ``prepare(frame)`` gives every reader a colour-corrected frame (with the mat: from its
patches; without: grey-world over the whole frame).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.common import CLIPPED, ImageError, check_frame, gray_world, median, white_patch_correct

# ---- layout, in mat units (the A4 landscape design in millimetres; A3 prints the same design larger)
MAT_W, MAT_H = 297.0, 210.0
MARKER = 26.0
MARGIN = 7.0
ARUCO_DICT = cv2.aruco.DICT_4X4_50
# marker id -> top-left corner of the marker in mat units
MARKERS: dict[int, tuple[float, float]] = {
    0: (MARGIN, MARGIN),
    1: (MAT_W - MARGIN - MARKER, MARGIN),
    2: (MAT_W - MARGIN - MARKER, MAT_H - MARGIN - MARKER),
    3: (MARGIN, MAT_H - MARGIN - MARKER),
    4: (186.0, MAT_H - MARGIN - MARKER),
}
ZONE_TOP, ZONE_BOTTOM = 40.0, 170.0
ZONE_GAP = 4.0
_zone_w = (MAT_W - 2 * MARGIN - 2 * ZONE_GAP) / 3
ZONES: tuple[tuple[float, float, float, float], ...] = tuple(
    (MARGIN + i * (_zone_w + ZONE_GAP), ZONE_TOP, MARGIN + i * (_zone_w + ZONE_GAP) + _zone_w, ZONE_BOTTOM)
    for i in range(3))
WHITE_PATCH = (42.0, 177.0, 102.0, 203.0)  # x0, y0, x1, y1
GREY_PATCH = (110.0, 177.0, 170.0, 203.0)
# the bare white paper left and right of the grey patch, level with it (between the two patches, and
# between the grey patch and the bottom marker): it tells the light falling on the grey patch itself
GREY_PAPER = ((104.0, 179.0, 108.0, 201.0), (173.0, 179.0, 183.0, 201.0))
ZONE_FILL_BGR = (52, 46, 138)  # a deep brick red: far (in Lab) from all eight butt colours
GREY_BGR = (128, 128, 128)
PAPER_SIZES_MM = {"A4": (297.0, 210.0), "A3": (420.0, 297.0)}
DETECT_WIDTH = 480  # markers are found on a frame scaled to this width (speed)


@dataclass
class Mat:
    """A play mat found in a frame: homography frame->mat units, zones in frame pixels, patch readings."""

    homography: np.ndarray  # 3x3, frame pixels -> mat units
    zones: list[np.ndarray]  # three (4, 2) float32 polygons in frame pixels, groups 1, 2, 3
    white: np.ndarray  # BGR reading of the white patch (median)
    grey: np.ndarray  # BGR reading of the grey patch (median; under a glare spot on part of it, 10th percentile)
    zone_fill: np.ndarray  # BGR reading of the zone fill next to the patches
    markers: int  # how many markers were seen
    scale: float  # frame pixels per mat unit (mean)
    grey_paper: np.ndarray | None = None  # BGR reading of the white paper beside the grey patch (mean of both sides)

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """Map (N, 2) mat-unit points into frame pixels."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Map (N, 2) frame points into mat units."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def zone_of(self, point_xy: tuple[float, float]) -> int | None:
        """The group (1-3) whose drawing zone holds a frame point, or None."""
        mx, my = self.to_mat(np.float32([point_xy]))[0]
        for i, (x0, y0, x1, y1) in enumerate(ZONES):
            if x0 - ZONE_GAP / 2 <= mx <= x1 + ZONE_GAP / 2 and y0 - 3 <= my <= y1 + 3:
                return i + 1
        return None

    def zones_of(self, points: np.ndarray) -> list[int | None]:
        """``zone_of`` of each of (N, 2) frame points, mapped in one go (each point is mapped alone
        either way, so the same values)."""
        out: list[int | None] = []
        for mx, my in self.to_mat(points):
            out.append(None)
            for i, (x0, y0, x1, y1) in enumerate(ZONES):
                if x0 - ZONE_GAP / 2 <= mx <= x1 + ZONE_GAP / 2 and y0 - 3 <= my <= y1 + 3:
                    out[-1] = i + 1
                    break
        return out


# ---------------------------------------------------------------- drawing the mat

def _marker_corners(mid: int) -> np.ndarray:
    x, y = MARKERS[mid]
    return np.float32([[x, y], [x + MARKER, y], [x + MARKER, y + MARKER], [x, y + MARKER]])


def draw_mat(px_per_unit: float) -> np.ndarray:
    """The mat as a BGR image at ``px_per_unit`` pixels per mat unit (white paper, printed parts)."""
    s = px_per_unit
    w, h = int(round(MAT_W * s)), int(round(MAT_H * s))
    img = np.full((h, w, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for mid, (x, y) in MARKERS.items():
        side = int(round(MARKER * s))
        marker = cv2.aruco.generateImageMarker(dictionary, mid, side)
        x0, y0 = int(round(x * s)), int(round(y * s))
        img[y0:y0 + side, x0:x0 + side] = marker[..., None]
    line = max(1, int(round(0.6 * s)))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i, (x0, y0, x1, y1) in enumerate(ZONES):
        p0, p1 = (int(round(x0 * s)), int(round(y0 * s))), (int(round(x1 * s)), int(round(y1 * s)))
        cv2.rectangle(img, p0, p1, ZONE_FILL_BGR, -1)
        label = f"group {i + 1}"
        scale = 0.32 * s
        thick = max(1, int(round(0.5 * s)))
        (tw, th), _ = cv2.getTextSize(label, font, scale, thick)
        cx = int(round((x0 + x1) / 2 * s)) - tw // 2
        cy = int(round((MARGIN + MARKER / 2) * s)) + th // 2
        cv2.putText(img, label, (cx, cy), font, scale, (40, 40, 40), thick, cv2.LINE_AA)
    for (x0, y0, x1, y1), fill in ((WHITE_PATCH, (255, 255, 255)), (GREY_PATCH, GREY_BGR)):
        p0, p1 = (int(round(x0 * s)), int(round(y0 * s))), (int(round(x1 * s)), int(round(y1 * s)))
        cv2.rectangle(img, p0, p1, fill, -1)
        cv2.rectangle(img, p0, p1, (0, 0, 0), line)
    note = "Table Companion play mat - keep the four corner markers visible"
    cv2.putText(img, note, (int(round(214 * s)), int(round(192 * s))), font, 0.09 * s, (90, 90, 90),
                max(1, int(round(0.2 * s))), cv2.LINE_AA)
    return img


def pdf_bytes(image_bgr: np.ndarray, page_w_pt: float, page_h_pt: float, quality: int = 92) -> bytes:
    """A one-page PDF showing the image over the whole page (a JPEG in a DCTDecode stream)."""
    ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ImageError("could not encode the mat image")
    jpeg = buf.tobytes()
    h, w = image_bgr.shape[:2]
    content = zlib.compress(f"q {page_w_pt:.2f} 0 0 {page_h_pt:.2f} 0 0 cm /Im0 Do Q".encode())
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w_pt:.2f} {page_h_pt:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
         f"/BitsPerComponent 8 /Filter /DCTDecode /Length {len(jpeg)} >>\nstream\n").encode()
        + jpeg + b"\nendstream",
        f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def main(argv: list[str]) -> int:
    """``companion mat``: write the printable play mat as PDF or PNG; 0 on success, 2 on a bad option."""
    ap = argparse.ArgumentParser(prog="companion mat", description="Write the printable play mat.")
    ap.add_argument("--size", choices=sorted(PAPER_SIZES_MM), default="A4")
    ap.add_argument("--format", choices=("pdf", "png"), help="default: from the --out suffix")
    ap.add_argument("--out", type=Path, default=None, help="file to write (default: mat-A4.pdf)")
    ap.add_argument("--dpi", type=int, default=150)
    args = ap.parse_args(argv)
    fmt = args.format
    out = args.out
    if fmt is None:
        suffix = out.suffix.lower().lstrip(".") if out is not None else "pdf"
        if suffix not in ("pdf", "png"):
            print(f"companion mat: cannot tell the format from '{out}'; use --format pdf or png",
                  file=sys.stderr)
            return 2
        fmt = suffix
    if out is None:
        out = Path(f"mat-{args.size}.{fmt}")
    if not 30 <= args.dpi <= 600:
        print("companion mat: --dpi must be between 30 and 600", file=sys.stderr)
        return 2
    paper_w, paper_h = PAPER_SIZES_MM[args.size]
    img = draw_mat(args.dpi / 25.4 * paper_w / MAT_W)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "png":
            ok, buf = cv2.imencode(".png", img)
            out.write_bytes(buf.tobytes())
        else:
            out.write_bytes(pdf_bytes(img, paper_w / 25.4 * 72, paper_h / 25.4 * 72))
    except OSError as exc:
        print(f"companion mat: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"play mat ({args.size}, {fmt}, {args.dpi} dpi) written to {out}")
    return 0


# ---------------------------------------------------------------- finding the mat

_detectors: dict[str, cv2.aruco.ArucoDetector] = {}


def _aruco(kind: str) -> cv2.aruco.ArucoDetector:
    """``fast``: two threshold windows, markers at least ~10 px (a few ms); ``full``: OpenCV's defaults."""
    if kind not in _detectors:
        params = cv2.aruco.DetectorParameters()
        if kind == "fast":
            params.minMarkerPerimeterRate = 0.08
            params.adaptiveThreshWinSizeMax = 13
        _detectors[kind] = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)
    return _detectors[kind]


def _patch_grid(rect: tuple[float, float, float, float]) -> np.ndarray:
    """The (28, 2) mat-unit sample points inside a mat rectangle, 20 % in from its sides."""
    x0, y0, x1, y1 = rect
    mx, my = (x1 - x0) * 0.2, (y1 - y0) * 0.2
    gx, gy = np.meshgrid(np.linspace(x0 + mx, x1 - mx, 7), np.linspace(y0 + my, y1 - my, 4))
    return np.float32(np.stack([gx.ravel(), gy.ravel()], 1))


_GRIDS: dict[tuple, list[np.ndarray]] = {}
_DY, _DX = (v.reshape(-1, 1) for v in np.meshgrid([-1, 0, 1], [-1, 0, 1], indexing="ij"))


def _patch_readings(frame: np.ndarray, inv: np.ndarray, rects: list[tuple[float, float, float, float]],
                    keep: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Median BGR of a grid of small samples (3x3 pixels each) inside each mat rectangle (robust to
    a glare spot); the rectangles' points are mapped into the frame and gathered in one go. ``keep``
    gets each rectangle's samples ((n, 3) float32) appended."""
    key = tuple(tuple(r) for r in rects)
    if key not in _GRIDS:  # the mat's rectangles are fixed: their points are made once
        _GRIDS[key] = [_patch_grid(r) for r in rects]
    grids = _GRIDS[key]
    pts = cv2.perspectiveTransform(np.concatenate(grids).reshape(-1, 1, 2), inv).reshape(-1, 2)
    h, w = frame.shape[:2]
    xs = np.clip(np.round(pts[:, 0]).astype(int), 1, w - 2)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 1, h - 2)
    samples = frame[ys[None] + _DY, xs[None] + _DX].astype(np.float32)  # (9, points, 3)
    if keep is not None:
        n = samples.shape[1] // len(grids)
        keep.extend(samples[:, r * n:(r + 1) * n].reshape(-1, 3) for r in range(len(grids)))
    return _patch_medians(samples, len(grids))


def _patch_medians(samples: np.ndarray, rects: int) -> list[np.ndarray]:
    """Each rectangle's median BGR of (9, rects * n, 3) samples (n points a rectangle, in order): the
    values of ``median(samples[:, r * n:(r + 1) * n].reshape(-1, 3), axis=0)`` per rectangle, all in one
    call along axis 1 of (rects, 9 * n, 3) (a partition per rectangle and channel either way; the same
    float32 arithmetic), not one call per rectangle."""
    n = samples.shape[1] // rects
    return list(median(samples.reshape(9, rects, n, 3).transpose(1, 0, 2, 3).reshape(rects, 9 * n, 3), axis=1))


def find_mat(frame: np.ndarray, half: np.ndarray | None = None) -> Mat | None:
    """Find the play mat by its ArUco markers; None when fewer than two markers are seen.

    ``half`` may give the frame already scaled to 640 pixels wide (readers that made one anyway).
    """
    try:
        frame = check_frame(frame)
    except ImageError:
        return None
    h, w = frame.shape[:2]
    if min(h, w) < 60:
        return None
    if half is None:
        half = cv2.resize(frame, (640, max(1, round(h * 640 / w))), interpolation=cv2.INTER_AREA) \
            if w > 640 else frame
    gray_half = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY)
    f = min(1.0, DETECT_WIDTH / w)
    small = cv2.resize(gray_half, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_LINEAR)
    corners, ids, _ = _aruco("fast").detectMarkers(small)
    if ids is not None and len(ids) == 1:  # part of a mat is seen: look harder
        g = gray_half.shape[1] / w
        corners, ids, _ = _aruco("full").detectMarkers(gray_half)
        corners = [c * (f / g) for c in corners]
    if ids is None:
        return None
    src, dst, seen = [], [], set()
    for c, mid in zip(corners, ids.ravel(), strict=True):
        mid = int(mid)
        if mid not in MARKERS or mid in seen:
            continue
        seen.add(mid)
        src.append(c.reshape(4, 2) / f)
        dst.append(_marker_corners(mid))
    if len(seen) < 2:
        return None
    src_pts, dst_pts = np.concatenate(src).astype(np.float32), np.concatenate(dst).astype(np.float32)
    hom, _ = cv2.findHomography(src_pts, dst_pts, 0)
    if hom is None or not np.isfinite(hom).all() or abs(np.linalg.det(hom)) < 1e-12:
        return None
    err = np.abs(cv2.perspectiveTransform(src_pts.reshape(-1, 1, 2), hom).reshape(-1, 2) - dst_pts).max()
    if err > 6.0:  # markers that do not sit where the mat puts them: not our mat
        return None
    inv = np.linalg.inv(hom)
    zones = [cv2.perspectiveTransform(np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2),
                                      inv).reshape(4, 2) for x0, y0, x1, y1 in ZONES]
    parts: list[np.ndarray] = []
    white, grey, fill, left, right = _patch_readings(
        frame, inv, [WHITE_PATCH, GREY_PATCH, (MARGIN + 4, ZONE_BOTTOM - 12, MAT_W - MARGIN - 4, ZONE_BOTTOM - 3),
                     *GREY_PAPER], parts)
    corners_frame = cv2.perspectiveTransform(np.float32([[0, 0], [MAT_W, 0]]).reshape(-1, 1, 2), inv)
    scale = float(np.linalg.norm(corners_frame[1] - corners_frame[0]) / MAT_W)
    return Mat(hom, zones, white, _patch_grey(grey, parts[1], parts[0]), fill, len(seen), scale,
               (left + right) / 2)


GREY_UNEVEN = 0.25  # the grey patch's middle 80 % of samples spans this share of its median (channels summed)


def _patch_grey(median_bgr: np.ndarray, grey_samples: np.ndarray, white_samples: np.ndarray) -> np.ndarray:
    """The grey patch's reading: its median, or under a glare spot its 10th percentile. A glare spot
    smaller than half the patch lifts its median (and, where the white patch is clipped, the white's
    level told from it); its samples then spread over GREY_UNEVEN of the median or more, and more
    than the white patch's (the frame's noise and light fall-off over a patch of the same size),
    with the median nearer the darker end (a bright spot over part of the patch; a shadow over part
    of it puts the median nearer the lighter end and keeps the median). The samples are (n, 3) BGR,
    each patch's 3x3-pixel samples as ``_patch_readings`` keeps them."""
    grey_sorted, white_sorted = np.sort(grey_samples, axis=0), np.sort(white_samples, axis=0)  # per channel
    n = len(grey_sorted)
    low, high = grey_sorted[n // 10], grey_sorted[(9 * n) // 10]
    m = len(white_sorted)
    white_spread = white_sorted[(9 * m) // 10] - white_sorted[m // 10]
    lo, mid, hi = float(low.sum()), float(median_bgr.sum()), float(high.sum())
    if hi - lo >= max(GREY_UNEVEN * mid, float(white_spread.sum())) and mid - lo < hi - mid:
        return np.asarray(low, np.float32)
    return median_bgr


# ---------------------------------------------------------------- colour correction

def white_gains(white: np.ndarray, target: float = 235.0, top: float = 4.0) -> np.ndarray:
    """B, G, R gains that make the white patch's reading a neutral ``target`` (at most ``top``)."""
    return np.clip(target / np.maximum(np.asarray(white, np.float32), 1.0), 0.3, top)


def unclipped_white(white: np.ndarray, grey: np.ndarray | None) -> np.ndarray:
    """The white patch's reading with each clipped channel told by the grey patch instead.

    A strong lamp (a warm bulb's red) clips the white patch in a channel, which then no longer tells
    the light's colour there; the grey patch, printed at a fixed share of the white, is read in that
    channel at the share the unclipped channels show (where the grey is clipped too, that is still the
    closer lower bound). A patch clipped in every channel keeps its reading."""
    white = np.asarray(white, np.float32)
    clipped = white >= CLIPPED
    if grey is None or not clipped.any() or clipped.all():
        return white
    grey = np.maximum(np.asarray(grey, np.float32), 1.0)
    share = float(np.median(white[~clipped] / grey[~clipped]))
    told = np.where(clipped, grey * share, white)
    return np.maximum(white, told)


GREY_SHARE = GREY_BGR[0] / 255.0  # the grey patch's printed share of the white paper


def flatness(white: np.ndarray, grey: np.ndarray) -> np.ndarray:
    """How much flatter than printed the picture shows the grey patch against the white one, per
    channel: the printed log share over the seen one (1 as printed; a camera's lifted tone curve of
    gamma g gives 1/g in every channel alike)."""
    seen = np.maximum(np.asarray(grey, np.float32), 1.0) / np.maximum(np.asarray(white, np.float32), 1.0)
    return np.log(GREY_SHARE) / np.log(np.minimum(seen, 0.99))


def correction_luts(white: np.ndarray, grey: np.ndarray | None, target: float = 235.0,
                    clip: bool = True, top_gain: float = 4.0, grey_share: float | None = None) -> np.ndarray:
    """Per-channel 256-entry tables: gains that make the white patch neutral ``target``, then a
    per-channel gamma that also makes the grey patch neutral (a two-point neutral-axis fix).

    ``clip=False`` keeps values above 255: a piece lit brighter than the white patch (the patch in
    the mat's darker corner) keeps its colour when the tables correct measured colours, not pixels.
    ``top_gain`` limits the gains (a channel a warm lamp nearly puts out needs more than the default).
    ``grey_share`` also sets the grey patch's lightness, at that share of the white: a flat picture's
    lifted tone curve is undone (its lightness and chroma differences come back to the printed ones)."""
    gains = white_gains(white, target, top_gain)
    v = np.arange(256, dtype=np.float32)
    luts = np.empty((256, 3), np.float32)
    if grey is not None:
        g = np.clip(np.asarray(grey, np.float32) * gains, 2.0, target - 2.0)
        want = float(np.exp(np.log(g).mean())) if grey_share is None else target * grey_share
        gammas = np.clip(np.log(want / target) / np.log(g / target), 0.6, 1.6 if grey_share is None else 2.2)
    else:
        gammas = np.ones(3, np.float32)
    for c in range(3):
        x = np.clip(v * gains[c], 0, None) / target
        luts[:, c] = target * np.power(x, gammas[c])
    return np.clip(luts, 0, 255) if clip else luts


def apply_luts(frame: np.ndarray, luts: np.ndarray) -> np.ndarray:
    """Apply per-channel tables from :func:`correction_luts` to a BGR uint8 frame."""
    lut = np.round(luts).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(frame, lut)


def prepare(frame: np.ndarray) -> tuple[np.ndarray, Mat | None]:
    """Colour-correct a frame for reading: with the mat from its white and grey patches, without
    it by grey-world over the whole frame. Raises ImageError only for a frame that is no image."""
    frame = check_frame(frame)
    mat = find_mat(frame)
    if mat is None:
        return gray_world(frame), None
    if mat.white.max() < 8:  # the white patch is in darkness: no usable reading
        return gray_world(frame), mat
    if float(np.min(mat.grey)) > 2 and float(np.max(mat.grey)) < float(np.min(mat.white)):
        return apply_luts(frame, correction_luts(mat.white, mat.grey)), mat
    return white_patch_correct(frame, mat.white), mat
