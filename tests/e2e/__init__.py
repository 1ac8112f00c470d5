"""End-to-end tests: the real bot (unmodified discord.py) against the local fake Discord."""
