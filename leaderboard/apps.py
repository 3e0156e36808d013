from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    name = "leaderboard"

    def ready(self) -> None:
        # Imported once the apps are loaded: the receivers use both apps' models.
        from leaderboard import receivers

        receivers.connect()
