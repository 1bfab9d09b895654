"""Kart Okey (package docstring written below)."""
