"""Derive the fake's request contract from Discord's OpenAPI description.

Discord publishes its HTTP API as an OpenAPI 3.1 file (``specs/openapi.json`` in the
``discord/discord-api-spec`` repository). The fake keeps only what it needs from it: for each
route it serves, the operation's path and query parameters and its request body schema, with
the schemas these refer to, stripped of everything but the validation keywords. That is
``contract.json`` beside this file, with the spec's commit it came from. A newer spec is one run:

    python -m tests.fakediscord.contract.derive --git <a clone of discord/discord-api-spec>
    python -m tests.fakediscord.contract.derive openapi.json --commit <its commit>

The validator that applies the contract, and the documented exceptions to it, are in
``tests/fakediscord/contract/check.py``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.fakediscord.rest import ROUTES

HERE = Path(__file__).parent
OUTPUT = HERE / "contract.json"
SPEC_PATH = "specs/openapi.json"
SPEC_REPOSITORY = "discord/discord-api-spec"

#: The JSON Schema keywords the validator applies; everything else (titles, descriptions,
#: examples) is left out of the derived file.
KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "items",
        "additionalProperties",
        "minProperties",
        "maxProperties",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "enum",
        "const",
        "oneOf",
        "anyOf",
        "allOf",
        "$ref",
        "format",
        "pattern",
        "x-discord-union",
    }
)
METHODS = ("get", "put", "post", "patch", "delete")
REF = re.compile(r"^#/components/schemas/(.+)$")


def shape(path: str) -> str:
    """A path with its parameters' names left out: ``/webhooks/{}/{}`` stands for both the
    fake's ``/webhooks/{application_id}/{token}`` and the spec's
    ``/webhooks/{webhook_id}/{webhook_token}``."""
    return re.sub(r"\{[^}]+\}", "{}", path)


def prune(node: Any, refs: set[str]) -> Any:
    """``node`` with only the validation keywords, noting the schemas it refers to."""
    if isinstance(node, list):
        return [prune(item, refs) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key not in KEYWORDS:
            continue
        if key == "properties":
            out[key] = {name: prune(sub, refs) for name, sub in value.items()}
        elif key == "$ref":
            match = REF.match(value)
            if match is None:
                raise SystemExit(f"a reference outside the schemas: {value}")
            refs.add(match.group(1))
            out[key] = value
        else:
            out[key] = prune(value, refs)
    return out


def parameters(item: dict[str, Any], operation: dict[str, Any], refs: set[str]) -> dict[str, Any]:
    """The path and query parameters of an operation (the path item's and its own)."""
    found: dict[str, Any] = {"path": [], "query": []}
    for param in [*item.get("parameters", []), *operation.get("parameters", [])]:
        where = param["in"]
        if where not in found:
            continue
        found[where].append(
            {
                "name": param["name"],
                "required": bool(param.get("required", False)),
                "schema": prune(param.get("schema", {}), refs),
            }
        )
    return found


def body(operation: dict[str, Any], refs: set[str]) -> dict[str, Any] | None:
    """The request body: its JSON schema and how many files a multipart body may carry."""
    request = operation.get("requestBody")
    if request is None:
        return None
    content = request.get("content", {})
    json_schema = content.get("application/json", {}).get("schema")
    multipart = content.get("multipart/form-data", {}).get("schema")
    files = 0
    if multipart is not None:
        for part in multipart.get("allOf", [multipart]):
            files += sum(1 for name in part.get("properties", {}) if name.startswith("files["))
    return {
        "required": bool(request.get("required", False)),
        "json": prune(json_schema, refs) if json_schema is not None else None,
        "multipart": multipart is not None,
        # None: a multipart body whose files the spec does not list (check.py says what then)
        "files": files if files or multipart is None else None,
    }


def derive(
    spec: dict[str, Any], commit: str, routes: Iterable[tuple[str, str, str]] = ROUTES
) -> dict[str, Any]:
    """The contract of ``routes`` (method, path, handler: the fake's own by default)."""
    by_shape: dict[tuple[str, str], tuple[str, dict[str, Any], dict[str, Any]]] = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                by_shape[(method.upper(), shape(path))] = (path, item, item[method])
    refs: set[str] = set()
    operations: dict[str, Any] = {}
    missing = []
    for method, path, _handler in routes:
        found = by_shape.get((method, shape(path)))
        if found is None:
            missing.append(f"{method} {path}")
            continue
        spec_path, item, operation = found
        operations[f"{method} {path}"] = {
            "operation": operation.get("operationId"),
            "path": spec_path,
            "parameters": parameters(item, operation, refs),
            "body": body(operation, refs),
        }
    if missing:
        raise SystemExit(
            "routes the fake serves that the spec does not describe: " + ", ".join(missing)
        )
    schemas = spec["components"]["schemas"]
    kept: dict[str, Any] = {}
    todo = sorted(refs)
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        more: set[str] = set()
        kept[name] = prune(schemas[name], more)
        todo.extend(sorted(more - kept.keys()))
    return {
        "source": {
            "repository": SPEC_REPOSITORY,
            "path": SPEC_PATH,
            "commit": commit,
            "openapi": spec.get("openapi"),
            "api_version": spec.get("info", {}).get("version"),
        },
        "operations": operations,
        "schemas": dict(sorted(kept.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("spec", nargs="?", type=Path, help="an openapi.json file")
    source.add_argument("--git", type=Path, help="a git clone of discord/discord-api-spec")
    parser.add_argument("--commit", help="the spec's commit, with a file (--git finds it)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    if args.git is not None:
        git = ["git", "-C", str(args.git)]
        commit = subprocess.run(
            [*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
        text = subprocess.run(
            [*git, "show", f"HEAD:{SPEC_PATH}"], check=True, capture_output=True, text=True
        ).stdout
    else:
        if not args.commit:
            parser.error("give the spec's commit with --commit")
        commit = args.commit
        text = args.spec.read_text(encoding="utf-8")
    contract = derive(json.loads(text), commit)
    args.output.write_text(json.dumps(contract, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(
        f"{args.output.name}: {len(contract['operations'])} operations, "
        f"{len(contract['schemas'])} schemas, from {SPEC_REPOSITORY}@{commit[:12]}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
