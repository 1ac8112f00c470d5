"""``python -m engine.ai``: the computer players' command line (see :mod:`engine.ai.cli`)."""

from engine.ai.cli import main

raise SystemExit(main())
