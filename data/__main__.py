"""``python -m data``: see :mod:`data.cli`."""

import sys

from data.cli import main

sys.exit(main())
