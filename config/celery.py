"""The Celery app: four queues, late acknowledgement, one task prefetched at a time."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("qaplatform")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
