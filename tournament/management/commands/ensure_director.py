import os
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament.roles import DIRECTORS, role_groups_ensure
from tournament.shell import manage_command

PASSWORD_VARIABLE = "DIRECTOR_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create a tournament director account if it does not exist, and say how to log in. The password is "
        f"--password, else ${PASSWORD_VARIABLE}, else a new random one printed once. A director runs the "
        "event's pages; it is not a superuser of the back office."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default="director")
        parser.add_argument("--password", help=f"the password to set (default: ${PASSWORD_VARIABLE}, else random)")

    def handle(self, *args, username, password, **options):
        given = password or os.environ.get(PASSWORD_VARIABLE) or ""
        users = get_user_model()
        director = users.objects.filter(username=username).first()
        if director is not None and not given:
            self.stdout.write(
                f"Log in as {username} with the password you were given when the account was made "
                f"(a new one: {manage_command('changepassword', username)})."
            )
            return
        chosen = given or secrets.token_urlsafe(12)
        candidate = director or users(username=username)
        try:
            validate_password(chosen, candidate)
        except ValidationError as error:
            raise CommandError(f"That password is refused: {' '.join(error.messages)}") from None
        created = director is None
        director = candidate
        director.is_staff = True
        director.is_superuser = False
        director.set_password(chosen)
        director.save()
        director.groups.add(role_groups_ensure()[DIRECTORS])
        said = "Created the director account" if created else "Set a new password for the director account"
        if given:
            self.stdout.write(f"{said}. Log in as {username} with the password you gave.")
        else:
            self.password_block(said, username, chosen)

    def password_block(self, said: str, username: str, chosen: str) -> None:
        """The one-time password set apart from whatever was printed before it, with how to change it."""
        rule = "=" * 72
        self.stdout.write(
            "\n".join(
                (
                    "",
                    rule,
                    f"{said}.",
                    f"Log in as {username} with the password {chosen}",
                    "It is shown this once: write it down. To set another, run:",
                    f"    {manage_command('changepassword', username)}",
                    rule,
                    "",
                    "",
                )
            )
        )
