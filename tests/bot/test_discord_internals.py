"""The discord.py internals ``bot/budget.py`` relies on are still there.

``budget.pace`` replaces ``HTTPClient.request`` on the bot's client so that every REST call that
counts against Discord's global limit waits for a token, and it leaves interaction responses
alone because discord.py sends those through its webhook adapter, not ``HTTPClient.request``.
``pyproject.toml`` pins discord.py to the minor versions this was checked with; when these
tests fail after an upgrade, re-check ``bot/budget.py`` against the new discord.py before
widening the pin.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
from typing import Any

import discord
import pytest
from discord.http import HTTPClient, Route
from discord.interactions import InteractionResponse
from discord.webhook.async_ import AsyncWebhookAdapter

from bot import budget

RECHECK = (
    f"discord.py {discord.__version__} changed an internal that bot/budget.py relies on: "
    "re-check budget.pace (it wraps HTTPClient.request(route, **kwargs)) and that interaction "
    "responses still bypass HTTPClient.request, then adjust the discord.py pin in pyproject.toml"
)


def test_httpclient_request_takes_the_route_then_keywords_only() -> None:
    params = list(inspect.signature(HTTPClient.request).parameters.values())
    assert [p.name for p in params[:2]] == ["self", "route"], RECHECK
    rest = params[2:]
    assert all(
        p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD) for p in rest
    ), RECHECK
    assert inspect.iscoroutinefunction(HTTPClient.request), RECHECK


def test_the_clients_http_is_an_httpclient_whose_calls_go_through_request() -> None:
    client = discord.Client(intents=discord.Intents.none())
    assert isinstance(client.http, HTTPClient), RECHECK
    assert "request" not in vars(client.http), RECHECK  # an instance attribute pace can replace


async def test_a_paced_rest_call_waits_for_a_token_then_reaches_the_original_request() -> None:
    http = HTTPClient(loop=None)  # type: ignore[arg-type]
    reached: list[tuple[Route, dict[str, Any]]] = []

    async def original(route: Route, **kwargs: Any) -> None:
        reached.append((route, kwargs))

    http.request = original  # type: ignore[method-assign]
    paced = budget.Budget(rate=1000, burst=5)
    budget.pace(http, paced)
    await http.delete_message(1, 2, reason="test")
    assert paced.granted == 1, RECHECK
    assert len(reached) == 1, RECHECK
    route, kwargs = reached[0]
    assert (route.method, route.path) == ("DELETE", "/channels/{channel_id}/messages/{message_id}")
    assert kwargs.get("reason") == "test", RECHECK


def test_interaction_responses_use_the_webhook_adapter_not_httpclient_request() -> None:
    assert callable(getattr(AsyncWebhookAdapter, "create_interaction_response", None)), RECHECK
    for name in ("defer", "send_message", "edit_message"):
        source = inspect.getsource(getattr(InteractionResponse, name))
        assert "adapter.create_interaction_response(" in source, f"{name}: {RECHECK}"
        assert ".http.request(" not in source, f"{name}: {RECHECK}"


UNCLAIMED = (
    f"discord.py {discord.__version__} changed how its view store hands a click to a "
    "DynamicItem: re-check bot/unclaimed.py (it answers exactly the clicks the store drops, by "
    "asking the same question of the same message), then adjust the discord.py pin"
)


def test_the_view_store_hands_a_click_on_only_when_its_id_fits_and_the_message_holds_it() -> None:
    from discord.ui.view import ViewStore

    from bot.components import action_template
    from bot.tablebuttons import TableButton
    from bot.unclaimed import template_of

    dispatch = inspect.getsource(ViewStore.dispatch_dynamic_items)
    assert "pattern.fullmatch(custom_id)" in dispatch, UNCLAIMED
    schedule = inspect.getsource(ViewStore.schedule_dynamic_item_call)
    for step in (
        "if interaction.message is None",
        "components_v2 else LayoutView",
        ".from_message(interaction.message, timeout=None)",
        "i.type.value == component_type and getattr(i, 'custom_id', None) == custom_id",
        "view.walk_children()",
        "if not base_item:",
    ):
        assert step in schedule, f"{step!r}: {UNCLAIMED}"
    for kind in TableButton.__subclasses__():
        assert template_of(kind).pattern == action_template(kind.action), UNCLAIMED


@pytest.mark.parametrize(
    "module",
    ["bot.tablebuttons", "bot.replies", "bot.components", "bot.show.buttons", "bot.unclaimed"],
)
def test_the_buttons_and_the_show_side_import_whichever_comes_first(module: str) -> None:
    # The buttons answer with words of bot.show, whose package builds the buttons: each side
    # takes the other as a module, so that any of them may be imported first.
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
