"""Configuration from the environment, and ``python -m bot`` without a token."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config, offset_clock

REPO = Path(__file__).resolve().parents[2]


def test_token_is_required() -> None:
    with pytest.raises(ConfigError, match=r"\.env\.example"):
        load_config({})


def test_values_and_defaults() -> None:
    config = load_config(
        {"DISCORD_TOKEN": "abc", "DEV_GUILD_ID": "42", "LOG_LEVEL": "debug"}, dotenv=False
    )
    assert config.dev_guild_id == 42 and config.log_level == "DEBUG"
    assert config.database_url == "sqlite:///flaming_pyramids.db"
    assert config.api_base_url is None and config.gateway_url is None
    assert "abc" not in repr(config)
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_config({"DISCORD_TOKEN": "abc", "DEV_GUILD_ID": "x"})


def test_test_only_settings_need_test_mode(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "abc", "FP_CLOCK_FILE": str(tmp_path / "c"), "FP_SEED": "3"}
    assert load_config(env).clock_file is None
    config = load_config({**env, "FP_TEST_MODE": "1"})
    assert config.clock_file == str(tmp_path / "c") and config.seed == 3


def test_offset_clock(tmp_path: Path) -> None:
    path = tmp_path / "clock"
    clock = offset_clock(str(path))
    assert abs(clock() - time.time()) < 5
    path.write_text("86400")
    assert clock() - time.time() > 86000


def test_python_m_bot_without_token_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env.example" in done.stderr
