-- A server's /fp-settings choices become one record (data.model.GuildSettings.choices(), a JSON
-- object, as a table keeps its options): a new setting is a field of that record, with its
-- default, and needs no migration. guild_locale (Discord's, written alone) keeps its column.
-- SQLite before 3.35 cannot drop a column: the table is built anew.

CREATE TABLE guild_settings_new (
    guild_id     INTEGER PRIMARY KEY,
    settings     TEXT NOT NULL DEFAULT '{}',  -- JSON object: GuildSettings.choices()
    guild_locale TEXT                         -- Discord's tag ("fr", "en-US"), last seen
);

INSERT INTO guild_settings_new (guild_id, settings, guild_locale)
SELECT guild_id,
       json_object('turn_limit_s', turn_limit_s, 'reminder_s', reminder_s,
                   'defaults', CASE WHEN json_valid(defaults) THEN json(defaults) END,
                   'language', language),
       guild_locale
FROM guild_settings;

DROP TABLE guild_settings;
ALTER TABLE guild_settings_new RENAME TO guild_settings;
