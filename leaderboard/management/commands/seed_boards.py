"""Fill the boards with synthetic results (nothing is evaluated): realistic numbers on four
boards, traces on some tasks, verified results for some submissions. For demos and screenshots;
every seeded submission says it is synthetic in its description."""

import time

from django.core.management.base import BaseCommand

from leaderboard import aggregates, demo_data


class Command(BaseCommand):
    help = "Insert synthetic leaderboard data (no evaluation) and rebuild the boards."

    def add_arguments(self, parser):
        parser.add_argument("--submissions", type=int, default=40)
        parser.add_argument("--boards", type=int, default=len(demo_data.DEMO_BOARDS),
                            help=f"how many of the {len(demo_data.DEMO_BOARDS)} demo boards to fill")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--verified-every", type=int, default=4)

    def handle(self, *args, submissions, boards, seed, verified_every, **opts):
        if not 1 <= submissions <= 5000:
            self.stderr.write("--submissions must be from 1 to 5000")
            return
        specs = demo_data.DEMO_BOARDS[:max(1, boards)]
        t0 = time.perf_counter()
        ids = demo_data.insert(submissions, specs, seed=seed, verified_every=verified_every, stdout=self.stdout)
        for s in specs:
            aggregates.record_peak(s.backend, s.device, {
                "flops_per_s": s.peak_flops, "bytes_per_s": s.peak_bw,
                "method": "synthetic demo peak (seed_boards)"})
        counts = aggregates.rebuild()
        self.stdout.write(f"{len(ids)} synthetic submissions on {len(specs)} boards; {counts['entries']} board "
                          f"entries; {time.perf_counter() - t0:.1f} s")
