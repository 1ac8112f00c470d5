"""The fake's contract: derived from Discord's OpenAPI description, applied to every request.

The contract itself (``tests/fakediscord/contract/contract.json``) is data derived by
``contract/derive.py``; these tests check the derivation on a small spec of their own, that
the contract covers every route the fake serves, and what the validator answers. Requests sent
over HTTP are in ``test_rules.py`` (the "contract" cases).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.fakediscord.contract import derive
from tests.fakediscord.contract.check import Contract, FieldError, Validator, form_error
from tests.fakediscord.rest import ROUTES

CONTRACT = Contract.load()
CREATE = "POST /channels/{channel_id}/messages"
PUT_COMMANDS = "PUT /applications/{application_id}/commands"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
EDIT_ORIGINAL = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
LIST = "GET /channels/{channel_id}/messages"


def errors(route: str, body: Any, files: int = 0) -> list[str]:
    return [str(e) for e in CONTRACT.body_errors(route, body, files=files)]


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "fp", "description": "Flaming Pyramids", "type": 1, **fields}


def integer_option(**fields: Any) -> dict[str, Any]:
    return {"type": 4, "name": "match", "description": "Its number", **fields}


# ------------------------------------------------------------------------ the derived data


def test_the_contract_names_the_spec_it_came_from() -> None:
    source = CONTRACT.source
    assert source["repository"] == "discord/discord-api-spec"
    assert source["path"] == "specs/openapi.json"
    assert len(source["commit"]) == 40 and int(source["commit"], 16) >= 0
    assert source["api_version"] == "10"


def test_every_route_the_fake_serves_is_in_the_contract() -> None:
    served = {f"{method} {path}" for method, path, _ in ROUTES}
    assert served == set(CONTRACT.operations)


def test_the_derivation_keeps_constraints_and_the_schemas_they_use() -> None:
    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"version": "10"},
        "paths": {
            "/channels/{channel_id}/messages": {
                "parameters": [
                    {
                        "name": "channel_id",
                        "in": "path",
                        "required": True,
                        "schema": {"$ref": "#/components/schemas/Id"},
                    }
                ],
                "post": {
                    "operationId": "create_message",
                    "parameters": [{"name": "x", "in": "header", "schema": {"type": "string"}}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Body"}},
                            "multipart/form-data": {
                                "schema": {
                                    "allOf": [
                                        {"$ref": "#/components/schemas/Body"},
                                        {"properties": {"files[0]": {}, "files[1]": {}}},
                                    ]
                                }
                            },
                        },
                    },
                },
            }
        },
        "components": {
            "schemas": {
                "Id": {"type": "string", "pattern": "^[0-9]+$", "title": "an id"},
                "Body": {
                    "type": "object",
                    "description": "left out",
                    "properties": {
                        "content": {"type": "string", "maxLength": 5},
                        "to": {"$ref": "#/components/schemas/Id"},
                    },
                },
                "Unused": {"type": "integer"},
            }
        },
    }
    # Only the route asked for is looked for (the fake serves more than this spec has).
    routes = [r for r in ROUTES if f"{r[0]} {r[1]}" == CREATE]
    derived = derive.derive(spec, "0" * 40, routes)
    operation = derived["operations"][CREATE]
    assert operation["operation"] == "create_message"
    assert operation["parameters"]["path"] == [
        {"name": "channel_id", "required": True, "schema": {"$ref": "#/components/schemas/Id"}}
    ]
    assert operation["parameters"]["query"] == []  # a header is not the fake's to check
    assert operation["body"] == {
        "required": True,
        "json": {"$ref": "#/components/schemas/Body"},
        "multipart": True,
        "files": 2,
    }
    # Referred schemas only, without their titles and descriptions.
    assert derived["schemas"] == {
        "Body": {
            "type": "object",
            "properties": {
                "content": {"type": "string", "maxLength": 5},
                "to": {"$ref": "#/components/schemas/Id"},
            },
        },
        "Id": {"type": "string", "pattern": "^[0-9]+$"},
    }
    assert derived["source"]["commit"] == "0" * 40


def test_a_route_the_spec_lacks_stops_the_derivation() -> None:
    spec: dict[str, Any] = {"paths": {}, "components": {"schemas": {}}}
    with pytest.raises(SystemExit, match="routes the fake serves that the spec does not describe"):
        derive.derive(spec, "0" * 40)


# ------------------------------------------------------------------------ the validator


def test_an_integer_option_above_two_to_the_53_minus_one_is_refused() -> None:
    """The bot's `/fp replay match` once had max_value 2^53: Discord refuses the whole
    registration."""
    ok = [command(options=[integer_option(min_value=1, max_value=2**53 - 1)])]
    too_big = [command(options=[integer_option(min_value=1, max_value=2**53)])]
    assert errors(PUT_COMMANDS, ok) == []
    assert errors(PUT_COMMANDS, too_big) == [
        "0.options.0.max_value: NUMBER_TYPE_MAX int value should be less than or equal to "
        "9007199254740991."
    ]


def test_ids_may_be_integers_and_integers_strings() -> None:
    """Documented exceptions: ids as JSON integers ("ID Serialization"), int fields as
    strings that parse as ints (the spec's README); bounds apply to the number spelled."""
    assert errors(PUT_COMMANDS, [command(default_member_permissions="32")]) == []
    assert errors(PUT_COMMANDS, [command(default_member_permissions=32)]) == []
    assert errors(PUT_COMMANDS, [command(default_member_permissions="-1")]) == [
        "0.default_member_permissions: NUMBER_TYPE_MIN int value should be greater than or "
        "equal to 0."
    ]
    assert errors(PUT_COMMANDS, [command(default_member_permissions="thirty")]) == [
        '0.default_member_permissions: NUMBER_TYPE_COERCE Value "thirty" is not int.'
    ]
    mentions = {"content": "hi", "allowed_mentions": {"users": [80351110224678912, "1"]}}
    assert errors(CREATE, mentions) == []
    assert errors(CREATE, {"content": "hi", "allowed_mentions": {"users": ["bob"]}}) == [
        'allowed_mentions.users.0: NUMBER_TYPE_COERCE Value "bob" is not snowflake.'
    ]


def test_a_union_reports_the_errors_of_the_variant_its_type_picks() -> None:
    button = {"type": 2, "style": 1, "label": "x" * 81, "custom_id": "go"}
    assert errors(CREATE, {"components": [{"type": 1, "components": [button]}]}) == [
        "components.0.components.0.label: BASE_TYPE_MAX_LENGTH Must be 80 or fewer in length."
    ]
    # No variant has that type: the choices, at the type.
    found = errors(CREATE, {"components": [{"type": 1, "components": [{"type": 99}]}]})
    assert len(found) == 1 and found[0].startswith(
        'components.0.components.0.type: UNION_TYPE_CHOICES Value of field "type" must be one of'
    )
    # An interaction callback's type picks its body.
    assert errors(CALLBACK, {"type": 6}) == []
    assert errors(CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}) == [
        "data.content: BASE_TYPE_MAX_LENGTH Must be 2000 or fewer in length."
    ]
    assert errors(CALLBACK, {"type": 42})[0].startswith("type: UNION_TYPE_CHOICES")


def test_required_fields_types_and_choices() -> None:
    assert errors(CREATE, {"content": 5}) == [
        'content: BASE_TYPE_STRING Could not interpret "5" as string.'
    ]
    assert errors(CREATE, {"embeds": {"title": "x"}}) == [
        "embeds: LIST_TYPE_CONVERT Only iterables may be used in a ListType"
    ]
    assert errors(CREATE, {"tts": "yes"}) == [
        "tts: BASE_TYPE_BOOLEAN Must be either true or false."
    ]
    row = {"type": 1, "components": [{"type": 2, "style": 9, "custom_id": "go"}]}
    assert errors(CREATE, {"components": [row]}) == [
        "components.0.components.0.style: BASE_TYPE_CHOICES "
        "Value must be one of (1, 2, 3, 4, 5, 6)."
    ]
    no_style = {"type": 1, "components": [{"type": 2, "custom_id": "go"}]}
    assert errors(CREATE, {"components": [no_style]}) == [
        "components.0.components.0.style: BASE_TYPE_REQUIRED This field is required"
    ]
    # Null where a list's items may not be.
    assert errors(CREATE, {"embeds": [None]}) == [
        "embeds.0: LIST_ITEM_VALUE_REQUIRED List item values are required"
    ]
    # Null where the field allows it.
    assert errors(CREATE, {"content": "x", "embeds": None, "allowed_mentions": None}) == []


def test_parameters_are_checked_where_they_are() -> None:
    assert CONTRACT.parameter_errors(LIST, ["123"], {"limit": "100"}) == []
    assert [str(e) for e in CONTRACT.parameter_errors(LIST, ["123"], {"limit": "101"})] == [
        "limit: NUMBER_TYPE_MAX int value should be less than or equal to 100."
    ]
    assert [str(e) for e in CONTRACT.parameter_errors(LIST, ["general"], {})] == [
        'channel_id: NUMBER_TYPE_COERCE Value "general" is not snowflake.'
    ]
    # "Boolean Query Strings": True, true, 1, False, false, 0.
    for value in ("True", "true", "1", "False", "false", "0"):
        assert CONTRACT.parameter_errors(CALLBACK, ["1", "t"], {"with_response": value}) == []
    assert [
        str(e) for e in CONTRACT.parameter_errors(CALLBACK, ["1", "t"], {"with_response": "yes"})
    ] == ["with_response: BASE_TYPE_BOOLEAN Must be either true or false."]
    # The original response of an interaction, on the webhook message routes.
    assert CONTRACT.parameter_errors(EDIT_ORIGINAL, ["1", "token", "@original"], {}) == []
    assert [
        str(e) for e in CONTRACT.parameter_errors(EDIT_ORIGINAL, ["1", "token", "@latest"], {})
    ] == ['message_id: NUMBER_TYPE_COERCE Value "@latest" is not snowflake.']


def test_files_are_counted_where_the_spec_lists_them_and_where_the_docs_do() -> None:
    assert errors(CREATE, {"content": "x"}, files=10) == []
    assert errors(CREATE, {"content": "x"}, files=11) == [
        "files: BASE_TYPE_MAX_LENGTH Must be 10 or fewer in length."
    ]
    # Interaction callbacks: the spec lists no files; the documentation says they take them.
    assert errors(CALLBACK, {"type": 4, "data": {"content": "x"}}, files=1) == []
    assert errors(CALLBACK, {"type": 4, "data": {}}, files=11) == [
        "files: BASE_TYPE_MAX_LENGTH Must be 10 or fewer in length."
    ]


def test_field_errors_nest_as_discord_answers_them() -> None:
    err = form_error(
        [
            FieldError(("components", "0", "label"), "BASE_TYPE_MAX_LENGTH", "Too long."),
            FieldError(("components", "0", "style"), "BASE_TYPE_REQUIRED", "Required."),
            FieldError((), "DICT_TYPE_CONVERT", "Not a dict."),
        ]
    )
    assert (err.status, err.code, err.message) == (400, 50035, "Invalid Form Body")
    assert json.loads(json.dumps(err.body()["errors"])) == {
        "components": {
            "0": {
                "label": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too long."}]},
                "style": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "Required."}]},
            }
        },
        "_errors": [{"code": "DICT_TYPE_CONVERT", "message": "Not a dict."}],
    }


def test_unknown_json_types_in_a_schema_are_a_fault_of_the_contract() -> None:
    with pytest.raises(ValueError, match="unknown JSON type"):
        Validator({}).errors({"type": "decimal"}, 1)
