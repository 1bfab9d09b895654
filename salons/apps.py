from django.apps import AppConfig


class SalonsConfig(AppConfig):
    name = "salons"
