"""The Discord adapter and the table service that hosts games.

``bot.__version__`` is the installed distribution's version (``pyproject.toml``), or
``0+unknown`` when the package runs from a folder that was never installed.
"""

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "flaming-pyramids-bot"

try:
    __version__ = version(DISTRIBUTION)
except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["DISTRIBUTION", "__version__"]
