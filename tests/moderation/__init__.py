"""Moderation tests; the chat filter core ones are plain pytest + hypothesis, no Django."""
