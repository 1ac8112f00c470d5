"""The message that shows one player's screen: the board with their hand below it (one picture),
the words (what the others did since their last move, what to decide, by when), the tile (or
fall) buttons and a link to the table's newest message. Screens in direct messages and private
screens in the channel are both made here."""

from __future__ import annotations

from collections.abc import Sequence

from bot import emoji as em
from bot import names as player_names
from bot.narrate import narrate, result_lines
from bot.service import Hand
from bot.show import buttons, handtexts, pictures, texts
from bot.show.message import Message, attachment
from bot.show.outbox import Outbox
from bot.show.table import Tables
from i18n import Language
from render import alttext


class HandCard:
    """Makes screen messages, with a link to each table's newest game message."""

    def __init__(self, outbox: Outbox, tables: Tables) -> None:
        self.outbox = outbox
        self.tables = tables

    def newest_message(self, hand: Hand) -> int | None:
        """The id of the table's newest game message: the one this process posted last, or the
        one the database knows when another process posted a newer one (ids grow with time)."""
        kept = self.tables.get(hand.table_id)
        posted = kept.newest if kept is not None else None
        known = [i for i in (posted, hand.board_message_id) if i]
        return max(known, default=None)

    async def message(
        self,
        hand: Hand,
        *,
        fall_row: int,
        mode_button: str | None = None,
        note: str | None = None,
        lang: Language,
    ) -> Message:
        """A message showing ``hand`` (with ``note`` first, its fall choice in ``fall_row``,
        and the button that switches how hands are delivered if ``mode_button`` names the mode
        it switches to). A hand that begins the player's decision tells what the others did
        since their last move. In ``lang``: the clicker's for a click's answer, the player's
        (:func:`bot.languages.player_language`) for a screen sent to them unasked."""
        drawn = [player_names.clean(n) for n in hand.names]
        title = handtexts.hand_title(hand, lang)
        # A turn held back: the view already waits for the next player, who knows nothing yet.
        headline = handtexts.held_headline(lang) if hand.decision == "held" else None
        paused = hand.paused_until is not None and hand.decision != "wait"
        chips = pictures.Chips(
            dict(hand.away), paused, practice=hand.hints, computer_chose=hand.computer_chose
        )
        png = await pictures.screen_png(
            hand.view,
            drawn,
            title=title,
            headline=headline,
            renderer=self.outbox.renderer,
            lang=lang,
            chips=chips,
        )
        fitting = hand.fitting if hand.decision == "play" else ()
        said = alttext.screen_text(
            hand.view,
            drawn,
            title=title,
            fitting=fitting,
            headline=headline,
            lang=lang,
            chips=chips,
        )
        content = handtexts.hand_content(
            hand,
            guild_name=await self.outbox.guild_name(hand.guild_id),
            since=since(hand, lang),
            result=round_result(hand, lang),
            lang=lang,
        )
        message = Message(
            content,
            files=[attachment(png, "turn.png", said)],
            view=buttons.hand_view(
                hand,
                fall_row=fall_row,
                with_mode=mode_button,
                message_id=self.newest_message(hand),
                lang=lang,
            ),
        )
        return message.noted(note, texts.clip)


def since(hand: Hand, lang: Language) -> Sequence[str]:
    """The others' turns since the player's last move, as every message words them but told to
    the player ("went under your pile"): one text per turn, a line per event (at most
    :data:`handtexts.SINCE_LINES`)."""
    shown = [texts.esc(n) for n in hand.names]
    chose = list(hand.since_chose) + [frozenset()] * (len(hand.since) - len(hand.since_chose))
    told = (
        narrate(t, shown, lang, viewer=hand.seat, most=handtexts.SINCE_LINES, computer_chose=c)
        for t, c in zip(hand.since, chose, strict=True)
    )
    return [turn for turn in told if turn]


def round_result(hand: Hand, lang: Language) -> Sequence[str]:
    """The round that ended since the player's last move, as its post told it but told to the
    player ("You win round 1 of 2." when they won it): its winner, then the standings after it
    (empty when no round ended since)."""
    won, v = hand.round_won, hand.view
    if won is None:
        return []
    told = result_lines(
        [texts.esc(n) for n in hand.names],
        winner=won.player,
        round_no=v.round - 1,
        rounds=v.rounds,
        round_scores=won.scores,
        totals=v.scores,
        lang=lang,
        viewer=hand.seat,
    )
    return [f"{em.ROUND_WON} {told[0]}", *told[1:]]
