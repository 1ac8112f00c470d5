"""Everything a table said, written out as its people read it: to read a whole game's screens
(the channel, its thread, every direct message and private screen, each edit in turn) without
Discord. ``python bench/table_counts.py --transcript FILE`` writes one.

Each message is headed by where it is and who sees it, then each of its versions: its text (the
content, the embeds, a Components V2 card's text displays), its buttons and menus (greyed ones
marked), its files with their alt text, and who it notified."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tests.fakediscord import Message
from tests.fakediscord.models import Revision, button_label, iter_components
from tests.fakediscord.state import State


def where(m: Message) -> str:
    """The channel a message is in and who may read it."""
    ch = m.channel
    if ch.is_dm and ch.recipient is not None:
        place = f"DM {ch.recipient.username}"
    else:
        place = f"#{ch.name}"
    if m.ephemeral_for is not None:
        place += f", only {m.ephemeral_for.username} sees it"
    return place


def revision_text(r: Revision) -> list[str]:
    """The lines of one version of a message."""
    lines: list[str] = []
    if r.content:
        lines.append(r.content)
    for e in r.embeds:
        for key in ("title", "description"):
            if e.get(key):
                lines.append(str(e[key]))
        lines.extend(f"{f.get('name', '')}: {f.get('value', '')}" for f in e.get("fields", []))
        footer = e.get("footer")
        if isinstance(footer, dict) and footer.get("text"):
            lines.append(f"({footer['text']})")
    controls: list[str] = []
    for c in iter_components(r.components):
        kind = c.get("type")
        if kind == 10:
            lines.append(str(c.get("content") or ""))
        elif kind == 2:
            mark = " (greyed)" if c.get("disabled") else ""
            controls.append(f"[{button_label(c)}]{mark}")
        elif kind in (3, 5, 6, 7, 8):
            options = ", ".join(str(o.get("label")) for o in c.get("options") or [])
            controls.append(f"<{c.get('placeholder') or 'menu'}: {options}>")
    if controls:
        lines.append(" ".join(controls))
    lines.extend(f"📎 {a.filename}: {a.description or '(no alt text)'}" for a in r.attachments)
    return lines


def transcript(messages: Iterable[Message], names: dict[int, str]) -> str:
    """Every message (oldest first), each version in turn."""
    out: list[str] = []
    for m in sorted(messages, key=lambda m: m.id):
        pinged = ", ".join(names.get(u, str(u)) for u in m.notified)
        head = f"=== {m.id} · {where(m)}" + (f" · notified {pinged}" if pinged else "")
        out.append(head + (" · deleted" if m.deleted else ""))
        for i, r in enumerate(m.history):
            if i:
                out.append(f"--- edit {i}")
            out.extend(revision_text(r))
        out.append("")
    return "\n".join(out)


def write_transcript(state: State, path: Path) -> None:
    """Write every message the bot sent (see :func:`transcript`) to ``path``."""
    names = {a.id: a.username for a in state.accounts.values()}
    bot = [m for m in state.messages.values() if m.author.bot]
    path.write_text(transcript(bot, names), encoding="utf-8")
