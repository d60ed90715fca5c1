"""A payout's place stored as its number and whether it was shared, no longer as the text the sheet showed
("T-3"): existing prizes keep their place, and going back writes the text again."""

import re

from django.db import migrations, models


def places_from_labels(apps, schema_editor):
    Payout = apps.get_model("tournament", "Payout")
    for payout in Payout.objects.all():
        shared, number = re.fullmatch(r"(T-)?([0-9]+)", payout.place).groups()
        payout.place_number, payout.place_shared = int(number), bool(shared)
        payout.save(update_fields=["place_number", "place_shared"])


def labels_from_places(apps, schema_editor):
    Payout = apps.get_model("tournament", "Payout")
    for payout in Payout.objects.all():
        payout.place = f"T-{payout.place_number}" if payout.place_shared else str(payout.place_number)
        payout.save(update_fields=["place"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0026_words_players_use"),
    ]

    operations = [
        migrations.AddField(
            model_name="payout",
            name="place_number",
            field=models.PositiveSmallIntegerField(null=True, help_text="The place paid, as the payout sheet had it."),
        ),
        migrations.AddField(
            model_name="payout",
            name="place_shared",
            field=models.BooleanField(default=False, help_text="Whether other teams shared that place."),
        ),
        migrations.RunPython(places_from_labels, labels_from_places),
        # A default for the text while it goes, so that going back can add the column to rows already there.
        migrations.AlterField(model_name="payout", name="place", field=models.CharField(default="", max_length=8)),
        migrations.RemoveField(model_name="payout", name="place"),
        migrations.AlterField(
            model_name="payout",
            name="place_number",
            field=models.PositiveSmallIntegerField(help_text="The place paid, as the payout sheet had it."),
        ),
    ]
