"""Error pages read like the site, in the player's language: a missing page, a refusal, an expired
form, a bad request and a server error each say what happened and where to go, never Django's bare
English "Not Found" / "Server Error (500)"."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory, override_settings
from django.utils import translation
from django.views import defaults

from tests.conftest import make_player

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False)
@pytest.mark.parametrize(("language", "title", "words"), [
    ("tr", "Sayfa bulunamadı", "Salonlara dön"),
    ("en", "Page not found", "Back to the salons"),
])
def test_a_missing_page_is_the_sites_own_in_the_players_language(language, title, words):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(make_player("Kayıp"))
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{title}</h1>" in html and words in html
    assert 'class="site-header"' in html and "Kayıp" in html  # the site around it, still signed in
    assert "Not Found" not in html


@override_settings(DEBUG=False)
def test_an_expired_form_says_so_and_that_nothing_was_saved():
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="tr")
    response = client.post("/accounts/login/", {"login": "x", "password": "y"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "Form süresi doldu" in html and "hiçbir şey kaydedilmedi" in html
    assert "CSRF" not in html


@pytest.mark.parametrize(("view", "status", "title"), [
    (lambda request: defaults.server_error(request), 500, "Something went wrong"),
    (lambda request: defaults.bad_request(request, Exception("bad")), 400, "The request was not understood"),
    (lambda request: defaults.permission_denied(request, Exception("no")), 403, "No access"),
])
def test_the_other_error_pages_say_what_happened(view, status, title):
    request = RequestFactory().get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override("en"):
        response = view(request)
    assert response.status_code == status
    assert f"<h1>{title}</h1>" in response.content.decode()
