"""Fixtures of the fake's tests that speak raw HTTP: a started fake and a client of its REST API.

``world`` here is the standard world without the checks ``fake_world`` makes at teardown: these
tests send what Discord refuses on purpose, so the fake's refusals are what they assert on, not a
failure. Tests that drive a discord.py bot take ``fake_world`` (``tests.fakediscord.fixtures``)
instead, and are failed by any refusal they did not expect.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

import aiohttp
import pytest_asyncio

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import World, running_world


@pytest_asyncio.fixture
async def world() -> AsyncIterator[World]:
    """A started fake Discord with the standard world, not checked at teardown."""
    async with running_world() as world:
        yield world


class Answer(NamedTuple):
    """What the fake answered; unpacks as ``status, body, headers``."""

    status: int
    body: Any
    headers: Any

    def field_error(self, path: str) -> str:
        """The first error code at ``path`` of an Invalid Form Body answer."""
        node = self.body["errors"]
        for part in path.split("."):
            node = node[part]
        return str(node["_errors"][0]["code"])


class Rest:
    """A raw REST client, authenticated as the bot unless ``auth=False``.

    ``body`` is sent as JSON, or as the ``payload_json`` of a multipart form when ``files`` are
    given (``files[0]``, ``files[1]``, ... in order); ``data`` sends a form built by the test."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def __call__(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: dict[str, bytes] | None = None,
        data: Any = None,
        auth: bool = True,
    ) -> Answer:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kwargs: dict[str, Any] = {"headers": headers}
        if files:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body or {}))
            for i, (name, content) in enumerate(files.items()):
                form.add_field(f"files[{i}]", content, filename=name)
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        if data is not None:
            kwargs["data"] = data
        async with self.session.request(method, self.fake.base_url + path, **kwargs) as resp:
            text = await resp.text()
            return Answer(resp.status, json.loads(text) if text else None, resp.headers)


@pytest_asyncio.fixture
async def rest(world: World) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as session:
        yield Rest(world.fake, session)
