"""The Django project and the submission side of the portal."""

from portal.celery import app as celery_app

__all__ = ["celery_app"]
