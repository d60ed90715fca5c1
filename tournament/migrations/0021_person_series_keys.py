import uuid

from django.db import migrations, models


def keys_give(apps, schema_editor):
    """Every person and series made before the keys gets its own."""
    for name in ("Person", "Series"):
        model = apps.get_model("tournament", name)
        for pk in model.objects.values_list("pk", flat=True):
            model.objects.filter(pk=pk).update(key=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0020_round_clock_absent_teams_substitutes"),
    ]

    operations = [
        migrations.AddField(model_name="person", name="key", field=models.UUIDField(editable=False, null=True)),
        migrations.AddField(model_name="series", name="key", field=models.UUIDField(editable=False, null=True)),
        migrations.RunPython(keys_give, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="person",
            name="key",
            field=models.UUIDField(
                default=uuid.uuid4,
                editable=False,
                help_text="The same person in every database (archives).",
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="series",
            name="key",
            field=models.UUIDField(
                default=uuid.uuid4,
                editable=False,
                help_text="The same series in every database (archives).",
                unique=True,
            ),
        ),
    ]
