"""Small file systems for tests of a full disk and of read-only media: a tmpfs mounted over a
test's folder (mounting needs root; elsewhere the test is skipped with the reason)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True, text=True)


@contextlib.contextmanager
def tmpfs(where: Path, size_kb: int) -> Iterator[Path]:
    """A ``size_kb`` tmpfs mounted at ``where`` (made if missing), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    where.mkdir(parents=True, exist_ok=True)
    try:
        _mount("-t", "tmpfs", "-o", f"size={size_kb}k,mode=0777", "tmpfs", str(where))
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"cannot mount a tmpfs here: {getattr(e, 'stderr', e)}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)


def make_read_only(where: Path) -> None:
    """Remount the tmpfs at ``where`` read-only (root cannot write it either)."""
    _mount("-o", "remount,ro", str(where))


def fill(where: Path) -> None:
    """Fill the file system at ``where`` up to its last byte."""
    with (where / "filler").open("wb", buffering=0) as f:
        for block in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * block)
