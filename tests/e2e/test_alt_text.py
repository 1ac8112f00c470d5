"""Every picture and file the bot sends carries the words a screen reader reads for it (Discord's
attachment ``description``), in the language of the message it is on, within Discord's 1,024
characters; and those words are enough to play: a player's screen says the hand its buttons
offer, the spot step says what each spot button would do, the channel says whose turn it is.

Each test plays through the local fake and then reads every revision of every message the bot
sent (channel, thread, direct messages, ephemeral answers) as a screen reader would."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import i18n
from engine.tiles import ALL_TILES
from i18n import Language
from render import alttext
from render.narration import tile_in_text, tile_name
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import Attachment, Revision, iter_components

from .conftest import MakeBot
from .driver import TableDriver, answer, is_final
from .test_records import SHORT, computer_match

FRENCH = i18n.catalogs.language("fr")

ENGLISH_WORDS = re.compile(r"\b(the|your|turn|tile|spot|pile|hand|round|row|matches|step)\b", re.I)
FRENCH_WORDS = re.compile(
    r"\b(la|le|les|votre|tour|tuile|pioche|main|manche|étage|parties)\b", re.I
)
"""Words of the game only one of the two languages uses (the players' names use neither)."""

BOARDS = ("pyramid.png", "pyramid.gif")
"""The table's own pictures: in the table's language wherever they are shown."""


def bot_revisions(world: World) -> Iterator[tuple[Message, Revision]]:
    """Every revision of every message the bot sent, oldest message first."""
    bot = world.fake.bot.id
    for m in sorted(world.fake.state.messages.values(), key=lambda m: m.id):
        if m.author.id == bot:
            for rev in m.revisions:
                yield m, rev


def reader(world: World, m: Message) -> FakeUser | None:
    """Who alone reads ``m``: the person an ephemeral answer is for, or the other end of a
    direct message (None: everyone in the channel)."""
    account = m.ephemeral_for or m.channel.recipient
    if account is None:
        return None
    return next(u for u in world.users if u.id == account.id)


def language_of(world: World, m: Message, a: Attachment, table: Language) -> Language:
    """The language ``a`` must be described in: the table's for its own pictures, else the
    reader's (their Discord client's)."""
    person = reader(world, m)
    if a.filename in BOARDS or person is None:
        return table
    return i18n.catalogs.for_locale(person.locale)


def assert_in_language(text: str, lang: Language) -> None:
    mine, theirs = (
        (FRENCH_WORDS, ENGLISH_WORDS) if lang.code == "fr" else (ENGLISH_WORDS, FRENCH_WORDS)
    )
    assert mine.search(text), (lang.code, text)
    assert not theirs.search(text), (lang.code, text)


def assert_every_attachment_described(world: World, table: Language) -> list[str]:
    """Every file of every revision described, in its language, within 1,024 characters; the
    table's pictures never tell a hand. Returns the files' names, in the order sent."""
    seen = []
    for m, rev in bot_revisions(world):
        for a in rev.attachments:
            said = a.description or ""
            assert said.strip(), (a.filename, rev.content)
            assert len(said) <= alttext.LIMIT, (a.filename, len(said))
            lang = language_of(world, m, a, table)
            assert_in_language(said, lang)
            if a.filename in BOARDS:
                assert "Your hand" not in said and "Votre main" not in said, said
                heads = (alttext.pyramid_heading(lang), lang.gettext("Pyramid, top row first:"))
                assert any(h in said for h in heads), said
            seen.append(a.filename)
    return seen


# --- the screens' words against their buttons -----------------------------------------------------


def _buttons(rev: Revision) -> list[dict[str, object]]:
    return [c for c in iter_components(rev.components) if c.get("type") == 2]


def described_hand(said: str, lang: Language) -> list[tuple[str, bool]]:
    """The tiles (codes) a screen's description says are in the hand, each with whether it is
    said to fit somewhere."""
    template = lang.gettext("Your hand: {tiles}; {pile}.")
    head = template.split("{tiles}")[0]
    between = template.split("{tiles}")[1].split("{pile}")[0]
    line = next(ln for ln in said.splitlines() if ln.startswith(head))
    listed = line[len(head) :].split(between)[0]
    names = {tile_name(t, lang): t for t in ALL_TILES}
    fits = lang.pgettext("preview", "fits")
    found = []
    for item in re.split(r", (?![^()]*\))", listed):
        name = next(n for n in names if item == n or item.startswith(n + " ("))
        notes = item[len(name) :]
        found.append((names[name], fits in notes))
    return found


def offered_hand(rev: Revision, lang: Language) -> list[tuple[str, bool]]:
    """The tiles a screen's buttons offer, each with whether its label says it fits."""
    fits = lang.pgettext("button", "{tile} · fits").split("{tile}")[1]
    found = []
    for b in _buttons(rev):
        parts = str(b.get("custom_id") or "").split(":", 4)
        if len(parts) == 5 and parts[3] == "play":
            found.append((parts[4].split(".")[0], str(b.get("label") or "").endswith(fits)))
    return found


def spot_words(rev: Revision, lang: Language) -> tuple[str, str]:
    """What the spot step's buttons say, worded as its description says it: the chosen tile's
    question, then the spots grouped by what they would do."""
    chosen = next(
        str(b["custom_id"]).split(":", 4)[4].split(".")[0]
        for b in _buttons(rev)
        if ":play:" in str(b.get("custom_id")) and b.get("style") == 1
    )
    grouped: dict[str, list[str]] = {}
    for b in _buttons(rev):
        if ":spot:" in str(b.get("custom_id")):
            letter, _, what = str(b.get("label") or "").partition(" · ")
            grouped.setdefault(what, []).append(letter)
    comma = lang.pgettext("list", ", ")
    question = lang.gettext("Where do you play {tile}?").format(tile=tile_in_text(chosen, lang))
    outcomes = " ".join(
        lang.gettext("{spots}: {what}.").format(spots=comma.join(s), what=w)
        for w, s in grouped.items()
    )
    return question, outcomes


def assert_screens_say_what_their_buttons_do(world: World) -> int:
    """Each screen's description against that same revision's buttons; returns how many
    screens were read."""
    read = 0
    for m, rev in bot_revisions(world):
        person = reader(world, m)
        for a in rev.attachments:
            if person is None or a.filename not in ("turn.png", "spots.png"):
                continue
            lang = i18n.catalogs.for_locale(person.locale)
            said = a.description or ""
            if a.filename == "turn.png" and offered_hand(rev, lang):
                assert described_hand(said, lang) == offered_hand(rev, lang), said
                read += 1
            elif a.filename == "spots.png":
                question, outcomes = spot_words(rev, lang)
                assert said.splitlines()[1] == f"{question} {outcomes}", (said, rev.components)
                assert [t for t, _ in described_hand(said, lang)] == [
                    t for t, _ in offered_hand(rev, lang)
                ]
                read += 1
    return read


def decision_openings(name: str, lang: Language) -> tuple[str, str]:
    """How a picture's sentence of whose decision it is begins for ``name``: a play (on one
    spot or several), a fall."""
    one = lang.gettext("{player} to play a tile on spot {spot}.").format(player=name, spot="A")
    many = lang.ngettext(
        "{player} to play a tile on one of the {count} spot, {first} to {last}.",
        "{player} to play a tile on one of the {count} spots, {first} to {last}.",
        2,
    ).format(player=name, count=2, first="A", last="B")
    same = next((i for i, (a, b) in enumerate(zip(one, many, strict=False)) if a != b), len(one))
    play = one[:same]
    fall = lang.gettext("{player} chooses where {tile} falls, left or right.").split("{tile}")[0]
    return play, fall.format(player=name)


def assert_channel_names_the_decider(world: World, lang: Language) -> int:
    """A move's picture says whose decision it is, as its message mentions them; returns how
    many pictures were read."""
    read = 0
    for m, rev in bot_revisions(world):
        boards = [a for a in rev.attachments if a.filename in BOARDS]
        mention = re.search(r"<@!?(\d+)>", rev.content)
        if not boards or reader(world, m) is not None or mention is None or "🏁" in rev.content:
            continue
        who = next((u for u in world.users if u.id == int(mention.group(1))), None)
        if who is None:
            continue
        lines = (boards[0].description or "").splitlines()
        openings = decision_openings(who.name.title(), lang)
        assert any(ln.startswith(openings) for ln in lines), (rev.content, lines)
        read += 1
    return read


# --- the tests ------------------------------------------------------------------------------------


async def test_a_whole_game_is_described_picture_by_picture_in_each_readers_language(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    """A French server's table; Alice reads English, Bob French (both by DM), Dave English on
    private screens (his DMs are closed). Carol, who is not playing, and Alice ask for the
    table's status; both ask for the rules. Then every file the bot sent is read."""
    await run_bot(seed=877)
    world.fake.set_guild_locale(world.guild, "fr")
    world.bob.locale = "fr"
    world.carol.locale = "fr"
    await table.open(world.alice, world.bob, world.dave)
    game = await table.start(world.alice)
    watched = await answer(await table.slash(world.carol, "fp état"))
    assert watched.ephemeral and watched.images()
    for user in (world.carol, world.alice):
        rules = await answer(
            await table.slash(user, "fp rules" if user is world.alice else "fp règles")
        )
        assert len(rules.images()) == 2
    for _ in range(8):
        game = await table.step(game)
    shown = await answer(await table.slash(world.alice, "fp status"))
    assert shown.images() and not shown.ephemeral
    final = await table.play_to_the_end(game)
    assert is_final(final)

    sent = assert_every_attachment_described(world, FRENCH)
    for name in ("pyramid.png", "pyramid.gif", "turn.png", "spots.png", "fits.png", "collapse.png"):
        assert name in sent, name
    assert any(
        m.ephemeral_for is not None and m.ephemeral_for.id == world.dave.id and rev.attachments
        for m, rev in bot_revisions(world)
    )
    assert assert_screens_say_what_their_buttons_do(world) > 20
    assert assert_channel_names_the_decider(world, FRENCH) > 10
    world.fake.assert_no_refusals()


async def test_the_records_pictures_and_the_export_are_described_in_the_askers_language(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    """Three short matches, then Alice (French) asks for her stats, shares them, opens a
    replay, steps it, asks for its summary and its export; Bob (English) asks for the
    leaderboard. Each file is described in the language of the person who asked."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(SHORT))
    await run_bot(test_state_file=str(path))
    for i in range(3):
        here = world.fake.create_text_channel(world.guild, f"games-{i}")
        await computer_match(world, TableDriver(world.fake, here, {u.id: u for u in world.users}))
    world.alice.locale = "fr"
    stats = await answer(await table.slash(world.alice, "fp stats"))
    [card] = stats.images()
    assert (card.description or "").startswith("Statistiques d'Alice.\nFlaming Pyramids.\n")
    shared = await answer(await table.click(world.alice, stats, "Partager dans le salon"))
    assert shared.attachments and not shared.ephemeral
    board = await answer(await table.slash(world.bob, "fp leaderboard"))
    [page] = board.images()
    assert (page.description or "").startswith("Leaderboard, page 1 of 1.\n")
    history = await answer(await table.slash(world.alice, "fp historique", joueur=world.alice))
    replay = await answer(await table.click(world.alice, history, "Revoir 1"))
    for _ in range(3):
        before = len(replay.revisions)
        await world.alice.click(replay, "Suivant")
        await world.fake.wait_for(
            lambda b=before: len(replay.revisions) > b and replay.settled, 15, "the next step"
        )
    summary = await answer(await table.click(world.alice, replay, "Résumé"))
    [gif] = summary.attachments
    assert (gif.description or "").startswith("Animation de ")
    exported = await answer(await table.click(world.alice, replay, "Exporter"))
    [file] = exported.attachments
    number = int(re.findall(r"\d+", file.filename)[0])
    assert file.description == alttext.scenario_file(number, lang=FRENCH)

    read = []
    for m, rev in bot_revisions(world):
        for a in rev.attachments:
            said = a.description or ""
            assert said.strip() and len(said) <= alttext.LIMIT, a.filename
            if m.channel is not table.channel:
                continue  # the matches themselves, each in its own channel
            asker = reader(world, m) or (world.alice if a.filename == "stats.png" else world.bob)
            assert_in_language(said, i18n.catalogs.for_locale(asker.locale))
            read.append(a.filename.split(".")[0].split("-")[0])
    assert {"stats", "leaderboard", "replay", "summary", "match"} <= set(read), read
