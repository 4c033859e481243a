from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ShuffleboardConfig(AppConfig):
    name = "shuffleboard"
    verbose_name = _("Sjoelen (shuffleboard)")
