"""Typed messages between the evaluating process and its steps (build, serve).

Every request and reply is a frozen dataclass with ``to_json``/``from_json``. Parsing is strict:
unknown or missing fields, wrong types, oversized strings and lists, and file names that are not
plain names inside the step's scratch are refused with :class:`ProtocolError`, whose text names
the field. A step's reply is untrusted (it ran submitted code), so the parent parses it with
these and nothing else; nothing crossing a step boundary is ever unpickled or used as a path.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, ClassVar, get_type_hints

MAX_LINE_BYTES = 1 << 20  # the longest message a step may send (a build reply carries IR text)
MAX_TEXT = 200_000  # IR text
MAX_ERROR = 4_000
MAX_LIST = 4_096
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# control characters other than tab and newline: a step's error text is shown on pages, in
# reports and in terminals (a compiler's log came back with a NUL in it)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class ProtocolError(ValueError):
    """A message that does not follow the protocol; the text says which field and why."""


def printable(text: str) -> str:
    """``text`` with its control characters (other than tab and newline) replaced."""
    return _CONTROL.sub("\ufffd", text)


def plain_name(value: str, what: str) -> str:
    """A file name inside the step's scratch: no directories, no '..', no hidden files."""
    if not isinstance(value, str) or not _NAME.fullmatch(value) or ".." in value:
        raise ProtocolError(f"{what}: {value!r} is not a plain file name")
    return value


def _check(value: Any, hint: Any, what: str) -> Any:
    origin = getattr(hint, "__origin__", None)
    if hint is Any:
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ProtocolError(f"{what}: expected a finite number, got {type(value).__name__}")
        return float(value)
    if hint in (int, bool, str):
        if type(value) is not hint:
            raise ProtocolError(f"{what}: expected {hint.__name__}, got {type(value).__name__}")
        if hint is str and len(value) > MAX_TEXT:
            raise ProtocolError(f"{what}: {len(value)} characters, the limit is {MAX_TEXT}")
        return value
    if origin in (tuple, list):
        if not isinstance(value, list) or len(value) > MAX_LIST:
            raise ProtocolError(f"{what}: expected a list of at most {MAX_LIST} items")
        (item,) = {a for a in hint.__args__ if a is not Ellipsis}
        return tuple(_check(v, item, f"{what}[{i}]") for i, v in enumerate(value))
    if origin is dict or hint is dict:
        if not isinstance(value, dict) or len(value) > MAX_LIST:
            raise ProtocolError(f"{what}: expected an object")
        return value
    args = getattr(hint, "__args__", ())
    if type(None) in args:  # Optional[X]
        if value is None:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _check(value, inner, what)
    if isinstance(hint, type) and issubclass(hint, Message):
        return hint.from_dict(value, what)
    raise ProtocolError(f"{what}: unsupported field type {hint!r}")  # a bug here, not the step's


@dataclass(frozen=True)
class Message:
    """Base: strict JSON round trip. ``kind`` tags the line so a reply of the wrong type is refused."""

    kind: ClassVar[str] = ""
    names: ClassVar[tuple[str, ...]] = ()  # fields that must be plain file names (or "")

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind, **asdict(self)}, separators=(",", ":"))

    @classmethod
    def from_dict(cls, doc: Any, what: str = "") -> "Message":
        what = what or cls.__name__
        if not isinstance(doc, dict):
            raise ProtocolError(f"{what}: expected an object")
        doc = dict(doc)
        if cls.kind and doc.pop("kind", None) != cls.kind:
            raise ProtocolError(f"{what}: expected a {cls.kind!r} message")
        schema = _schema(cls)
        extra = set(doc) - schema.keys()
        if extra:
            raise ProtocolError(f"{what}: unknown fields {sorted(extra)}")
        values = {}
        for name, (hint, required) in schema.items():
            if name not in doc:
                if not required:
                    continue
                raise ProtocolError(f"{what}: missing field {name!r}")
            values[name] = _check(doc[name], hint, f"{what}.{name}")
        for name in cls.names:
            if values.get(name):
                plain_name(values[name], f"{what}.{name}")
        if isinstance(values.get("error"), str):
            values["error"] = printable(values["error"])[:MAX_ERROR]
        try:
            return cls(**values)
        except TypeError as e:
            raise ProtocolError(f"{what}: {e}") from None

    @classmethod
    def from_json(cls, line: str | bytes) -> "Message":
        if len(line) > MAX_LINE_BYTES:
            raise ProtocolError(f"{cls.__name__}: a message of {len(line)} bytes; the limit is {MAX_LINE_BYTES}")
        try:
            doc = json.loads(line)
        except (ValueError, UnicodeDecodeError) as e:
            raise ProtocolError(f"{cls.__name__}: not JSON ({e})") from None
        return cls.from_dict(doc)


@functools.cache
def _schema(cls) -> dict[str, tuple[Any, bool]]:
    """Field name → (type, required), resolved once per message class: a timed sample pays for
    two messages, so parsing must stay in microseconds."""
    hints = get_type_hints(cls)
    return {f.name: (hints[f.name], f.default is MISSING and f.default_factory is MISSING) for f in fields(cls)}


# --- build ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TensorSpec(Message):
    name: str
    shape: tuple[int, ...]
    dtype: str
    role: str = "input"
    shared: bool = False  # one copy for every arena slot (``arena.plan``)


@dataclass(frozen=True)
class BuildRequest(Message):
    kind: ClassVar[str] = "build"
    names: ClassVar[tuple[str, ...]] = ("source", "canonical", "artifact")
    backend: str
    format: str
    source: str
    canonical: str
    artifact: str
    tensors: tuple[TensorSpec, ...]
    launch: dict | None = None
    target: dict | None = None  # the device's target, for a device that need not be here


@dataclass(frozen=True)
class BuildReply(Message):
    kind: ClassVar[str] = "built"
    ok: bool
    stage: str = "build"
    error: str = ""
    lower_s: float = 0.0
    build_s: float = 0.0
    ir: str = ""


# --- serve: one kernel in its own process, driven by the parent ---------------------------------

@dataclass(frozen=True)
class KernelSpec(Message):
    """One kernel a server loads: ``role`` is candidate, tvm-default, tvm-tuned or vendor; its
    tensors live in its own arena (shared memory the parent created, inherited as ``arena_fd``),
    ``slots`` copies of the inputs and outputs laid out by :func:`evaluator.harness.arena.layout`."""

    names: ClassVar[tuple[str, ...]] = ("artifact",)
    role: str
    artifact: str
    slots: int
    arena_fd: int
    arena_bytes: int
    vendor: dict | None = None


@dataclass(frozen=True)
class ServeRequest(Message):
    """Start a kernel server: load its kernels and wait for commands. One kernel per process,
    except where a remote board's single session must carry them all (``rpc:<key>``); the
    baselines are then loaded before any candidate code runs."""

    kind: ClassVar[str] = "serve"
    backend: str
    graph: bool
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    kernels: tuple[KernelSpec, ...]


@dataclass(frozen=True)
class Ready(Message):
    kind: ClassVar[str] = "ready"
    ok: bool
    role: str = ""
    stage: str = "load"
    error: str = ""


COMMANDS = ("run", "load", "fetch", "stop")


@dataclass(frozen=True)
class Command(Message):
    """``run``: call the kernel ``number`` times, call i on slot ``first + i % count``, then wait
    for the device; ``load``/``fetch``: copy slots ``first .. first+count-1`` between the arena and
    the device (no-ops where the kernel works on the arena itself); ``stop``: exit. A range, not a
    list: the message is parsed inside the timed window, so it must cost the same for 1 or 1,000
    slots."""

    kind: ClassVar[str] = "cmd"
    op: str
    role: str = ""
    first: int = 0
    count: int = 0
    number: int = 0

    def __post_init__(self):
        if self.op not in COMMANDS:
            raise ProtocolError(f"Command.op: {self.op!r} is not one of {COMMANDS}")
        if self.first < 0 or self.count < 0 or self.number < 0:
            raise ProtocolError("Command: first, count and number are never negative")


@dataclass(frozen=True)
class Done(Message):
    """A command's end. ``child_s``: the step's own clock around the calls — kept as detail and
    compared with the parent's; never the measurement."""

    kind: ClassVar[str] = "done"
    op: str
    ok: bool = True
    error: str = ""
    child_s: float = 0.0
