"""Engine tests: plain pytest + hypothesis, no Django."""

import sys
from pathlib import Path

# The engine is plain Python; let these tests run from a bare checkout without Django settings.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
