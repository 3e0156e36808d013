"""Recompute every precomputed board from the stored results (after a change to scoring, a
restored backup, or a refresh that failed)."""

import time

from django.core.management.base import BaseCommand

from leaderboard.aggregates import rebuild


class Command(BaseCommand):
    help = "Rebuild the leaderboard aggregates (board entries, baseline samples) from the results."

    def handle(self, *args, **opts):
        t0 = time.perf_counter()
        counts = rebuild(stdout=self.stdout)
        self.stdout.write(f"{counts['boards']} boards, {counts['entries']} entries in {time.perf_counter() - t0:.1f} s")
