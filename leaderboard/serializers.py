"""The shapes of the leaderboard API's answers (for the schema), and the matrix's query
parameters. The board's query parameters are read by ``leaderboard.ranking.BoardQuerySerializer``
(a page of rows: ``BoardPageQuerySerializer``), with the ``BoardQuery`` they make."""

from __future__ import annotations

from rest_framework import serializers

from evaluator.vocabulary import Track
from leaderboard.ranking import BASELINES, FAST_P, SORTS, TRACKS, VIEWS
from leaderboard.ranking.params import KnownValueField, PageField
from leaderboard.ranking.scoring import ORDERS
from leaderboard.slices import FILTERS

MAX_SUBMISSION_ID = 2**63 - 1  # a bigint primary key
MAX_TOP = 100


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["submission", "baseline"])
    name = serializers.CharField()
    submission_id = serializers.IntegerField(allow_null=True)
    owner = serializers.CharField()
    created_at = serializers.CharField()
    verified = serializers.BooleanField()
    summary = serializers.DictField(help_text="scoring.summarize against the baseline (correct@1, fast@p, fast_sig@p "
                                              "= lower bound of the 95 % CI of the speedup ≥ p, ties@1.0, the "
                                              "geomeans), + roofline_median, attempted, and from the submission's "
                                              "verified run generalisation (of the patterns correct on every public "
                                              "workload, the share also correct on every held-out workload of the "
                                              "pattern), generalisation_fast (those held-out results also fast as "
                                              "Fast@1.0 counts) and generalisation_patterns (the patterns counted); "
                                              "the shares are null without a counted pattern")
    domains = serializers.DictField(child=serializers.FloatField(allow_null=True), help_text="domain → Fast@p")


class BoardFiltersSerializer(serializers.Serializer):
    level = serializers.CharField(allow_null=True)
    domain = serializers.CharField(allow_null=True)
    family = serializers.CharField(allow_null=True)
    dtype = serializers.CharField(allow_null=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert set(self.fields) == set(FILTERS), "the slice's filters changed: describe them here"


class BoardMetaSerializer(serializers.Serializer):
    """The board a page or export is of, as asked (defaults filled in, the device resolved)."""

    backend = serializers.CharField()
    device = serializers.CharField(allow_null=True, help_text="null: the backend has no board yet")
    track = serializers.ChoiceField(choices=TRACKS)
    filters = BoardFiltersSerializer()
    baseline = serializers.ChoiceField(choices=BASELINES)
    p = serializers.FloatField(help_text=f"p of Fast@p, one of {', '.join(f'{x:g}' for x in FAST_P)}")
    view = serializers.ChoiceField(choices=VIEWS)
    sort = serializers.ChoiceField(choices=tuple(SORTS))
    order = serializers.ChoiceField(choices=ORDERS, allow_null=True)
    tasks = serializers.IntegerField(help_text="tasks on this board and slice")
    baseline_available = serializers.BooleanField()
    baselines_measured = serializers.ListField(child=serializers.ChoiceField(choices=BASELINES))
    precomputed = serializers.BooleanField()
    notices = serializers.ListField(child=serializers.CharField())
    submissions = serializers.IntegerField(help_text="ranked submission rows")
    emulated = serializers.BooleanField(help_text="the device is emulated: times are shown nowhere and never rank")


class BoardPageSerializer(serializers.Serializer):
    board = BoardMetaSerializer()
    count = serializers.IntegerField(help_text="submission rows on the board (baselines not counted)")
    offset = serializers.IntegerField()
    limit = serializers.IntegerField()
    rows = BoardRowSerializer(many=True)


class BoardExportSerializer(serializers.Serializer):
    """``export.json``: the board and every row."""

    board = BoardMetaSerializer()
    rows = BoardRowSerializer(many=True)
    provenance = serializers.DictField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="submission id → what produced its results on this board (the submission API's provenance "
                  "entries: TVM and harness versions, protocol digest, compiler and flags, device, driver, host)")


class PeakSerializer(serializers.Serializer):
    flops_per_s = serializers.FloatField()
    bytes_per_s = serializers.FloatField()
    measured_at = serializers.DateTimeField()


class BoardSummarySerializer(serializers.Serializer):
    """One board (backend × device) of ``/leaderboard/boards/``."""

    backend = serializers.CharField()
    device = serializers.CharField(allow_blank=True)
    updated_at = serializers.DateTimeField()
    emulated = serializers.BooleanField()
    submissions = serializers.DictField(child=serializers.IntegerField(), help_text="track → ranked submissions")
    peak = PeakSerializer(allow_null=True, help_text="the device's measured peaks (null: not measured)")


class MatrixQuerySerializer(serializers.Serializer):
    """The matrix of one ``submission``, or across each board's ``top`` N submissions."""

    submission = PageField(1, MAX_SUBMISSION_ID, required=False,
                           help_text="this submission on every board it ran on (404: none visible to you)")
    top = PageField(1, MAX_TOP, default=10, help_text="without a submission: the mean over each board's top N")
    track = KnownValueField(TRACKS, default=Track.PUBLIC)


class MatrixBoardSerializer(serializers.Serializer):
    backend = serializers.CharField()
    device = serializers.CharField(allow_blank=True)
    label = serializers.CharField()


class MatrixEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    submission_id = serializers.IntegerField()


class MatrixSerializer(serializers.Serializer):
    """Fast@1.0 (against tvm-default) per board (row) × domain (column; the last one is "all")."""

    mode = serializers.ChoiceField(choices=["submission", "top"])
    submission_id = serializers.IntegerField(required=False, help_text="mode submission")
    top = serializers.IntegerField(required=False, help_text="mode top")
    track = serializers.ChoiceField(choices=TRACKS)
    boards = MatrixBoardSerializer(many=True)
    domains = serializers.ListField(child=serializers.CharField())
    z = serializers.ListField(child=serializers.ListField(child=serializers.FloatField(allow_null=True)),
                              help_text="one row per board, one cell per domain (null: no task there)")
    hover = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    entries = serializers.ListField(child=MatrixEntrySerializer(many=True), required=False,
                                    help_text="mode top: each board's ranked submissions counted")
