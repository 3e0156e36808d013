"""Serve plotly.js from our static files: the copy inside the pinned ``plotly`` package, under
``vendor/plotly.min.js`` (so the page's plotly.js always matches the Python package that wrote
the figures, and no CDN is involved). ``collectstatic`` copies it like any other static file."""

from __future__ import annotations

from pathlib import Path

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PLOTLY_JS = "vendor/plotly.min.js"


class PlotlyFinder(BaseFinder):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.root = Path(plotly.__file__).parent / "package_data"
        self.storage = FileSystemStorage(location=str(self.root))

    def check(self, **kwargs):
        return []

    def find(self, path, find_all=False, **kwargs):
        if path == PLOTLY_JS and (self.root / "plotly.min.js").is_file():
            found = str(self.root / "plotly.min.js")
            return [found] if find_all else found
        return [] if find_all else None

    def list(self, ignore_patterns):
        self.storage.prefix = "vendor"  # collectstatic copies it to vendor/plotly.min.js
        yield "plotly.min.js", self.storage
