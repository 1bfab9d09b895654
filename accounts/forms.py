"""Sign-up: allauth's form, with the salon rules to accept and friendlier labels."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.db import IntegrityError, transaction
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _


class SignupForm(AllauthSignupForm):
    accept_rules = forms.BooleanField(
        label=_("Salon kurallarını okudum ve kabul ediyorum"),
        required=True,
        error_messages={"required": _("Devam etmek için salon kurallarını kabul edin.")},
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        if "username" in self.fields:
            self.fields["username"].label = _("Rumuz")
            self.fields["username"].help_text = _(
                "Diğer oyuncuların göreceği tek bilginiz. 3–20 karakter: harf, rakam, nokta, tire, alt çizgi."
            )
            self.fields["username"].widget.attrs.update({"placeholder": _("Rumuz"), "autocomplete": "username"})
        if "email" in self.fields:
            self.fields["email"].help_text = _("Kimseye gösterilmez; yalnızca doğrulama ve şifre sıfırlama için.")
        self.fields["accept_rules"].help_text = format_html(
            '<a href="{}" target="_blank" rel="noopener">{}</a>', reverse_lazy("salons:rules"), _("Kuralları oku")
        )
        # Keep the rules box last, after the passwords.
        self.order_fields([name for name in self.fields if name != "accept_rules"] + ["accept_rules"])

    def clean_username(self) -> str:
        """allauth's checks, but an account that never verified its address within 48 hours does not
        make the nickname "taken" (``accounts.signups``): the nickname rules still run, look-alikes
        of every account that holds its name included."""
        from .signups import nickname_holder

        adapter = get_adapter()
        value = adapter.clean_username(self.cleaned_data["username"], shallow=True)
        if nickname_holder(value) is not None:
            raise adapter.validation_error("username_taken")
        return value

    def validate_unique_email(self, value: str) -> str:
        """An address given by sign-ups that never verified it within 48 hours is free again (its
        owner may be the one signing up now): only real holders make allauth's "already exists"."""
        from .signups import address_is_free

        if address_is_free(value):
            self.account_already_exists = False
            return value
        return super().validate_unique_email(value)

    def save(self, request):
        """One transaction: the stale unverified holders of the nickname and the address go, the new
        account comes."""
        from .signups import free_nickname

        with transaction.atomic():
            free_nickname(self.cleaned_data["username"], email=self.cleaned_data.get("email") or "")
            return super().save(request)

    def try_save(self, request):
        """Two sign-ups racing for one free nickname both pass the form's checks; the database's
        unique constraint then refuses the second: it gets the form back with the usual words."""
        try:
            return super().try_save(request)
        except IntegrityError:
            self.add_error("username", get_adapter().error_messages["username_taken"])
            return None, render(request, "account/signup.html", {"form": self}, status=200)
