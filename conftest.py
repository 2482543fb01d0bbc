"""Puts the repository root on sys.path so `pytest` works from any folder."""
