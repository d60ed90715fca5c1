"""Counting wrong guesses (team codes) so that guessing is slowed down, in the database every worker sees."""

from django.db import models


class Throttle(models.Model):
    key = models.CharField(max_length=200, unique=True, help_text="What is counted: a table, or an address.")
    failures = models.PositiveIntegerField(default=0)
    blocked_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.key}: {self.failures} wrong"
