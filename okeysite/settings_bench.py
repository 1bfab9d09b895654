"""Settings for the server processes of a load test (``bench/load.py``), never for production.

Everything comes from ``okeysite.settings`` (so ``DATABASE_URL`` / ``REDIS_URL`` switch the
configuration exactly as for the site); only two things differ, both about signing in two
thousand scripted players from one machine:

* passwords are hashed with MD5: a real (PBKDF2) check costs ~0.25 s of CPU, so 2,000 sign-ins
  would be eight CPU-minutes of hashing on a 2-core box before a single tile moves;
* allauth's per-IP login limits (30 sign-ins a minute; 10 attempts a minute, which allauth counts
  before it checks the password, so sixteen concurrent good sign-ins trip it) are switched off:
  every bench client signs in from 127.0.0.1, where real players come from as many addresses as
  there are players. Raising them was not enough: allauth serialises each limit's bookkeeping
  behind a cache lock it waits for at most one second, and two thousand sign-ins from one address
  on a busy server queued behind it and were refused as "too many attempts". The per-account count
  of attempts (5 in 5 minutes) is raised, so back-to-back runs can sign the same players in again.

The bench users are created by ``manage.py bench_setup`` with this module, so their hashes are MD5.
"""

from okeysite.settings import *  # noqa: F401,F403
from okeysite.settings import ACCOUNT_RATE_LIMITS as _BASE_RATE_LIMITS

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
ACCOUNT_RATE_LIMITS = {**_BASE_RATE_LIMITS, "login": "", "login_failed": "1000/300s/key"}

# Likewise every bench socket comes from 127.0.0.1: the per-address socket cap would stop the run at
# a hundred players (the per-user cap and the per-user message budget stay as in production).
SOCKETS_PER_ADDRESS = 100_000
