"""Measure a backend's peak compute and bandwidth on this machine's device, once, and store them
for the roofline plots (``BackendPeak``)."""

from django.core.management.base import BaseCommand, CommandError

from evaluator.backends import BackendUnavailable, get_backend
from evaluator.backends import peaks as peaks_mod
from evaluator.vocabulary import BackendKind
from leaderboard.aggregates import record_peak


class Command(BaseCommand):
    help = "Measure and store a backend's peak FLOP/s and bytes/s on this machine (roofline roofs)."

    def add_arguments(self, parser):
        parser.add_argument("--backend", default="cpu-llvm")
        parser.add_argument("--force", action="store_true", help="measure again even if a cached value exists")

    def handle(self, *args, backend, force, **opts):
        try:
            b = get_backend(backend)
            info = b.info()
        except BackendUnavailable as e:
            raise CommandError(str(e)) from None
        if not info.available:
            raise CommandError(f"backend {backend!r} is unavailable here: {info.reason}")
        # A backend measures its own device when it knows how; the host CPU's numbers otherwise
        # only make sense for host backends.
        measure = getattr(b, "measure_peaks", None)
        if measure is None:
            if backend != BackendKind.CPU_LLVM:
                raise CommandError(f"backend {backend!r} has no peak measurement yet (it needs a measure_peaks())")
            measure = peaks_mod.measure_cpu
        if force:
            result = measure()
        else:
            result = peaks_mod.peaks(info.name, info.device, measure)
        p = record_peak(info.name, info.device, result, replace=True)
        self.stdout.write(f"{p} ({result.get('method', '')})")
