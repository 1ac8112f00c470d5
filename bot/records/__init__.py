"""Records of finished matches for players: stats, leaderboard, history, replays and export.

No Discord in here: :mod:`bot.records.service` answers with typed results, which
:mod:`bot.records_show` words and :mod:`bot.cogs.records` sends.
"""
