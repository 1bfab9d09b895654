"""Creates the demo salons on first run; running it again changes nothing."""

from django.core.management.base import BaseCommand

from salons.models import Salon

DEMO_SALONS = [
    # name, slug, description, position, min stake, max stake
    ("Genel", "genel", "Herkese açık salon", 0, 10, 1000),
    ("Çaylaklar", "caylaklar", "Yeni başlayanlar için", 1, 10, 100),
    ("Ustalar", "ustalar", "Deneyimli oyuncular için", 2, 50, 5000),
]


class Command(BaseCommand):
    help = "Create the demo salons if they do not exist yet."

    def handle(self, *args, **options) -> None:
        for name, slug, description, position, min_stake, max_stake in DEMO_SALONS:
            _, created = Salon.objects.get_or_create(
                slug=slug,
                defaults={
                    "name": name,
                    "description": description,
                    "position": position,
                    "min_stake": min_stake,
                    "max_stake": max_stake,
                },
            )
            if created:
                self.stdout.write(f"created salon {name}")
