"""The foundation: the site boots on whatever settings the environment gives, and serves pages."""

import pytest
from django.conf import settings
from django.core.management import call_command

from salons.models import Salon


@pytest.mark.django_db
def test_home_page_is_served(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Okey" in response.content.decode()


@pytest.mark.django_db
def test_demo_salons_are_created_once():
    call_command("seed_demo")
    call_command("seed_demo")
    assert list(Salon.objects.values_list("slug", flat=True)) == ["genel", "caylaklar", "ustalar"]


def test_services_follow_the_environment():
    import os

    engine = settings.DATABASES["default"]["ENGINE"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"
    if os.environ.get("REDIS_URL"):
        assert layer == "okeysite.channel_layer.SharedDecodePubSubChannelLayer"
    else:
        assert layer == "channels.layers.InMemoryChannelLayer"
