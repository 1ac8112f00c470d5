"""Tests of the table service and the bot helpers, without Discord."""
