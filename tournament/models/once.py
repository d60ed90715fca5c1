"""A form taken once: the token a rendered form carried, kept with what its first post did (``views.once``)."""

from django.db import models


class FormPost(models.Model):
    key = models.CharField(
        max_length=64, unique=True, help_text="The form's token, for whom and where it was posted (a digest)."
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    location = models.CharField(max_length=2000, blank=True, help_text="Where the first post's answer sent the person.")
    message = models.TextField(blank=True, help_text="What the first post's answer said.")

    def __str__(self):
        return f"{self.key[:12]}: {self.location}"
