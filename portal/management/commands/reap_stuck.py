"""Re-queue or fail the stuck submissions (``portal.reaper``; docs/operations.md#stuck-submissions).

    python manage.py reap_stuck          # run it every few minutes (cron, a systemd timer)

Prints one line per submission it acted on; exits 0 (nothing stuck is not an error).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from portal import reaper


class Command(BaseCommand):
    help = "Re-queue the jobs of submissions whose worker died or vanished; fail them after EKB_MAX_REQUEUES tries."

    def handle(self, *args, **options):
        report = reaper.reap()
        if report.note:
            self.stdout.write(report.note)
            return
        for r in report.reaped:
            self.stdout.write(f"submission {r.submission_id}: {r.action}: {r.detail}")
        self.stdout.write(f"{report.stalled} stalled, {len(report.reaped)} reaped, {len(report.spared)} left alone "
                          f"(live workers serve: {', '.join(report.served) or 'nothing'})")
