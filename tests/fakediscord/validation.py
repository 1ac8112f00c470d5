"""Discord's limits on a message body (content, embeds, components, attachments).

Each check raises :func:`~.errors.invalid_form` (400, code 50035 ``Invalid Form Body``) with the
nested ``errors`` path Discord uses, e.g. ``components.0.components.1.emoji.name``. The README's
table "Discord's rules the fake enforces" names the page of Discord's documentation behind each.

Components V2 (message flag ``1 << 15``) follow Discord's component reference,
``developers/components/reference.mdx`` in ``discord/discord-api-docs`` (its introduction; the
"Anatomy of a Component" for ``id``; Action Row, Section, Text Display, Thumbnail, Media Gallery,
File, Separator and Container for what each holds), and the message resource,
``developers/resources/message.mdx`` (Message Flags: the flag "can't be removed"; Create Message:
no ``content``, ``embeds``, ``sticker_ids``, ``poll`` or ``shared_client_theme`` with the flag).
The 4,000 characters of text over a message's text displays are not in Discord's pages: discord.py
documents them (``LayoutView.content_length``) and the fake holds a bot to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import emoji as unicode_emoji

from .errors import DiscordError, invalid_form
from .models import MessageFlag

#: Component types by their number (components reference).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = (3, 5, 6, 7, 8)
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY = 9, 10, 11, 12
FILE, SEPARATOR, CONTAINER = 13, 14, 17
V2_ONLY = (SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
V2_TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
CONTAINER_CHILDREN = (ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE)
"""Container Child Components (components reference, Container)."""
SECTION_CHILDREN = (TEXT_DISPLAY,)
"""Section Child Components (components reference, Section): one to three text displays."""
SECTION_ACCESSORIES = (BUTTON, THUMBNAIL)
LINK, PREMIUM = 5, 6

MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
"""Characters of text over all the text displays of a message (discord.py's LayoutView)."""
MAX_COMPONENT_ID = 2**31 - 1
"""A component's ``id`` is a 32 bit integer (components reference, Anatomy of a Component)."""
LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids", "shared_client_theme")
"""What a Components V2 message may not carry (message resource, Create Message)."""
ATTACHMENT_URL = re.compile(r"attachment://(.+)")


def _too_long(path: str, limit: int) -> DiscordError:
    return invalid_form(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _bad_length(path: str, low: int, high: int) -> DiscordError:
    message = f"Must be between {low} and {high} in length."
    return invalid_form(path, "BASE_TYPE_BAD_LENGTH", message)


# ---------------------------------------------------------------------------------- embeds


def check_embeds(embeds: list[Any]) -> None:
    """At most 10 embeds; title 256, description 4096, 25 fields (name 256, value 1024),
    footer 2048, author 256, and 6000 characters over all embeds."""
    if len(embeds) > 10:
        raise _too_long("embeds", 10)
    total = 0
    for i, e in enumerate(embeds):
        total += _check_embed(e, f"embeds.{i}")
    if total > 6000:
        raise invalid_form(
            "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )


def _text(value: Any) -> str:
    return str(value).strip() if value is not None else ""


def _check_embed(e: Any, path: str) -> int:
    if not isinstance(e, dict):
        raise invalid_form(
            path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        )
    total = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = _text(e.get(key))
        if len(value) > limit:
            raise _too_long(f"{path}.{key}", limit)
        total += len(value)
    fields = e.get("fields") or []
    if len(fields) > 25:
        raise _too_long(f"{path}.fields", 25)
    for i, f in enumerate(fields):
        name, value = _text(f.get("name")), _text(f.get("value"))
        if not name or len(name) > 256:
            raise _bad_length(f"{path}.fields.{i}.name", 1, 256)
        if not value or len(value) > 1024:
            raise _bad_length(f"{path}.fields.{i}.value", 1, 1024)
        total += len(name) + len(value)
    footer = _text((e.get("footer") or {}).get("text"))
    if len(footer) > 2048:
        raise _too_long(f"{path}.footer.text", 2048)
    author = _text((e.get("author") or {}).get("name"))
    if len(author) > 256:
        raise _too_long(f"{path}.author.name", 256)
    return total + len(footer) + len(author)


# ---------------------------------------------------------------------------------- components


def check_emoji(value: Any, path: str, code: str) -> None:
    """A partial emoji: a custom emoji by its ``id``, or a Unicode emoji by its ``name``."""
    if not isinstance(value, dict):
        raise invalid_form(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used")
    ident = value.get("id")
    if ident is not None:
        if not str(ident).isdigit():
            message = f"Value {ident!r} is not snowflake."
            raise invalid_form(f"{path}.id", "NUMBER_TYPE_COERCE", message)
        return
    name = value.get("name")
    if not isinstance(name, str) or not unicode_emoji.is_emoji(name):
        raise invalid_form(f"{path}.name", code, f"Invalid emoji: {name!r} is not an emoji")


class _Seen:
    """What one message's components have used so far: custom ids, ``id``s, characters of text."""

    def __init__(self) -> None:
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()
        self.text = 0


def check_components(components: Any, *, v2: bool) -> int:
    """Layout and fields of a message's components; return how many there are (nested too)."""
    if not isinstance(components, list):
        raise invalid_form("components", "BASE_TYPE_ARRAY", "Must be an array.")
    if not v2 and len(components) > 5:
        raise _too_long("components", 5)
    seen = _Seen()
    count = 0
    for i, comp in enumerate(components):
        path = f"components.{i}"
        allowed = V2_TOP_LEVEL if v2 else (ACTION_ROW,)
        _check_type(comp, path, allowed)
        count += _check_component(comp, path, seen, v2=v2)
    if v2 and count > MAX_V2_COMPONENTS:
        raise invalid_form(
            "components",
            "MESSAGE_COMPONENTS_TOO_MANY",
            f"A message may hold at most {MAX_V2_COMPONENTS} components (it has {count}).",
        )
    if v2 and seen.text > MAX_V2_TEXT:
        raise invalid_form(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"The text displays of a message hold at most {MAX_V2_TEXT} characters in all"
            f" (these hold {seen.text}).",
        )
    return count


def _check_type(comp: Any, path: str, allowed: tuple[int, ...]) -> None:
    if not isinstance(comp, dict) or comp.get("type") not in allowed:
        raise invalid_form(
            f"{path}.type",
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {allowed}.',
        )


def _check_id(comp: dict[str, Any], path: str, seen: _Seen) -> None:
    """The optional ``id``: a 32 bit integer, unique within the message; 0 counts as none."""
    ident = comp.get("id")
    if ident is None:
        return
    if isinstance(ident, bool) or not isinstance(ident, int):
        message = f"Value {ident!r} is not int."
        raise invalid_form(f"{path}.id", "NUMBER_TYPE_COERCE", message)
    if not 0 <= ident <= MAX_COMPONENT_ID:
        message = f"int value should be between 0 and {MAX_COMPONENT_ID}."
        raise invalid_form(f"{path}.id", "NUMBER_TYPE_MAX", message)
    if ident == 0:
        return
    if ident in seen.ids:
        raise invalid_form(
            f"{path}.id", "COMPONENT_ID_DUPLICATED", "Component id must be unique in a message"
        )
    seen.ids.add(ident)


def _check_component(comp: dict[str, Any], path: str, seen: _Seen, *, v2: bool) -> int:
    ctype = comp.get("type")
    if ctype in V2_ONLY and not v2:
        raise invalid_form(
            f"{path}.type",
            "COMPONENT_TYPE_REQUIRES_COMPONENTS_V2",
            "This component needs the IS_COMPONENTS_V2 message flag",
        )
    _check_id(comp, path, seen)
    count = 1
    if ctype == ACTION_ROW:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 5:
            raise _bad_length(f"{path}.components", 1, 5)
        kinds = [c.get("type") if isinstance(c, dict) else None for c in children]
        if any(k in SELECTS for k in kinds) and len(children) > 1:
            raise invalid_form(
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            cpath = f"{path}.components.{j}"
            if not isinstance(child, dict) or child.get("type") not in (BUTTON, *SELECTS):
                raise invalid_form(
                    f"{cpath}.type",
                    "UNION_TYPE_CHOICES",
                    "An action row holds buttons or one select menu.",
                )
            count += _check_component(child, cpath, seen, v2=v2)
    elif ctype == BUTTON:
        _check_button(comp, path, seen.custom_ids)
    elif ctype in SELECTS:
        _check_select(comp, path, seen.custom_ids)
    elif ctype == CONTAINER:
        children = comp.get("components") or []
        if not children:
            raise _bad_length(f"{path}.components", 1, MAX_V2_COMPONENTS)
        colour = comp.get("accent_color")
        if colour is not None and (
            isinstance(colour, bool) or not isinstance(colour, int) or not 0 <= colour <= 0xFFFFFF
        ):
            message = "accent_color is an RGB integer from 0x000000 to 0xFFFFFF."
            raise invalid_form(f"{path}.accent_color", "NUMBER_TYPE_MAX", message)
        for j, child in enumerate(children):
            cpath = f"{path}.components.{j}"
            _check_type(child, cpath, CONTAINER_CHILDREN)
            count += _check_component(child, cpath, seen, v2=v2)
    elif ctype == SECTION:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 3:
            raise _bad_length(f"{path}.components", 1, 3)
        for j, child in enumerate(children):
            cpath = f"{path}.components.{j}"
            _check_type(child, cpath, SECTION_CHILDREN)
            count += _check_component(child, cpath, seen, v2=v2)
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in SECTION_ACCESSORIES:
            raise invalid_form(
                f"{path}.accessory", "BASE_TYPE_REQUIRED", "A section needs a button or thumbnail"
            )
        count += _check_component(accessory, f"{path}.accessory", seen, v2=v2)
    elif ctype == TEXT_DISPLAY:
        content = comp.get("content")
        if not _text(content):
            raise _bad_length(f"{path}.content", 1, MAX_V2_TEXT)
        seen.text += len(str(content))
    elif ctype == THUMBNAIL:
        _check_media(comp.get("media"), f"{path}.media")
    elif ctype == MEDIA_GALLERY:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            raise _bad_length(f"{path}.items", 1, 10)
        for k, item in enumerate(items):
            media = item.get("media") if isinstance(item, dict) else None
            _check_media(media, f"{path}.items.{k}.media")
    elif ctype == FILE:
        media = comp.get("file")
        _check_media(media, f"{path}.file")
        assert isinstance(media, dict)
        if not ATTACHMENT_URL.fullmatch(str(media.get("url") or "")):
            raise invalid_form(
                f"{path}.file.url",
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED",
                "A file component shows an uploaded file: attachment://<filename>",
            )
    elif ctype == SEPARATOR:
        spacing = comp.get("spacing")
        if spacing is not None and spacing not in (1, 2):
            raise invalid_form(
                f"{path}.spacing", "BASE_TYPE_CHOICES", "Value must be one of (1, 2)."
            )
    return count


def _check_media(media: Any, path: str) -> None:
    """An unfurled media item: an object with a ``url``."""
    if not isinstance(media, dict) or not str(media.get("url") or ""):
        raise invalid_form(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")


def _check_custom_id(comp: dict[str, Any], path: str, ids: set[str]) -> None:
    cid = comp.get("custom_id")
    if not isinstance(cid, str) or not cid:
        raise invalid_form(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
    if len(cid) > 100:
        raise _too_long(f"{path}.custom_id", 100)
    if cid in ids:
        raise invalid_form(
            f"{path}.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    ids.add(cid)


def _check_button(comp: dict[str, Any], path: str, ids: set[str]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, LINK, PREMIUM):
        raise invalid_form(
            f"{path}.style", "UNION_TYPE_CHOICES", 'Value of field "style" must be one of (1..6).'
        )
    label = comp.get("label")
    if label is not None and len(str(label)) > 80:
        raise _too_long(f"{path}.label", 80)
    if style == PREMIUM:
        if not comp.get("sku_id"):
            raise invalid_form(f"{path}.sku_id", "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not label and not comp.get("emoji"):
        raise invalid_form(
            path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji"
        )
    if comp.get("emoji"):
        check_emoji(comp["emoji"], f"{path}.emoji", "BUTTON_COMPONENT_INVALID_EMOJI")
    if style == LINK:
        url = comp.get("url")
        if not url:
            message = "A link button needs a url"
            raise invalid_form(f"{path}.url", "BUTTON_COMPONENT_URL_REQUIRED", message)
        if len(str(url)) > 512:
            raise _too_long(f"{path}.url", 512)
        if comp.get("custom_id") is not None:
            raise invalid_form(
                f"{path}.custom_id",
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A link button cannot have a custom_id",
            )
        return
    if comp.get("url") is not None:
        raise invalid_form(
            f"{path}.url", "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons have a url"
        )
    _check_custom_id(comp, path, ids)


def _check_select(comp: dict[str, Any], path: str, ids: set[str]) -> None:
    _check_custom_id(comp, path, ids)
    placeholder = comp.get("placeholder")
    if placeholder is not None and len(str(placeholder)) > 150:
        raise _too_long(f"{path}.placeholder", 150)
    for key, low in (("min_values", 0), ("max_values", 1)):
        value = comp.get(key)
        if value is not None and not low <= int(value) <= 25:
            raise invalid_form(
                f"{path}.{key}", "NUMBER_TYPE_MAX", f"{key} must be between {low} and 25."
            )
    if comp.get("type") != STRING_SELECT:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        raise _bad_length(f"{path}.options", 1, 25)
    values: set[str] = set()
    for k, opt in enumerate(options):
        opath = f"{path}.options.{k}"
        for key in ("label", "value"):
            text = str(opt.get(key) or "")
            if not 1 <= len(text) <= 100:
                raise _bad_length(f"{opath}.{key}", 1, 100)
        if opt.get("description") is not None and len(str(opt["description"])) > 100:
            raise _too_long(f"{opath}.description", 100)
        if opt.get("emoji"):
            check_emoji(opt["emoji"], f"{opath}.emoji", "SELECT_COMPONENT_OPTION_INVALID_EMOJI")
        if str(opt["value"]) in values:
            raise invalid_form(
                f"{opath}.value",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        values.add(str(opt["value"]))
    max_values = int(comp.get("max_values") or 1)
    if max_values > len(options):
        raise invalid_form(
            f"{path}.max_values",
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
            "max_values may not exceed the number of options",
        )


# ---------------------------------------------------------------------------------- V2 and files


def check_components_v2_body(body: dict[str, Any]) -> None:
    """A Components V2 message: none of :data:`LEGACY_FIELDS` (``content``, ``embeds``,
    ``poll``, ``sticker_ids``, ``shared_client_theme``)."""
    for key in LEGACY_FIELDS:
        if body.get(key):
            raise invalid_form(
                key,
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content', 'embeds', 'sticker_ids', 'poll' and 'shared_client_theme' fields"
                " cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )


def check_becoming_v2(body: dict[str, Any], content: str, embeds: list[Any]) -> None:
    """An edit that sets IS_COMPONENTS_V2 on a classic message must empty, in the same body,
    the legacy fields the message uses: ``content`` to null, ``embeds`` to ``[]``
    (``developers/resources/message.mdx``, Edit Message: "When the IS_COMPONENTS_V2 flag is
    set, any of the used content, embeds, sticker_ids, or poll fields must have their values
    reset to empty ... Failing to do this will result in a 400 BAD REQUEST response")."""
    for key, used in (("content", bool(content)), ("embeds", bool(embeds))):
        if used and (key not in body or body[key]):
            raise invalid_form(
                key,
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"Setting IS_COMPONENTS_V2 on this message needs its {key!r} reset to empty",
            )


def is_v2(flags: int) -> bool:
    return bool(flags & MessageFlag.IS_COMPONENTS_V2)


def attachment_references(body: dict[str, Any]) -> Iterable[tuple[str, str]]:
    """``(path, filename)`` of every ``attachment://`` url in embeds and components."""
    for i, e in enumerate(body.get("embeds") or []):
        if not isinstance(e, dict):
            continue
        for key in ("image", "thumbnail"):
            url = (e.get(key) or {}).get("url")
            m = ATTACHMENT_URL.fullmatch(str(url or ""))
            if m:
                yield f"embeds.{i}.{key}.url", m.group(1)
        for key in ("author", "footer"):
            url = (e.get(key) or {}).get("icon_url")
            m = ATTACHMENT_URL.fullmatch(str(url or ""))
            if m:
                yield f"embeds.{i}.{key}.icon_url", m.group(1)
    yield from _component_references(body.get("components") or [], "components")


def _component_references(components: list[Any], path: str) -> Iterable[tuple[str, str]]:
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = f"{path}.{i}"
        medias: list[tuple[str, Any]] = []
        if isinstance(comp.get("media"), dict):
            medias.append((f"{here}.media.url", comp["media"].get("url")))
        if isinstance(comp.get("file"), dict):
            medias.append((f"{here}.file.url", comp["file"].get("url")))
        for k, item in enumerate(comp.get("items") or []):
            if isinstance(item, dict) and isinstance(item.get("media"), dict):
                medias.append((f"{here}.items.{k}.media.url", item["media"].get("url")))
        for where, url in medias:
            m = ATTACHMENT_URL.fullmatch(str(url or ""))
            if m:
                yield where, m.group(1)
        if isinstance(comp.get("components"), list):
            yield from _component_references(comp["components"], f"{here}.components")
        if isinstance(comp.get("accessory"), dict):
            yield from _component_references([comp["accessory"]], f"{here}.accessory")


def check_attachment_references(body: dict[str, Any], filenames: set[str]) -> None:
    """Every ``attachment://name`` must name a file of the message (uploaded now or kept)."""
    for path, name in attachment_references(body):
        if name not in filenames:
            raise invalid_form(
                path,
                "ATTACHMENT_NOT_FOUND",
                f"attachment://{name} names no file of this message",
            )


def referenced_filenames(components: list[Any]) -> set[str]:
    """Files a Components V2 message shows (only those its components reference)."""
    return {name for _, name in _component_references(components, "components")}
