"""Creates the demo salons on first run; running it again changes nothing, except that a demo
salon without an English description gets the one below."""

from django.core.management.base import BaseCommand

from salons.models import Salon

DEMO_SALONS = [
    # name, slug, description (Turkish, English), position, min stake, max stake
    ("Genel", "genel", "Herkese açık salon", "A salon open to everyone", 0, 10, 1000),
    ("Çaylaklar", "caylaklar", "Yeni başlayanlar için", "For beginners", 1, 10, 100),
    ("Ustalar", "ustalar", "Deneyimli oyuncular için", "For experienced players", 2, 50, 5000),
]


class Command(BaseCommand):
    help = "Create the demo salons if they do not exist yet."

    def handle(self, *args, **options) -> None:
        for name, slug, description, description_en, position, min_stake, max_stake in DEMO_SALONS:
            salon, created = Salon.objects.get_or_create(
                slug=slug,
                defaults={
                    "name": name,
                    "description": description,
                    "description_en": description_en,
                    "position": position,
                    "min_stake": min_stake,
                    "max_stake": max_stake,
                },
            )
            if created:
                self.stdout.write(f"created salon {name}")
            elif not salon.description_en and salon.description == description:
                # Seeded before salons had an English description.
                Salon.objects.filter(pk=salon.pk).update(description_en=description_en)
