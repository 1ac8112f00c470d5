"""What an operator installs beside the code: ``.env.example`` lists every setting, and the
systemd units keep the database in a state directory and do not restart a wrong setting."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: The modules that read the bot's settings from the environment.
READERS = ("bot/config.py", "data/pg_settings.py", "data/location.py")


def settings_read() -> set[str]:
    names: set[str] = set()
    for module in READERS:
        text = (REPO / module).read_text()
        names |= set(re.findall(r'"([A-Z][A-Z0-9]*_[A-Z0-9_]+)"', text))
    # Test-only settings (FP_*) and the one systemd sets are not the operator's to write.
    return {n for n in names if not n.startswith("FP_") and n != "STATE_DIRECTORY"}


def test_every_setting_the_bot_reads_is_in_env_example() -> None:
    example = (REPO / ".env.example").read_text()
    listed = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", example, re.MULTILINE))
    read = settings_read()
    assert {"DISCORD_TOKEN", "DATABASE_POOL_MAX", "ERROR_WEBHOOK_URL"} <= read
    assert read - listed == set()


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(REPO / "deploy" / name)
    return parser


def test_the_one_process_unit_keeps_sqlite_in_its_state_directory() -> None:
    service = unit("flaming-pyramids.service")["Service"]
    assert service["StateDirectory"] == "flaming-pyramids"
    assert service["ProtectSystem"] == "strict"  # (only the state directory is writable)
    assert service["ExecStart"].endswith("/bin/flaming-pyramids")
    assert "DATABASE_URL" not in service.get("Environment", "")
    assert service["RestartPreventExitStatus"] == "2"


def test_the_template_unit_does_not_restart_a_wrong_setting() -> None:
    service = unit("flaming-pyramids@.service")["Service"]
    assert service["StateDirectory"] == "flaming-pyramids"
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
