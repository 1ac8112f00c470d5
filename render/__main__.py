"""``python -m render``: ``bench [--json] [--runs N]`` measures, ``demo OUTDIR [--lang fr]``
writes samples."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m render", description="Flaming Pyramids pictures"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="render time and size of each kind of picture")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--runs", type=int, default=40, help="timed runs per case (default 40)")
    demo = sub.add_parser("demo", help="write a sample of every picture into OUTDIR")
    demo.add_argument("outdir", type=Path)
    demo.add_argument(
        "--lang",
        default="en",
        help="the pictures' language: a catalog's (fr, ...) or a Discord locale (default en)",
    )
    args = parser.parse_args(argv)
    if args.command == "bench":
        from render import bench as bench_mod

        figures = bench_mod.run(max(1, args.runs))
        print(json.dumps(figures) if args.json else bench_mod.report(figures))
        return 0
    import i18n
    from render import demo as demo_mod

    language = i18n.language_for(args.lang)
    if language == i18n.SOURCE_LANGUAGE and not args.lang.lower().startswith("en"):
        parser.error(
            f"no catalog for {args.lang!r}; languages: {', '.join(sorted(i18n.catalogs.languages))}"
        )
    for path in demo_mod.write(args.outdir, i18n.catalogs.language(language)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
