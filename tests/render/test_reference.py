"""A few pictures compared with reference images kept beside this file, with a tolerance.

The references were looked at and approved by eye. Font rasterising may differ slightly from one
FreeType build to another, so a picture passes when almost all its pixels are close to the
reference. After an intended change of the pictures, look at the new ones and refresh the
references with ``RENDER_UPDATE_REFS=1 python -m pytest tests/render/test_reference.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, features

from engine import view
from i18n import ENGLISH
from render import render_hand, render_table, samples
from tests.conftest import in_ci
from tests.render.conftest import decode, flat

REFS = Path(__file__).parent / "refs"
CHANNEL_TOLERANCE = 48
"""A pixel is close when no channel is further than this from the reference."""
MAX_FAR_SHARE = 0.005
"""At most this share of the pixels may be far from the reference."""

CASES: dict[str, Callable[[], bytes]] = {
    "fall-choice.png": lambda: render_table(
        view(samples.jenny_fall()), samples.NAMES, lang=ENGLISH
    ),
    "mid-game.png": lambda: render_table(
        view(samples.mid_game()), samples.NAMES, title="Table #2", lang=ENGLISH
    ),
    "hand.png": lambda: render_hand(view(samples.jenny(), 0), "Jenny", lang=ENGLISH),
}


@pytest.fixture
def raqm() -> None:
    """The references were drawn with Pillow's Raqm layout (its wheels load it when the system
    has GNU FriBiDi); without it, text is laid out letter by letter, a few pixels apart: skips
    (or fails in CI) where Pillow has no Raqm."""
    if not features.check("raqm"):
        message = "Pillow has no Raqm layout here: install libfribidi0 (Debian)"
        if in_ci():
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message)


@pytest.mark.usefixtures("raqm")
@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_matches_its_reference(name: str) -> None:
    data = CASES[name]()
    path = REFS / name
    if os.environ.get("RENDER_UPDATE_REFS") == "1":
        REFS.mkdir(exist_ok=True)
        path.write_bytes(data)
    got = decode(data)
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    r, g, b = ImageChops.difference(got, want).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b).point(
        lambda v: 255 if v > CHANNEL_TOLERANCE else 0
    )
    far = sum(1 for v in flat(diff) if v)
    assert far / (got.width * got.height) <= MAX_FAR_SHARE, f"{far} pixels differ"
