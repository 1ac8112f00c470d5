"""Playing Flaming Pyramids through the fake Discord as people would: slash commands, and clicks
on buttons found by their labels on the messages the bot posted (channel, DMs, ephemerals).

The driver never talks to the bot's internals: it reads the channel's latest game message (the
one with the pyramid picture) to see who must decide what, and clicks accordingly.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.errors import NotYourDecision, TableError, Why
from bot.show.answertexts import LEAVE_CONFIRM
from bot.show.lobbytexts import ADD_COMPUTER
from bot.show.texts import esc
from bot.show.words import refusal
from data import GuildSettings, LoggedAction, PlayerPrefs, Table, open_store
from engine import Game
from i18n import ENGLISH
from tests.fakediscord import (
    Channel,
    ComponentNotFound,
    FakeDiscord,
    FakeUser,
    Interaction,
    Message,
    MessageNotVisible,
)
from tests.fakediscord.models import MessageFlag, iter_components

MENTION = re.compile(r"<@!?(\d+)>")
TIMEOUT = 15.0


def is_game_message(m: Message) -> bool:
    """A message of the bot with the pyramid picture (one per move: the board, or the
    animation of what happened ending on it)."""
    return any(a.filename in ("pyramid.png", "pyramid.gif") for a in m.attachments)


def card_text(m: Message) -> str:
    """What a Components V2 message (the lobby card) says: its text displays, in order."""
    return "\n".join(
        str(c.get("content") or "") for c in iter_components(m.components) if c.get("type") == 10
    )


def is_lobby_card(m: Message) -> bool:
    """The lobby card of a table (its heading names the table)."""
    return "Flaming Pyramids — table" in card_text(m)


LOBBY_CONTROLS = frozenset({"join", "leave", "start", "cancel", "ai", "rmai"})
"""What a lobby card offers while the lobby is open (its buttons and its menu)."""


def lobby_controls(m: Message) -> list[str]:
    """The lobby's controls still on a card: its buttons' actions, and ``ai`` for the menu
    that adds a computer (none once the game started or the lobby closed)."""
    found = [a for a, _ in button_actions(m) if a in LOBBY_CONTROLS]
    found += [
        "ai"
        for s in m.selects()
        if str(s.get("custom_id") or "").startswith("fps:") and not s.get("disabled")
    ]
    return found


def table_of(m: Message) -> int | None:
    """The table id in the custom ids of a message's buttons."""
    for b in m.buttons():
        cid = b.get("custom_id") or ""
        if cid.startswith("fp:"):
            return int(cid.split(":")[1])
    return None


async def answer(ix: Interaction, timeout: float = TIMEOUT) -> Message:
    """The message the bot answered an interaction with: its first followup, or the filled-in
    deferred reply (an edit of the clicked message, e.g. an animation being added, is not an
    answer)."""
    await ix.wait_acknowledged(timeout)

    def ready() -> Message | None:
        if ix.response_type in (4, 5) and ix.original is not None and not ix.original.loading:
            return ix.original
        return next((m for m in ix.followups if not m.loading), None)

    msg: Message = await ix.notifier.wait_for(ready, timeout, f"the answer to {ix.describe()}")
    return msg


def actions(m: Message) -> list[str]:
    """What a message's live buttons do: the action in each of their custom ids
    (``fp:<table>:<version>:<action>:<arg>``), in display order."""
    return [
        (b.get("custom_id") or "").split(":")[3]
        for b in m.buttons()
        if (b.get("custom_id") or "").startswith("fp:") and not b.get("disabled")
    ]


def held_token_of(m: Message) -> str:
    """The token of the held turn a screen's Undo and Done name (their argument)."""
    for b in m.buttons():
        parts = (b.get("custom_id") or "").split(":", 4)
        if len(parts) == 5 and parts[3] in ("undo", "done"):
            return parts[4]
    raise AssertionError(f"no Undo or Done on {m!r}")


def is_spot_step(m: Message) -> bool:
    """A private screen that asks where to play a tile: it has spot buttons."""
    return "spot" in actions(m)


def shows_hand(m: Message) -> bool:
    """A private screen that shows a hand: tile buttons (live, or greyed out while its owner
    waits; while they must decide where a tile falls, the fall buttons) and no spot buttons."""
    shown = [a for a, _ in (*button_actions(m), *button_actions(m, disabled=True))]
    return not is_spot_step(m) and any(a in ("play", "fall") for a in shown)


def is_players_turn(hand: Message) -> bool:
    """A hand whose owner must play now: its tile buttons are in colour (grey while waiting)."""
    return any(
        ":play:" in (b.get("custom_id") or "") and b.get("style") in (PRIMARY, SUCCESS)
        for b in hand.buttons()
    )


PRIMARY, SUCCESS = 1, 3
"""Discord's button styles in colour (grey is 2)."""
DM_PATIENCE = 5.0
"""How long a player waits for the DM saying it is their turn before pressing My hand."""


def is_final(m: Message) -> bool:
    """A game message that ends the match: its one button asks for a rematch."""
    return "rematch" in actions(m)


@dataclass
class Timing:
    """Click-to-picture times seen by the driver (seconds), for the report, never asserted."""

    samples: list[float] = field(default_factory=list)


@dataclass
class TableDriver:
    """Drives one table in one channel."""

    fake: FakeDiscord
    channel: Channel
    users: dict[int, FakeUser]
    timing: Timing = field(default_factory=Timing)
    interactions: list[Interaction] = field(default_factory=list)
    private_only: set[int] = field(default_factory=set)
    """Players who chose to get their hands only privately in the channel (My hand)."""
    let_run_out: Callable[[], Awaitable[None]] | None = None
    """How a turn played waits out its undo window instead of its player pressing Done
    (moving the bot's clock past it, say); None: they press Done."""
    hints: set[int] = field(default_factory=set)
    """Players who press Hint (a practice table's) on the screen of each of their decisions
    before they decide."""
    hinted: list[tuple[Interaction, Message, float]] = field(default_factory=list)
    """Each Hint pressed, the private answer it got and the seconds from the press to it."""

    # --- reading ------------------------------------------------------------------------------

    def thread(self) -> Channel | None:
        """The game's thread: the one started from this table's lobby message, if any."""
        for m in self.fake.messages(self.channel):
            if m.thread is not None and is_lobby_card(m):
                return m.thread
        return None

    def place(self) -> Channel:
        """Where the game is shown: its thread, or the channel."""
        return self.thread() or self.channel

    def bot_messages(self) -> list[Message]:
        """Public bot messages in the channel and in the game's thread, newest first."""
        bot = self.fake.bot.id
        thread = self.thread()
        found = self.fake.messages(self.channel)
        if thread is not None:
            found = sorted([*found, *self.fake.messages(thread)], key=lambda m: -m.id)
        return [m for m in found if m.author.id == bot]

    def game_messages(self) -> list[Message]:
        """The table's own game messages, newest first (not the copies the bot shows in answer
        to a command, such as ``/fp status``)."""
        return [m for m in self.bot_messages() if is_game_message(m) and m.webhook_id is None]

    def latest_game(self) -> Message:
        msgs = self.game_messages()
        assert msgs, "no game message in the channel"
        return msgs[0]

    def lobby(self) -> Message:
        for m in self.bot_messages():
            if is_lobby_card(m) and m.webhook_id is None:
                return m
        raise AssertionError("no lobby message")

    def table_id(self) -> int:
        """The id of this table (from the custom ids of its newest game message or lobby)."""
        for m in [*self.game_messages(), self.lobby()]:
            found = table_of(m)
            if found is not None:
                return found
        raise AssertionError("no message of this table has buttons")

    @staticmethod
    def decider(m: Message) -> int | None:
        """The user a game message asks to decide (its first mention; nobody once the match
        is over, whose message mentions every player), or the owner of a private screen that
        asks a fall (their own fall after their own placement is asked there only)."""
        if "fall" in actions(m):
            if m.ephemeral_for is not None:
                return m.ephemeral_for.id
            if m.channel.recipient is not None:
                return m.channel.recipient.id
        if is_final(m):
            return None
        found = MENTION.search(m.content)
        return int(found.group(1)) if found else None

    async def settled_game(
        self,
        newer_than: int = 0,
        timeout: float = TIMEOUT,
        *,
        edited: Message | None = None,
        revisions: int = 0,
    ) -> Message:
        """Wait for the newest game message (newer than ``newer_than``, or ``edited`` once it
        has more than ``revisions`` revisions: a fall is folded into its turn's message) that
        waits for a person or ends the match (computer players' moves go by in between)."""

        def ready() -> Message | None:
            msgs = self.game_messages()
            if not msgs:
                return None
            m = msgs[0]
            if m.id <= newer_than and not (
                edited is not None and m.id == edited.id and len(m.revisions) > revisions
            ):
                return None
            if not m.settled:
                return None
            if is_final(m) or self.decider(m) is not None or "next" in actions(m):
                return m
            return None

        msg: Message = await self.fake.wait_for(ready, timeout, "a game message for a person")
        return msg

    def hand_message(self, user: FakeUser) -> Message | None:
        """The user's newest DM showing a hand at this table (once the table has a game
        message; before, at any table)."""
        games = self.game_messages()
        table = table_of(games[0]) if games else None
        prefix = f"fp:{table}:" if table is not None else "fp:"
        for m in user.dms():
            if m.images() and any(
                (b.get("custom_id") or "").startswith(prefix) and ":play:" in b["custom_id"]
                for b in m.buttons()
            ):
                return m
        return None

    # --- acting -------------------------------------------------------------------------------

    async def click(self, user: FakeUser, message: Message, label: str) -> Interaction:
        ix = await user.click(message, label)
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        return ix

    @staticmethod
    def action_button(message: Message, action: str, arg: str = "") -> dict[str, Any]:
        """The live button of ``message`` that does ``action`` (with ``arg``), whatever its label
        says (in any language)."""
        for b in message.buttons():
            parts = str(b.get("custom_id") or "").split(":", 4)
            if len(parts) == 5 and parts[3] == action and parts[4] == arg and not b.get("disabled"):
                return b
        raise AssertionError(f"no live {action}:{arg} button on {message!r}")

    async def click_action(
        self, user: FakeUser, message: Message, action: str, arg: str = ""
    ) -> Interaction:
        """Click the live button of ``message`` that does ``action`` (with ``arg``)."""
        button = self.action_button(message, action, arg)
        ix = await user.click(message, custom_id=str(button["custom_id"]))
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        return ix

    async def tap_seen(
        self, user: FakeUser, message: Message, button: dict[str, Any]
    ) -> Interaction:
        """Tap ``button`` as ``user``'s screen still shows it, whatever the message holds by
        now (see :meth:`FakeUser.tap_seen`)."""
        ix = await user.tap_seen(message, button)
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        return ix

    async def slash(self, user: FakeUser, command: str, **options: Any) -> Interaction:
        """A command typed where the table is: its game's thread once it has one."""
        ix = await user.slash(command, self.place(), **options)
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        return ix

    async def open(
        self, host: FakeUser, *joiners: FakeUser, undo: int | None = 0, **options: Any
    ) -> Message:
        """``/fp new`` by ``host``; everyone else clicks Join. Returns the lobby message. Its
        turns are handed on at once (``undo=0``) unless ``undo`` gives the table an undo
        window (None: the server's default one)."""
        if undo is not None:
            options["undo"] = undo
        ix = await self.slash(host, "fp new", **options)
        await ix.wait_response()
        lobby = self.lobby()
        for u in joiners:
            before = len(lobby.revisions)
            await self.click_action(u, lobby, "join")
            await self._wait_for_edit(lobby, before)
        return lobby

    async def add_computer(self, host: FakeUser, level: str) -> Interaction:
        """The host picks a computer of ``level`` in the lobby card's menu; returns once the
        card shows it (or the click was answered otherwise: a refusal)."""
        lobby = self.lobby()
        before = len(lobby.revisions)
        ix = await host.select(lobby, level, placeholder=ADD_COMPUTER)
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        await self.fake.wait_for(
            lambda: (len(lobby.revisions) > before and lobby.settled) or bool(ix.followups),
            TIMEOUT,
            "the card showing the computer",
        )
        return ix

    async def _wait_for_edit(self, message: Message, revisions: int) -> None:
        """Until ``message`` has more than ``revisions`` revisions and its last edit returned."""
        await self.fake.wait_for(
            lambda: len(message.revisions) > revisions and message.settled, TIMEOUT, "an edit"
        )

    async def leave_match(self, user: FakeUser) -> Message:
        """``/fp leave`` in a running game, confirmed with its button: the private
        confirmation, once the click's answer replaced it."""
        ask = await answer(await self.slash(user, "fp leave"))
        assert ask.ephemeral and ask.content == ENGLISH.gettext(LEAVE_CONFIRM), ask
        before = len(ask.revisions)
        await self.click_action(user, ask, "quit")
        await self._wait_for_edit(ask, before)
        return ask

    async def start(self, host: FakeUser) -> Message:
        """The host clicks Start; returns the first game message that waits for a person."""
        lobby = self.lobby()
        await self.click_action(host, lobby, "start")
        return await self.settled_game()

    def tile_labels(self, hand: Message, *, grey: bool = False) -> list[str]:
        """The labels of a hand's live tile buttons (``grey``: of its disabled ones, as a hand
        shows them while its owner waits)."""
        return [
            b.get("label") or ""
            for b in hand.buttons()
            if ":play:" in (b.get("custom_id") or "") and bool(b.get("disabled")) == grey
        ]

    def tiles(self, hand: Message) -> list[str]:
        """The tiles on a hand's live buttons, without the "fits" mark."""
        return [label.split(" · ")[0] for label in self.tile_labels(hand)]

    async def hand_for(self, user: FakeUser, game: Message, *, turn: bool = False) -> Message:
        """The user's hand: their newest screen in direct messages if they get them (on their
        turn, ``turn``, the screen of it, waited for as a person waits for it); else (or if
        none comes: after a restart, say) the answer to **My hand** on ``game``."""
        turn = turn or (self.decider(game) == user.id and "fall" not in actions(game))
        if not turn and self.gets_dms(user):
            shown = self.hand_message(user)
            if shown is not None and shown.settled:
                return shown
        if turn and self.gets_dms(user):

            def ready() -> Message | None:
                m = self.hand_message(user)
                if m is None or not is_players_turn(m) or not m.settled:
                    return None
                return m

            try:
                found: Message = await self.fake.wait_for(
                    ready, DM_PATIENCE, f"{user.name}'s turn by DM"
                )
                return found
            except TimeoutError:
                pass  # no screen says it is their turn: ask for the hand
        ix = await self.click_action(user, game, "hand")
        return await answer(ix)

    async def screen_after(
        self,
        screen: Message,
        before: int,
        what: str,
        ix: Interaction | None = None,
        showing: Callable[[Message], bool] | None = None,
    ) -> Message:
        """Wait until the private screen ``screen`` was edited past revision ``before`` and
        settled (a click on it turns it into its next step). If the message was deleted under
        the click (a newer hand message replaced it), the answer is the click's new private
        message. With ``showing``, only a screen it accepts is the answer (the bot may also
        edit a DM hand for moves of its own)."""

        def shows(m: Message) -> bool:
            return showing is None or showing(m)

        def ready() -> Message | None:
            if screen.deleted and ix is not None:
                # Answered on the newest hand message in the DMs, or on a new message.
                elsewhere = [*ix.followups, *self.users[ix.user.id].dms()]
                return next(
                    (m for m in elsewhere if m.settled and not m.loading and shows(m)), None
                )
            changed = len(screen.revisions) > before and screen.settled and not screen.loading
            return screen if changed and shows(screen) else None

        found: Message = await self.fake.wait_for(ready, TIMEOUT, what)
        return found

    @staticmethod
    def spot_button_label(screen: Message, spot: str) -> str:
        """The label of the spot ``spot`` on a spot step ("A · fits"...)."""
        for label in screen.labels():
            if label.split(" · ")[0] == spot:
                return label
        raise AssertionError(f"no spot {spot} on {screen.content!r}: {screen.labels()}")

    @staticmethod
    def spot_button(screen: Message, spot: str) -> str:
        """The custom id of the spot ``spot`` ("A", "B"...) on a spot step (its label is the
        letter, then what the play would do)."""
        for b in screen.buttons():
            label = b.get("label") or ""
            if ":spot:" in (b.get("custom_id") or "") and label.split(" · ")[0] == spot:
                return str(b["custom_id"])
        raise AssertionError(f"no spot {spot} on {screen.content!r}: {screen.labels()}")

    async def play(
        self,
        user: FakeUser,
        game: Message,
        choose_tile: Callable[[list[str]], str] | None = None,
        spot: str = "A",
    ) -> Message:
        """``user`` plays a tile (the first one unless ``choose_tile`` picks) by two clicks on
        one private screen: the tile, which turns the screen into the spot step, then the spot
        ``spot``. Returns the next game message that waits for a person."""
        newest = game.id
        hand = await self.hand_for(user, game, turn=True)
        await self.hint_first(user, hand)
        started = time.perf_counter()
        for _ in range(5):
            labels = self.tile_labels(hand)
            assert labels, f"{user.name} has no tile buttons: {hand!r}"
            label = choose_tile(labels) if choose_tile else labels[0]
            started = time.perf_counter()
            before = len(hand.revisions)
            try:
                ix = await self.click(user, hand, label)
            except (MessageNotVisible, ComponentNotFound):
                # The hand message was replaced under the click (a new one comes when the
                # player's turn begins): as a person would, take the newest one.
                hand = await self.hand_for(user, game)
                continue
            hand = await self.screen_after(
                hand,
                before,
                f"{user.name}'s spot step",
                ix,
                lambda m: is_spot_step(m) or shows_hand(m),
            )
            if is_spot_step(hand):
                await self.click_spot(user, hand, spot)
                break
            # The hand was out of date: the screen now shows the newest one; play from it.
        else:
            raise AssertionError(f"{user.name}'s hand kept changing under the click")
        self.timing.samples.append(time.perf_counter() - started)
        if "fall" in actions(hand):
            # A fall after their own placement is asked on the screen they played on; the
            # channel shows the turn once, whole, when it is done.
            return hand
        await self.confirm(user, hand)
        await self.fake.wait_for(
            lambda: next((m for m in self.game_messages() if m.id > newest), None),
            TIMEOUT,
            "the picture of the move",
        )
        return await self.settled_game(newest)

    async def confirm(self, user: FakeUser, screen: Message) -> None:
        """If ``screen`` shows ``user``'s turn played, held for its undo window, they press
        Done: the turn is handed on at once (the others see it); or the window runs out
        (:attr:`let_run_out`)."""
        if "done" not in actions(screen):
            return
        before = len(screen.revisions)
        if self.let_run_out is not None:
            await self.let_run_out()
        else:
            await self.click_action(user, screen, "done", held_token_of(screen))
        await self.screen_after(screen, before, f"{user.name}'s screen after the window")

    async def click_spot(self, user: FakeUser, screen: Message, spot: str) -> Interaction:
        before = len(screen.revisions)
        ix = await user.click(screen, custom_id=self.spot_button(screen, spot))
        self.interactions.append(ix)
        await ix.wait_acknowledged()
        await self.screen_after(screen, before, f"{user.name}'s screen after the spot")
        return ix

    async def hint(self, user: FakeUser, screen: Message) -> Message:
        """``user`` presses Hint on ``screen``, the screen of their decision: the answer it
        gets (noted in :attr:`hinted`)."""
        started = time.perf_counter()
        ix = await self.click_action(user, screen, "hint")
        said = await answer(ix)
        self.hinted.append((ix, said, time.perf_counter() - started))
        return said

    async def hint_first(self, user: FakeUser, screen: Message) -> None:
        """Hint on ``screen`` first, for a player of :attr:`hints` (when it offers one)."""
        if user.id in self.hints and "hint" in actions(screen):
            await self.hint(user, screen)

    def gets_dms(self, user: FakeUser) -> bool:
        """Whether ``user`` is told of their decisions by direct message."""
        return user.dms_open and user.id not in self.private_only

    async def fall_screen(self, user: FakeUser, game: Message) -> Message:
        """The screen in ``user``'s direct messages that asks the fall ``game`` asks (its fall
        buttons made from the same table version)."""
        wanted = {
            (b.get("custom_id") or "")
            for b in game.buttons()
            if ":fall:" in (b.get("custom_id") or "")
        }

        def ready() -> Message | None:
            mine = [m for m in user.messages(self.place()) if m.ephemeral]
            for m in [*user.dms(), *mine]:
                ids = {(b.get("custom_id") or "") for b in m.buttons()}
                if wanted & ids and m.settled and not m.loading:
                    return m
            return None

        screen: Message = await self.fake.wait_for(ready, TIMEOUT, f"{user.name}'s fall screen")
        return screen

    async def fall(
        self, user: FakeUser, game: Message, direction: str = "left", *, on_screen: bool = True
    ) -> Message:
        """``user`` chooses the fall: on the screen in their direct messages if they get
        them (``on_screen``), else on ``game``; the fall is shown on the turn's message, or on
        a new one when it cannot be. Returns the next game message, or that same one edited,
        that waits for a person."""
        started = time.perf_counter()
        turn = self.latest_game()
        revisions = len(turn.revisions)
        if game.ephemeral or game.channel.is_dm:  # the screen that asks it
            await self.hint_first(user, game)
            before = len(game.revisions)
            await self.click_action(user, game, "fall", direction)
            await self.screen_after(game, before, f"{user.name}'s screen after the fall")
            if "fall" in actions(game):  # another fall of that turn, asked there again
                self.timing.samples.append(time.perf_counter() - started)
                return game
            await self.confirm(user, game)
        elif on_screen and self.gets_dms(user):
            screen = await self.fall_screen(user, game)
            await self.hint_first(user, screen)
            await self.click_action(user, screen, "fall", direction)
        else:
            await self.click_action(user, game, "fall", direction)
        after = await self.after_fall(turn, revisions)
        self.timing.samples.append(time.perf_counter() - started)
        return after

    async def after_fall(self, turn: Message, revisions: int) -> Message:
        """The game message that waits for a person after a fall chosen while ``turn`` (the
        turn's message, then with ``revisions`` revisions) was the newest: that same message
        edited, or a newer one."""
        await self.fake.wait_for(
            lambda: (
                len(turn.revisions) > revisions or any(m.id > turn.id for m in self.game_messages())
            ),
            TIMEOUT,
            "the fall",
        )
        return await self.settled_game(turn.id, edited=turn, revisions=revisions)

    async def step(self, game: Message) -> Message:
        """Make whatever decision ``game`` asks for, as the person it asks."""
        if "next" in actions(game):
            user = next(iter(self.users.values()))
            await self.click_action(user, game, "next")
            return await self.settled_game(game.id)
        uid = self.decider(game)
        assert uid is not None, f"nobody to decide in {game.content!r}"
        user = self.users[uid]
        if "fall" in actions(game):
            return await self.fall(user, game)
        return await self.play(user, game)

    async def play_to_the_end(self, game: Message, max_steps: int = 400) -> Message:
        """Decide everything until the match is over."""
        for _ in range(max_steps):
            if is_final(game):
                return game
            game = await self.step(game)
        raise AssertionError(f"the match did not end in {max_steps} decisions")


STILL_S = 0.3
"""A screen unchanged this long after its taps were answered has had every edit they cause."""


async def answered_and_still(
    fake: FakeDiscord, screen: Message, taps: list[Interaction], timeout: float = TIMEOUT
) -> None:
    """Until every one of ``taps`` was acknowledged (:class:`InteractionFailed` if one was not
    in time) and ``screen`` stayed unchanged a moment since (the edits they cause are done)."""
    for ix in taps:
        await ix.wait_acknowledged(timeout)
    while True:
        await fake.wait_for(lambda: screen.settled, timeout, "the screen's edits")
        seen = len(screen.revisions)
        await asyncio.sleep(STILL_S)
        if len(screen.revisions) == seen and screen.settled:
            return


# --- outcomes: what the buttons do, what the bot stored, how it refused ---------------------------


def button_actions(m: Message, *, disabled: bool = False) -> list[tuple[str, str]]:
    """What a message's buttons do, as ``(action, arg)`` from their custom ids
    (``fp:<table>:<version>:<action>:<arg>``), in display order: the live ones, or with
    ``disabled`` the greyed-out ones. Words on the buttons play no part."""
    found = []
    for b in m.buttons():
        cid = b.get("custom_id") or ""
        if cid.startswith("fp:") and bool(b.get("disabled")) == disabled:
            _, _, _, action, arg = cid.split(":", 4)
            found.append((action, arg))
    return found


async def stored_table(db_url: str, table_id: int) -> Table:
    """The table as the bot stored it, read from the bot's own database."""
    store = open_store(db_url)
    await store.open()
    try:
        return await store.get_table(table_id)
    finally:
        await store.close()


async def stored_log(db_url: str, table_id: int) -> list[LoggedAction]:
    """The table's action log as stored, oldest first (who acted, the engine action)."""
    store = open_store(db_url)
    await store.open()
    try:
        return await store.action_log(table_id)
    finally:
        await store.close()


async def stored_game(db_url: str, table_id: int) -> Game:
    """The engine's state of the table's game as stored."""
    record = await stored_table(db_url, table_id)
    assert record.state is not None, f"table {table_id} has no game: {record.status}"
    return Game.from_dict(record.state)


async def stored_prefs(db_url: str, user_id: int) -> PlayerPrefs:
    """A player's preferences as the bot stored them."""
    store = open_store(db_url)
    await store.open()
    try:
        return await store.get_prefs(user_id)
    finally:
        await store.close()


async def stored_settings(db_url: str, guild_id: int) -> GuildSettings:
    """A server's settings as the bot stored them."""
    store = open_store(db_url)
    await store.open()
    try:
        return await store.get_guild_settings(guild_id)
    finally:
        await store.close()


async def stored_channel_table(db_url: str, channel_id: int) -> Table | None:
    """The open table of a channel, as stored (None: none)."""
    store = open_store(db_url)
    await store.open()
    try:
        return await store.open_table_in_channel(channel_id)
    finally:
        await store.close()


def tile_codes(hand: Message) -> list[str]:
    """The tiles (engine codes, "Y40") on a hand's tile buttons, live or grey, in order."""
    codes = []
    for b in hand.buttons():
        parts = (b.get("custom_id") or "").split(":", 4)
        if len(parts) == 5 and parts[0] == "fp" and parts[3] == "play":
            codes.append(parts[4].split(".")[0])
    return codes


def turn_notices(user: FakeUser) -> list[Message]:
    """The direct messages that told ``user`` a decision of theirs began: screens sent with a
    picture and decision buttons (tiles or a fall), with a notification (not silent), newest
    first."""
    found = []
    for m in user.dms():
        first = m.revisions[0]
        if first.flags & MessageFlag.SUPPRESS_NOTIFICATIONS or not first.attachments:
            continue
        ids = [c.get("custom_id") or "" for c in iter_components(first.components)]
        if any(":play:" in i or ":fall:" in i for i in ids):
            found.append(m)
    return found


def silent_screens(user: FakeUser) -> list[Message]:
    """Screens sent to ``user`` without a notification (they asked for none on their turn)."""
    return [
        m
        for m in user.dms()
        if m.revisions[0].flags & MessageFlag.SUPPRESS_NOTIFICATIONS and m.revisions[0].attachments
    ]


def decision_copies(user: FakeUser) -> list[Message]:
    """Direct messages to ``user`` carrying a table's decision buttons (My hand, a fall, the
    next round) rather than a hand: what the bot sends the person who must decide while the
    table's own message is not in its channel."""
    board = {"hand", "fall", "next"}
    return [
        m
        for m in user.dms()
        if (found := {a for a, _ in button_actions(m)}) and found <= board and not m.images()
    ]


def refusal_text(why: Why, **values: Any) -> str:
    """The private answer the show side gives for the refusal ``why`` (with its values): the
    tests compare answers with it rather than with a copied sentence."""
    names = {k: v for k, v in values.items() if k in ("name", "owner", "host")}
    detail = {k: v for k, v in values.items() if k not in names}
    return refusal(TableError(why, names=names, detail=detail), esc, ENGLISH)


def not_yours_text(decision: Literal["play", "fall"] | None, owner: str | None) -> str:
    """The private answer to a click on somebody else's decision (``owner`` must take it)."""
    return refusal(NotYourDecision(decision, owner), esc, ENGLISH)
