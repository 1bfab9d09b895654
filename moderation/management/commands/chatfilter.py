"""``python manage.py chatfilter "sentence" …``: one JSON line per sentence, with today's staff lists.

{"action": "allow"|"censor"|"hold"|"block"|"flag", "categories": [...], "text": "what others see"}
Reads sentences from standard input (one a line) when none is given; ``--reasons`` adds why.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from moderation import selectors


class Command(BaseCommand):
    help = "Show what the chat filter does to each sentence (one JSON object per line)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sentences", nargs="*", help="sentences to try; none: read lines from stdin")
        parser.add_argument("--reasons", action="store_true", help="also print the reasons behind each decision")

    def handle(self, *args: Any, **options: Any) -> None:
        sentences = options["sentences"] or [line.rstrip("\n") for line in sys.stdin]
        for sentence in sentences:
            result = selectors.try_sentence(sentence)
            out = result.to_dict()
            if options["reasons"]:
                out["reasons"] = list(result.reasons)
            self.stdout.write(json.dumps(out, ensure_ascii=False))
