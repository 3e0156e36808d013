"""The shapes of the leaderboard API's answers (for the schema). The board's query parameters
are read by ``leaderboard.ranking.BoardQuerySerializer``, with the ``BoardQuery`` they make."""

from __future__ import annotations

from rest_framework import serializers


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


class BoardPageSerializer(serializers.Serializer):
    board = serializers.DictField()
    count = serializers.IntegerField(help_text="submission rows on the board (baselines not counted)")
    offset = serializers.IntegerField()
    limit = serializers.IntegerField()
    rows = BoardRowSerializer(many=True)
