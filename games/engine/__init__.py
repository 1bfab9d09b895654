"""The Okey rules engine: pure Python, no Django. See RULES.md for the rules it plays."""
