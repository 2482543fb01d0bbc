"""Vision: turn a camera frame (BGR numpy array) into observations with confidences.

Vision never decides game rules and never imports kivy. Every reader returns an
:class:`vision.common.Observation`; the player confirms it and the engine checks it.
"""

import os as _os


def single_threaded_blas() -> None:
    """One BLAS (and OpenMP) thread for numpy, unless the environment already says otherwise; it
    takes effect in a process whose numpy loads after the call.

    The readers are single-threaded by design (one core per reader; cv2.setNumThreads(1) where
    timed). numpy's OpenBLAS otherwise starts a worker per core at its first matrix product, and
    those workers keep spinning after each small product: a 45 ms dice read cost 89 ms of processor
    time, a second core taken from the touch screen.
    """
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        _os.environ.setdefault(name, "1")


# a command that imports vision first (companion see, the benchmarks) loads numpy after this; the
# touch screen's reader process calls it before it is spawned (ui.camera.ProcessReader)
single_threaded_blas()
