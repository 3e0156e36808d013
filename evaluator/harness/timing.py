"""Checking and timing, driven from the evaluating process: the clock, the inputs and the
verdict never live in a process that runs submitted code.

Each kernel (the candidate, ``tvm-default``, ``tvm-tuned``, the vendor call) is served by its own
sandboxed process (``harness.child serve``) over its own arena (``harness.arena``). A sample is:

1. the parent writes fresh inputs into every slot the batch will use (windows of a random pool
   drawn from secret seeds, so no timed input was ever a checked one and no two calls see the
   same bytes) and poisons the outputs;
2. ``run`` — call i on slot i, so a batch never repeats an input: memoising, skipping work when
   the output is already there and call counting gain nothing;
3. ``done`` — the sample is the time the *parent* saw between sending ``run`` and reading
   ``done``, minus the round trip a trusted baseline process needs for an empty command.

Rounds interleave the kernels in a rotating order (a burst of noise hits them alike) and the
speedup is the median of the paired per-round ratios, with a distribution-free 95 % confidence
interval. In rounds the child cannot predict, the parent reads several calls' outputs the moment
``done`` arrives and again after the other kernels' samples, and checks them against references
computed here: work left to threads, deferred to later or skipped fails with a reason. The step's
own clock and its CPU use while idle (its cgroup's CPU time outside the commands) are recorded and
compared; disagreement makes the result ``suspect``, not faster.
"""

from __future__ import annotations

import math
import secrets
import statistics
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np

from evaluator.harness import messages as m
from evaluator.harness.arena import Arena, plan
from evaluator.harness.process import ChildProcess, StepCrashed
from evaluator.harness.protocol import FAST_P
from evaluator.vocabulary import Baseline

ARENA_BYTES = 24 << 20  # slots per kernel process: as many as fit, at most MAX_SLOTS
MAX_SLOTS = 1024
POOL_EXTRA = 1 << 14  # elements (rows for permutations) beyond a tensor's size: window offsets
# inputs (the suite's ``Tensor.init``) drawn as whole rows: what holds of a row holds of a window
ROW_INITS = ("permutation", "distinct", "quantizable")
# Outputs read back per checked round: the batch's last call and random others, up to this many
# calls and this many bytes of their outputs. A kernel that fakes a fraction f of its calls
# (returns an earlier call's output, skips the work) escapes k checked calls with probability
# about (1 - f)^k. Faking a third of its calls, such a kernel escaped a check of the last call and
# one at random in one run of six here (tests/evaluator/test_hostile.py); with sixteen calls a
# round, the two forced rounds leave it about one chance in 70,000.
CHECK_SLOTS = 16
CHECK_BYTES = 16 << 20
TRUSTED_CHECK_SLOTS = 2  # a baseline's (our own build's): a check of our kernels, not a defence
FORCED_CHECKS = 2  # checked rounds among the first ``min_rounds()``, chosen at random
CHECK_PROBABILITY = 0.05  # each later round


class KernelFailed(Exception):
    """The kernel raised while being called; ``str()`` is its error."""


@dataclass
class Server:
    """The parent's handle on one kernel process."""

    role: str
    child: ChildProcess
    arena: Arena
    n_inputs: int
    device_copies: bool  # the backend keeps tensors on a device: load/fetch move them
    checked: bool = True  # outputs land in the arena and are checked (not the vendor call)
    # the process serves this kernel alone, so its CPU between commands is this kernel's
    own_process: bool = True
    busy_cpu_s: float = 0.0
    first_cpu_s: float | None = None
    last_cpu_s: float | None = None
    busy_wall_s: float = 0.0
    first_ns: int = 0
    last_ns: int = 0

    def command(self, op: str, slots: Sequence[int] = (), number: int = 0,
                timeout: float = 60.0) -> tuple[float, m.Done]:
        slots = tuple(slots)
        first = slots[0] if slots else 0
        if slots != tuple(range(first, first + len(slots))):
            raise ValueError(f"slots {slots}: a command takes a contiguous range")
        line = m.Command(op=op, role=self.role, first=first, count=len(slots), number=number).to_json()
        c0 = self.child.cpu_s()
        t0 = time.perf_counter_ns()
        self.child.send(line)
        done = self.child.read(m.Done, timeout)
        t1 = self.child.arrived_ns
        c1 = self.child.cpu_s()
        if c0 is not None and c1 is not None:
            self.busy_cpu_s += c1 - c0
            self.first_cpu_s = c0 if self.first_cpu_s is None else self.first_cpu_s
            self.last_cpu_s = c1
        self.busy_wall_s += (t1 - t0) * 1e-9
        self.first_ns = self.first_ns or t0
        self.last_ns = t1
        if done.op != op:
            raise StepCrashed(f"answered {done.op!r} to {op!r}")
        if not done.ok:
            raise KernelFailed(done.error)
        return (t1 - t0) * 1e-9, done

    def idle_wall_s(self) -> float:
        return max(0.0, (self.last_ns - self.first_ns) * 1e-9 - self.busy_wall_s)

    def idle_cpu_s(self) -> float | None:
        if self.first_cpu_s is None or not self.own_process:
            return None
        return max(0.0, (self.last_cpu_s - self.first_cpu_s) - self.busy_cpu_s)

    # --- the arena, written and read by the parent only ---------------------------------------
    def inputs(self, slot: int) -> list[np.ndarray]:
        return [self.arena.view(slot, i) for i in range(self.n_inputs)]

    def outputs(self, slot: int) -> list[np.ndarray]:
        return [self.arena.view(slot, i) for i in range(self.n_inputs, len(self.arena.specs))]

    def poison(self, slot: int, run: int = 0) -> None:
        for o in self.outputs(slot):
            o[...] = poison_value(o.dtype, run)

    def poison_slots(self, n: int, run: int = 0) -> None:
        """Slots 0..n-1's outputs, in one write per output tensor."""
        for i in range(self.n_inputs, len(self.arena.specs)):
            o = self.arena.slots_view(i, n)
            o[...] = poison_value(o.dtype, run)


def poison_value(dtype, run: int):
    dt = np.dtype(dtype)
    if dt.kind in "fc" or dt.name == "bfloat16":  # ml_dtypes' bfloat16 is kind 'V' to NumPy
        return np.nan
    if dt.kind == "b":
        return run % 2 == 0
    # two different sentinels: an output the kernel never writes then differs between runs
    info = np.iinfo(dt)
    return info.min if run % 2 == 0 else info.max


# --- fresh inputs ------------------------------------------------------------------------------

# from this many elements a tensor's slots are filled one copy each (measured: the per-slot
# loop wins from about 4,096 elements, the gather below it)
SLOT_COPY_ELEMENTS = 4096


class InputPool:
    """Fresh inputs for the timed phase: per input tensor, one long random array drawn (with the
    tensor's own distribution) from a seed nobody else knows; a slot gets a window of it at a
    random offset. Cheap (a copy per slot) and never equal to a checked input set."""

    def __init__(self, tensors: Sequence, draw: Callable, rng: np.random.Generator):
        self.tensors = list(tensors)
        self.pools, self.unit = [], []
        for t in self.tensors:
            size = int(np.prod(t.shape, dtype=np.int64))
            if t.init in ROW_INITS:  # whole rows keep what holds of a row (distinct values, its scale)
                last = t.shape[-1] if t.shape else 1
                rows = size // max(last, 1)
                pool = draw(replace(t, shape=(rows + POOL_EXTRA, last)), rng).reshape(-1)
                self.unit.append(last)
            else:
                pool = draw(replace(t, shape=(size + POOL_EXTRA,)), rng)
                self.unit.append(1)
            self.pools.append(pool)
        self.rng = rng

    def draw_offsets(self, n: int) -> np.ndarray:
        """Offsets for ``n`` slots at once: row ``k`` holds tensor ``k``'s."""
        return self.rng.integers(0, POOL_EXTRA + 1, size=(len(self.unit), n)) * np.asarray(self.unit)[:, None]

    def fill_slots(self, k: int, views: np.ndarray, offsets: np.ndarray) -> None:
        """Tensor ``k`` of a batch's slots (``views``: shape ``(n, *shape)``), slot ``s`` from the
        window at ``offsets[s]``. Small tensors: one gather and one copy (a Python loop over
        thousands of slots costs more); large ones: one copy per slot, straight from the pool,
        without the gather's temporary (half the bytes moved: 1.1 ms against 2.4 ms for 357 slots
        of 64 KiB), which is time every timed sample waits for."""
        shape = tuple(self.tensors[k].shape)
        size = int(np.prod(shape, dtype=np.int64))
        pool = self.pools[k]
        if size >= SLOT_COPY_ELEMENTS:
            for s, o in enumerate(offsets.tolist()):
                views[s] = pool[o:o + size].reshape(shape)
            return
        windows = np.lib.stride_tricks.sliding_window_view(pool, size)
        np.copyto(views, windows[offsets].reshape((len(offsets), *shape)))

    def arrays(self, offsets: Sequence[int]) -> list[np.ndarray]:
        return [p[o:o + int(np.prod(t.shape, dtype=np.int64))].reshape(t.shape)
                for p, t, o in zip(self.pools, self.tensors, offsets)]


def arena_plan(specs: Sequence, max_slots: int = MAX_SLOTS) -> tuple[list, int]:
    """A kernel's arena plan: its tensors (large inputs marked shared) and as many slots as fit
    in ``ARENA_BYTES``."""
    return plan(specs, ARENA_BYTES, min(max_slots, MAX_SLOTS))


def arena_for(specs: Sequence, max_slots: int = MAX_SLOTS) -> Arena:
    """A kernel's arena: as many slots as fit in ``ARENA_BYTES`` (large inputs shared)."""
    return Arena(*arena_plan(specs, max_slots))


# --- statistics --------------------------------------------------------------------------------

def _rse(values: list[float]) -> float:
    n = len(values)
    mean = statistics.fmean(values) if n else 0.0
    return statistics.stdev(values) / n**0.5 / mean if n > 1 and mean > 0 else float("inf")


def median_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """Distribution-free ~95 % confidence interval of the median: order statistics at
    n/2 ± z·√n/2 (the sign test's interval), so bursts and skew need no model."""
    s = sorted(values)
    n = len(s)
    if n == 0:
        return (math.nan, math.nan)
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    return (s[lo], s[hi])


def _stats(samples: list[float], number: int) -> dict:
    s = sorted(samples)
    q = statistics.quantiles(s, n=4) if len(s) > 1 else [s[0]] * 3
    return {"median_s": statistics.median(s), "p25_s": q[0], "p75_s": q[2], "min_s": s[0],
            "rse": _rse(s), "rounds": len(s), "number": number}


def paired_ratios(samples: dict[str, list[float]], against: str = "candidate") -> dict[str, dict]:
    """Per-round ratio of every other kernel's time to ``against``'s: median, quartiles, rse, CI."""
    out = {}
    for name, times in samples.items():
        if name == against or against not in samples:
            continue
        r = sorted(t / c for t, c in zip(times, samples[against]) if c > 0)
        if not r:
            continue
        q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0]] * 3
        lo, hi = median_ci(r)
        out[name] = {"median": statistics.median(r), "p25": q[0], "p75": q[2], "rse": _rse(r),
                     "rounds": len(r), "rounds_ci": [lo, hi],
                     "ci": [lo / (1 + PLACEMENT_UNCERTAINTY), hi * (1 + PLACEMENT_UNCERTAINTY)]}
    return out


# The rounds' interval sees the noise within one run; not what differs between two processes
# running the same code (where each one's memory and threads landed), which stays for the
# whole run. Measured with tvm-default against itself over the 647 public workloads: the
# rounds' intervals excluded 1.0 on 15 % of them, above and below alike (46 read faster, 53
# slower), and widening them by 1 % left 4 %, by 2 % 1.7 %. The reported interval is the rounds'
# widened by this, so that an identical kernel reads as a tie.
PLACEMENT_UNCERTAINTY = 0.02


def settled(samples: dict[str, list[float]], proto, elapsed_s: float = 0.0, against: str = "candidate") -> bool:
    """Whether more rounds could still change what the boards show (``Protocol``'s rule): every
    speedup's interval is tight (``settle_half_width``) and either decides every Fast@p
    threshold, is already within the placement uncertainty, or has had ``tie_budget_s`` of
    timing (``elapsed_s``) to get there; a ratio against anything but the candidate (the vendor
    figure) needs the tight interval only. A kernel timed alone: its relative standard error
    under ``rse_target``."""
    ratios = paired_ratios(samples, against)
    if not ratios:
        return all(_rse(s) < proto.rse_target for s in samples.values())
    for v in ratios.values():
        lo, hi = v["rounds_ci"]
        half = (hi - lo) / 2 / v["median"] if v["median"] > 0 else math.inf
        if half > proto.settle_half_width:
            return False
        if against != "candidate":
            # a figure of ours (the vendor call over tvm-default) is a factor of every task's
            # vendor speedup, not a board's decision: its precision is what it needs
            continue
        decided = not any(v["ci"][0] <= p <= v["ci"][1] for p in FAST_P)
        if not (decided or half <= PLACEMENT_UNCERTAINTY or elapsed_s >= proto.tie_budget_s):
            return False
    return True


# --- the timed phase ---------------------------------------------------------------------------

def check_picks(n: int, out_bytes: int, rng: np.random.Generator, most: int = CHECK_SLOTS) -> list[int]:
    """The calls of a checked batch of ``n`` whose outputs are read back: the last one and random
    others (at least two calls where the batch has two, then up to ``most`` and ``CHECK_BYTES``)."""
    k = max(min(n, 2), min(n, most, CHECK_BYTES // max(1, out_bytes)))
    others = rng.choice(n - 1, size=k - 1, replace=False).tolist() if k > 1 else []
    return sorted({n - 1, *others})


def min_rounds(proto, sample_s: dict[str, float]) -> int:
    """The rounds timing runs before it may stop: ``min_rounds``, or as many as cover
    ``min_span_s`` at the calibrated pace if that is fewer, and never under ``min_rounds_slow``
    (nor over ``min_rounds``). ``sample_s``: each kernel's calibrated seconds per sample. The
    pace is the trusted kernels' (the baselines'; the candidate's only when it is timed alone):
    a candidate slow while calibrated and fast afterwards would otherwise buy itself fewer
    rounds. A round also costs the candidate's sample and the round trips, so the rounds run
    at least this long."""
    trusted = [s for n, s in sample_s.items() if n != "candidate"] or list(sample_s.values())
    pace = sum(trusted)
    span_rounds = math.ceil(proto.min_span_s / pace) if pace > 0 else proto.min_rounds
    return min(proto.min_rounds, max(proto.min_rounds_slow, span_rounds))


@dataclass
class Snapshot:
    """One checked call: what the parent wrote and what it read back at ``done``."""

    round: int
    slot: int
    number: int
    offsets: list[int]
    outputs: list[np.ndarray]
    inputs_intact: bool
    role: str = "candidate"  # the kernel's (``Server.role``)


@dataclass
class TimingReport:
    times: dict[str, dict]
    ratios: dict[str, dict]
    wall_s: float
    numbers: dict[str, int]
    round_trip_s: float
    child_clock: dict[str, dict]
    idle_cpu_s: dict[str, float | None]
    idle_wall_s: dict[str, float]
    busy_cpu_s: dict[str, float]
    copy_s: dict[str, float]  # median load + fetch seconds per call, device backends only
    # where the phase's time went: warm-up, round trip, calibration, rounds, clock probes
    phases_s: dict[str, float] = field(default_factory=dict)
    snapshots: list[Snapshot] = field(default_factory=list)
    changed_after_return: list[tuple[int, int]] = field(default_factory=list)


def measure(servers: dict[str, Server], pool: InputPool, proto, rng: np.random.Generator,
            timeout: float, against: str = "candidate") -> TimingReport:
    """Warm up, calibrate and time every server; returns what the parent measured.

    ``proto``: the :class:`~evaluator.harness.protocol.Protocol`. ``timeout``: the wall-clock
    limit of the whole phase (each command gets what is left). ``against``: the kernel every
    ratio is paired with (``tvm-default`` when the vendor call is timed on its own)."""
    deadline = time.monotonic() + timeout
    left = lambda: max(0.05, deadline - time.monotonic())  # noqa: E731
    names = list(servers)
    def fresh(srv: Server, n: int) -> np.ndarray:
        """New inputs in slots 0..n-1 (a shared input once, the same for every slot); their
        offsets, one row per input tensor, one column per slot."""
        offsets = pool.draw_offsets(n)
        for k in range(srv.n_inputs):
            if srv.arena.layout.shared[k]:
                offsets[k, :] = offsets[k, 0]
                pool.fill_slots(k, srv.arena.slots_view(k, 1), offsets[k, :1])
            else:
                pool.fill_slots(k, srv.arena.slots_view(k, n), offsets[k])
        if srv.checked:
            srv.poison_slots(n)
        return offsets

    for srv in servers.values():  # every slot holds valid inputs before the first call
        fresh(srv, srv.arena.layout.slots)

    def sample(srv: Server, n: int, snapshot_round: int | None = None) -> tuple[float, float, float, Snapshot | None]:
        """One batch of ``n`` calls on slots 0..n-1 with fresh inputs: (parent s, child s, copy s)."""
        offsets = fresh(srv, n)
        copy = 0.0
        slots = tuple(range(n))
        if srv.device_copies:
            copy += srv.command("load", slots, timeout=left())[0]
        dt, done = srv.command("run", slots, n, timeout=left())
        snap = None
        if snapshot_round is not None and srv.checked:
            # read at once: a kernel whose work is still running (threads, deferred calls)
            # has not finished its outputs yet
            if srv.device_copies:
                copy += srv.command("fetch", slots, timeout=left())[0]
            out_bytes = sum(srv.arena.layout.sizes[srv.n_inputs:])
            snap = [Snapshot(snapshot_round, s, n, offsets[:, s].tolist(), [o.copy() for o in srv.outputs(s)],
                             all(np.array_equal(v, a, equal_nan=True)
                                 for v, a in zip(srv.inputs(s), pool.arrays(offsets[:, s].tolist()))), srv.role)
                    for s in check_picks(n, out_bytes, rng, CHECK_SLOTS if srv.role == "candidate"
                                         else TRUSTED_CHECK_SLOTS)]
        elif srv.device_copies:
            copy += srv.command("fetch", slots, timeout=left())[0]
        return dt, done.child_s, copy, snap

    phases: dict[str, float] = {}
    mark = time.perf_counter()

    def lap(phase: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        phases[phase] = now - mark
        mark = now

    # the round trip of an empty command on a trusted process (never the candidate's own: a
    # step that answered slowly would shrink its samples), first, so that the warm-up's samples
    # can be read as calls
    trusted = next((servers[n] for n in Baseline if n in servers), None)
    rtt = 0.0
    if trusted is not None:
        rtt = statistics.median(trusted.command("run", (), 0, timeout=left())[0] for _ in range(15))
    lap("round_trip")

    def net(dt: float) -> float:
        return max(dt - rtt, dt * 0.05)

    # warm-up, one call a sample; its later half is the first estimate of a call's time, so the
    # calibration starts at about the right batch instead of doubling up from one call. At least
    # three calls: a first call that compiles (PoCL builds a kernel's program at its first
    # launch, and nothing but the candidate is called before timing) outlasts the warm-up, and
    # alone it set tvm-default's batch to one call, read 2x slower than itself on opencl. A
    # second call that fills a sample alone settles the batch at one call without a third (a
    # 300 ms kernel's third call was a second of warm-up for the pair).
    per_call: dict[str, float] = {}
    for name in names:
        t_end = time.perf_counter() + proto.warmup_s
        warm = [sample(servers[name], 1)[0]]
        while time.perf_counter() < t_end or len(warm) < 3:
            if len(warm) == 2 and net(warm[1]) >= proto.min_sample_s:
                break
            warm.append(sample(servers[name], 1)[0])
        per_call[name] = statistics.median(net(dt) for dt in warm[len(warm) // 2:])
    lap("warm_up")

    numbers: dict[str, int] = {}
    for name in names:
        srv = servers[name]
        cap = min(srv.arena.layout.slots, proto.max_number)
        n = min(cap, max(1, math.ceil(proto.min_sample_s / max(per_call[name], 1e-9))))
        for _ in range(3):
            if n == 1:  # one call fills a sample: the warm-up has timed it so already
                break
            per_call[name] = statistics.median(net(sample(srv, n)[0]) / n for _ in range(2))
            want = math.ceil(proto.min_sample_s / max(per_call[name], 1e-9))
            if want <= n or n >= cap:
                break
            n = min(cap, want)
        numbers[name] = n
    # Kernels of about the same speed get the same batch (the same slots, the same cache
    # footprint): one kernel timed against itself read 2.5 % faster with batches of 8 than of 4.
    ranked = sorted(names, key=lambda k: per_call[k])
    for i, name in enumerate(ranked):
        peers = [k for k in ranked if per_call[k] <= per_call[name] * 1.5 and per_call[name] <= per_call[k] * 1.5]
        numbers[name] = min(max(numbers[k] for k in peers),
                            min(servers[k].arena.layout.slots for k in peers), proto.max_number)

    lap("calibrate")
    least = min_rounds(proto, {n: numbers[n] * per_call[n] for n in names})
    samples: dict[str, list[float]] = {n: [] for n in names}
    child: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    copies: dict[str, list[float]] = {n: [] for n in names}
    checked_rounds = set(rng.choice(least, size=min(FORCED_CHECKS, least), replace=False).tolist())
    snapshots: list[Snapshot] = []
    changed: list[tuple[int, int]] = []
    start = time.perf_counter()
    rounds = 0
    while rounds < proto.max_rounds:
        check = rounds in checked_rounds or (rounds >= least and rng.random() < CHECK_PROBABILITY)
        pending: list[tuple[Server, Snapshot]] = []
        # a fresh random order each round: every kernel follows every other equally often (a
        # fixed rotation put the candidate after the vendor call in two rounds of three, and the
        # same kernel read 4 % faster there)
        order = [names[i] for i in rng.permutation(len(names))]
        for name in order:
            srv = servers[name]
            dt, child_s, copy, snap = sample(srv, numbers[name], rounds if check else None)
            samples[name].append(net(dt) / numbers[name])
            child[name].append((dt, child_s))
            copies[name].append(copy / numbers[name])  # per call: batches differ in size
            for s in snap or ():
                pending.append((srv, s))
        for srv, s in pending:  # a moment later: the outputs must not have moved
            if srv.device_copies:
                srv.command("fetch", (s.slot,), timeout=left())
            now = srv.outputs(s.slot)
            if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(now, s.outputs)):
                changed.append((s.round, s.slot))
            snapshots.append(s)
        rounds += 1
        elapsed = time.perf_counter() - start
        if rounds >= proto.min_rounds_slow and elapsed > proto.max_timing_s:
            break
        if rounds >= least and (elapsed > proto.time_budget_s or settled(samples, proto, elapsed, against)):
            break
    wall = time.perf_counter() - start
    lap("rounds")
    child_clock = {}
    for name in names:
        agreement = clock_agreement(child[name], rtt)
        if not agreement["telling"] and child[name] and name == "candidate":
            # only the candidate's process runs submitted code; a patched timer gains nothing
            # either way (the parent's clock is the measurement): this only makes it visible
            agreement = _probe_clock(servers[name], numbers[name], child[name], rtt, left)
        child_clock[name] = agreement
    lap("clock_probe")
    return TimingReport(
        times={n: _stats(samples[n], numbers[n]) for n in names},
        ratios=paired_ratios(samples, against),
        wall_s=wall,
        numbers=numbers,
        round_trip_s=rtt,
        child_clock=child_clock,
        idle_cpu_s={n: servers[n].idle_cpu_s() for n in names},
        idle_wall_s={n: servers[n].idle_wall_s() for n in names},
        busy_cpu_s={n: servers[n].busy_cpu_s for n in names},
        copy_s={n: statistics.median(copies[n]) for n in names if servers[n].device_copies},
        phases_s=phases,
        snapshots=snapshots,
        changed_after_return=changed,
    )


def call_once(srv: Server, arrays: Sequence[np.ndarray], deadline: float,
              run: int = 0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """One call on slot 0 with ``arrays`` as inputs and outputs poisoned for run ``run``: the
    outputs and the inputs as they are afterwards, as this process reads them from the arena.
    ``deadline``: a ``time.monotonic()`` time every command must answer by."""
    left = lambda: max(0.05, deadline - time.monotonic())  # noqa: E731
    for view, a in zip(srv.inputs(0), arrays):
        np.copyto(view, a)
    srv.poison(0, run)
    if srv.device_copies:
        srv.command("load", (0,), timeout=left())
    srv.command("run", (0,), 1, timeout=left())
    if srv.device_copies:
        srv.command("fetch", (0,), timeout=left())
    return [o.copy() for o in srv.outputs(0)], srv.inputs(0)


# The step's own clock around its calls can only be shorter than the parent's (which adds the
# round trip) and, honestly, not by much more than the round trip.
CLOCK_SLACK_S = 250e-6
CLOCK_DISAGREE_FRACTION = 0.2
# honest steps read 0.7-1.0 of the parent's time on a quiet machine (batches of 1,024 calls:
# 0.78), but down to 0.2 when other work shares the cores (the step waits to be scheduled after
# each "run": 3 of 647 tvm-default tasks read 0.20-0.27 so); a timer patched to run 40x slow
# reads 0.025. The parent's clock is the measurement: this only reports a patched clock.
CLOCK_MIN_RATIO = 0.1
# Where a kernel's timed samples are too short for the comparison to tell (a microsecond kernel
# in batches of 1,024 is about a millisecond a sample, where wake-ups dominate), the parent
# times a few longer batches of it for the clock alone: they are never a measurement.
CLOCK_PROBE_S = 10e-3
CLOCK_PROBES = 3
CLOCK_PROBE_MAX_CALLS = 1 << 20


def clock_telling_s(rtt: float) -> float:
    """The sample length above which the step's clock reading says something: well above what
    scheduling jitter can add (a busy machine's round trip is 50-100 µs and wakes up later still;
    10x the round trip made a 1.4 ms sample say nothing under load)."""
    return 2 * rtt + 4 * CLOCK_SLACK_S


def clock_agreement(pairs: list[tuple[float, float]], rtt: float) -> dict:
    """Whether the step's own clock agrees with the parent's. A sample can never take the step
    longer than the parent saw; and where samples are well above the round trip, the step's
    reading is typically most of the parent's (the median ratio; wake-ups only lengthen the
    parent's view). A patched timer in the kernel's process fails one or the other — it gains
    nothing (the parent's clock is the measurement), but it is reported."""
    over = sum(1 for p, c in pairs if c > p + CLOCK_SLACK_S)
    ratios = [c / (p - rtt) for p, c in pairs if p - rtt > 0]
    median_parent = statistics.median(p - rtt for p, _ in pairs) if pairs else 0.0
    ratio = statistics.median(ratios) if ratios else 1.0
    telling = median_parent > clock_telling_s(rtt)
    return {"samples": len(pairs), "longer_than_parent": over, "median_ratio": ratio,
            "median_parent_s": median_parent, "telling": telling,
            "suspect": bool(pairs) and (over > CLOCK_DISAGREE_FRACTION * len(pairs)
                                        or (telling and ratio < CLOCK_MIN_RATIO))}


def _probe_clock(srv: Server, number: int, pairs: list[tuple[float, float]], rtt: float,
                 left: Callable[[], float]) -> dict:
    """The step's clock compared on :data:`CLOCK_PROBES` batches long enough to tell, sized
    from the parent's own view of the timed samples (a call costs at most what a whole sample
    took over its calls; one trial batch corrects an overestimate)."""
    target = max(CLOCK_PROBE_S, 2 * clock_telling_s(rtt))
    gross = statistics.median(p for p, _ in pairs) / number
    calls = min(CLOCK_PROBE_MAX_CALLS, max(1, math.ceil(target / max(gross, 1e-9))))
    slots = tuple(range(number))
    dt, _ = srv.command("run", slots, calls, timeout=left())
    if dt < target:
        calls = min(CLOCK_PROBE_MAX_CALLS, math.ceil(calls * min(target / max(dt, 1e-6), 100)))
    probes = []
    for _ in range(CLOCK_PROBES):
        dt, done = srv.command("run", slots, calls, timeout=left())
        probes.append((dt, done.child_s))
    return clock_agreement(probes, rtt) | {"probe_calls": calls}


def secret_rng() -> np.random.Generator:
    """Timed inputs come from a seed drawn here and never stored: no one, the candidate included,
    can know them in advance."""
    return np.random.default_rng(secrets.randbits(128))
