-- A server's /fp-settings choices become one record, as the SQLite schema's migration 0013:
-- data.model.GuildSettings.choices() as JSONB; a new setting is a field of that record and needs
-- no migration. guild_locale (Discord's, written alone) keeps its column.

ALTER TABLE guild_settings ADD COLUMN settings JSONB NOT NULL DEFAULT '{}';

UPDATE guild_settings
SET settings = jsonb_build_object('turn_limit_s', turn_limit_s, 'reminder_s', reminder_s,
                                  'defaults', defaults, 'language', language);

ALTER TABLE guild_settings
    DROP COLUMN turn_limit_s,
    DROP COLUMN reminder_s,
    DROP COLUMN defaults,
    DROP COLUMN language;
