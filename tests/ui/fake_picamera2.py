"""A stand-in for the picamera2 module (only on a Raspberry Pi): serves rendered play-mat frames and
reports the exposure and colour gains its auto exposure would settle on, so the real
hardware.picamera.Picamera2Source and its lock can be driven here."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

SETTLED = {"ExposureTime": 16600, "AnalogueGain": 2.25, "ColourGains": (1.9, 1.55)}


class Picamera2:
    """Records every control set (``controls``) like gpiozero's mock pins record their states."""

    sensor_resolution = (1280, 960)
    camera_controls: dict[str, Any] = {}

    def __init__(self, camera_num: int = 0):
        from vision.render.tokens import scene

        self.frame = np.ascontiguousarray(scene(5, with_mat=True)[0])
        self.controls: list[dict[str, Any]] = []
        self.started = False

    def create_video_configuration(self, main: dict, lores: dict, controls: dict) -> dict:
        return {"main": main, "lores": lores, "controls": controls}

    def create_still_configuration(self, main: dict, controls: dict) -> dict:
        return {"main": main, "controls": controls}

    def configure(self, config: dict) -> None:
        self.controls.append(dict(config["controls"]))

    def start(self) -> None:
        self.started = True

    def set_controls(self, controls: dict) -> None:
        self.controls.append(dict(controls))

    def capture_array(self, stream: str = "main") -> np.ndarray:
        time.sleep(1 / 30)  # a camera's pace
        return self.frame

    def switch_mode_and_capture_array(self, config: dict, stream: str) -> np.ndarray:
        return self.frame

    def capture_metadata(self) -> dict:
        return dict(SETTLED)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.started = False
