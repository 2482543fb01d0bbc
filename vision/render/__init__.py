"""Rendered scenes with known ground truth, for tests and accuracy benchmarks.

``effects`` holds the camera and light degradations shared by every kind of scene; each kind
(tokens, cards, dice, board) has its own scene module that draws the pieces and returns the
ground truth.
"""
