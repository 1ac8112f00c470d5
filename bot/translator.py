"""Slash commands in each user's language: discord.py's translator over the bot's catalogs, and
the Babel extractor that puts the commands' words into the catalog template.

discord.py wraps every name and description of a command in a ``locale_str`` of itself (its
``auto_locale_strings``), so the cogs declare their commands in plain English and
:class:`CommandTranslator` gives Discord the localizations when the commands are registered. Each
kind of string has a message context of its own in the catalog (:data:`CONTEXTS`): the option
name ``mode`` and a choice named ``mode`` translate independently, and a translator sees which
rules apply (names: lowercase, no spaces, at most 32 characters).

The interactions still carry the English names (Discord sends the default names whatever the
client's language), so nothing else changes for the handlers.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Final

from babel.messages.extract import extract_python
from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.ext import commands

import i18n

log = logging.getLogger(__name__)

CONTEXTS: Final[dict[Where, str]] = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice name",
}
"""The catalog's message context of each place a command string is shown."""

NOTES: Final[dict[str, str]] = {
    "command name": "Slash command name: lowercase, no spaces (use - or _), at most 32 characters.",
    "option name": "Slash command option name: lowercase, no spaces (use - or _), at most 32 "
    "characters, unlike the command's other option names.",
    "command description": "Shown under the command: at most 100 characters.",
    "option description": "Shown under the option: at most 100 characters.",
    "choice name": "One of the option's choices: at most 100 characters.",
}
"""What the extractor tells translators about each kind (Discord's rules for it)."""

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of commands, options and choices from the catalogs, for every
    Discord locale whose best language (:meth:`bot.i18n.Catalogs.language_for`) has them."""

    def __init__(self, catalogs: i18n.Catalogs = i18n.catalogs) -> None:
        self.catalogs = catalogs

    async def load(self) -> None:
        """Called when the tree takes the translator: says which languages the bot speaks."""
        log.info("slash commands in: %s", ", ".join(sorted(self.catalogs.languages)))

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = self.catalogs.language_for(locale.value)
        if language == i18n.SOURCE_LANGUAGE:
            return None
        words = self.catalogs.language(language)
        kind = CONTEXTS.get(context.location)
        message = string.message
        text = words.gettext(message) if kind is None else words.pgettext(kind, message)
        # Untranslated (or the same word): Discord shows the default.
        return text if text != message else None


def command_strings(
    command: AnyCommand, owner: object | None = None
) -> Iterator[tuple[str, str, object]]:
    """``(context, message, defined_by)`` for every string of ``command`` that
    :class:`CommandTranslator` is asked for, in the order Discord shows them; ``defined_by`` is
    the callback or class that declares it (for the template's source lines)."""
    if isinstance(command, app_commands.Group):
        yield CONTEXTS[Where.group_name], command.name, owner
        yield CONTEXTS[Where.group_description], command.description, owner
        for child in command.commands:
            yield from command_strings(child, owner)
        return
    here = command.callback
    yield CONTEXTS[Where.command_name], command.name, here
    if isinstance(command, app_commands.ContextMenu):
        return
    yield CONTEXTS[Where.command_description], command.description, here
    for param in command.parameters:
        yield CONTEXTS[Where.parameter_name], param.display_name, here
        yield CONTEXTS[Where.parameter_description], param.description, here
        for choice in param.choices:
            yield CONTEXTS[Where.choice_name], choice.name, here


def module_commands(module: object) -> Iterator[tuple[AnyCommand, object]]:
    """The application commands a module defines: its cogs' and its top-level ones, each with
    the class or function that defines it, then those it adds to another cog's group when it
    loads, which it lists in a module-level ``SLASH_COMMANDS`` (a sequence of commands)."""
    name = getattr(module, "__name__", None)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, commands.Cog):
            if value.__module__ == name:
                for command in value.__cog_app_commands__:
                    yield command, value
        elif isinstance(value, app_commands.Command | app_commands.Group) and value.module == name:
            yield value, None
    for command in getattr(module, "SLASH_COMMANDS", ()):
        yield command, None


def _module_name(path: Path) -> str:
    """The dotted name of the module at ``path``, from the packages (``__init__.py``) around
    it: ``bot/cogs/tables.py`` is ``bot.cogs.tables``."""
    path = path.resolve()
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def _line(defined_by: object) -> int:
    try:
        return inspect.getsourcelines(defined_by)[1]  # type: ignore[arg-type]
    except (TypeError, OSError):
        return 1


def extract_commands(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method for modules that define slash commands (``babel.cfg``): the
    module's ``_()``-style calls as the Python extractor finds them, then every command string,
    with its message context (as a ``pgettext`` call) and a note on Discord's rules for it.

    The commands are read from the imported module, as discord.py sees them (a parameter's
    name, its ``describe`` text, its choices), so the template cannot miss one."""
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type]
    if "pgettext" not in keywords:
        raise ValueError("extracting slash commands needs the keyword pgettext:1c,2")
    module = importlib.import_module(_module_name(Path(fileobj.name)))
    seen: set[tuple[str, str]] = set()  # once each, where first met: the template reads in order
    for command, owner in module_commands(module):
        for context, message, defined_by in command_strings(command, owner):
            if (context, message) in seen:
                continue
            seen.add((context, message))
            yield _line(defined_by or owner), "pgettext", (context, message), [NOTES[context]]


def translatable(commands_: Iterable[AnyCommand]) -> set[tuple[str, str]]:
    """Every ``(context, message)`` the translator is asked for to register ``commands_``."""
    return {(c, m) for command in commands_ for c, m, _ in command_strings(command)}


__all__ = [
    "CONTEXTS",
    "CommandTranslator",
    "command_strings",
    "extract_commands",
    "module_commands",
    "translatable",
]
