"""``manage.py check_chip_ledger``: every chip balance against its ledger; exit 1 on a difference."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Compare every account's chip balance with the sum of its chip ledger and report differences."

    def handle(self, *args: object, **options: object) -> None:
        differences = services.report_ledger_differences()
        for difference in differences:
            self.stdout.write(
                f"{difference.nickname} (#{difference.user_id}): balance {difference.balance}, "
                f"ledger {difference.ledger}, unexplained {difference.unexplained:+d}"
            )
        if differences:
            total = sum(difference.unexplained for difference in differences)
            raise CommandError(f"{len(differences)} account(s) differ from their ledger ({total:+d} chips unexplained)")
        self.stdout.write("every chip balance matches its ledger")
