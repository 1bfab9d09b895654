"""The staff side of moderation in Django's admin.

Two roles: site admins (superusers: everything) and salon staff (``SalonStaff`` rows: only their
salons). Scope is enforced here in every queryset and every permission method — not only hidden in
menus — through ``moderation.selectors`` (``scoped``, ``can_moderate``). Django's model permissions
are not used for moderation: a salon moderator needs ``is_staff`` (granted with the role) and
nothing else. Every change goes through ``moderation.services``; the admin never writes a row.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.filters import FieldListFilter, SimpleListFilter
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.admin.views.main import ERROR_FLAG, IGNORED_PARAMS, PAGE_VAR
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from salons.models import Room, Salon

from . import selectors, services
from .models import (
    AllowedWord,
    ChatLine,
    FilteredLine,
    ModerationLog,
    OwnerRemoval,
    Player,
    RemovingOwner,
    Report,
    Sanction,
    WatchedWord,
)

logger = logging.getLogger(__name__)

# --- scope -------------------------------------------------------------------------------------


# What a changelist reads besides filters: page, ordering, search, facets, popups, the error flag.
CHANGELIST_PARAMS = frozenset({*IGNORED_PARAMS, PAGE_VAR, ERROR_FLAG})


class StrictLookups:
    """Salon staff filter a changelist only through what the admin declares.

    Django's admin accepts any lookup on the model's own fields (``?email__startswith=``) and,
    through relations, whatever ``list_filter`` names — enough to read a password hash one
    character at a time from the result count. For salon staff the query string may hold only
    the parameters of this admin's own filters and its date hierarchy; any other is refused with
    a 400 before a query runs. The search box uses ``search_fields``, which name nicknames and
    texts only. Site admins keep Django's rules.
    """

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        # Refuse up front with a plain 400 (Django's own refusal, in ``lookup_allowed`` below,
        # stays as the second line, but logs a traceback for what is only a bad address).
        if not selectors.is_site_admin(request.user):
            unknown = sorted(key for key in request.GET if key not in CHANGELIST_PARAMS
                             and key not in self.declared_lookups(request))
            if unknown:
                logger.warning("changelist lookups refused for user %s: %s", request.user.pk, ", ".join(unknown[:5]))
                return HttpResponseBadRequest(_("Bu listede bu süzgeç kullanılamaz."), content_type="text/plain; charset=utf-8")
        return super().changelist_view(request, extra_context)  # type: ignore[misc]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if request is not None and selectors.is_site_admin(request.user):
            return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]
        return request is not None and lookup in self.declared_lookups(request)

    def declared_lookups(self, request: HttpRequest) -> frozenset[str]:
        cached = getattr(self, "_declared_lookups", None)
        if cached is None:
            cached = self._declared_lookups = frozenset(self._lookups_of_filters(request))
        return cached

    def _lookups_of_filters(self, request: HttpRequest) -> set[str]:
        allowed: set[str] = set()
        hierarchy = getattr(self, "date_hierarchy", None)
        if hierarchy:
            allowed |= {f"{hierarchy}__year", f"{hierarchy}__month", f"{hierarchy}__day"}
        model = self.model  # type: ignore[attr-defined]
        for item in self.get_list_filter(request):  # type: ignore[attr-defined]
            if isinstance(item, type) and issubclass(item, SimpleListFilter):
                allowed.add(item.parameter_name)
                continue
            path, filter_class = item if isinstance(item, list | tuple) else (item, FieldListFilter.create)
            field = get_fields_from_path(model, path)[-1]
            allowed.update(filter_class(field, request, {}, model, self, field_path=path).expected_parameters())
        return allowed


class ChoiceOnlyFilter(admin.SimpleListFilter):
    """A list filter whose value must be one of its choices: anything else is a clean "bad
    filter" answer (the changelist's ?e=1), never a database error on a malformed id."""

    def value(self) -> str | None:
        value = super().value()
        if value is None or value in {str(key) for key, _label in self.lookup_choices}:
            return value
        raise IncorrectLookupParameters(f"{self.parameter_name}={value!r}")


class ScopedSalonFilter(ChoiceOnlyFilter):
    """A salon filter listing only the salons the viewer moderates."""

    title = _("salon")
    parameter_name = "salon"

    def __init__(self, request: HttpRequest, params: dict, model: Any, model_admin: Any) -> None:
        self.salon_field = getattr(model_admin, "salon_field", "salon")
        super().__init__(request, params, model, model_admin)

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        salons = Salon.objects.all()
        scope = selectors.moderated_salon_ids(request.user)
        if scope is not None:
            salons = salons.filter(pk__in=scope)
        return [(salon.pk, salon.name) for salon in salons]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value():
            return queryset.filter(**{f"{self.salon_field}__pk": self.value()})
        return queryset


class ScopedAdmin(StrictLookups, admin.ModelAdmin):
    """Read-only by default; visible to moderators; rows limited to the viewer's salons."""

    salon_field = "salon"

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return selectors.scoped(super().get_queryset(request), request.user, self.salon_field)

    def salon_id_of(self, obj: Any) -> int | None:
        target: Any = obj
        for part in self.salon_field.split("__"):
            target = getattr(target, part, None)
            if target is None:
                return None
        return target.pk

    def has_module_permission(self, request: HttpRequest) -> bool:
        return selectors.is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return selectors.is_moderator(request.user)
        return selectors.can_moderate(request.user, self.salon_id_of(obj))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def in_scope_or_refused(self, request: HttpRequest, pk: int, attempt: Any) -> Any:
        """The object a staff action names, when the viewer may see it.

        Outside their salons the action is still handed to the service, which refuses it and logs
        the attempt; the answer is then a 404, as for an id that does not exist.
        """
        obj = self.get_queryset(request).filter(pk=pk).first()
        if obj is not None:
            return obj
        target = self.model._default_manager.filter(pk=pk).first()
        if target is not None:
            try:
                attempt(target)
            except ServiceError:
                pass
            else:  # the service and the admin's scope disagree: never expected, never silent
                logger.error("staff action on %s #%s outside the viewer's scope was not refused", self.model.__name__, pk)
        raise Http404

    def run_service(self, request: HttpRequest, call: Any, success: Any) -> bool:
        try:
            call()
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)
            return False
        if success:
            self.message_user(request, success, messages.SUCCESS)
        return True


def _user_link(user: User | None) -> str:
    if user is None:
        return "—"
    url = reverse("admin:moderation_player_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.username)


# --- the report queue --------------------------------------------------------------------------


class ReportStatusFilter(admin.SimpleListFilter):
    """Open reports unless asked otherwise: the list is the staff queue."""

    title = _("durum")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*Report.Status.choices, ("all", _("hepsi"))]

    # What the list shows when no filter is chosen: the open queue, not everything.
    default_value: str = Report.Status.OPEN

    def choices(self, changelist: Any) -> Any:
        value = self.value() or self.default_value
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == str(lookup),
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value() or Report.Status.OPEN
        if value == "all":
            return queryset
        return queryset.filter(status=value)


QUEUE_BUTTONS = [
    ("dismiss", _("Reddet (işlem yok)")),
    ("warn", _("Uyar")),
    ("mute_1h", _("1 saat sustur")),
    ("mute_24h", _("24 saat sustur")),
    ("salon_ban", _("Salondan yasakla (7 gün)")),
    ("site_ban", _("Siteden yasakla")),
]


@admin.register(Report)
class ReportAdmin(ScopedAdmin):
    list_display = ("priority", "reported_player", "reason", "salon", "source", "reporter", "created_at", "status")
    list_display_links = ("priority", "reported_player")
    list_filter = (ReportStatusFilter, "reason", ScopedSalonFilter, "source")
    search_fields = ("reported__username", "reporter__username", "note")
    list_select_related = ("reported", "reporter", "salon")
    ordering = ("-priority", "-created_at")
    fields = ("reported", "reporter", "reason", "note", "salon", "room", "table", "source", "priority", "status",
              "created_at", "handled_by", "handled_at", "resolution")
    readonly_fields = fields
    change_form_template = "admin/moderation/report/change_form.html"

    @admin.display(description=_("şikayet edilen"), ordering="reported__username")
    def reported_player(self, obj: Report) -> str:
        return obj.reported.username

    def get_urls(self) -> list:
        custom = [path("<int:report_id>/act/", self.admin_site.admin_view(self.act_view), name="moderation_report_act")]
        return custom + super().get_urls()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        report = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if report is not None and self.has_view_permission(request, report):
            extra.update(
                evidence=report.evidence,
                history=selectors.player_history(player=report.reported, viewer=request.user),
                buttons=[(key, label) for key, label in QUEUE_BUTTONS
                         if key in services.quick_actions_for(request.user) and (key != "salon_ban" or report.salon_id)],
                act_url=reverse("admin:moderation_report_act", args=[report.pk]),
                is_open=report.status == Report.Status.OPEN,
            )
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def act_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        """One click in the queue: the chosen action, through the service, then back to the queue."""
        if request.method != "POST":
            raise PermissionDenied
        action = request.POST.get("action", "")
        reason = request.POST.get("reason", "")
        report = self.in_scope_or_refused(
            request, report_id,
            lambda target: services.act_on_report(actor=request.user, report=target, action=action, reason=reason),
        )
        ok = self.run_service(
            request,
            lambda: services.act_on_report(actor=request.user, report=report, action=action, reason=reason),
            _("İşlem uygulandı: %(player)s") % {"player": report.reported.username},
        )
        if not ok:
            return HttpResponseRedirect(reverse("admin:moderation_report_change", args=[report.pk]))
        return HttpResponseRedirect(reverse("admin:moderation_report_changelist"))


# --- held and flagged chat lines ---------------------------------------------------------------


class ReviewFilter(ReportStatusFilter):
    title = _("inceleme")
    parameter_name = "review"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*FilteredLine.Review.choices, ("all", _("hepsi"))]

    default_value = FilteredLine.Review.PENDING

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value() or self.default_value
        return queryset if value == "all" else queryset.filter(review=value)


@admin.register(FilteredLine)
class FilteredLineAdmin(ScopedAdmin):
    """Held lines wait here for approval (shown to everyone) or rejection (stay hidden); flagged
    lines were shown and wait for a look; censored and blocked lines are kept as evidence."""

    list_display = ("created_at", "author", "room", "table", "action", "category_list", "original", "shown", "review")
    list_filter = (ReviewFilter, "action", ScopedSalonFilter, "created_at")
    search_fields = ("original", "author__username", "room__name")
    list_select_related = ("author", "room", "table")
    readonly_fields = ("created_at", "author", "salon", "room", "table", "action", "categories", "original", "shown",
                       "reasons", "review", "reviewed_by", "reviewed_at", "message")
    fields = readonly_fields
    actions = ["approve", "reject"]
    date_hierarchy = "created_at"

    @admin.display(description=_("kategoriler"))
    def category_list(self, obj: FilteredLine) -> str:
        return ", ".join(obj.categories)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Needed for the list's actions; the change form itself has only read-only fields.
        return self.has_view_permission(request, obj)

    def _review(self, request: HttpRequest, queryset: QuerySet, approve: bool) -> None:
        done = 0
        for line in queryset:
            try:
                services.review_line(actor=request.user, line=line, approve=approve)
                done += 1
            except ServiceError as error:
                self.message_user(request, f"#{line.pk}: {error.message}", messages.WARNING)
        self.message_user(request, _("%(n)d mesaj incelendi.") % {"n": done}, messages.SUCCESS)

    @admin.action(description=_("Onayla (bekleyeni herkese göster)"))
    def approve(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._review(request, queryset, approve=True)

    @admin.action(description=_("Reddet (gizli kalsın / gizle)"))
    def reject(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._review(request, queryset, approve=False)


# --- sanctions ---------------------------------------------------------------------------------

DURATIONS = {
    "1h": timedelta(hours=1),
    "24h": timedelta(hours=24),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
    "permanent": None,
}


class SanctionForm(forms.ModelForm):
    """Adding a sanction in the admin: the service runs in ``clean`` (inside the admin's
    transaction), so a refusal shows on the form instead of after a half-done save."""

    nickname = forms.CharField(label=_("Oyuncu (rumuz)"), max_length=40)
    duration = forms.ChoiceField(
        label=_("Süre"),
        choices=[("1h", _("1 saat")), ("24h", _("24 saat")), ("7d", _("7 gün")), ("30d", _("30 gün")),
                 ("permanent", _("süresiz"))],
        initial="24h",
    )

    class Meta:
        model = Sanction
        fields = ("kind", "salon", "room", "reason")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor: Any = None

    def limit_to(self, user: Any) -> None:
        self.actor = user
        # Offer only the kinds this user may give; a forged other kind still reaches the service,
        # which refuses it and logs the attempt.
        kinds = services.sanction_kinds_for(user)
        self.fields["kind"].widget.choices = [(value, label) for value, label in self.fields["kind"].choices
                                              if value in kinds or value == ""]
        scope = selectors.moderated_salon_ids(user)
        if scope is not None:
            self.fields["salon"].queryset = Salon.objects.filter(pk__in=scope)
            self.fields["salon"].required = True
            self.fields["room"].queryset = Room.objects.filter(salon__in=scope, status=Room.Status.OPEN)
        else:
            self.fields["room"].queryset = Room.objects.filter(status=Room.Status.OPEN)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        user = User.objects.filter(username__iexact=data.get("nickname", "")).first()
        if user is None:
            raise ValidationError({"nickname": _("Böyle bir oyuncu yok.")})
        try:
            # The service is its own transaction; a refusal it logs must outlive its rollback.
            self.instance = services.apply_sanction(
                actor=self.actor,
                user=user,
                kind=data["kind"],
                reason=data["reason"],
                duration=DURATIONS[data["duration"]],
                salon=data.get("salon"),
                room=data.get("room"),
            )
        except ServiceError as error:
            raise ValidationError(error.message) from None
        return data

    def _post_clean(self) -> None:
        # The instance was written by the service; nothing to copy onto it.
        pass


class LiftForm(forms.Form):
    reason = forms.CharField(label=_("Kaldırma sebebi"), min_length=3, max_length=200)


@admin.register(Sanction)
class SanctionAdmin(ScopedAdmin):
    list_display = ("created_at", "user", "kind", "salon", "room", "reason", "expires_at", "status", "created_by")
    list_filter = ("kind", "status", ScopedSalonFilter, "created_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "salon", "room", "created_by")
    readonly_fields = ("user", "kind", "salon", "room", "reason", "starts_at", "expires_at", "status", "report",
                       "created_by", "created_at", "ended_at", "lifted_by", "lift_reason", "seen_at")
    date_hierarchy = "created_at"
    actions = ["lift_selected"]
    change_form_template = "admin/moderation/sanction/change_form.html"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_moderator(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Only to let the "lift" action run; every field stays read-only.
        return self.has_view_permission(request, obj)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = SanctionForm
            kwargs["fields"] = ("nickname", "kind", "salon", "room", "duration", "reason")
        form_class = super().get_form(request, obj, change=change, **kwargs)
        if obj is None:
            actor = request.user

            class BoundSanctionForm(form_class):  # type: ignore[misc,valid-type]
                def __init__(self, *args: Any, **inner: Any) -> None:
                    super().__init__(*args, **inner)
                    self.limit_to(actor)

            return BoundSanctionForm
        return form_class

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("nickname", "kind", "salon", "room", "duration", "reason")
        return self.readonly_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.readonly_fields

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        """Nothing to save: ``SanctionForm.clean`` applied it through the service."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass

    def get_urls(self) -> list:
        custom = [path("<int:sanction_id>/lift/", self.admin_site.admin_view(self.lift_view), name="moderation_sanction_lift")]
        return custom + super().get_urls()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        sanction = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if sanction is not None:
            extra.update(
                can_lift=sanction.is_active() and services.lift_refusal(actor=request.user, sanction=sanction) is None,
                lift_url=reverse("admin:moderation_sanction_lift", args=[sanction.pk]),
                lift_form=LiftForm(),
                show_save=False,
            )
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def lift_view(self, request: HttpRequest, sanction_id: int) -> HttpResponse:
        if request.method != "POST":
            raise PermissionDenied
        form = LiftForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        sanction = self.in_scope_or_refused(
            request, sanction_id, lambda target: services.lift_sanction(actor=request.user, sanction=target, reason=reason)
        )
        if not form.is_valid():
            self.message_user(request, _("Kaldırma sebebi 3–200 karakter olmalı."), messages.ERROR)
        else:
            self.run_service(
                request,
                lambda: services.lift_sanction(actor=request.user, sanction=sanction, reason=form.cleaned_data["reason"]),
                _("Yaptırım kaldırıldı."),
            )
        return HttpResponseRedirect(reverse("admin:moderation_sanction_change", args=[sanction.pk]))

    @admin.action(description=_("Seçili yaptırımları kaldır"))
    def lift_selected(self, request: HttpRequest, queryset: QuerySet) -> None:
        for sanction in queryset:
            self.run_service(
                request,
                lambda s=sanction: services.lift_sanction(
                    actor=request.user, sanction=s, reason=str(_("Yönetim panelinden toplu kaldırma"))
                ),
                None,
            )
        self.message_user(request, _("Seçili yaptırımlar işlendi."), messages.SUCCESS)


# --- the log -----------------------------------------------------------------------------------


@admin.register(ModerationLog)
class ModerationLogAdmin(ScopedAdmin):
    """Append-only: filterable and searchable, never editable (the model refuses it too)."""

    list_display = ("created_at", "action", "actor", "target", "salon", "reason")
    list_filter = ("action", ScopedSalonFilter, "created_at")
    search_fields = ("actor__username", "target__username", "reason")
    list_select_related = ("actor", "target", "salon")
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "action", "actor", "target", "salon", "sanction", "report", "reason", "details")
    fields = readonly_fields

    def get_actions(self, request: HttpRequest) -> dict:
        return {}


# --- word lists and the test tool --------------------------------------------------------------


class TrySentenceForm(forms.Form):
    text = forms.CharField(label=_("Cümle"), max_length=500, widget=forms.TextInput(attrs={"size": 80, "autofocus": True}))


class WordListAdmin(StrictLookups, admin.ModelAdmin):
    """Site admins edit the lists (through the services); salon staff may read them and try sentences."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return selectors.is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_moderator(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return selectors.is_site_admin(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_site_admin(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_site_admin(request.user)

    def get_urls(self) -> list:
        opts = self.model._meta
        custom = [path("try/", self.admin_site.admin_view(self.try_view), name=f"{opts.app_label}_{opts.model_name}_try")]
        return custom + super().get_urls()

    def try_view(self, request: HttpRequest) -> HttpResponse:
        """"Test a sentence": what the filter would do with today's lists, and why."""
        if not selectors.is_moderator(request.user):
            raise PermissionDenied
        form = TrySentenceForm(request.GET or None)
        result = selectors.try_sentence(form.cleaned_data["text"]) if form.is_valid() else None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Bir cümle dene"),
            "form": form,
            "result": result,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/moderation/try_sentence.html", context)

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        opts = self.model._meta
        extra = {"try_url": reverse(f"admin:{opts.app_label}_{opts.model_name}_try"), **(extra_context or {})}
        return super().changelist_view(request, extra_context=extra)


@admin.register(WatchedWord)
class WatchedWordAdmin(WordListAdmin):
    list_display = ("word", "category", "action_label", "match", "note", "created_by", "updated_at")
    list_filter = ("category", "action", "match")
    search_fields = ("word", "note")
    fields = ("word", "category", "action", "match", "note")
    change_list_template = "admin/moderation/word_change_list.html"

    @admin.display(description=_("işlem"), ordering="action")
    def action_label(self, obj: WatchedWord) -> str:
        return str(obj.get_action_display()) if obj.action else str(_("kategori varsayılanı"))

    def save_model(self, request: HttpRequest, obj: WatchedWord, form: Any, change: bool) -> None:
        services.save_watched_word(actor=request.user, word=obj)

    def delete_model(self, request: HttpRequest, obj: WatchedWord) -> None:
        services.delete_watched_word(actor=request.user, word=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for word in queryset:
            services.delete_watched_word(actor=request.user, word=word)


@admin.register(AllowedWord)
class AllowedWordAdmin(WordListAdmin):
    list_display = ("word", "note", "created_by", "updated_at")
    search_fields = ("word", "note")
    fields = ("word", "note")
    change_list_template = "admin/moderation/word_change_list.html"

    def save_model(self, request: HttpRequest, obj: AllowedWord, form: Any, change: bool) -> None:
        services.save_allowed_word(actor=request.user, word=obj)

    def delete_model(self, request: HttpRequest, obj: AllowedWord) -> None:
        services.delete_allowed_word(actor=request.user, word=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for word in queryset:
            services.delete_allowed_word(actor=request.user, word=word)


# --- chat history, removals, players -----------------------------------------------------------


@admin.register(ChatLine)
class ChatLineAdmin(ScopedAdmin):
    salon_field = "room__salon"
    list_display = ("created_at", "author", "room", "table", "text", "visible", "hidden_by")
    list_filter = ("visible", ScopedSalonFilter, "created_at")
    search_fields = ("text", "author__username", "room__name")
    list_select_related = ("author", "room", "table", "hidden_by")
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "author", "room", "table", "text", "visible", "hidden_by", "hidden_at")
    fields = readonly_fields
    actions = ["hide", "show"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)

    def _set(self, request: HttpRequest, queryset: QuerySet, visible: bool) -> None:
        for message in queryset:
            self.run_service(
                request, lambda m=message: services.set_message_visibility(actor=request.user, message=m, visible=visible), None
            )
        self.message_user(request, _("Mesajlar güncellendi."), messages.SUCCESS)

    @admin.action(description=_("Gizle (kanıt olarak saklanır)"))
    def hide(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set(request, queryset, visible=False)

    @admin.action(description=_("Yeniden göster"))
    def show(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._set(request, queryset, visible=True)


class RemovedByFilter(ChoiceOnlyFilter):
    """"Removals by this owner": the target of the per-owner counts' links. It lists only the
    owner already chosen (by id), so it never becomes a directory of users."""

    title = _("çıkaran")
    parameter_name = "removed_by__id__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        value = self.used_parameters.get(self.parameter_name)
        if not value or not str(value).isdigit() or len(str(value)) > 18:
            return []
        owner = model_admin.get_queryset(request).filter(removed_by_id=int(value)).select_related("removed_by").first()
        return [(owner.removed_by_id, owner.removed_by.username)] if owner else [(int(value), "—")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value():
            return queryset.filter(removed_by_id=int(self.value()))
        return queryset


@admin.register(OwnerRemoval)
class OwnerRemovalAdmin(ScopedAdmin):
    salon_field = "room__salon"
    list_display = ("created_at", "removed_by", "user", "room", "reason", "until")
    list_filter = (ScopedSalonFilter, RemovedByFilter, "created_at")
    search_fields = ("removed_by__username", "user__username", "reason", "room__name")
    list_select_related = ("removed_by", "user", "room")
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "room", "removed_by", "user", "reason", "until")
    fields = readonly_fields


@admin.register(RemovingOwner)
class RemovingOwnerAdmin(ScopedAdmin):
    """Who removes most: owners with their removal counts in the viewer's salons, most first."""

    list_display = ("username", "removals", "people", "removals_link")
    search_fields = ("username",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return selectors.removal_counts(request.user)

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return ["-removal_count", "username"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return selectors.is_moderator(request.user)

    @admin.display(description=_("çıkarma"), ordering="removal_count")
    def removals(self, obj: User) -> int:
        return obj.removal_count  # type: ignore[attr-defined]

    @admin.display(description=_("çıkarılan kişi"), ordering="removed_people")
    def people(self, obj: User) -> int:
        return obj.removed_people  # type: ignore[attr-defined]

    @admin.display(description=_("kayıtlar"))
    def removals_link(self, obj: User) -> str:
        url = reverse("admin:moderation_ownerremoval_changelist") + f"?removed_by__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, _("çıkarmaları gör"))

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:moderation_player_change", args=[object_id]))



@admin.register(Player)
class PlayerAdmin(ScopedAdmin):
    """A player's history: reports against them, sanctions, removals (salon staff: their salons)."""

    list_display = ("username", "date_joined", "is_active")
    search_fields = ("username",)
    # Salon staff see the nickname, the account's age and whether it is active: nothing private
    # (no e-mail, no password, no last login). Site admins also see the last login.
    fields = ("username", "date_joined", "is_active")
    readonly_fields = fields
    change_form_template = "admin/moderation/player/change_form.html"

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if selectors.is_site_admin(request.user):
            return (*self.fields, "last_login")
        return self.fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = User.objects.all()
        scope = selectors.moderated_salon_ids(request.user)
        if scope is None:
            return Player.objects.all()
        seen = (
            Q(reports_received__salon__in=scope)
            | Q(sanctions__salon__in=scope)
            | Q(chat_messages__room__salon__in=scope)
            | Q(removals_received__room__salon__in=scope)
            | Q(removals_made__room__salon__in=scope)
            | Q(seats__table__room__salon__in=scope)
        )
        return Player.objects.filter(pk__in=queryset.filter(seen).values("pk"))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return selectors.is_moderator(request.user)
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None) -> HttpResponse:
        player = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if player is not None:
            extra["history"] = selectors.player_history(player=player, viewer=request.user)
        return super().change_view(request, object_id, form_url, extra_context=extra)
