"""Run a command with a small, nearly full disk mounted at a folder, in a mount namespace of its
own (``tests.mounts.private_mounts`` gives the prefix that makes one, with or without root)::

    python -m tests.small_disk FOLDER --size-kb 1024 --free-bytes 8192 --copy games.db \\
        --report report.json -- python -m bot

A tmpfs of ``--size-kb`` is mounted at FOLDER, the ``--copy`` files are copied into it, it is
filled until ``--free-bytes`` are left, and the command runs (its output is this process's).
Afterwards the report (JSON, written outside the small disk) holds the command's exit status and
each file left on the disk with its size and SHA-256. The exit status is the command's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

BLOCK = 4096


def fill(folder: Path, leave: int) -> None:
    """Fill the file system at ``folder`` until ``leave`` bytes (in whole blocks) are free."""
    st = os.statvfs(folder)
    free = st.f_bfree * st.f_frsize
    size = max(0, free - leave) // BLOCK * BLOCK
    with (folder / "filler").open("wb") as f:
        f.write(b"\0" * size)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str]) -> int:
    if "--" not in argv:
        raise SystemExit("usage: python -m tests.small_disk FOLDER [options] -- COMMAND...")
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m tests.small_disk")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--size-kb", type=int, default=1024)
    parser.add_argument("--free-bytes", type=int, default=8192)
    parser.add_argument("--copy", type=Path, action="append", default=[])
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={args.size_kb}k,mode=0777", "tmpfs", str(folder)],
        check=True,
    )
    for source in args.copy:
        shutil.copyfile(source, folder / source.name)
    fill(folder, args.free_bytes)
    status = subprocess.run(command).returncode
    if args.report is not None:
        files = {
            p.name: {"size": p.stat().st_size, "sha256": sha256(p)}
            for p in sorted(folder.iterdir())
            if p.name != "filler"
        }
        args.report.write_text(json.dumps({"status": status, "files": files}))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
