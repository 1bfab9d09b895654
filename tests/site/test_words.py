"""The words players read (issue 13): one word for the password, İ with its dot, no colons after
labels, the site's name (not host and port) in e-mails, page titles without repetition, rules and
fair-deal pages for players rather than developers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.conftest import make_player
from tests.site.test_accounts import signup

pytestmark = pytest.mark.django_db

AUTH_PAGES = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]


def visible_text(html: str) -> str:
    main = visible_html(html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", main, flags=re.S)))


@pytest.mark.parametrize("url", AUTH_PAGES)
def test_account_pages_say_sifre_and_put_no_colon_after_labels(url):
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(url).content.decode()
    text = visible_text(html)
    assert "arola" not in text, "one word for the password: Şifre"
    labels = re.findall(r"<label[^>]*>(.*?)</label>", html, re.S)
    assert labels and not [label for label in labels if label.strip().endswith(":")]


def test_english_labels_have_no_colons_either():
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/accounts/login/", HTTP_COOKIE="django_language=en").content.decode()
    labels = [label.strip() for label in re.findall(r"<label[^>]*>(.*?)</label>", html, re.S)]
    assert not [label for label in labels if label.endswith(":")]


def title_case_words(html: str) -> list[str]:
    """Headings and buttons whose later words start with a capital ("E-Posta Onay Kodu Gir")."""
    texts = re.findall(r"<(?:h1|h2|button)[^>]*>(.*?)</(?:h1|h2|button)>", visible_html(html), re.S)
    found = []
    for text in (re.sub(r"<[^>]+>|\s+", " ", t).strip() for t in texts):
        words = [w for w in re.split(r"[\s-]+", text.replace("Okey Salonu", "")) if w]
        if any(w[0].isupper() for w in words[1:]):
            found.append(text)
    return found


def visible_html(html: str) -> str:
    return html.split('<main id="main" class="page">')[-1].split("</main>")[0]


@pytest.mark.parametrize("url", AUTH_PAGES + ["/accounts/password/change/", "/accounts/email/", "/accounts/logout/"])
def test_account_pages_write_headings_and_buttons_in_sentence_case(url):
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(make_player("Ayse"))
    if url in AUTH_PAGES:
        client.logout()
    assert title_case_words(client.get(url).content.decode()) == []


def test_the_code_page_says_it_in_sentence_case_and_plain_turkish(client, mailoutbox):
    response = signup(client)
    html = client.get(response["Location"]).content.decode()
    assert title_case_words(html) == []
    assert "E-posta onay kodu" in visible_text(html)
    assert "Onay e-postası" in html and "e-posta'sı" not in html


def test_the_code_page_cancel_has_a_dotted_capital_i(client, mailoutbox):
    response = signup(client)
    page = client.get(response["Location"]).content.decode()
    assert "İptal" in page and "Iptal" not in page
    # Cancel is the quiet, outlined button; "Onayla" the one that stands out.
    cancel = re.search(r"<button[^>]*>\s*İptal\s*</button>", page).group()
    confirm = re.search(r"<button[^>]*>\s*Onayla\s*</button>", page).group()
    assert 'class="auth-secondary"' in cancel and "auth-secondary" not in confirm


def test_emails_name_the_site_not_the_host(client, mailoutbox):
    signup(client)
    body = mailoutbox[-1].body
    assert "Okey Salonu" in body
    assert "testserver" not in body and "127.0.0.1" not in body


def test_the_turkish_emails_never_put_a_suffix_on_the_site_name(client, mailoutbox):
    """"Okey Salonu'ten", "Okey Salonu'i": a suffix after a name the site may change cannot agree
    with it. Our sentences put the name where it needs none; titles are in sentence case."""
    response = signup(client)
    mail = mailoutbox[-1]
    assert mail.subject == "[Okey Salonu] E-posta adresinizi doğrulayın"
    assert "Merhaba, bu e-posta Okey Salonu sitesinden." in mail.body
    assert "Okey Salonu ekibi iyi oyunlar diler." in mail.body
    assert not re.search(r"Okey Salonu['’]", mail.body), mail.body
    page = visible_text(client.get(response["Location"]).content.decode())
    assert "adresine bir kod gönderdik" in page and "davranınız" not in page


def test_the_password_reset_emails_read_as_plain_turkish(client, mailoutbox):
    make_player("Ahmet", email="ahmet@example.com")
    turkish = Client(HTTP_ACCEPT_LANGUAGE="tr")
    turkish.post("/accounts/password/reset/", {"email": "ahmet@example.com"})
    turkish.post("/accounts/password/reset/", {"email": "kimse@example.com"})
    reset, unknown = mailoutbox[-2:]
    assert reset.subject == "[Okey Salonu] Şifre sıfırlama" and "rumuzunuz Ahmet" in reset.body
    assert unknown.subject == "[Okey Salonu] Böyle bir hesap yok"
    assert "bu adresle açılmış bir hesap yok" in unknown.body
    for mail in (reset, unknown):
        assert "veritaban" not in mail.body and not re.search(r"Okey Salonu['’]", mail.body), mail.body


def test_page_titles_name_the_site_once():
    for url in ["/", "/rules/", "/leaderboard/", *AUTH_PAGES]:
        html = Client().get(url).content.decode()
        title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
        assert title.count("Okey Salonu") == 1, (url, title)


def test_the_rules_page_explains_rules_not_the_software():
    text = visible_text(Client().get("/rules/").content.decode())
    for developer_word in ("motor", "kural setinden", "sunucu", "Puanı sıfıra inen olunca"):
        assert developer_word not in text


def test_a_bot_is_marked_where_players_are_listed():
    from accounts.selectors import public_user
    from games import bot_players

    (bot,) = bot_players.bot_users(1)
    assert public_user(bot)["is_bot"] is True
    assert "is_bot" not in public_user(make_player())


def test_a_removed_player_is_told_why_and_until_when():
    from salons import selectors, services
    from tests.conftest import make_room

    owner = make_player("Sahip")
    room = make_room(owner=owner)
    guest = make_player("Misafir")
    services.remove_from_room(owner=owner, room=room, user=guest, reason="küfürlü konuştu", minutes=30)
    error = selectors.room_access_error(room=room, user=guest)
    assert error.code == "removed"
    assert "küfürlü konuştu" in error.message and "saatine kadar" in error.message


def test_a_salon_banned_player_reads_why_on_the_lobby():
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import Sanction
    from tests.conftest import make_salon

    salon = make_salon()
    player = make_player("Yasaklı")
    Sanction.objects.create(user=player, kind=Sanction.Kind.SALON_BAN, salon=salon, reason="reklam yaptı",
                            expires_at=timezone.now() + timedelta(days=2))
    client = Client()
    client.force_login(player)
    page = client.get("/").content.decode()
    assert 'data-testid="salon-refusal"' in page and "reklam yaptı" in page
