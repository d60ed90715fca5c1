import json

from django.core.management.base import BaseCommand

from tournament.services.archive.schema import Archive


class Command(BaseCommand):
    help = "Print the event archive's JSON Schema (generated from the schema the import checks files against)."

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(Archive.model_json_schema(), indent=1, ensure_ascii=False))
