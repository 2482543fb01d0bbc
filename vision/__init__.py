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


# glibc's mallopt parameters (malloc.h): the size from which a block gets its own mapping, and the
# free space at the heap's top above which the heap is given back to the system
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
HEAP_MMAP_BYTES = 64 << 20  # above any frame's working images (a 1280x960 frame is 3.7 MB)
HEAP_TRIM_BYTES = 128 << 20


def keep_heap() -> bool:
    """Let this process keep the memory a read freed for the next read (glibc only); True if set.

    A reader frees its working images at the end of every read. glibc gives large blocks back to
    the system at once (their own mappings) and trims the heap's top, so the next read maps the
    same memory afresh: about 1 900-2 200 minor page faults a dice read, 120 a token read, and the
    kernel zeroes every page. With blocks up to 64 MB taken from the heap and a 128 MB trim
    threshold, repeated reads reuse their pages (``python3 -m vision.bench_heap``). Meant for the
    touch screen's reader process, which does nothing but read frames; elsewhere (no glibc) it does
    nothing and returns False.
    """
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # not glibc (or no C library to load by name)
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, HEAP_MMAP_BYTES) == 1 and mallopt(_M_TRIM_THRESHOLD, HEAP_TRIM_BYTES) == 1)


# a command that imports vision first (companion see, the benchmarks) loads numpy after this; the
# touch screen's reader process calls it before it is spawned (ui.camera.ProcessReader)
single_threaded_blas()
