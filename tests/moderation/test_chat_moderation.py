"""Chat lines through the one entry point (``salons.services.post_chat_message``): what others see
for each filter action, the staff queue of held and flagged lines, and mutes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderation import services
from moderation.models import FilteredLine, ModerationLog, Sanction
from salons import selectors as salon_selectors
from salons import services as salon_services
from salons.models import ChatMessage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def published(monkeypatch):
    """Events that would go to the channel layer after commit, recorded."""
    from salons import events

    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(events, "send_now", lambda group, message: sent.append((group, message)))
    return sent


def chat(world, text, *, table=None, user=None, capture=None):
    return salon_services.post_chat_message(user=user or world.troll, room=world.room, table=table, text=text)


def test_a_clean_line_is_stored_and_published_untouched(world, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = chat(world, "iyi oyunlar")
    assert message.visible and message.text == "iyi oyunlar"
    assert [m["message"]["text"] for g, m in published if m["type"] == "chat.message"] == ["iyi oyunlar"]
    assert not FilteredLine.objects.exists()


def test_a_censored_line_is_stored_and_published_with_stars(world, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = chat(world, "sen ne salaksın", table=world.table)
    assert message.text == "sen ne ********" and message.visible
    assert [(g, m["message"]["text"]) for g, m in published if m["type"] == "chat.message"] == [
        (f"table-{world.table.pk}", "sen ne ********")
    ]
    line = FilteredLine.objects.get()
    assert (line.action, line.original, line.shown, line.review) == ("censor", "sen ne salaksın", "sen ne ********", "none")


def test_a_blocked_line_is_refused_with_the_reason_and_kept_for_staff(world, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.ServiceError) as refused:
        chat(world, "gelin okeybedava nokta com")
    assert refused.value.code == "chat_blocked"
    assert "reklam" in refused.value.message
    assert not ChatMessage.objects.exists() and not published
    line = FilteredLine.objects.get()
    assert (line.action, line.message, line.original) == ("block", None, "gelin okeybedava nokta com")


def test_a_held_line_reaches_nobody_until_staff_approve_it(world, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = chat(world, "AKP'ye oy verin")
    assert not message.visible and not published
    assert salon_selectors.recent_chat(room=world.room) == []
    line = FilteredLine.objects.get()
    assert line.review == "pending" and line.action == "hold"
    with django_capture_on_commit_callbacks(execute=True):
        services.review_line(actor=world.moderator, line=line, approve=True)
    message.refresh_from_db()
    assert message.visible
    assert [m["message"]["text"] for g, m in published if m["type"] == "chat.message"] == ["AKP'ye oy verin"]
    assert ModerationLog.objects.filter(action="chat_approved", actor=world.moderator).exists()


def test_a_rejected_held_line_stays_hidden(world, published, django_capture_on_commit_callbacks):
    message = chat(world, "siyaset konuşalım, seçim yakın")
    line = FilteredLine.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        services.review_line(actor=world.moderator, line=line, approve=False)
    message.refresh_from_db()
    assert not message.visible and message.hidden_by == world.moderator
    assert not published
    with pytest.raises(services.ServiceError):
        services.review_line(actor=world.moderator, line=line, approve=True)


def test_a_flagged_line_is_published_and_queued(world, published, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = chat(world, "youtube'da izledim bu eli")
    assert message.visible
    assert len([m for g, m in published if m["type"] == "chat.message"]) == 1
    line = FilteredLine.objects.get()
    assert (line.action, line.review) == ("flag", "pending")
    services.review_line(actor=world.moderator, line=line, approve=False)
    message.refresh_from_db()
    assert not message.visible  # staff took it down


def test_staff_of_another_salon_cannot_review_the_line(world):
    chat(world, "erdoğan")
    with pytest.raises(services.ServiceError) as refused:
        services.review_line(actor=world.other_moderator, line=FilteredLine.objects.get(), approve=True)
    assert refused.value.code == "not_allowed"


def test_a_muted_player_is_refused_until_the_mute_ends(world):
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="mute", reason="Küfür etti",
                            duration=timedelta(hours=1), salon=world.salon)
    with pytest.raises(services.ServiceError) as refused:
        chat(world, "iyi oyunlar")
    assert refused.value.code == "muted" and "Küfür etti" in refused.value.message
    # Another salon's chat is open: the mute was for this salon.
    salon_services.post_chat_message(user=world.troll, room=world.other_room, text="selam")
    # Time passes: the mute no longer applies, even before the expiry task marks it.
    Sanction.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert chat(world, "iyi oyunlar").visible


def test_a_site_wide_mute_closes_every_chat(world):
    services.apply_sanction(actor=world.admin, user=world.troll, kind="mute", reason="Sürekli küfür",
                            duration=timedelta(hours=24))
    for room in (world.room, world.other_room):
        with pytest.raises(services.ServiceError):
            salon_services.post_chat_message(user=world.troll, room=room, text="selam")


def test_hiding_and_showing_a_line_goes_through_the_service(world):
    message = chat(world, "iyi oyunlar")
    services.set_message_visibility(actor=world.moderator, message=message, visible=False)
    message.refresh_from_db()
    assert not message.visible and message.hidden_by == world.moderator
    with pytest.raises(services.ServiceError):
        services.set_message_visibility(actor=world.other_moderator, message=message, visible=True)
    assert ModerationLog.objects.filter(action="chat_hidden").count() == 1
