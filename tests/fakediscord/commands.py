"""Discord's rules for registering application commands, and its list of locales.

Pages are in Discord's documentation repository (``discord/discord-api-docs``, under
``developers/``):

- ``interactions/application-commands.mdx``, "Application Command Naming": CHAT_INPUT command
  and option names match ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` (unicode) and use
  the lowercase variant of every letter that has one; "Application Command Structure" and
  "Application Command Option Structure": names 1-32 characters, descriptions 1-100, at most 25
  options, at most 25 choices, choice names 1-100 characters, string choice values at most 100,
  localization dictionaries keyed by the available locales whose values "follow the same
  restrictions" as the field; "Slash Commands": at most 8000 characters of names, descriptions
  and values per command, counting the longest localization of each field; "Localization":
  localized option names distinct from the other default option names and from the other
  option names in that locale.
- ``reference.mdx``: "Locales" (the list), "Error Messages" (the shape of the answer, and
  ``APPLICATION_COMMAND_TOO_LARGE``).

Field error codes the documentation does not name are those Discord answers with, as reported in
public bug reports (``APPLICATION_COMMAND_INVALID_NAME`` at ``name_localizations`` for a
command's own name but at ``name_localizations.<locale>`` for an option's; ``BASE_TYPE_CHOICES``
for an unknown locale), else a code of the fake's own marked *not documented* in the README.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

import regex

from .errors import invalid_form

JSON = dict[str, Any]

#: ``reference.mdx``, "Locales".
LOCALES: Final = (
    "id",
    "da",
    "de",
    "en-GB",
    "en-US",
    "es-ES",
    "es-419",
    "fr",
    "hr",
    "it",
    "lt",
    "hu",
    "nl",
    "no",
    "pl",
    "pt-BR",
    "ro",
    "fi",
    "sv-SE",
    "vi",
    "tr",
    "cs",
    "el",
    "bg",
    "ru",
    "uk",
    "hi",
    "th",
    "zh-CN",
    "ja",
    "zh-TW",
    "ko",
)
#: ``application-commands.mdx``, "Locale fallbacks": where a locale's own value is missing.
FALLBACKS: Final = {"en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES"}

#: ``application-commands.mdx``, "Application Command Naming" (the documented expression).
NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
MAX_OPTIONS: Final = 25
MAX_CHOICES: Final = 25
MAX_COMMAND_SIZE: Final = 8000

CHAT_INPUT: Final = 1
SUB_COMMAND: Final = 1
SUB_COMMAND_GROUP: Final = 2
WITH_CHOICES: Final = (3, 4, 10)  # STRING, INTEGER, NUMBER


def shown_name(item: JSON, locale: str) -> str:
    """The name a client in ``locale`` shows for a command, option or choice: its localization
    for that locale, else for the fallback locale, else the default."""
    localized = item.get("name_localizations") or {}
    for key in (locale, FALLBACKS.get(locale)):
        if key is not None and localized.get(key):
            return str(localized[key])
    return str(item["name"])


def validate_command(data: JSON, index: int) -> None:
    """Raise the 400 Invalid Form Body Discord answers for command ``data`` (the ``index``-th of a
    bulk overwrite), or nothing if Discord would take it."""
    at = f"{index}"
    ctype = int(data.get("type", CHAT_INPUT))
    name = data.get("name")
    if ctype == CHAT_INPUT:
        _check_name(name, f"{at}.name")
        # A command's own localized names are refused as a whole (no locale in the path).
        _check_localized(data, "name", at, lambda v, p: _check_name(v, f"{at}.name_localizations"))
        _check_text(data.get("description"), f"{at}.description", 1, 100)
        _check_localized(data, "description", at, lambda v, p: _check_text(v, p, 1, 100))
    else:
        if not isinstance(name, str) or not 1 <= len(name) <= 32:
            _bad_length(f"{at}.name", 1, 32)
        _check_localized(data, "name", at, lambda v, p: _check_text(v, p, 1, 32))
    options = data.get("options") or []
    if options and ctype != CHAT_INPUT:
        raise invalid_form(
            f"{at}.options",
            "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
            "Only slash commands take options",
        )
    _check_options(options, f"{at}.options")
    size = command_size(data)
    if size > MAX_COMMAND_SIZE:
        raise invalid_form(
            at,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
        )


def command_size(data: JSON) -> int:
    """The characters Discord counts against a command's 8000: every name, description and
    choice value of the command, its options (subcommands and groups included) and choices,
    each at the length of its longest localization (the default included)."""

    def longest(item: JSON, field: str) -> int:
        values = [item.get(field) or ""]
        values += list((item.get(f"{field}_localizations") or {}).values())
        return max(len(str(v)) for v in values)

    total = longest(data, "name") + longest(data, "description")
    for option in data.get("options") or []:
        total += command_size(option)
    for choice in data.get("choices") or []:
        total += longest(choice, "name") + len(str(choice.get("value", "")))
    return total


def _check_options(options: Any, at: str) -> None:
    if not isinstance(options, list):
        raise invalid_form(at, "BASE_TYPE_ARRAY", "Must be an array.")
    if len(options) > MAX_OPTIONS:
        raise invalid_form(at, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
    for i, option in enumerate(options):
        here = f"{at}.{i}"
        _check_name(option.get("name"), f"{here}.name")
        _check_localized(option, "name", here, _check_name)
        _check_text(option.get("description"), f"{here}.description", 1, 100)
        _check_localized(option, "description", here, lambda v, p: _check_text(v, p, 1, 100))
        _check_choices(option, here)
        if int(option.get("type", 0)) in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(option.get("options") or [], f"{here}.options")
    _check_distinct_names(options, at)


def _check_distinct_names(options: list[JSON], at: str) -> None:
    """Option names are unique among their siblings, in every locale: a localized name is
    distinct from the other options' default names and from their names in that locale.

    "That command" of the documentation is read as one list of options (a command's, or a
    subcommand's): subcommands of one group commonly have options of the same name."""
    defaults = [str(o.get("name")) for o in options]
    for i, name in enumerate(defaults):
        if name in defaults[:i]:
            raise invalid_form(
                f"{at}.{i}.name",
                "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
                "Option names must be unique",
            )
    locales = {key for o in options for key in (o.get("name_localizations") or {})}
    for locale in sorted(locales):
        seen: set[str] = set()
        for i, option in enumerate(options):
            localized = (option.get("name_localizations") or {}).get(locale)
            shown = str(localized) if localized else defaults[i]
            others = defaults[:i] + defaults[i + 1 :]
            if shown in seen or (localized and localized in others):
                raise invalid_form(
                    f"{at}.{i}.name_localizations.{locale}",
                    "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
                    "Localized option names must be unique",
                )
            seen.add(shown)


def _check_choices(option: JSON, at: str) -> None:
    choices = option.get("choices")
    if choices is None:
        return
    if int(option.get("type", 0)) not in WITH_CHOICES:
        raise invalid_form(
            f"{at}.choices",
            "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED",
            "Only string, integer and number options take choices",
        )
    if len(choices) > MAX_CHOICES:
        raise invalid_form(
            f"{at}.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length."
        )
    for j, choice in enumerate(choices):
        here = f"{at}.choices.{j}"
        _check_text(choice.get("name"), f"{here}.name", 1, 100)
        _check_localized(choice, "name", here, lambda v, p: _check_text(v, p, 1, 100))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            _bad_length(f"{here}.value", 0, 100)


def _check_localized(item: JSON, field: str, at: str, check: Any) -> None:
    """Keys from Discord's locale list; each value checked like the field itself."""
    localized = item.get(f"{field}_localizations")
    if localized is None:
        return
    path = f"{at}.{field}_localizations"
    if not isinstance(localized, dict):
        raise invalid_form(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
    for key, value in localized.items():
        if key not in LOCALES:
            choices = ", ".join(f"'{loc}'" for loc in LOCALES)
            raise invalid_form(
                f"{path}.{key}", "BASE_TYPE_CHOICES", f"Value must be one of ({choices})."
            )
        check(value, f"{path}.{key}")


def _check_name(value: Any, path: str) -> None:
    """A CHAT_INPUT command or option name (``application-commands.mdx``, "Application Command
    Naming")."""
    if not isinstance(value, str) or not 1 <= len(value) <= 32:
        _bad_length(path, 1, 32)
    if not NAME.match(value) or value != value.lower():
        raise invalid_form(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_text(value: Any, path: str, low: int, high: int) -> None:
    if not isinstance(value, str) or not low <= len(value) <= high:
        _bad_length(path, low, high)


def _bad_length(path: str, low: int, high: int) -> NoReturn:
    raise invalid_form(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


__all__ = ["FALLBACKS", "LOCALES", "command_size", "shown_name", "validate_command"]
