"""Tests of the fake Discord itself (``tests/fakediscord``): its rules over raw HTTP, and the real
discord.py driven against it."""
