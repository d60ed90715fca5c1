from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournament.roles import DIRECTORS, role_groups_ensure

DEFAULT_USERNAME = "director"
DEFAULT_PASSWORD = "whist-director"


class Command(BaseCommand):
    help = (
        "Create the demo tournament director account if there is no director yet, and print how to "
        "log in. Change its password before the event (manage.py changepassword director)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default=DEFAULT_USERNAME)
        parser.add_argument("--password", default=DEFAULT_PASSWORD)

    def handle(self, *args, username, password, **options):
        groups = role_groups_ensure()
        users = get_user_model()
        existing = users.objects.filter(username=username).first()
        if existing is None:
            director = users.objects.create_user(username=username, password=password)
            director.is_staff = True
            director.is_superuser = True
            director.save()
            director.groups.add(groups[DIRECTORS])
            self.stdout.write(f"Created the demo director account. Log in as {username} / {password}")
        else:
            self.stdout.write(
                f"Log in as {username} (the director account exists; its password is as it was "
                f"set: {password} unless someone changed it)."
            )
