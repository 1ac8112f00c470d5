"""What a table costs its players: one whole seeded game (3 players, or 2) played by clicks
against the local fake Discord, counted as the players meet it.

Per turn (a turn is one tile placed, with every fall it causes): the bot's posts and edits in
the table's channel and in its thread, the pings (mentions that notified someone when the message
was sent), the direct messages per player, and the clicks per move.

    python bench/table_counts.py            # a table of figures
    python bench/table_counts.py --json     # one JSON object
    python bench/table_counts.py --private bob   # bob takes his hands privately, not by DM
    python bench/table_counts.py --away bob      # bob is away: a computer plays his turns
    python bench/table_counts.py --players 2 --curse --rounds 2   # a curse, a round's end
    python bench/table_counts.py --undo 0   # no undo window (by default the table's: 30 s)
    python bench/table_counts.py --wait     # each turn waits out its undo window (no Done)
    python bench/table_counts.py --french --transcript game.txt   # every screen, to read
    python bench/table_counts.py --hints alice  # a practice table: alice presses Hint first

The game is dealt from ``--seed`` (default: the short deal of the end-to-end tests; with two
players and the curse, :data:`CURSE_SEED`), and the
players play as the end-to-end driver does (first tile, spot A, fall left; the host starts the
next round), so the same seed and options give the same game and the same counts. With two
players and the curse, a curse hands its falls to the player whose turn comes next: the
decisions that follow a person's own (their turn after such a fall, a fall after their own
placement) are counted too (:attr:`TableCounts.continued`). With the undo window on (the
default), each player presses Done on their turn played, or with ``--wait`` lets the window
run out (the bench moves the bot's clock past it): the next player must be told once, after
the window. With ``--hints``, the table is a practice table and that player presses Hint on the
screen of each of their decisions before deciding: a Hint's answer is an answer to a click, like
any other (counted in the clicks, never a notification), and how long each took is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.app import Bot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.service import MAX_SOLO_UNDO_S  # noqa: E402
from tests.e2e.driver import TableDriver, actions, is_final  # noqa: E402
from tests.e2e.transcript import write_transcript  # noqa: E402
from tests.fakediscord import DEFAULT_TOKEN, Message  # noqa: E402
from tests.fakediscord.fixtures import running_world  # noqa: E402
from tests.fakediscord.models import (  # noqa: E402
    Channel,
    Interaction,
    InteractionType,
    MessageFlag,
)
from tests.fakediscord.runner import InProcessBot  # noqa: E402

DEFAULT_SEED = 877
"""The short deal of the end-to-end full game (about 60 decisions)."""
CURSE_SEED = 7981
"""With two players, the curse and two rounds: a curse hands a fall to the player whose turn
comes next, and a round ends (about 170 decisions, the shortest such deal found)."""


@dataclass
class TableCounts:
    """What one whole game cost, and the same figures per turn."""

    seed: int
    turns: int
    falls: int
    posts: int
    edits: int
    pings: int
    dms: dict[str, int]
    dm_edits: dict[str, int]
    own_turns: dict[str, int]
    clicks: int
    end_pings: int = 0
    """Players the message that ends the match pinged (each once: the end of a game played
    over days is news to everyone)."""
    dm_deleted: dict[str, int] = field(default_factory=dict)
    """Of the DMs, those the bot deleted later (an older hand replaced by a newer one)."""
    in_thread: int = 0
    """Of the posts, those in the game's thread."""
    posts_per_turn: float = 0.0
    edits_per_turn: float = 0.0
    pings_per_turn: float = 0.0
    max_posts_in_a_turn: int = 0
    max_pings_in_a_turn: int = 0
    dms_per_player_per_own_turn: dict[str, float] = field(default_factory=dict)
    clicks_per_move: float = 0.0
    rest_global: int = 0
    """REST requests of the game that count against Discord's global limit (interaction
    responses and followups do not)."""
    rest_global_by_route: dict[str, int] = field(default_factory=dict)
    rest_global_per_decision: float = 0.0
    """Per decision (a tile placed or a fall chosen): what bounds the moves a second one bot
    token can carry (50 requests a second in all)."""
    decision_starts: int = 0
    """Decisions that became a person's while someone else (or nobody) had the last one: their
    turn, or a fall after another player's curse. A fall after one's own placement goes on
    the screen one is already looking at, and is not counted."""
    notifications: int = 0
    """New DMs and real pings (mentions ``allowed_mentions`` let through) to the person who must
    decide, from their previous click to their first click of the new decision."""
    told_twice: int = 0
    """Decision starts at which that person was notified more than once."""
    not_told: int = 0
    """Decision starts at which that person was not notified at all."""
    jumps: int = 0
    """Messages a person had to open besides the one that notified them, to see the board and
    to act (the best of the notifications counts; an answer to a click on it is the same
    screen)."""
    notifications_per_decision_start: float = 0.0
    jumps_per_own_turn: float = 0.0
    without_recap: int = 0
    """Decision starts (but the game's first) whose private screen, where its person pressed
    a tile or a fall, did not say what happened since their last move."""
    continued: int = 0
    """Decisions that followed the same person's previous one (a fall after their own
    placement, their turn after a fall a curse gave them): they are on that screen already."""
    told_again: int = 0
    """Of those, the ones at which that person was notified again (a new DM or a ping)."""
    jumps_again: int = 0
    """Of those, the ones whose first click was not on the screen of that person's previous
    click (a second screen they had to open)."""
    rounds: int = 1
    """Rounds the match had (a round's end is crossed when more than one)."""
    next_rounds: int = 0
    """Rounds started by a click on Next round."""
    round_posts: int = 0
    """Posts of the rounds' starts (each new round's deal, a post of no turn)."""
    hints: int = 0
    """Hints pressed (a practice table's, by the player ``--hints`` names), each answered."""
    hint_seconds: list[float] = field(default_factory=list)
    """From each Hint's press to its answer, in seconds (the bench's clock)."""

    def finish(self, per_turn_posts: list[int], per_turn_pings: list[int]) -> TableCounts:
        t = max(self.turns, 1)
        self.posts_per_turn = round(self.posts / t, 2)
        self.edits_per_turn = round(self.edits / t, 2)
        self.pings_per_turn = round(self.pings / t, 2)
        self.max_posts_in_a_turn = max(per_turn_posts, default=0)
        self.max_pings_in_a_turn = max(per_turn_pings, default=0)
        self.dms_per_player_per_own_turn = {
            name: round(n / max(self.own_turns.get(name, 0), 1), 2) for name, n in self.dms.items()
        }
        self.clicks_per_move = round(self.clicks / t, 2)
        self.rest_global_per_decision = round(self.rest_global / max(t + self.falls, 1), 2)
        starts = max(self.decision_starts, 1)
        self.notifications_per_decision_start = round(self.notifications / starts, 2)
        self.jumps_per_own_turn = round(self.jumps / starts, 2)
        return self


class MovableClock:
    """The bot's clock: real time plus what the bench moved it forward by."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def table_channels(driver: TableDriver) -> list[Channel]:
    """The table's channel and any thread started in it."""
    fake = driver.fake
    return [driver.channel, *fake.threads(driver.channel)]


def public_bot_messages(driver: TableDriver) -> list[Message]:
    bot = driver.fake.bot.id
    found = [
        m
        for ch in table_channels(driver)
        for m in driver.fake.messages(ch)
        if m.author.id == bot and m.ephemeral_for is None
    ]
    return sorted(found, key=lambda m: m.id)


def sent_dms(driver: TableDriver, user_id: int) -> list[Message]:
    """Every direct message the bot sent the user on its own, deleted ones too (answers to the
    user's clicks there are not counted: they are replies, not notifications)."""
    state = driver.fake.state
    channel = state.dm_channels.get(user_id)
    if channel is None:
        return []
    return [
        m
        for m in state.channel_messages.get(channel.id, [])
        if m.author.id == state.bot.id and m.webhook_id is None
    ]


BOARD_PICTURES = ("pyramid.png", "pyramid.gif", "turn.png", "turn.gif")
"""Attachments that show the pyramid (the table's picture, or a player's turn screen)."""


def shows_board(m: Message) -> bool:
    """Whether the message showed the pyramid when it notified (a screen closed later by its
    player's click no longer does, but it did when they opened it)."""
    return any(a.filename in BOARD_PICTURES for a in m.revisions[0].attachments)


@dataclass
class DecisionStart:
    """A decision that became ``user``'s: told between ``since`` (their previous click) and
    ``first_click`` (the first click they made for it)."""

    user: int
    since: int
    first_click: Message | None
    clicked_at: int
    recap: bool = True
    """Whether the private screen they decided on (a tile or a fall pressed there, in direct
    messages or in the channel) said what happened since their last move, as it stood when
    they pressed it; True when they decided on the table's post, which is that account."""


RECAP = ("Since your last move", "Depuis votre dernier coup", "🏆")
"""What a screen says when it tells what happened since its player's last move: the others'
turns, or the round that ended (in English or French)."""


def decided_with_recap(clicks: list[Interaction]) -> bool:
    """Whether the screen of the first tile or fall pressed among ``clicks`` said what happened
    since its player's last move (see :attr:`DecisionStart.recap`)."""
    for ix in clicks:
        cid = str((ix.data or {}).get("custom_id") or "")
        parts = cid.split(":")
        if len(parts) < 4 or parts[3] not in ("play", "fall"):
            continue
        shown = ix.sent_message or {}
        private = ix.channel.is_dm or bool(int(shown.get("flags") or 0) & MessageFlag.EPHEMERAL)
        return not private or any(mark in str(shown.get("content") or "") for mark in RECAP)
    return True


def notifications_to(driver: TableDriver, user_id: int, since: int, until: int) -> list[Message]:
    """What notified the user between two ids (the fake's ids grow with time, messages and
    interactions alike): new DMs the bot sent on its own, and posts that pinged them."""
    dms = [
        m
        for m in sent_dms(driver, user_id)
        if since < m.id < until and not m.revisions[0].flags & MessageFlag.SUPPRESS_NOTIFICATIONS
    ]
    pings = [
        m for m in public_bot_messages(driver) if since < m.id < until and user_id in m.notified
    ]
    return sorted([*dms, *pings], key=lambda m: m.id)


def answered_on(m: Message, notifying: Message, driver: TableDriver) -> bool:
    """Whether ``m`` is ``notifying`` itself or the private answer to a click on it."""
    if m.id == notifying.id:
        return True
    return any(
        ix.message is not None
        and ix.message.id == notifying.id
        and (m is ix.original or m in ix.followups)
        for ix in driver.fake.interactions
    )


def jumps_for(driver: TableDriver, start: DecisionStart, told: list[Message]) -> int:
    """Messages opened besides the notifying one: one to see the board if it does not show it,
    one to act if the first click is on another message (the best notification counts)."""
    if not told:
        return 2
    best = 2
    for n in told:
        board = 0 if shows_board(n) else 1
        act = 0 if start.first_click is None or answered_on(start.first_click, n, driver) else 1
        best = min(best, board + act)
    return best


def same_screen(driver: TableDriver, start: DecisionStart, screen: Message | None) -> bool:
    """Whether the first click of ``start`` was on ``screen`` (the message of that person's
    previous click) or on the answer to a click on it."""
    if start.first_click is None or screen is None:
        return True
    return answered_on(start.first_click, screen, driver)


async def play_counted(
    driver: TableDriver,
    seed: int,
    private: str | None = None,
    undo: int | None = None,
    *,
    players: int = 3,
    curse: bool = False,
    rounds: int = 1,
    away: str | None = None,
    french: bool = False,
    hints: str | None = None,
) -> TableCounts:
    """Open, start and play one game with alice, bob and carol (the first ``players`` of them),
    with the ``curse`` and ``rounds`` asked; count as it goes. With ``private``, that player
    takes their hands privately in the channel (``/fp hand``) instead of by direct message;
    ``undo``: the table's undo window (None: the default one); with ``away``, that player is
    away (``/fp away``): a computer makes their decisions, which are not counted as decisions
    (nor their posts as turns' posts); with ``hints``, the table is a practice table and that
    player presses Hint before each of their decisions. With ``french``, every player but the
    host switches their client to French once they have typed those commands."""
    fake = driver.fake
    users = list(driver.users.values())[:players]
    host = users[0]
    for u in users:
        if u.name == private:
            ix = await driver.slash(u, "fp hand", mode="channel")
            await ix.wait_response()
            driver.private_only.add(u.id)
        if u.name == away:
            ix = await driver.slash(u, "fp away")
            await ix.wait_response()
        if french and u is not host:
            u.account.locale = "fr"
        if u.name == hints:
            driver.hints.add(u.id)
    options: dict[str, object] = {}
    if hints is not None:
        options["hints"] = True
    if curse:
        options["curse"] = True
    if rounds > 1:
        options["rounds"] = rounds
    await driver.open(host, *users[1:], undo=undo, **options)
    opened_at = max(m.id for m in public_bot_messages(driver))
    game = await driver.start(host)
    started_at = max(m.id for m in public_bot_messages(driver))
    started_time = asyncio.get_running_loop().time()
    clicks_before = len(fake.interactions)
    requests_before = len(fake.requests)

    def posts_and_pings() -> tuple[int, int]:
        msgs = public_bot_messages(driver)
        return len(msgs), sum(len(m.notified) for m in msgs)

    per_turn_posts: list[int] = []
    per_turn_pings: list[int] = []
    own_turns = {u.name: 0 for u in users}
    turns = falls = next_rounds = round_posts = 0
    starts: list[DecisionStart] = []
    continued: list[tuple[DecisionStart, Message | None]] = []
    # The first decision is told by the game's first message (or a DM sent after it).
    last_click: dict[int, int] = {u.id: opened_at for u in users}
    last_screen: Message | None = None
    previous: int | None = None
    for _ in range(1000):
        if is_final(game):
            break
        posts0, pings0 = posts_and_pings()
        uid = driver.decider(game)
        clicks0 = len(fake.interactions)
        dealing = "next" in actions(game)
        if dealing:
            next_rounds += 1
            previous = None  # the new round's first decision is a decision start
        elif "fall" in actions(game):
            falls += 1
        else:  # a tile placed starts a turn; its falls belong to it
            turns += 1
            per_turn_posts.append(0)
            per_turn_pings.append(0)
            if uid is not None:
                own_turns[driver.users[uid].name] += 1
        game = await driver.step(game)
        mine = [
            ix
            for ix in fake.interactions[clicks0:]
            if ix.type == InteractionType.MESSAGE_COMPONENT and ix.user.id == uid
        ]
        if uid is not None and mine:
            start = DecisionStart(
                uid, last_click[uid], mine[0].message, mine[0].id, decided_with_recap(mine)
            )
            if uid != previous:
                starts.append(start)
            else:
                continued.append((start, last_screen))
            last_click[uid] = mine[-1].id
            last_screen = mine[-1].message
            previous = uid
        posts1, pings1 = posts_and_pings()
        if dealing:
            round_posts += posts1 - posts0
        elif per_turn_posts:
            per_turn_posts[-1] += posts1 - posts0
            per_turn_pings[-1] += pings1 - pings0
    assert is_final(game), "the match did not end"
    await asyncio.sleep(0.5)  # the last hands and edits land
    # The end of the match pings every player once; it is counted apart from the turns'.
    end_pings = len(game.notified)
    if per_turn_pings:
        per_turn_pings[-1] -= end_pings

    msgs = public_bot_messages(driver)
    game_msgs = [m for m in msgs if m.id > started_at]
    edits = sum(sum(1 for r in m.revisions[1:] if r.at >= started_time) for m in msgs)
    sent = {u.name: sent_dms(driver, u.id) for u in users}
    dms = {name: len(msgs) for name, msgs in sent.items()}
    dm_edits = {name: sum(len(m.revisions) - 1 for m in msgs) for name, msgs in sent.items()}
    dm_deleted = {name: sum(m.deleted for m in msgs) for name, msgs in sent.items()}
    clicks = sum(
        1
        for ix in fake.interactions[clicks_before:]
        if ix.type == InteractionType.MESSAGE_COMPONENT and ix.user.id in driver.users
    )
    exempt = ("/interactions/", "/webhooks/{application_id}/{token}")
    routes = Counter(
        r.route
        for r in fake.requests[requests_before:]
        if not r.route.split(" ", 1)[1].startswith(exempt)
    )
    told = [notifications_to(driver, s.user, s.since, s.clicked_at) for s in starts]
    again = [notifications_to(driver, s.user, s.since, s.clicked_at) for s, _ in continued]
    counts = TableCounts(
        seed=seed,
        turns=turns,
        falls=falls,
        posts=len(game_msgs),
        edits=edits,
        pings=sum(len(m.notified) for m in game_msgs),
        dms=dms,
        dm_edits=dm_edits,
        own_turns=own_turns,
        clicks=clicks,
        dm_deleted=dm_deleted,
        in_thread=sum(1 for m in game_msgs if m.channel.is_thread),
        rest_global=sum(routes.values()),
        rest_global_by_route=dict(routes.most_common()),
        end_pings=end_pings,
        decision_starts=len(starts),
        notifications=sum(len(t) for t in told),
        told_twice=sum(1 for t in told if len(t) > 1),
        not_told=sum(1 for t in told if not t),
        jumps=sum(jumps_for(driver, s, t) for s, t in zip(starts, told, strict=True)),
        without_recap=sum(1 for s in starts[1:] if not s.recap),
        continued=len(continued),
        told_again=sum(1 for t in again if t),
        jumps_again=sum(1 for s, screen in continued if not same_screen(driver, s, screen)),
        rounds=rounds,
        next_rounds=next_rounds,
        round_posts=round_posts,
        hints=len(driver.hinted),
        hint_seconds=[round(took, 3) for _, _, took in driver.hinted],
    )
    return counts.finish(per_turn_posts, per_turn_pings)


async def measure(
    seed: int = DEFAULT_SEED,
    private: str | None = None,
    undo: int | None = None,
    wait: bool = False,
    *,
    players: int = 3,
    curse: bool = False,
    rounds: int = 1,
    away: str | None = None,
    french: bool = False,
    transcript: Path | None = None,
    hints: str | None = None,
) -> TableCounts:
    """One game counted (see :func:`play_counted`), against a fake Discord of its own; with
    ``wait``, each turn played waits out its undo window instead of its player pressing Done;
    ``french``: the server and every player's client but the host's speak French;
    ``transcript``: where to write every message of the game as its people read it
    (:mod:`tests.e2e.transcript`)."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(
            token=DEFAULT_TOKEN,
            database_url=f"sqlite:///{Path(tmp) / 'counts.db'}",
            test_mode=True,
            timer_interval_s=0.05,
            ai_time_budget_s=0.05,
            ai_node_limit=2000,
            seed=seed,
        )
        clock = MovableClock()
        async with running_world() as world:
            if french:
                world.fake.set_guild_locale(world.guild, "fr")
            runner = InProcessBot(world.fake, Bot(config, clock=clock))
            await runner.start()
            try:
                driver = TableDriver(world.fake, world.games, {u.id: u for u in world.users})
                if wait:

                    async def run_out() -> None:
                        clock.advance(MAX_SOLO_UNDO_S + 1)  # past any window

                    driver.let_run_out = run_out
                counts = await play_counted(
                    driver,
                    seed,
                    private,
                    undo,
                    players=players,
                    curse=curse,
                    rounds=rounds,
                    away=away,
                    french=french,
                    hints=hints,
                )
                if transcript is not None:
                    write_transcript(world.fake.state, transcript)
                return counts
            finally:
                await runner.stop()


def report(c: TableCounts) -> str:
    players = ", ".join(
        f"{name} {c.dms[name]} ({c.dms_per_player_per_own_turn[name]} per own turn)"
        for name in c.dms
    )
    return "\n".join(
        [
            f"seed {c.seed}: {c.turns} turns, {c.falls} fall choices, {c.clicks} clicks"
            f" over {c.rounds} round(s) ({c.next_rounds} started by Next round)",
            f"posts  {c.posts:4d}  {c.posts_per_turn:.2f} per turn"
            f" (at most {c.max_posts_in_a_turn}, and {c.round_posts} for the rounds' deals);"
            f" {c.in_thread} in the game's thread",
            f"edits  {c.edits:4d}  {c.edits_per_turn:.2f} per turn",
            f"pings  {c.pings:4d}  {c.pings_per_turn:.2f} per turn"
            f" (at most {c.max_pings_in_a_turn} in a turn, {c.end_pings} at the end)",
            f"DMs sent: {players}",
            f"DM edits: {', '.join(f'{k} {v}' for k, v in c.dm_edits.items())}; deleted"
            f" later: {', '.join(f'{k} {v}' for k, v in c.dm_deleted.items())}",
            f"clicks per move {c.clicks_per_move:.2f}",
            f"decision starts {c.decision_starts}: notifications"
            f" {c.notifications_per_decision_start:.2f} per decision start (goal 1.00);"
            f" told twice {c.told_twice}, not told {c.not_told};"
            f" jumps {c.jumps_per_own_turn:.2f} per own turn (goal 0)",
            f"decision starts on a private screen without what happened since: {c.without_recap}"
            " (goal 0)",
            f"decisions that followed the same person's {c.continued}: told again"
            f" {c.told_again}, on another screen {c.jumps_again} (goal 0 and 0)",
            f"REST requests against the global limit: {c.rest_global}, "
            f"{c.rest_global_per_decision:.2f} per decision (tile or fall)",
            *(f"  {n:4d}  {route}" for route, n in c.rest_global_by_route.items()),
            *(
                [
                    f"hints pressed {c.hints}, each answered privately: median"
                    f" {statistics.median(c.hint_seconds):.2f} s, at most"
                    f" {max(c.hint_seconds):.2f} s from the press to the answer"
                ]
                if c.hint_seconds
                else []
            ),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed",
        type=int,
        help=f"the deal (default {DEFAULT_SEED}; {CURSE_SEED} with two players and the curse)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--private",
        metavar="NAME",
        choices=("alice", "bob", "carol"),
        help="this player takes their hands privately in the channel instead of by DM",
    )
    parser.add_argument(
        "--away",
        metavar="NAME",
        choices=("alice", "bob", "carol"),
        help="this player is away (/fp away) before the game starts: a computer plays for them",
    )
    parser.add_argument(
        "--hints",
        metavar="NAME",
        choices=("alice", "bob", "carol"),
        help="a practice table: this player presses Hint on each of their decisions first",
    )
    parser.add_argument("--players", type=int, choices=(2, 3), default=3)
    parser.add_argument("--curse", action="store_true", help="play with the curse")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the match")
    parser.add_argument(
        "--undo",
        type=int,
        metavar="SECONDS",
        help="the table's undo window (default: the table's default; 0: none)",
    )
    parser.add_argument(
        "--wait",
        action="store_true",
        help="each turn played waits out its undo window (no player presses Done)",
    )
    parser.add_argument(
        "--french",
        action="store_true",
        help="the server and every player but the host (alice) speak French",
    )
    parser.add_argument(
        "--transcript",
        type=Path,
        metavar="FILE",
        help="write every message of the game, as its people read it, to this file",
    )
    args = parser.parse_args()
    if args.seed is None:
        args.seed = CURSE_SEED if args.players == 2 and args.curse else DEFAULT_SEED
    counts = asyncio.run(
        measure(
            args.seed,
            args.private,
            args.undo,
            args.wait,
            players=args.players,
            curse=args.curse,
            rounds=args.rounds,
            away=args.away,
            french=args.french,
            transcript=args.transcript,
            hints=args.hints,
        )
    )
    print(json.dumps(asdict(counts)) if args.json else report(counts))


if __name__ == "__main__":
    main()
