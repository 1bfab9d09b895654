"""Creates the demo salons on first run; running it again changes nothing."""

from django.core.management.base import BaseCommand

from salons.models import Salon

DEMO_SALONS = [
    ("Genel", "genel", "Herkese açık salon", 0),
    ("Çaylaklar", "caylaklar", "Yeni başlayanlar için", 1),
    ("Ustalar", "ustalar", "Deneyimli oyuncular için", 2),
]


class Command(BaseCommand):
    help = "Create the demo salons if they do not exist yet."

    def handle(self, *args, **options) -> None:
        for name, slug, description, position in DEMO_SALONS:
            _, created = Salon.objects.get_or_create(
                slug=slug, defaults={"name": name, "description": description, "position": position}
            )
            if created:
                self.stdout.write(f"created salon {name}")
