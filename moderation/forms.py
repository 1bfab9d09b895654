"""Forms of the player-facing moderation pages (the admin has its own)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Report
from .services import REPORT_NOTE_MAX


class ReportForm(forms.Form):
    reported = forms.CharField(widget=forms.HiddenInput, max_length=40)
    reason = forms.ChoiceField(label=_("Sebep"), choices=Report.Reason.choices)
    note = forms.CharField(
        label=_("Not"),
        required=False,
        max_length=REPORT_NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": _("Ne oldu? (isteğe bağlı)")}),
    )
    room = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    table = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
