"""What the bot shows on Discord, by audience (see ``bot/README.md``)."""
