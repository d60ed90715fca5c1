"""gunicorn's settings for the venue and hosted recipes (gunicorn reads this file from the folder it starts in).

Threaded workers (gthread): a request waiting on the database or on a slow client holds a thread, not a whole
worker, so a phone's save is taken up at once even while another thread of the worker renders a page. Two
processes a core keep both cores busy; the threads cover the waits. WEB_WORKERS and WEB_THREADS override.
"""

import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", 2 * (os.cpu_count() or 1)))
threads = int(os.environ.get("WEB_THREADS", 8))
# Phones keep their connection between saves; a spectator's poll every 15 s reuses it.
keepalive = 20
# Spectators and phones of a big room queue here rather than being refused.
backlog = 2048
timeout = 60
