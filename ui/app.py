"""The touch screen: ``companion`` (no arguments) and ``companion resume [ID]`` start it here.

``main(argv)`` reads the options, sets Kivy up (fullscreen kiosk unless ``--windowed``) before any
window exists, and runs ``TableApp``. The App owns navigation, the score-pad Store, the language
and the open Session; screens (ui/screens.py, layouts in ui/kv/) show snapshots and call back.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion.core import LANGUAGES


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="companion", description="Start the table companion's touch screen.")
    ap.add_argument("--resume", nargs="?", const="", default=None, metavar="ID",
                    help="go straight into a stored game (the latest unfinished one without ID)")
    ap.add_argument("--db", help="score-pad file (default: in your data folder)")
    ap.add_argument("--lang", choices=LANGUAGES, default=None)
    ap.add_argument("--camera", default=None, help="auto | picamera2 | opencv:N | folder:PATH | demo")
    ap.add_argument("--windowed", action="store_true", help="a window instead of the fullscreen kiosk")
    ap.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 800x480")
    return ap.parse_args(argv)


def parse_size(text: str | None) -> tuple[int, int] | None:
    """'800x480' -> (800, 480); None when not given; ValueError for nonsense."""
    if not text:
        return None
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit() or not (200 <= int(w) <= 8000 and 200 <= int(h) <= 8000):
        raise ValueError(f"--size must look like 800x480, not {text!r}")
    return int(w), int(h)


def _config_fullscreen() -> bool:
    """The config file's ``fullscreen`` (the Pi's kiosk sets it; a laptop gets a window)."""
    try:
        from companion.config import load_config

        return bool(load_config()[0].fullscreen)
    except ImportError:
        return False


def main(argv: list[str] | None = None) -> int:
    """Run the touch screen until the window closes; returns the exit status."""
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        size = parse_size(args.size)
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")  # no xclip/xsel needed on the Pi
    from kivy.config import Config

    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    if size:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    kiosk = not (args.windowed or size) and _config_fullscreen()
    Config.set("graphics", "fullscreen", "auto" if kiosk else "0")
    Config.set("kivy", "exit_on_escape", "0" if kiosk else "1")

    from ui.tableapp import TableApp

    app = TableApp(db=Path(args.db) if args.db else None, lang=args.lang, camera=args.camera,
                   resume=args.resume)
    app.run()
    return app.exit_status


if __name__ == "__main__":
    sys.exit(main())
