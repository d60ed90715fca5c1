from django.db import migrations, models
from django.db.models import Max


def completed_rounds_mark(apps, schema_editor):
    """Rounds already fully signed are complete from their last signature (a playoff round once no match of its
    stage still waits for its teams)."""
    Round = apps.get_model("tournament", "Round")
    PlayoffMatch = apps.get_model("tournament", "PlayoffMatch")
    for round_ in Round.objects.exclude(status="draft"):
        tables = round_.tables.all()
        if not tables.exists() or tables.filter(locked_at__isnull=True).exists():
            continue
        if round_.kind == "playoff":
            stages = set(PlayoffMatch.objects.filter(table__round=round_).values_list("stage", flat=True))
            waiting = PlayoffMatch.objects.filter(
                tournament_id=round_.tournament_id, stage__in=stages, not_needed=False, table__isnull=True
            )
            if waiting.exists():
                continue
        round_.completed_at = tables.aggregate(last=Max("locked_at"))["last"]
        round_.save(update_fields=["completed_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0021_person_series_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="completed_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the last of its sheets was signed (a forfeit counts): the round is complete and its "
                "clock stops. Empty while a table still plays, or a playoff match of it waits for its teams.",
                null=True,
            ),
        ),
        migrations.RunPython(completed_rounds_mark, migrations.RunPython.noop),
    ]
