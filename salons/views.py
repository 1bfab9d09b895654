"""Salon pages. Thin: parse the request, call a selector or a service, render or redirect.

Write views answer JSON to ``fetch`` calls (``Accept: application/json``) and redirect with a
flash message otherwise, so every page also works without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from games.engine.game_types import UnknownGameType
from games.engine.kart.rules import RulesKart
from games.engine.okey101.rules import Rules101
from games.engine.rules import PRESETS, RuleSet

from . import rules101_catalog, rules_catalog, rules_kart_catalog, selectors, services
from .forms import ChatForm, EnterRoomForm, RemoveUserForm, RoomFilterForm, RoomForm
from .models import Room, Salon, Table
from .services import ServiceError

HELD_NOTICE = gettext_lazy("Mesajınız salon sorumlusunun onayını bekliyor; onaylanınca herkes görecek.")


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _error_response(request: HttpRequest, error: ServiceError, fallback: str, status: int = 400) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": False, "error": error.to_dict()}, status=status)
    messages.error(request, error.message)
    return redirect(fallback)


def _ok_response(request: HttpRequest, target: str, flash: str = "", **data: Any) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": True, **data})
    if flash:
        messages.success(request, flash)
    return redirect(target)


def _form_error(request: HttpRequest, form: Any, fallback: str) -> HttpResponse:
    first = next(iter(form.errors.values()))[0] if form.errors else _("Geçersiz istek.")
    return _error_response(request, ServiceError("invalid", first), fallback)


def _get_room(room_id: int) -> Room:
    return get_object_or_404(Room.objects.select_related("salon", "owner"), pk=room_id)


# --- lobby and salons ---------------------------------------------------------------------------


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"salons": selectors.lobby_salons()})


def _salon_context(request: HttpRequest, salon: Salon) -> dict[str, Any]:
    filter_form = RoomFilterForm(request.GET or None)
    rooms = selectors.salon_rooms(salon=salon, room_filter=filter_form.room_filter())
    return {"salon": salon, "rooms": rooms, "filter_form": filter_form}


def salon_detail(request: HttpRequest, slug: str) -> HttpResponse:
    salon = get_object_or_404(Salon, slug=slug, is_active=True)
    from moderation.selectors import access_error as sanction_error
    from moderation.selectors import request_sanctions

    refusal = sanction_error(user=request.user, salon=salon, sanctions=request_sanctions(request))
    if refusal is not None:  # a salon (or site) ban keeps the player out of the salon's pages too
        messages.error(request, refusal.message)
        return redirect("home")
    context = _salon_context(request, salon)
    context["people"] = selectors.people_by_salon([salon.pk]).get(salon.pk, 0)
    return render(request, "salons/salon.html", context)


def salon_rooms_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    """The room list alone: the salon page fetches it again when the salon socket says it changed."""
    salon = get_object_or_404(Salon, slug=slug, is_active=True)
    return render(request, "salons/_room_list.html", _salon_context(request, salon))


@login_required
def room_create(request: HttpRequest, slug: str) -> HttpResponse:
    salon = get_object_or_404(Salon, slug=slug, is_active=True)
    form = RoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            room = services.open_room(
                user=request.user,
                salon=salon,
                name=data["name"],
                rules=form.rules_data(),
                turn_seconds=data["turn_seconds"],
                is_private=data["is_private"],
                password=data["password"],
                table_count=data["table_count"],
                bot_fill_seconds=data.get("bot_fill_seconds") or 0,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Odanız açıldı."))
            return redirect(room.get_absolute_url())
    return render(request, "salons/room_form.html", {"form": form, "salon": salon, "presets": PRESETS})


# --- rooms --------------------------------------------------------------------------------------


@login_required
def room_detail(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    error = selectors.room_access_error(room=room, user=request.user)
    if error is not None:
        status = {"private_room": 403, "removed": 403, "room_closed": 410}.get(error.code, 403)
        return render(
            request,
            "salons/room_locked.html",
            {"room": room, "error": error, "enter_form": EnterRoomForm() if error.code == "private_room" else None},
            status=status,
        )
    state = selectors.room_state(room=room)
    is_owner = selectors.can_manage_room(user=request.user, room=room)
    context = {
        "room": room,
        "state": state,
        "tables": state["tables"],
        "chat": [selectors.chat_payload(m) for m in selectors.recent_chat(room=room)],
        "is_owner": is_owner,
        "rule_lines": selectors.room_rule_lines(room),
        "chat_form": ChatForm(),
        "remove_form": RemoveUserForm() if is_owner else None,
        "removals": selectors.removals_of(room=room) if is_owner else [],
        "invite_url": request.build_absolute_uri(reverse("salons:invite", args=[room.invite_token]))
        if is_owner and room.is_private
        else "",
        "me": {"id": request.user.pk, "nickname": request.user.username},
        "removable": _removable(state, request.user.pk) if is_owner else [],
    }
    return render(request, "salons/room.html", context)


def _removable(state: dict[str, Any], my_id: int) -> list[dict[str, Any]]:
    """People the owner may remove: everyone present or seated, but themselves."""
    people: dict[int, dict[str, Any]] = {}
    for person in state["present"]:
        people[person["id"]] = person
    for table in state["tables"]:
        for seat in table["seats"]:
            if seat["user"]:
                people[seat["user"]["id"]] = seat["user"]
    people.pop(my_id, None)
    return sorted(people.values(), key=lambda person: person["nickname"].casefold())


@login_required
@require_POST
def room_enter(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    form = EnterRoomForm(request.POST)
    if not form.is_valid():
        return _form_error(request, form, room.get_absolute_url())
    try:
        services.enter_room(user=request.user, room=room, password=form.cleaned_data["password"],
                            address=request.META.get("REMOTE_ADDR"))
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    return redirect(room.get_absolute_url())


@login_required
def room_invite(request: HttpRequest, token: str) -> HttpResponse:
    room = Room.objects.filter(invite_token=token).first()
    if room is None:
        messages.error(request, _("Davet bağlantısı geçersiz ya da eskimiş."))
        return redirect("home")
    try:
        services.enter_room(user=request.user, room=room, token=token)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(room.salon.get_absolute_url())
    return redirect(room.get_absolute_url())


@login_required
def room_edit(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    if not selectors.can_manage_room(user=request.user, room=room):
        messages.error(request, _("Bunu yalnızca oda sahibi yapabilir."))
        return redirect(room.get_absolute_url())
    form = RoomForm(request.POST or None, room=room)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_room(
                user=request.user,
                room=room,
                name=data["name"],
                rules=form.rules_data(),
                turn_seconds=data["turn_seconds"],
                is_private=data["is_private"],
                password=data["password"] or None,
                bot_fill_seconds=data.get("bot_fill_seconds") or 0,
            )
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Oda güncellendi."))
            return redirect(room.get_absolute_url())
    return render(request, "salons/room_form.html", {"form": form, "salon": room.salon, "room": room, "presets": PRESETS})


@login_required
@require_POST
def room_close(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    try:
        services.close_room(user=request.user, room=room)
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    return _ok_response(request, room.salon.get_absolute_url(), _("Oda kapatıldı."))


@login_required
@require_POST
def room_invite_new(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    try:
        room = services.new_invite_link(user=request.user, room=room)
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    url = request.build_absolute_uri(reverse("salons:invite", args=[room.invite_token]))
    return _ok_response(request, room.get_absolute_url(), _("Yeni davet bağlantısı hazır; eskisi artık çalışmaz."),
                        invite_url=url)


@login_required
@require_POST
def table_add(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    try:
        table = services.add_table(user=request.user, room=room)
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    return _ok_response(request, room.get_absolute_url(), _("Masa eklendi."), table=table.pk)


def _get_table(room_id: int, table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("room"), pk=table_id, room_id=room_id)


@login_required
@require_POST
def seat_take(request: HttpRequest, room_id: int, table_id: int, position: int) -> HttpResponse:
    table = _get_table(room_id, table_id)
    try:
        services.take_seat(user=request.user, table=table, position=position)
    except ServiceError as error:
        return _error_response(request, error, table.room.get_absolute_url())
    # Sitting takes the player to the table, where the game starts — also without the room's socket
    # (JavaScript off, or a click before the socket opened).
    return _ok_response(request, table.get_absolute_url(), url=table.get_absolute_url())


@login_required
@require_POST
def seat_leave(request: HttpRequest, room_id: int, table_id: int) -> HttpResponse:
    table = _get_table(room_id, table_id)
    try:
        services.leave_seat(user=request.user, table=table)
    except ServiceError as error:
        return _error_response(request, error, table.room.get_absolute_url())
    return _ok_response(request, table.room.get_absolute_url())


@login_required
@require_POST
def room_remove_user(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    form = RemoveUserForm(request.POST)
    if not form.is_valid():
        return _form_error(request, form, room.get_absolute_url())
    target = User.objects.filter(pk=form.cleaned_data["user"]).first()
    if target is None:
        return _error_response(request, ServiceError("no_user", _("Böyle bir oyuncu yok.")), room.get_absolute_url())
    try:
        services.remove_from_room(
            owner=request.user,
            room=room,
            user=target,
            reason=form.cleaned_data["reason"],
            minutes=form.cleaned_data["minutes"],
        )
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    return _ok_response(
        request, room.get_absolute_url(), _("%(nickname)s odadan çıkarıldı.") % {"nickname": target.username}
    )


@login_required
@require_POST
def room_chat(request: HttpRequest, room_id: int) -> HttpResponse:
    room = _get_room(room_id)
    form = ChatForm(request.POST)
    if not form.is_valid():
        return _form_error(request, form, room.get_absolute_url())
    try:
        message = services.post_chat_message(user=request.user, room=room, text=form.cleaned_data["text"])
    except ServiceError as error:
        return _error_response(request, error, room.get_absolute_url())
    if not message.visible:  # held by the filter: only staff see it until they approve it
        return _ok_response(request, room.get_absolute_url(), str(HELD_NOTICE), held=True)
    return _ok_response(request, room.get_absolute_url(), message=selectors.chat_payload(message))


# --- rules --------------------------------------------------------------------------------------


def rules_page(request: HttpRequest) -> HttpResponse:
    presets = []
    for preset in PRESETS:
        rule_set = RuleSet.preset(preset)
        presets.append(
            {
                "key": preset,
                "label": rules_catalog.PRESET_LABELS[preset],
                "description": rules_catalog.PRESET_DESCRIPTIONS[preset],
                "unit": rules_catalog.SCORING_UNIT[preset],
                "examples": rules_catalog.scoring_examples(rule_set),
                "lines": rules_catalog.describe_rules(rule_set),
            }
        )
    options = [
        {
            "name": name,
            "option": rules_catalog.RULE_OPTIONS.get(name),
            "default": rules_catalog.format_value(name, getattr(RuleSet(), name)),
            "presets": [rules_catalog.PRESET_LABELS[p] for p in PRESETS if rules_catalog.option_applies(name, p)],
        }
        for name in rules_catalog.rule_field_names()
    ]
    options101 = [
        {
            "name": name,
            "option": rules101_catalog.RULE101_OPTIONS.get(name),
            "default": rules101_catalog.format_value(name, getattr(Rules101(), name)),
        }
        for name in rules101_catalog.rule101_field_names()
    ]
    options_kart = [
        {
            "name": name,
            "option": rules_kart_catalog.RULEKART_OPTIONS.get(name),
            # The default deck is chosen by the table size: the option's own words say so.
            "default": rules_kart_catalog.format_value(name, None if name == "decks" else getattr(RulesKart(), name)),
        }
        for name in rules_kart_catalog.rulekart_field_names()
    ]
    return render(request, "salons/rules.html", {"presets": presets, "options": options,
                                                 "okey101": rules101_catalog.section(), "options101": options101,
                                                 "kart": rules_kart_catalog.section(), "options_kart": options_kart})


def room_rules(request: HttpRequest, room_id: int) -> HttpResponse:
    room = get_object_or_404(Room.objects.select_related("salon", "owner"), pk=room_id)
    try:
        rule_set = room.rule_set
    except UnknownGameType:
        return render(request, "salons/room_rules.html", {"room": room, "lines": rules_catalog.describe_rules(room.rules)})
    if isinstance(rule_set, Rules101):
        return render(request, "salons/room_rules.html",
                      {"room": room, "okey101": rules101_catalog.section(rule_set)})
    if isinstance(rule_set, RulesKart):
        return render(request, "salons/room_rules.html",
                      {"room": room, "kart": rules_kart_catalog.section(rule_set)})
    return render(
        request,
        "salons/room_rules.html",
        {
            "room": room,
            "lines": rules_catalog.describe_rules(rule_set),
            "preset_label": rules_catalog.PRESET_LABELS[rule_set.scoring],
            "preset_description": rules_catalog.PRESET_DESCRIPTIONS[rule_set.scoring],
            "unit": rules_catalog.SCORING_UNIT[rule_set.scoring],
            "examples": rules_catalog.scoring_examples(rule_set),
        },
    )
