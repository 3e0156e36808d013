"""The API's contract conventions, in one place so that every operation keeps them (and an
operation added later gets them without asking):

* :class:`ApiSchema` — the errors each operation can answer (400, 401, 403, 404, 409, 429, 503), all with
  the one :data:`ERROR_SCHEMA` body; optional query parameters may be sent blank (= not given);
* ``portal.pagination`` — ``limit`` / ``offset`` with bounds that are enforced (400 naming the
  parameter) and documented alike; the leaderboard's pages use the same bounds.

``tests/portal/test_openapi_conformance.py`` holds the server to this schema (docs/api.md).
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import permissions

# DRF's error bodies: {"detail": "..."} (authentication, permission, not found, conflict,
# throttling, a malformed body), or {parameter or field: [messages]} for bad input; a list field's
# messages are keyed by the index of the bad item.
ERROR_SCHEMA = {
    "type": "object",
    "description": 'What is wrong: "detail", or each bad parameter or field with its messages.',
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": {"oneOf": [
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    ]},
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}

# Why each error can happen, as each response documents it.
WHY = {
    "400": "a bad parameter or field, named with what is wrong",
    "401": "no credentials where they are required, or a token that is not valid",
    "403": "not allowed (staff only, or a session without its CSRF token)",
    "404": "no such resource, or not visible to you",
    "409": "the resource is not in a state that allows this",
    "429": "too many requests of this kind; retry after Retry-After seconds",
    "503": "the database connection was lost while answering (nothing past what was committed was kept); "
           "retry after Retry-After seconds",
}
HEADERS = {
    "401": {"WWW-Authenticate": {"schema": {"type": "string"}, "required": True,
                                 "description": 'the scheme to authenticate with: "Token"'}},
    "429": {"Retry-After": {"schema": {"type": "integer", "minimum": 0}, "required": True,
                            "description": "seconds to wait"}},
    "503": {"Retry-After": {"schema": {"type": "integer", "minimum": 0}, "required": True,
                            "description": "seconds to wait"}},
}


class ApiSchema(AutoSchema):
    """drf-spectacular's schema, with the errors each operation can answer: 400 where it takes
    query parameters or a body, 401 everywhere (a token that is not valid is refused on every
    operation), 403 where a permission beyond "read freely" applies or the method is unsafe, 404
    where the path names a resource, 429 where a throttle applies, 503 everywhere (a database
    connection lost mid-request: ``portal.middleware``). An operation adds more (409) in
    its ``extend_schema(responses=...)``; whatever it documents itself is kept."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        registry.register_on_missing(ResolvedComponent(name="Error", type=ResolvedComponent.SCHEMA,
                                                       object="Error", schema=ERROR_SCHEMA))
        params = operation.get("parameters", [])
        for p in params:
            # every optional query parameter of this API reads blank as not given (an HTML form's "any")
            if p["in"] == "query" and not p.get("required"):
                p["allowEmptyValue"] = True
        codes = {"401", "503"}
        if any(p["in"] == "query" for p in params) or "requestBody" in operation:
            codes.add("400")
        if any(p["in"] == "path" for p in params):
            codes.add("404")
        perms = {type(p) for p in self.view.get_permissions()}
        if self.method not in permissions.SAFE_METHODS or perms - {permissions.AllowAny,
                                                                   permissions.IsAuthenticatedOrReadOnly}:
            codes.add("403")
        if self.view.get_throttles():
            codes.add("429")
        responses = operation["responses"]
        for code, body in responses.items():
            if code >= "400" and isinstance(body, dict) and "content" not in body:
                codes.add(code)  # declared with its reason only: give it the error body
        for code in sorted(codes):
            documented = responses.get(code) or {}
            responses[code] = {"description": documented.get("description") or WHY.get(code, ""),
                               **({"headers": HEADERS[code]} if code in HEADERS else {}),
                               "content": documented.get("content") or {"application/json": {"schema": ERROR_REF}}}
        return operation
