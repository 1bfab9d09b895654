"""Settings for the test suite: the site's own settings with local-work defaults.

``okeysite.settings`` is safe by default (``DEBUG`` off, a real ``SECRET_KEY`` required), so the
suite asks for the development defaults the way ``make run`` does, before the settings are read.
An explicit environment (CI's ``DATABASE_URL``, ``REDIS_URL``...) still wins.
"""

import os

os.environ.setdefault("DEBUG", "1")

from okeysite.settings import *  # noqa: E402,F401,F403
