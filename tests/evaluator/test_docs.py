"""The docs stay usable: a short README, links that resolve, and every ``EKB_*`` setting the code
reads listed in docs/settings.md. Plain file checks: no database, no TVM."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETTINGS_DOC = ROOT / "docs" / "settings.md"
README_MAX_LINES = 250
# Where the project's code reads settings (config/ is the Django project package).
CODE = ("portal", "leaderboard", "evaluator", "config", "bench", "examples", "manage.py")

FENCE = re.compile(r"^ *(```|~~~).*?^ *\1[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
# [text](target "title") and ![alt](target); the text may hold one level of brackets
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(?:<([^<>\n]+)>|([^()\s<>]+))(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)  # http:, https:, mailto:, //host
EKB_NAME = re.compile(r"\bEKB_[A-Z0-9_]+\b")


def markdown_files() -> list[Path]:
    files = [README, *sorted((ROOT / "docs").glob("*.md"))]
    results_index = ROOT / "bench" / "results" / "README.md"
    if results_index.exists():
        files.append(results_index)
    return files


def prose(text: str) -> str:
    """The text without fenced code blocks and code spans: a link there is an example."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def relative_links(text: str) -> list[str]:
    body = prose(text)
    targets = [a or b for a, b in INLINE_LINK.findall(body)] + REFERENCE_DEF.findall(body)
    return [t for t in targets if not EXTERNAL.match(t) and not t.startswith("#")]


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail into docs/")


def test_relative_links_resolve():
    broken = []
    for md in markdown_files():
        for target in relative_links(md.read_text(encoding="utf-8")):
            path = target.split("#", 1)[0].split("?", 1)[0]
            if not (md.parent / path).exists():
                broken.append(f"{md.relative_to(ROOT)}: {target}")
    assert not broken, "links to files that do not exist:\n" + "\n".join(broken)


def test_link_checker_sees_links():
    """The checker finds links (so an empty result above means something) and skips code."""
    text = ("See [a](docs/a.md#x), ![img](s/b.png \"t\"), [web](https://example.org), [top](#y),\n"
            "[sp](<d/e f.md>).\n[ref]: docs/c.md\n`[not](code.md)`\n```\n[nor](block.md)\n```\n")
    assert relative_links(text) == ["docs/a.md#x", "s/b.png", "d/e f.md", "docs/c.md"]
    assert relative_links(README.read_text(encoding="utf-8")), "README.md links to no docs page"


def code_settings() -> dict[str, str]:
    """Each EKB_* name the code mentions, with one file that does."""
    found: dict[str, str] = {}
    for entry in CODE:
        base = ROOT / entry
        files = [base] if base.is_file() else sorted(base.rglob("*.py")) if base.is_dir() else []
        for f in files:
            for name in EKB_NAME.findall(f.read_text(encoding="utf-8", errors="replace")):
                found.setdefault(name, str(f.relative_to(ROOT)))
    return found


def documented_settings() -> set[str]:
    """The names in the first column of docs/settings.md's tables."""
    names = set()
    for line in SETTINGS_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            first = line.strip("|").split("|", 1)[0]
            names.update(re.findall(r"\b[A-Z][A-Z0-9_]+\b", first))
    return names


def test_every_setting_is_documented():
    used = code_settings()
    assert len(used) > 20, f"found only {sorted(used)}: is the scan looking in the right places?"
    missing = sorted(set(used) - documented_settings())
    assert not missing, ("settings the code reads that docs/settings.md's table does not list:\n"
                         + "\n".join(f"{n} (e.g. {used[n]})" for n in missing))


def test_django_environment_is_documented():
    documented = documented_settings()
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG",
                 "DJANGO_ALLOWED_HOSTS"):
        assert name in documented, f"{name} is missing from docs/settings.md"
