-- Languages: each player's (their Discord client's, as the bot last saw it: for the direct
-- messages it sends them later), each server's (Discord's, as last seen, and the one
-- /fp settings may choose instead), and each table's: the language of its posts, chosen when
-- it opened. What was kept before speaks English until the bot sees another language.

ALTER TABLE player_prefs ADD COLUMN language TEXT NOT NULL DEFAULT 'en';

ALTER TABLE guild_settings ADD COLUMN language TEXT;      -- /fp settings' choice (NULL: the server's)
ALTER TABLE guild_settings ADD COLUMN guild_locale TEXT;  -- Discord's tag ("fr", "en-US"), last seen

ALTER TABLE tables ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
