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


def test_demo_writes_the_samples_in_french(tmp_path: Path) -> None:
    assert main(["demo", str(tmp_path / "en")]) == 0
    assert main(["demo", str(tmp_path / "fr"), "--lang", "fr"]) == 0
    english = sorted((tmp_path / "en").iterdir())
    french = sorted((tmp_path / "fr").iterdir())
    assert [p.name for p in french] == [p.name for p in english]
    for en, fr in zip(english, french, strict=True):  # every picture has words: all differ
        assert fr.read_bytes() != en.read_bytes(), fr.name
        assert Image.open(fr).width <= 1000


def test_demo_refuses_a_language_without_a_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["demo", str(tmp_path / "xx"), "--lang", "xx"])
    assert "no catalog for 'xx'; languages: en, fr" in capsys.readouterr().err
    assert not (tmp_path / "xx").exists()
