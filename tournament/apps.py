from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Bid Whist tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournament import checks  # noqa: F401  (registers the deployment checks)
