"""The Okey rules engine: pure Python, no Django. See RULES.md for the rules it plays."""

from .check import CheckError, check

__all__ = ["CheckError", "check"]
