"""Limit/offset pagination whose bounds are enforced and documented alike (a module of its own:
DRF imports the pagination class while it sets itself up, so this one imports no more of it).
The leaderboard's pages of rows take the same bounds."""

from __future__ import annotations

import re

from django.utils.encoding import force_str
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000
INTEGER = re.compile(r"-?[0-9]{1,19}")


class StrictIntegerField(serializers.IntegerField):
    """An integer written as one (DRF's own field also takes "5.0" and " 5", which the schema's
    ``type: integer`` does not allow)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and not INTEGER.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class Pagination(LimitOffsetPagination):
    """``limit`` (1 … 1000, default 100) and ``offset`` (0 … 1000000): a value out of bounds or
    not an integer is a 400 naming it, never silently replaced."""

    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
    max_offset = MAX_OFFSET

    def get_limit(self, request):
        return self._read(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request):
        return self._read(request, self.offset_query_param, 0, 0, self.max_offset)

    @staticmethod
    def _read(request, name: str, default: int, lo: int, hi: int) -> int:
        raw = request.query_params.get(name, "")
        if raw == "":
            return default
        field = StrictIntegerField(min_value=lo, max_value=hi, error_messages=bounds_messages(name, lo, hi))
        try:
            return field.run_validation(raw)
        except serializers.ValidationError as e:
            raise serializers.ValidationError({name: e.detail}) from None

    def get_schema_operation_parameters(self, view):
        return [
            {"name": self.limit_query_param, "required": False, "in": "query",
             "description": force_str(self.limit_query_description),
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_limit, "default": self.default_limit}},
            {"name": self.offset_query_param, "required": False, "in": "query",
             "description": force_str(self.offset_query_description),
             "schema": {"type": "integer", "minimum": 0, "maximum": self.max_offset, "default": 0}},
        ]


def bounds_messages(name: str, lo: int, hi: int) -> dict[str, str]:
    """One message, naming the parameter and its bounds, for every way an integer can be bad."""
    message = f"{name} must be an integer from {lo} to {hi}"
    return {k: message for k in ("invalid", "min_value", "max_value", "max_string_length")}
