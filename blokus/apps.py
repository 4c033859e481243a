from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BlokusConfig(AppConfig):
    name = "blokus"
    verbose_name = _("Blokus")

    def ready(self) -> None:
        from blokus.format import BLOKUS
        from events.formats import register

        register(BLOKUS)
