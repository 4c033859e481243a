from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ShuffleboardConfig(AppConfig):
    name = "shuffleboard"
    verbose_name = _("Sjoelen")

    def ready(self) -> None:
        from events.formats import register
        from shuffleboard.format import SJOELEN

        register(SJOELEN)
