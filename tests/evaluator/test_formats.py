"""The format registry (``evaluator.formats.FORMATS``): one record per format says which backends
take it and whether it may stand for a pattern; the bundle check refuses what a backend cannot
build (a 400 at upload, not a compile error later), and backend names come from the backend
registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluator import backends, formats
from evaluator.formats.bundle import BundleError, load_bundle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bundles"


def _bundle(tmp_path: Path, entries: list[dict], files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"schema": "edgekernelbench/bundle@1", "name": "formats-test", "entries": entries}))
    return tmp_path


def _cuda_entry(backend: str) -> tuple[dict, dict[str, str]]:
    """The shipped CUDA matmul entry, moved to ``backend``."""
    doc = json.loads((EXAMPLES / "cuda-source" / "manifest.json").read_text())
    entry = dict(next(e for e in doc["entries"] if e["workload"] == "matmul/matmul@m256n256k256"))
    entry["backend"] = backend
    return entry, {entry["file"]: (EXAMPLES / "cuda-source" / entry["file"]).read_text()}


def test_every_format_names_real_backend_kinds_and_a_way_to_build():
    kinds = set(backends.BACKENDS) | {"rpc"}
    for f in formats.FORMATS.values():
        assert f.backends and f.backends <= kinds, f.name
        assert (f.lower is None) == (f.check_launch is not None), f.name  # raw sources have a launch
    assert formats.FORMATS["cuda-source"].takes("cuda") and not formats.FORMATS["cuda-source"].takes("cpu-llvm")
    assert formats.FORMATS["layered-trace"].takes("rpc:pi4")
    assert not formats.FORMATS["c-source"].takes("rpc:pi4")


@pytest.mark.parametrize("backend", ["cpu-llvm", "opencl"])
def test_a_format_its_backend_cannot_build_is_refused_with_what_it_takes(tmp_path, backend):
    entry, files = _cuda_entry(backend)
    with pytest.raises(BundleError) as e:
        load_bundle(str(_bundle(tmp_path, [entry], files)))
    text = str(e.value)
    assert f"backend {backend!r} does not take the 'cuda-source' format" in text, text
    assert "layered-trace" in text and "tvmscript" in text  # what it does take


def test_the_same_entry_on_its_own_backend_loads(tmp_path):
    entry, files = _cuda_entry("cuda")
    b = load_bundle(str(_bundle(tmp_path, [entry], files)))
    assert [(e.backend, e.format) for e in b.entries] == [("cuda", "cuda-source")]


def test_backend_names_come_from_the_backend_registry(tmp_path):
    files = {"k.json": (EXAMPLES / "tvm-default" / "schedules" / "activation__relu--m128n768.json").read_text()}
    entry = {"workload": "activation/relu@m128n768", "format": "layered-trace", "file": "k.json"}
    for name in [*backends.BACKENDS, "rpc:board-1"]:
        assert load_bundle(str(_bundle(tmp_path / name.replace(":", "_"), [{**entry, "backend": name}], files)))
    with pytest.raises(BundleError, match="unknown backend 'gpu'"):
        load_bundle(str(_bundle(tmp_path / "bad", [{**entry, "backend": "gpu"}], files)))
    assert backends.name_problem("rpc:") and backends.name_problem("rpc:a/b") and not backends.name_problem("opencl")


def test_lowering_goes_through_the_registry():
    with pytest.raises(ValueError, match="not a TensorIR format"):
        formats.lower("c-source", "", None)
    with pytest.raises(ValueError, match="not a TensorIR format"):
        formats.lower("no-such-format", "", None)
