"""The live table's reader process: frames reach it through shared memory, and it reads what the
in-thread reader reads; the shared block is freed when the table closes."""

from __future__ import annotations

from multiprocessing import shared_memory

import cv2
import pytest

from ui.camera import ProcessReader, load_reader
from vision import tokens
from vision.render import tokens as render


@pytest.fixture(scope="module")
def reader():
    r = ProcessReader("tokens")
    yield r
    r.close()


def _frame(seed: int, width: int = 1280, height: int = 960):
    return render.scene(seed, width=width, height=height)[0]


def test_the_reader_process_sees_the_butts_the_screen_process_would():
    frame = _frame(3)
    r = load_reader("tokens")
    try:
        assert isinstance(r, ProcessReader)
        got = r(frame).objects
    finally:
        r.close()
    want = [dict(o) for o in tokens.read(frame).objects]
    assert len(want) >= 5 and got == want


def test_a_camera_that_changes_resolution_is_still_read(reader):
    small = _frame(4, 640, 480)
    big = _frame(5)
    for frame in (small, big, small):
        assert reader(frame).objects == [dict(o) for o in tokens.read(frame).objects]
    # the block grew once, for the larger frame, and the smaller frame after it still fits
    assert reader._shm.size >= big.nbytes


def test_a_frame_not_laid_out_in_one_piece_is_read_whole(reader):
    frame = _frame(6)
    cropped = frame[:, 100:1100]  # a view: rows are not contiguous
    assert reader(cropped).objects == [dict(o) for o in tokens.read(cropped.copy()).objects]


def test_without_shared_memory_the_frame_is_pickled_and_read_the_same(monkeypatch):
    frame = _frame(7)
    r = ProcessReader("tokens")
    try:
        def no_shm(*_a, **_k):
            raise OSError("no /dev/shm")

        monkeypatch.setattr(shared_memory, "SharedMemory", no_shm)
        assert r(frame).objects == [dict(o) for o in tokens.read(frame).objects]
        assert r._shm is None and not r.shared
    finally:
        r.close()


def test_closing_the_table_frees_the_shared_block():
    r = ProcessReader("tokens")
    r(cv2.resize(_frame(8), (320, 240)))
    name = r._shm.name
    shared_memory.SharedMemory(name=name).close()  # it is there while the table is open
    r.close()
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)


def test_the_reader_process_keeps_to_one_core(monkeypatch):
    # numpy's OpenBLAS would start a spinning worker per core at the reader's first matrix product
    # (a 45 ms dice read then cost 89 ms of processor time, a core taken from the touch screen)
    import os

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    r = ProcessReader("dice")
    try:
        assert r.pool.submit(os.getenv, "OPENBLAS_NUM_THREADS").result(timeout=60) == "1"
    finally:
        r.close()


def _has_mallopt() -> bool:
    import ctypes

    try:
        return hasattr(ctypes.CDLL(None), "mallopt")
    except (OSError, TypeError):
        return False


@pytest.mark.skipif(not _has_mallopt(), reason="glibc's mallopt only")
def test_the_reader_process_reuses_its_memory_from_frame_to_frame():
    # glibc gave a read's freed working images back to the system, so every dice read mapped about
    # 1 900 fresh pages (the kernel zeroing each): about a tenth of the read's time
    import resource

    from vision.render import dice as render_dice

    frame = render_dice.scene(7, kinds=render_dice.BUTTONS_SET)[0]
    r = ProcessReader("dice")
    try:
        first = r(frame).objects
        assert len(first) == 6
        r(frame)
        before = r.pool.submit(resource.getrusage, resource.RUSAGE_SELF).result(timeout=60).ru_minflt
        assert r(frame).objects == first
        after = r.pool.submit(resource.getrusage, resource.RUSAGE_SELF).result(timeout=60).ru_minflt
    finally:
        r.close()
    assert after - before < 200
