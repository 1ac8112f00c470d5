"""Records of finished matches for players: stats, leaderboard, history, replays and export.

No Discord in here: :mod:`bot.records.service` answers with typed results, which
:mod:`bot.recordsdesk` hands to the show side (:mod:`bot.show.records`); refusals are
:class:`~bot.errors.Why` members, as the table service's are.
"""
