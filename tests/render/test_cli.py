"""``python -m render demo`` and ``bench``: they write what they say (figures are not checked)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from render.__main__ import main
from render.layout import READABLE_CAP


def test_demo_writes_a_sample_of_every_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", str(tmp_path / "out")]) == 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == [
        "1-empty-table.png",
        "2-mid-game.png",
        "3-fall-choice.png",
        "4-full-pyramid.png",
        "5-hand.png",
        "6-jenny-mayhem.gif",
        "7-after-mayhem.png",
        "8-turn-screen.png",
        "9-fall-screen.png",
        "9b-match-over.png",
    ]
    for name in written:
        im = Image.open(io.BytesIO((tmp_path / "out" / name).read_bytes()))
        assert im.width <= 1000
    assert Image.open(tmp_path / "out" / "6-jenny-mayhem.gif").is_animated
    assert len(capsys.readouterr().out.splitlines()) == len(written)


def test_bench_json_has_the_agreed_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--runs", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in (
        "full_ms_median",
        "full_bytes",
        "hand_ms_median",
        "animation_ms_median",
        "animation_bytes",
        "empty_ms_p95",
        "mid_bytes",
        "screen_ms_median",
        "screen_bytes",
        "fall_screen_bytes",
    ):
        assert key in figures, key
    assert figures["full_bytes"] > 0 and figures["animation_bytes"] > 0
    # The turn screens' smallest texts, measured at phone width, are readable.
    assert figures["screen_cap_px"] >= READABLE_CAP
    assert figures["fall_screen_cap_px"] >= READABLE_CAP
