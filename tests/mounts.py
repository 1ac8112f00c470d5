"""Small file systems for tests of a full disk and of read-only media: a tmpfs mounted over a
test's folder (mounting needs root; elsewhere the test is skipped with the reason), or, for a
command run in a mount namespace of its own, without root where the system allows user
namespaces (:func:`private_mounts`, with ``tests.small_disk``)."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
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


@functools.cache
def _namespace_prefix() -> tuple[tuple[str, ...], str]:
    """The prefix that runs a command in a mount namespace of its own (as root, or as root of a
    user namespace), or why there is none."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return (), "no unshare command (util-linux)"
    if os.geteuid() == 0:
        prefix: tuple[str, ...] = (unshare, "--mount", "--propagation", "private")
    else:
        prefix = (unshare, "--user", "--map-root-user", "--mount")
    probe = [
        *prefix,
        "sh",
        "-c",
        "mount -t tmpfs -o size=64k tmpfs /mnt || mount -t tmpfs tmpfs /tmp",
    ]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return (), f"cannot make a mount namespace: {e}"
    if done.returncode != 0:
        return (), f"cannot mount a tmpfs in a mount namespace here: {done.stderr.strip()}"
    return prefix, ""


def private_mounts() -> list[str]:
    """The command prefix that runs a command in a mount namespace of its own, where it may mount
    a small file system that nothing else sees and that goes with it: ``unshare --mount`` as
    root, else in a user namespace (``unshare --user --map-root-user --mount``). Skips the test
    where the system allows neither."""
    prefix, why = _namespace_prefix()
    if not prefix:
        pytest.skip(why)
    return list(prefix)
