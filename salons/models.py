from django.db import models
from django.utils.translation import gettext_lazy as _


class Salon(models.Model):
    """A hall of rooms, created by site admins, with its own staff."""

    name = models.CharField(_("ad"), max_length=60, unique=True)
    slug = models.SlugField(_("kısa ad"), max_length=60, unique=True)
    description = models.CharField(_("açıklama"), max_length=200, blank=True)
    position = models.PositiveSmallIntegerField(_("sıra"), default=0)

    class Meta:
        ordering = ["position", "name"]
        verbose_name = _("salon")
        verbose_name_plural = _("salonlar")

    def __str__(self) -> str:
        return self.name
