from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Submissions"

    def ready(self) -> None:
        # Imported once the apps are loaded (the jobs use the models): registers the jobs by name,
        # which is how the embedded mode's worker thread finds them (``portal.jobs``).
        from portal import tasks  # noqa: F401
