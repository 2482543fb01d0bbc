"""The vision commands of ``companion``: ``see``, ``teach`` and ``mat``.

Each reader module ``vision.<kind>`` (tokens, cards, dice, board) offers
``read(frame, profile=None) -> Observation`` and ``teach(examples) -> profile data`` where
``examples`` maps a class name to a list of BGR images.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from vision import profile as profiles
from vision.common import KINDS, ImageError, load_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def reader(kind: str):
    return importlib.import_module(f"vision.{kind}")


def see_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion see", description="Read one image and print what was seen.")
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("image")
    ap.add_argument("--profile", help="a profile made by 'companion teach'")
    ap.add_argument("--json", action="store_true", help="print JSON (the default prints a short list)")
    ap.add_argument("--game", choices=("nicht-die-bohne", "blasting-billy"),
                    help="cards only: read only this game's deck")
    args = ap.parse_args(argv)
    try:
        data = profiles.load(args.profile, args.kind) if args.profile else None
        frame = load_image(args.image)
    except (ImageError, profiles.ProfileError) as exc:
        print(f"companion see: {exc}", file=sys.stderr)
        return 2
    if args.game and args.kind != "cards":
        print("companion see: --game is for cards only", file=sys.stderr)
        return 2
    extra = {"game": args.game} if args.game else {}
    obs = reader(args.kind).read(frame, data, **extra)
    if args.json:
        print(json.dumps(obs.to_json()))
    else:
        print(f"{len(obs.objects)} {args.kind if obs.objects else args.kind + ': nothing'} found")
        for o in obs.objects:
            rest = ", ".join(f"{k} {v}" for k, v in o.items() if k not in ("box", "confidence"))
            print(f"  {rest}  ({o['confidence']:.0%} sure, at {o['box']})")
    return 0


def load_examples(folder: Path) -> dict[str, list]:
    """One subfolder per class, named after the class, holding photos of that class."""
    if not folder.is_dir():
        raise ImageError(f"{folder}: no such folder")
    examples: dict[str, list] = {}
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        images = [load_image(f) for f in sorted(sub.iterdir()) if f.suffix.lower() in IMAGE_SUFFIXES]
        if images:
            examples[sub.name] = images
    if not examples:
        raise ImageError(f"{folder}: no class subfolders with photos in them")
    return examples


def teach_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="companion teach",
        description="Learn the classes from the players' own photos: one subfolder per class.")
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("--examples", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args(argv)
    try:
        examples = load_examples(args.examples)
        data = reader(args.kind).teach(examples)
    except (ImageError, ValueError) as exc:
        print(f"companion teach: {exc}", file=sys.stderr)
        return 2
    profiles.save(args.out, args.kind, data)
    counts = ", ".join(f"{k}: {len(v)}" for k, v in examples.items())
    print(f"taught {args.kind} from {counts}; profile saved to {args.out}")
    return 0


def mat_main(argv: list[str]) -> int:
    from vision import mat

    return mat.main(argv)
