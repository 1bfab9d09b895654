from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player. ``username`` is the public nickname (rumuz); everything else stays private."""
