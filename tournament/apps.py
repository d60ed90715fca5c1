from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Bid Whist tournaments"
    default_auto_field = "django.db.models.BigAutoField"
