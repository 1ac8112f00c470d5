"""Every request against Discord's published contract: path, query and body.

``contract.json`` holds, for each route the fake serves, what Discord's OpenAPI description says
of its parameters and request body (``derive.py`` makes it from the spec; its ``source`` names
the spec's commit). :meth:`Contract.check` applies it to one request and raises what Discord
answers a request outside it: 400, code 50035 ``Invalid Form Body``, with an error per field at
its path (``reference.mdx``, "Error Messages").

The schema keywords are JSON Schema's (OpenAPI 3.1). Two readings follow the spec's README
("Spec conventions"): an ``anyOf`` or ``oneOf`` union is satisfied by one of its variants, the
extra ``x-discord-union: oneOf`` saying only that a value is of one variant, never a blend (so
a value two variants both accept is fine); and an object whose ``type`` picks a variant
(components, command options, interaction callbacks) is checked against that variant, its
errors reported at their own paths, as Discord reports them.

Where the spec and Discord's documentation disagree, the documentation wins (the spec's README
says so). The exceptions, each with its page:

- **Ids as JSON integers.** The spec types a snowflake as a string of digits; Discord takes an
  id sent as an integer too (``reference.mdx``, "ID Serialization"; discord.py sends some ids
  as integers).
- **Integers as strings.** The spec's README: "Our API accepts strings for int fields if they
  are parseable as ints". ``default_member_permissions`` is documented as a string
  (``interactions/application-commands.mdx``, Application Command Structure) and typed as an
  integer in the spec; its bounds apply to the number it spells.
- **The original response.** A webhook message route takes ``@original`` for the message id
  of an interaction's first response (``interactions/receiving-and-responding.mdx``, "Get
  Original Interaction Response", "Edit ...", "Delete ..."); the spec wants a snowflake.
- **Files of a webhook or an interaction callback.** The spec lists no ``files[n]`` part for
  Execute Webhook or an interaction callback; both take files like a message
  (``resources/webhook.mdx``, Execute Webhook: ``files[n]``; ``receiving-and-responding.mdx``,
  Interaction Callback Data: "See Uploading Files"), as many as a message's ``attachments``: 10.
- **Boolean query strings.** ``True``, ``true`` or ``1``, ``False``, ``false`` or ``0``
  (``reference.mdx``, "Boolean Query Strings").
- **Stricter documented limits** (message content 2,000 characters where the spec says 4,000,
  and the rules no schema can say: custom ids unique in a message, emoji, Components V2, the
  8,000 characters of a command) stay hand-written in ``validation.py`` and ``commands.py``,
  which run after this check.

Field error codes: ``BASE_TYPE_REQUIRED`` and ``BASE_TYPE_CHOICES`` are the documentation's own
examples (``reference.mdx``, "Error Messages"); the rest are not documented, and are written as
Discord answers them in public bug reports (``NUMBER_TYPE_COERCE`` 'Value "x" is not int.' or
'... is not snowflake.', ``NUMBER_TYPE_MIN`` "int value should be greater than or equal to 8000.",
``BASE_TYPE_BAD_LENGTH`` "Must be between 1 and 80 in length.", ``LIST_ITEM_VALUE_REQUIRED``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import INVALID_FORM_BODY, DiscordError

CONTRACT = Path(__file__).with_name("contract.json")

Schema = dict[str, Any]
FieldPath = tuple[str, ...]


@dataclass(frozen=True)
class FieldError:
    """One field Discord would refuse: where, its code, its message."""

    path: FieldPath
    code: str
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(self.path) or '(body)'}: {self.code} {self.message}"


#: Codes that say "not of the right type": a union prefers a variant whose type fits.
TYPE_CODES = frozenset(
    {
        "BASE_TYPE_REQUIRED",
        "BASE_TYPE_STRING",
        "BASE_TYPE_BOOLEAN",
        "NUMBER_TYPE_COERCE",
        "LIST_TYPE_CONVERT",
        "DICT_TYPE_CONVERT",
        "UNION_TYPE_CHOICES",
    }
)
INT_STRING = re.compile(r"[+-]?\d+")
SNOWFLAKE_MAX = 2**64 - 1
INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
ORIGINAL = "@original"
"""The message id of an interaction's first response on the webhook message routes."""
DOCUMENTED_FILES = 10
"""Files a webhook or an interaction callback may carry where the spec lists none."""
QUERY_BOOLEANS = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}


def _describe(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class Validator:
    """JSON Schema, as much of it as Discord's spec uses, with Discord's field errors."""

    def __init__(self, schemas: Mapping[str, Schema]) -> None:
        self.schemas = schemas

    def resolve(self, schema: Schema) -> Schema:
        """The schema a ``$ref`` names (followed to the end), or ``schema`` itself."""
        while "$ref" in schema and len(schema) == 1:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def errors(self, schema: Schema, value: Any, path: FieldPath = ()) -> list[FieldError]:
        """What Discord would say of ``value`` at ``path``; empty when it is accepted."""
        if "$ref" in schema:
            referred = self.schemas[schema["$ref"].rsplit("/", 1)[1]]
            found = self.errors(referred, value, path)
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return found + (self.errors(rest, value, path) if rest else [])
        types = schema.get("type")
        if types is not None:
            allowed = [types] if isinstance(types, str) else list(types)
            if not any(self._is(t, value, schema) for t in allowed):
                return [self._type_error(allowed, value, path, schema)]
            if value is None:
                return []
        found = []
        for sub in schema.get("allOf", ()):
            found.extend(self.errors(sub, value, path))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                found.extend(self._union(schema[key], value, path))
        if found:
            return found
        if "const" in schema and value != schema["const"]:
            return [_choices(path, [schema["const"]])]
        if "enum" in schema and value not in schema["enum"]:
            return [_choices(path, schema["enum"])]
        if isinstance(value, str) and not _allows(schema, "string") and _allows(schema, "integer"):
            return _number(schema, value, path)  # an integer spelled as a string
        if isinstance(value, str):
            return self._string(schema, value, path)
        if _is_number(value):
            return _number(schema, value, path)
        if isinstance(value, list):
            return self._array(schema, value, path)
        if isinstance(value, dict):
            return self._object(schema, value, path)
        return []

    # ----------------------------------------------------------------------- types
    @staticmethod
    def _is(kind: str, value: Any, schema: Schema) -> bool:
        if kind == "null":
            return value is None
        if kind == "boolean":
            return isinstance(value, bool)
        if kind == "integer":
            # The spec's README: int fields take strings that parse as ints.
            return (isinstance(value, int) and not isinstance(value, bool)) or (
                isinstance(value, str) and INT_STRING.fullmatch(value) is not None
            )
        if kind == "number":
            return _is_number(value)
        if kind == "string":
            # "ID Serialization": an id may come as a JSON integer.
            snowflake = schema.get("format") == "snowflake"
            return isinstance(value, str) or (
                snowflake and isinstance(value, int) and not isinstance(value, bool)
            )
        if kind == "array":
            return isinstance(value, list)
        if kind == "object":
            return isinstance(value, dict)
        raise ValueError(f"unknown JSON type {kind!r}")

    @staticmethod
    def _type_error(allowed: list[str], value: Any, path: FieldPath, schema: Schema) -> FieldError:
        if value is None:
            if path and path[-1].isdigit():
                return FieldError(path, "LIST_ITEM_VALUE_REQUIRED", "List item values are required")
            return FieldError(path, "BASE_TYPE_REQUIRED", "This field is required")
        kind = next((t for t in allowed if t != "null"), "null")
        if kind == "null":  # the null variant of a union, when the value is something else
            return FieldError(path, "BASE_TYPE_CHOICES", "Value must be null.")
        shown = _describe(value)
        if schema.get("format") == "snowflake":
            return FieldError(path, "NUMBER_TYPE_COERCE", f'Value "{shown}" is not snowflake.')
        if kind == "integer":
            return FieldError(path, "NUMBER_TYPE_COERCE", f'Value "{shown}" is not int.')
        if kind == "number":
            return FieldError(path, "NUMBER_TYPE_COERCE", f'Value "{shown}" is not float.')
        if kind == "string":
            return FieldError(path, "BASE_TYPE_STRING", f'Could not interpret "{shown}" as string.')
        if kind == "boolean":
            return FieldError(path, "BASE_TYPE_BOOLEAN", "Must be either true or false.")
        if kind == "array":
            return FieldError(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return FieldError(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")

    # ----------------------------------------------------------------------- unions
    def _union(self, variants: list[Schema], value: Any, path: FieldPath) -> list[FieldError]:
        tried: list[tuple[Schema, list[FieldError]]] = []
        for variant in variants:
            found = self.errors(variant, value, path)
            if not found:
                return []
            tried.append((variant, found))
        values = [_enumerated(self.resolve(v)) for v, _ in tried]
        if all(v is not None for v in values):  # an enumeration written as a union of consts
            return [_choices(path, [c for chosen in values for c in chosen or ()])]
        # Not the null variant of a nullable union: what the value should have been.
        tried = [(v, e) for v, e in tried if self.resolve(v).get("type") != "null"] or tried
        picked = [e for _, e in tried if not _mismatched(e, path)]
        if picked:  # the variant the value's "type" (or its JSON type) chose: its own errors
            return min(picked, key=len)
        choices = [self._type_choices(v) for v, _ in tried]
        if isinstance(value, dict) and "type" in value and all(c is not None for c in choices):
            every = sorted({c for chosen in choices for c in chosen or ()})
            return [_type_choice_error(path, every)]
        return min((e for _, e in tried), key=len)

    def _type_choices(self, variant: Schema) -> list[Any] | None:
        """The values of ``type`` that pick this variant of a union, if ``type`` picks."""
        field = self.resolve(variant).get("properties", {}).get("type")
        if field is None:
            return None
        field = self.resolve(field)
        if "const" in field:
            return [field["const"]]
        enum = field.get("enum")
        return list(enum) if enum is not None else None

    # ----------------------------------------------------------------------- values
    def _string(self, schema: Schema, value: str, path: FieldPath) -> list[FieldError]:
        found = _length(schema, len(value), path, "Length")
        fmt = schema.get("format")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            if fmt == "snowflake":
                return [
                    FieldError(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
                ]
            found.append(
                FieldError(
                    path, "STRING_TYPE_REGEX", "String value did not match validation regex."
                )
            )
        if fmt == "snowflake" and value.isdigit() and int(value) > SNOWFLAKE_MAX:
            found.append(
                FieldError(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
            )
        elif fmt == "uri" and not _is_url(value):
            found.append(FieldError(path, "URL_TYPE_INVALID_URL", "Not a well formed URL."))
        elif fmt == "date-time" and not _is_datetime(value):
            found.append(
                FieldError(path, "DATE_TYPE_PARSE", f"Could not parse {value}. Should be ISO8601.")
            )
        return found

    def _array(self, schema: Schema, value: list[Any], path: FieldPath) -> list[FieldError]:
        found = _length(schema, len(value), path, "Items")
        if schema.get("uniqueItems"):
            seen: list[Any] = []
            for i, item in enumerate(value):
                if item in seen:
                    found.append(
                        FieldError((*path, str(i)), "LIST_ITEM_VALUE_DUPLICATE", "Duplicate value")
                    )
                seen.append(item)
        items = schema.get("items")
        if items is not None:
            for i, item in enumerate(value):
                found.extend(self.errors(items, item, (*path, str(i))))
        return found

    def _object(self, schema: Schema, value: dict[str, Any], path: FieldPath) -> list[FieldError]:
        choices = self._type_choices(schema)
        if choices is not None and "type" in value and value["type"] not in choices:
            return [_type_choice_error(path, choices)]  # another kind of object altogether
        found = _length(schema, len(value), path, "Properties")
        properties = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                found.append(
                    FieldError((*path, name), "BASE_TYPE_REQUIRED", "This field is required")
                )
        extra = schema.get("additionalProperties")
        for name, item in value.items():
            where = (*path, name)
            if name in properties:
                found.extend(self.errors(properties[name], item, where))
            elif extra is False:
                found.append(FieldError(where, "UNKNOWN_FIELD", "This field is not allowed"))
            elif isinstance(extra, dict):
                found.extend(self.errors(extra, item, where))
        return found


def _allows(schema: Schema, kind: str) -> bool:
    types = schema.get("type")
    return types == kind or (isinstance(types, list) and kind in types)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_url(value: str) -> bool:
    parts = urlsplit(value)
    return bool(parts.scheme) and bool(parts.netloc or parts.path)


def _is_datetime(value: str) -> bool:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _enumerated(schema: Schema) -> list[Any] | None:
    """The values a ``const`` or ``enum`` schema allows, or None for any other schema."""
    if "const" in schema:
        return [schema["const"]]
    enum = schema.get("enum")
    return list(enum) if enum is not None else None


def _mismatched(found: list[FieldError], path: FieldPath) -> bool:
    """Whether ``found`` says the value is not of this variant's type at all."""
    return any(e.code in TYPE_CODES and e.path in (path, (*path, "type")) for e in found)


def _type_choice_error(path: FieldPath, choices: Iterable[Any]) -> FieldError:
    message = f'Value of field "type" must be one of {tuple(choices)}.'
    return FieldError((*path, "type"), "UNION_TYPE_CHOICES", message)


def _choices(path: FieldPath, choices: Iterable[Any]) -> FieldError:
    shown = tuple(choices)
    return FieldError(path, "BASE_TYPE_CHOICES", f"Value must be one of {shown!r}.")


def _length(schema: Schema, size: int, path: FieldPath, kind: str) -> list[FieldError]:
    """``min``/``max`` ``Length``, ``Items`` or ``Properties``, as Discord words all three."""
    low, high = schema.get(f"min{kind}"), schema.get(f"max{kind}")
    if (low is None or size >= low) and (high is None or size <= high):
        return []
    if low is not None and high is not None:
        return [
            FieldError(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        ]
    if high is not None:
        return [FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")]
    return [FieldError(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")]


def _number(schema: Schema, value: Any, path: FieldPath) -> list[FieldError]:
    number = int(value) if isinstance(value, str) else value
    low, high = schema.get("minimum"), schema.get("maximum")
    fmt_low, fmt_high = INT_RANGES.get(schema.get("format", ""), (None, None))
    low = fmt_low if low is None else low
    high = fmt_high if high is None else high
    kind = "int" if isinstance(number, int) else "float"
    if low is not None and number < low:
        message = f"{kind} value should be greater than or equal to {low}."
        return [FieldError(path, "NUMBER_TYPE_MIN", message)]
    if high is not None and number > high:
        message = f"{kind} value should be less than or equal to {high}."
        return [FieldError(path, "NUMBER_TYPE_MAX", message)]
    return []


def form_error(found: list[FieldError]) -> DiscordError:
    """400 50035 with each field error nested at its path, as Discord answers."""
    errors: dict[str, Any] = {}
    for err in found:
        node = errors
        for part in err.path:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": err.code, "message": err.message})
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors)


@dataclass(frozen=True)
class Contract:
    """The operations of the routes the fake serves, and the schemas they use."""

    source: Mapping[str, Any]
    operations: Mapping[str, Any]
    validator: Validator

    @classmethod
    def load(cls, path: Path = CONTRACT) -> Contract:
        return _load(path)

    def operation(self, route: str) -> Mapping[str, Any]:
        """The operation behind ``route`` (``"POST /channels/{channel_id}/messages"``)."""
        try:
            return self.operations[route]  # type: ignore[no-any-return]
        except KeyError:
            raise KeyError(
                f"{route} is not in the fake's contract: add it to ROUTES in rest.py, then "
                "derive the contract again (python -m tests.fakediscord.contract.derive)"
            ) from None

    def parameter_errors(
        self, route: str, path_values: Iterable[str], query: Mapping[str, str]
    ) -> list[FieldError]:
        """The path parameters (in order) and the query string against the operation."""
        params = self.operation(route)["parameters"]
        found: list[FieldError] = []
        webhook = route.split(" ", 1)[1].startswith("/webhooks/")
        for spec, raw in zip(params["path"], path_values, strict=True):
            if webhook and spec["name"] == "message_id" and raw == ORIGINAL:
                continue
            found.extend(self._parameter(spec, raw))
        for spec in params["query"]:
            given = query.get(spec["name"])
            if given is not None:
                found.extend(self._parameter(spec, given))
            elif spec["required"]:
                found.append(
                    FieldError((spec["name"],), "BASE_TYPE_REQUIRED", "This field is required")
                )
        return found

    def _parameter(self, spec: Mapping[str, Any], raw: str) -> list[FieldError]:
        schema = spec["schema"]
        target = self.validator.resolve(schema)
        types = target.get("type")
        kinds = [types] if isinstance(types, str) else list(types or ())
        value: Any = raw
        if "boolean" in kinds:
            value = QUERY_BOOLEANS.get(raw, raw)
        return self.validator.errors(schema, value, (spec["name"],))

    def body_errors(self, route: str, body: Any, *, files: int) -> list[FieldError]:
        """A JSON body, or the ``payload_json`` of a multipart one with its ``files``."""
        spec = self.operation(route)["body"]
        if spec is None:
            return []
        found: list[FieldError] = []
        limit = spec["files"] if spec["multipart"] else 0
        limit = DOCUMENTED_FILES if limit is None else limit
        if files > limit:
            message = f"Must be {limit} or fewer in length."
            found.append(FieldError(("files",), "BASE_TYPE_MAX_LENGTH", message))
        if spec["json"] is not None:
            found.extend(self.validator.errors(spec["json"], body))
        return found


@cache
def _load(path: Path) -> Contract:
    data = json.loads(path.read_text(encoding="utf-8"))
    return Contract(data["source"], data["operations"], Validator(data["schemas"]))
