"""The Django project: settings, the root URLconf, the WSGI entry point and the Celery app.

The Celery app is loaded with the project, as Django projects do, so that every process that
loads the settings (the web server, ``manage.py``, a ``celery -A config worker``) has it, and
jobs sent by name reach the configured broker."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
