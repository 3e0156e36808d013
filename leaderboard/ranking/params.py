"""What a board request asks for: :class:`BoardQuery`, and :class:`BoardQuerySerializer`, which
reads it from query parameters for the pages and the API alike (and documents them in the API
schema)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from django.db import DatabaseError
from django.conf import settings
from rest_framework import serializers
from rest_framework.fields import empty

from evaluator import scoring
from evaluator.vocabulary import BackendKind, Track
from leaderboard.ranking.queries import board_exists, known_backends
from leaderboard.ranking.scoring import BASELINES, FAST_P, ORDERS, SORTS, TRACKS, VIEWS
from leaderboard.slices import Slice, choices
from portal.pagination import DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, StrictIntegerField, bounds_messages


@dataclass(frozen=True)
class BoardQuery:
    backend: str = BackendKind.CPU_LLVM
    device: str | None = None  # None: the backend's most recently updated board
    track: str = Track.PUBLIC
    level: str | None = None
    domain: str | None = None
    family: str | None = None
    dtype: str | None = None
    baseline: str = scoring.DEFAULT_BASELINE
    p: float = 1.0
    view: str = "all"
    sort: str = "rank"
    order: str | None = None  # None: the direction in which the column is better

    @property
    def slice(self) -> Slice:
        return Slice(self.level, self.domain, self.family, self.dtype)

    @property
    def fast_key(self) -> str:
        return f"fast@{self.p}"

    @property
    def sig_key(self) -> str:
        return f"fast_sig@{self.p}"

    def params(self, **change) -> dict[str, str]:
        """Query parameters that reproduce this board (for links; ``change`` overrides)."""
        q = replace(self, **change) if change else self
        out = {"backend": q.backend, "device": q.device, "track": q.track, "level": q.level,
               "domain": q.domain, "family": q.family, "dtype": q.dtype, "baseline": q.baseline,
               "p": f"{q.p:g}", "view": q.view, "sort": q.sort, "order": q.order}
        defaults = {"track": Track.PUBLIC, "baseline": scoring.DEFAULT_BASELINE, "p": "1", "view": "all",
                    "sort": "rank"}
        return {k: str(v) for k, v in out.items() if v is not None and v != "" and defaults.get(k) != str(v)}


DEFAULT = BoardQuery()


# ----------------------------------------------------------------------------- parameters


class _BlankIsDefault:
    """A blank value (``?level=``, what an "all" option of a form sends) is a parameter not given."""

    def run_validation(self, data=empty):
        if isinstance(data, str) and not data.strip():
            data = empty
        return super().run_validation(data)


class KnownValueField(_BlankIsDefault, serializers.ChoiceField):
    """One of a known set of values; a bad one is named with the values known."""

    default_error_messages = {"unknown": "unknown {name} {value!r}; known: {known}"}

    def to_internal_value(self, data):
        value = str(data).strip()
        if value not in self.choice_strings_to_values:
            self.fail("unknown", name=self.field_name, value=value, known=", ".join(map(str, self.choices)) or "none")
        return self.choice_strings_to_values[value]


class FastPField(KnownValueField):
    """p of Fast@p: a number, one of FAST_P."""

    default_error_messages = {"unknown": "p must be one of {known}; got {value!r}"}

    def to_internal_value(self, data):
        raw = str(data).strip()
        try:
            value = float(raw)
        except ValueError:
            value = None
        if value not in FAST_P:
            self.fail("unknown", known=", ".join(f"{x:g}" for x in FAST_P), value=raw[:20])
        return value


class PageField(_BlankIsDefault, StrictIntegerField):
    """``offset`` or ``limit`` of a page of rows, within the API's pagination bounds."""

    def __init__(self, lo: int, hi: int, **kwargs):
        super().__init__(min_value=lo, max_value=hi, **kwargs)

    def bind(self, field_name, parent):
        super().bind(field_name, parent)
        self.error_messages.update(bounds_messages(field_name, self.min_value, self.max_value))


class BoardQuerySerializer(serializers.Serializer):
    """The query parameters of a board: the board (``backend``, ``device``), the ``track``, the
    slice (``level``, ``domain``, ``family``, ``dtype``), what speedups are against
    (``baseline``, ``p``), the ``view`` and the display ``sort`` and ``order``. All optional; each
    bad one is named. :meth:`parse` reads them for pages and API alike."""

    # the backends are read when the serializer is made (see __init__): those evaluated here, then
    # any other one with a board
    backend = KnownValueField((), required=False, help_text="default: the first backend this deployment evaluates")
    device = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                   help_text="default: the backend's most recently updated board; a device "
                                             "without a board on the backend is a 404")
    track = KnownValueField(TRACKS, default=DEFAULT.track)
    # the slice's values come from the suite, loaded on first use (see __init__)
    level = KnownValueField((), required=False)
    domain = KnownValueField((), required=False)
    family = KnownValueField((), required=False)
    dtype = KnownValueField((), required=False)
    baseline = KnownValueField(BASELINES, default=DEFAULT.baseline)
    p = FastPField(FAST_P, default=DEFAULT.p, help_text="p of Fast@p")
    view = KnownValueField(VIEWS, default=DEFAULT.view, help_text="all submissions, or the best or latest per team")
    sort = KnownValueField(tuple(SORTS), default=DEFAULT.sort, help_text="the display sort; ranks stay")
    order = KnownValueField(ORDERS, required=False,
                            help_text="default: the direction in which the sort column is better")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for f, values in choices().items():
            self.fields[f].choices = values
        self.fields["backend"].choices = self.backends

    @cached_property
    def backends(self) -> list[str]:
        # ``parse`` reads them once for the passes it makes
        if "backends" in self.context:
            return self.context["backends"]
        try:
            return known_backends()
        except DatabaseError:  # the schema written without a database (manage.py spectacular)
            return list(settings.EKB_BACKENDS)

    def validate(self, data: dict) -> dict:
        data.setdefault("backend", self.backends[0] if self.backends else DEFAULT.backend)
        device = data.get("device") or None  # a board is picked by backend and device together
        if device is not None and not board_exists(data["backend"], device):
            raise serializers.ValidationError({"device": f"no board for device {device[:80]!r} on {data['backend']}"})
        data["device"] = device
        return data

    @classmethod
    def parse(cls, params) -> tuple[BoardQuery, dict[str, str]]:
        """The BoardQuery of ``params`` (a QueryDict or a dict) and {parameter: problem} for each
        bad one. Every good parameter applies; a bad one falls back to its default (what a page
        shows, with the problems; the API answers 400 instead)."""
        data, errors = cls.read(params)
        return BoardQuery(**{k: v for k, v in data.items() if k in BOARD_FIELDS}), errors

    @classmethod
    def read(cls, params) -> tuple[dict, dict[str, str]]:
        """The validated parameters of ``params``, defaults filled in, and {parameter: problem}
        for each bad one (which then has its default)."""
        names = list(cls._declared_fields)
        data = {name: params.get(name) for name in names if params.get(name) is not None}
        context = {"backends": known_backends()}
        errors: dict[str, str] = {}
        # Validated again without the bad ones (a device is checked against the backend
        # only once the backend is good): each pass drops at least one parameter.
        while not (s := cls(data=data, context=context)).is_valid():
            bad = [name for name in s.errors if name in data]
            if not bad:
                raise ValueError(f"board query left unparsed: {s.errors}")
            for name in bad:
                errors[name] = str(s.errors[name][0])
                del data[name]
        return dict(s.validated_data), {k: errors[k] for k in names if k in errors}


class BoardPageQuerySerializer(BoardQuerySerializer):
    """A board's parameters and one page of its submission rows (the API's ``/leaderboard/``): the
    bounds of ``offset`` and ``limit`` are those of every paginated list of the API."""

    offset = PageField(0, MAX_OFFSET, default=0, help_text="submission rows to skip")
    limit = PageField(1, MAX_LIMIT, default=DEFAULT_LIMIT, help_text="submission rows in the page")


BOARD_FIELDS = frozenset(BoardQuery.__dataclass_fields__)
parse_query = BoardQuerySerializer.parse  # the name the tests and older callers use
