"""SQLite as the venue runs it: Django's backend with one write transaction at a time per process (base.py)."""
