"""The bot's features, loaded as extensions in ``Bot.setup_hook``."""
