"""Camera and light effects applied to a clean rendered scene: what real tables do to a frame.

Every function takes a ``numpy.random.Generator`` so a scene is reproducible from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def kelvin_gains(kelvin: float) -> np.ndarray:
    """Approximate BGR gains of a light source of colour temperature ``kelvin`` (1000-12000 K),
    normalised so green is 1 (Tanner Helland's fit of the blackbody curve)."""
    t = kelvin / 100.0
    if t <= 66:
        r = 255.0
        g = 99.4708025861 * np.log(t) - 161.1195681661
        b = 0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307
    else:
        r = 329.698727446 * (t - 60) ** -0.1332047592
        g = 288.1221695283 * (t - 60) ** -0.0755148492
        b = 255.0
    rgb = np.clip(np.array([r, g, b], np.float32), 1, 255)
    rgb /= rgb[1]
    return rgb[::-1].copy()  # BGR


@dataclass(frozen=True)
class Light:
    """One lighting condition; ``random`` draws one from the ranges real tables show."""

    kelvin: float = 5000.0
    brightness: float = 1.0
    gradient: float = 0.0  # strength of a linear fall-off across the frame (0-0.6)
    gradient_angle: float = 0.0
    vignette: float = 0.0  # 0-0.5 darkening at the corners
    shadow: float = 0.0  # 0-0.6 darkness of one soft shadow blob
    glare: int = 0  # number of specular glare spots

    @staticmethod
    def random(rng: np.random.Generator) -> Light:
        return Light(
            kelvin=float(rng.uniform(2700, 6500)),
            brightness=float(rng.uniform(0.4, 1.3)),
            gradient=float(rng.uniform(0, 0.5)),
            gradient_angle=float(rng.uniform(0, 2 * np.pi)),
            vignette=float(rng.uniform(0, 0.4)),
            shadow=float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0,
            glare=int(rng.integers(0, 3)),
        )


def light_field(h: int, w: int, light: Light, rng: np.random.Generator) -> np.ndarray:
    """Per-pixel illumination multiplier (h, w) for gradient, vignetting and one shadow."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (xx / w - 0.5), (yy / h - 0.5)
    field = np.ones((h, w), np.float32)
    if light.gradient:
        d = nx * np.cos(light.gradient_angle) + ny * np.sin(light.gradient_angle)
        field *= 1.0 - light.gradient * (d + 0.5)
    if light.vignette:
        field *= 1.0 - light.vignette * np.clip((nx**2 + ny**2) * 2.0, 0, 1)
    if light.shadow:
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        r = rng.uniform(0.1, 0.3) * max(h, w)
        blob = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))
        field *= 1.0 - light.shadow * blob
    return np.clip(field, 0.05, 2.0)


def apply_light(img: np.ndarray, light: Light, rng: np.random.Generator) -> np.ndarray:
    """Colour temperature, brightness, uneven light and glare on a clean BGR scene."""
    h, w = img.shape[:2]
    f = img.astype(np.float32) * kelvin_gains(light.kelvin) * light.brightness
    f *= light_field(h, w, light, rng)[..., None]
    for _ in range(light.glare):
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        r = int(rng.uniform(0.01, 0.04) * max(h, w)) + 2
        spot = np.zeros((h, w), np.float32)
        cv2.circle(spot, (cx, cy), r, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), r / 2 + 1)
        f += spot[..., None] * rng.uniform(80, 200)
    return np.clip(f, 0, 255).astype(np.uint8)


def camera(img: np.ndarray, rng: np.random.Generator, blur: float | None = None,
           noise: float | None = None, jpeg: int | None = None) -> np.ndarray:
    """Defocus/motion blur, sensor noise (shot + read) and JPEG artefacts."""
    blur = float(rng.uniform(0, 1.5)) if blur is None else blur
    noise = float(rng.uniform(1, 6)) if noise is None else noise
    jpeg = int(rng.integers(55, 95)) if jpeg is None else jpeg
    out = img
    if blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        f = out.astype(np.float32)
        f += rng.normal(0, 1, f.shape).astype(np.float32) * (noise * np.sqrt(f / 128.0 + 0.2))
        out = np.clip(f, 0, 255).astype(np.uint8)
    if jpeg and jpeg < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def random_perspective(w: int, h: int, rng: np.random.Generator, strength: float = 0.08) -> np.ndarray:
    """A random homography (3x3) that tilts a w x h scene like a camera slightly off vertical."""
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.uniform(-strength, strength, (4, 2)) * np.float32([w, h])
    dst = (src + jitter).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def warp(img: np.ndarray, hom: np.ndarray, border: tuple[int, int, int] | None = None) -> np.ndarray:
    """Apply a homography keeping the frame size; the border repeats the edge unless given."""
    h, w = img.shape[:2]
    if border is None:
        return cv2.warpPerspective(img, hom, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpPerspective(img, hom, (w, h), borderMode=cv2.BORDER_CONSTANT, borderValue=border)


def warp_points(points: np.ndarray, hom: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a homography (for ground-truth boxes and centres)."""
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, hom).reshape(-1, 2)


def wood_texture(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A plain table surface: a random tone with soft grain, as BGR uint8."""
    base = np.array(rng.choice([[60, 110, 160], [90, 140, 180], [200, 200, 200], [70, 80, 60],
                                [40, 40, 45], [150, 170, 190]]), np.float32)
    base *= rng.uniform(0.85, 1.15)
    grain = cv2.resize(rng.normal(0, 1, (max(h // 40, 2), max(w // 4, 2))).astype(np.float32), (w, h))
    grain = cv2.GaussianBlur(grain, (0, 0), 3)
    img = base[None, None, :] * (1 + 0.06 * grain[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)
