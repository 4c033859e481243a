from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoundRobinConfig(AppConfig):
    name = "roundrobin"
    verbose_name = _("Correspondence round robin")

    def ready(self) -> None:
        from events.formats import register
        from roundrobin.format import ROUNDROBIN

        register(ROUNDROBIN)
