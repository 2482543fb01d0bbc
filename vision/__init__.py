"""Vision: turn a camera frame (BGR numpy array) into observations with confidences.

Vision never decides game rules and never imports kivy. Every reader returns an
:class:`vision.common.Observation`; the player confirms it and the engine checks it.
"""
