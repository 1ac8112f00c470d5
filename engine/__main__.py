"""``python -m engine``: the scenario CLI of RULES 8 and the self-play bench."""

from engine.cli import main

raise SystemExit(main())
