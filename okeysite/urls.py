from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from okeysite.health import healthz
from salons import views as salon_views

# The admin signs in through allauth's login, which is rate-limited (brute force on staff accounts).
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # allauth's code page, minding sign-ups removed after 48 hours unverified (accounts/signups.py)
    path("accounts/confirm-email/", account_views.email_verification_sent),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("moderation/", include("moderation.urls")),
    path("", include("accounts.urls")),
    path("", include("salons.urls")),
    path("", include("games.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", salon_views.lobby, name="home"),
]
