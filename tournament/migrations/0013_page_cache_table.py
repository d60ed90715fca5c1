from django.core.management import call_command
from django.db import migrations


def cache_table_create(apps, schema_editor):
    """The database cache the public pages' renderings live in (a no-op when CACHE_URL names another)."""
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0012_results_version")]

    operations = [migrations.RunPython(cache_table_create, migrations.RunPython.noop)]
