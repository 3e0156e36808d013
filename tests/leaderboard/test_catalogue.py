"""The task catalogue: ``/tasks/`` (filters, facet counts, search, pages, bad values, no held-out
workload) and a workload's page (reference, TVMScript, prompt, baseline times, top entries)."""

from __future__ import annotations

import html
import io
import json
import re
import statistics
import zipfile
from collections import Counter
from urllib.parse import quote_plus

import pytest

from portal_helpers import BACKEND, add_result, make_submission, make_user, seed_leaderboard, served_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    """The pages cache TVMScript, prompts and backend descriptions: each test starts without."""
    from django.core.cache import cache

    cache.clear()


def _text(resp) -> str:
    return html.unescape(resp.content.decode())


def _listed(page: str) -> list[str]:
    return re.findall(r'<a href="/workloads/[^"]+/"><code>([^<]+)</code></a>', page)


def _all_listed(client, **params) -> list[str]:
    ids, n = [], 1
    while True:
        resp = client.get("/tasks/", {**params, "page": n})
        assert resp.status_code == 200
        page = _text(resp)
        ids += _listed(page)
        if "next →" not in page:
            return ids
        n += 1


def test_the_list_filters_counts_and_pages(client):
    from leaderboard import catalogue

    served = served_tasks()
    resp = client.get("/tasks/")
    assert resp.status_code == 200
    page = _text(resp)
    assert f"<strong>{len(served)}</strong> of {len(served)} workloads" in page
    assert 'href="/tasks/"' in page  # in the site's navigation
    assert len(_listed(page)) == catalogue.PAGE_SIZE < len(served)  # paginated
    assert _all_listed(client) == [w.id for w in served]  # every served workload once, in the suite's order

    # Each facet counts what the suite has, and each value narrows the list to exactly those workloads.
    c = catalogue.catalogue({})
    expected = {"level": Counter(w.level for w in served), "family": Counter(w.family for w in served),
                "dtype": Counter(w.dtype for w in served), "domain": Counter(d for w in served for d in w.domains)}
    for facet, counts in expected.items():
        assert dict(c.counts[facet]) == dict(counts), facet
    assert f'<option value="L3">L3 ({expected["level"]["L3"]})</option>' in page
    for facet, value in (("level", "L3"), ("family", "norm"), ("domain", "audio"), ("dtype", "float32")):
        want = [w.id for w in served if value in ((w.domains) if facet == "domain" else (getattr(w, facet),))]
        assert 0 < len(want)
        assert _all_listed(client, **{facet: value}) == want, facet

    # Filters combine; a facet's counts then apply the other filters only.
    both = catalogue.catalogue({"level": "L1", "domain": "vision"})
    assert both.matched == sum(1 for w in served if w.level == "L1" and "vision" in w.domains)
    assert dict(both.counts["level"]) == dict(Counter(w.level for w in served if "vision" in w.domains))
    pattern = "norm/layer-norm"
    assert _all_listed(client, pattern=pattern) == [w.id for w in served if w.pattern.id == pattern]

    # Search: every word must occur (id, computation, domains, source).
    found = _all_listed(client, q="layer-norm")
    assert {w.id for w in served if w.pattern.id == pattern} <= set(found)
    assert "matmul/matmul@m256n256k256" not in found
    by_id = {w.id: w for w in served}
    narrowed = _all_listed(client, q="Layer-Norm audio")  # case does not matter; both words must occur
    assert narrowed == [i for i in found if "audio" in by_id[i].domains] and 0 < len(narrowed) < len(found)
    assert "no workload matches these filters" in _text(client.get("/tasks/", {"q": "no-such-thing"}))


def test_the_backend_facet_is_where_baseline_times_are_stored(client):
    from leaderboard.aggregates import rebuild

    served = served_tasks()
    sub = make_submission(make_user("ann"), "cuda-run", backends=("cuda",))
    timed = served[:2]
    for w, s in zip(timed, (1.5, 3.0)):
        add_result(sub, w, "correct", s, backend="cuda")  # 1 ms each: tvm-default took s ms
    # a private run times the baselines too (the board's baseline rows use it), but its times are not shown
    add_result(make_submission(make_user("bo"), "hidden-run", public=False, backends=("cuda",)), served[2],
               "correct", 2.5, backend="cuda")
    rebuild()
    assert _all_listed(client, backend="cuda") == [w.id for w in served[:3]]
    page = _text(client.get("/tasks/", {"backend": "cuda"}))
    assert '<option value="cuda" selected>cuda (3)</option>' in page
    # the median tvm-default times on that board, of ranked runs only
    assert re.findall(r"<td>([0-9.]+|–)</td></tr>", page) == ["1.500", "3.000", "–"]
    assert _all_listed(client, backend="cuda", level="L3") == [w.id for w in timed if w.level == "L3"]


def test_bad_filter_values_are_named(client):
    served = served_tasks()
    resp = client.get("/tasks/", {"level": "L9", "family": "nope", "backend": "tpu", "pattern": "x/y",
                                  "q": "a" * 101, "page": "two"})
    assert resp.status_code == 400
    page = _text(resp)
    assert "unknown level 'L9'; known: L1, L2, L3" in page
    assert "unknown family 'nope'; known: " in page
    assert "unknown backend 'tpu'; known: cpu-llvm" in page
    assert "unknown pattern 'x/y'" in page
    assert "q: Ensure this field has no more than 100 characters." in page
    assert "page: A valid integer is required." in page
    # the bad ones are left out: the whole list is shown
    assert f"<strong>{len(served)}</strong> of {len(served)} workloads" in page
    assert client.get("/tasks/", {"page": 99}).status_code == 200  # past the end: the last page
    assert client.get("/tasks/", {"level": ""}).status_code == 200  # blank: all


def test_held_out_workloads_are_never_listed_and_404(client):
    from evaluator import suite

    seed_leaderboard()  # beta has a result for a held-out workload, and samples exist for it
    hidden = [w for w in suite.workloads(include_hidden=True) if w.hidden]
    assert hidden
    bodies = [_text(client.get("/tasks/", params)) for params in ({"page": 1}, {"page": 2}, {"backend": BACKEND},
                                                                   {"level": "L3"})]
    for body in bodies:
        for w in hidden:
            assert w.id not in body and w.id.split("@")[1] not in body
    for w in hidden[:3]:
        assert _all_listed(client, q=w.id.split("@")[1]) == []  # not even found by its tag
        assert client.get(f"/workloads/{w.id}/").status_code == 404
    assert client.get("/workloads/nope/nope@x/").status_code == 404


def test_the_workload_page_shows_reference_script_prompt_baselines_and_top_entries(client):
    from evaluator.agents.budget import Budget
    from evaluator.agents.prompts import CURRENT, PromptSet
    from evaluator.backends import get_backend

    seeded = seed_leaderboard()
    beta_correct = served_tasks()[:seeded.n_beta_correct]
    w = next(w for w in beta_correct if w.has_vendor and w.level != "L3")
    resp = client.get(f"/workloads/{w.id}/")
    assert resp.status_code == 200
    page = _text(resp)

    # The computation, shapes and work
    assert w.pattern.summary in page and f"level {w.level}" in page
    for t in w.inputs:
        assert f"<code>{t.name}</code></td><td>input</td><td class=\"left\">{list(t.shape)}" in page
    assert f"{w.flops} FLOP" in page
    # The reference as written in its pattern file, and the canonical TVMScript, whole
    ref = w.pattern.reference
    assert f"reference ({ref.__module__.replace('.', '/')}.py:{ref.__code__.co_firstlineno})" in page
    script = w.canonical_module().script()
    assert script in page
    # The exact messages a model gets (no worker advertised cpu-llvm: this machine describes it)
    info = get_backend(BACKEND).info()
    prompts = PromptSet(CURRENT)
    assert prompts.system(w, "direct") in page
    assert prompts.task(w, info, "direct", Budget()) in page
    agent = _text(client.get(f"/workloads/{w.id}/", {"mode": "agent"}))
    assert prompts.task(w, info, "agent", Budget()) in agent
    bad = client.get(f"/workloads/{w.id}/", {"mode": "chatty"})
    assert bad.status_code == 200 and "unknown mode 'chatty'; known: direct, agent, layered" in _text(bad)

    # Baseline times: the median over the ranked runs (each ran 1 ms at its speedup)
    runs = [seeded.outcomes[n][w.id][1] for n in ("alpha", "beta", "gamma")]
    row = re.search(r'<table class="tasks baseline-times">.*?</table>', page, re.S)[0]
    assert f"<td>{statistics.median(runs):.3f} <span class=\"owner\">(3)</span></td>" in row
    assert "<td>0.425 <span class=\"owner\">(2)</span></td>" in row  # alpha's and gamma's vendor: 0.625, 0.225 ms
    assert "opencl" in row and "<td>3.000 <span class=\"owner\">(1)</span></td>" in row  # the other board's one run

    # Top entries: ranked on this task alone, never the rows that do not rank
    top = re.search(r"<h3>cpu-llvm.*?</table>", page, re.S)[0]
    order = re.findall(r">(alpha|beta|gamma|private|running)</a>", top)
    assert order == ["beta", "alpha", "gamma"]  # 2×, 1.25×, 0.9×
    assert "3 correct of 3 ranked submissions with a result" in page
    assert '<span class="tag">baseline</span> tvm-default' in top
    # The starter bundle of this workload, per backend served, from the API
    link = re.search(r'<a href="([^"]+)" class="starter">' + BACKEND, resp.content.decode())[1]
    assert html.unescape(link) == f"/api/v1/tasks/starter-bundle/?tasks={quote_plus(w.id)}&backend={BACKEND}"
    bundle = client.get(html.unescape(link))
    assert bundle.status_code == 200 and bundle["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(bundle.content)) as z:
        assert [e["workload"] for e in json.loads(z.read("manifest.json"))["entries"]] == [w.id]


def test_a_reference_shows_the_formula_it_calls(client):
    w = next(w for w in served_tasks() if w.pattern.id == "activation/gelu-tanh")
    page = _text(client.get(f"/workloads/{w.id}/"))
    assert "lambda p, X: fn(X, _NP)" in page
    assert "def _gelu_tanh(x, m):" in page  # the formula the lambda evaluates, from its module
