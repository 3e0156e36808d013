from urllib.parse import urlencode

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Look up keys Django's dot syntax cannot (``fast@1.0``)."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def ms(seconds):
    return "–" if seconds is None else f"{seconds * 1e3:.3f}"


@register.filter
def num(value, digits=3):
    """A metric with ``digits`` decimals; – where there is none (not 0: 0 is a result)."""
    if value is None or value == "":
        return "–"
    try:
        return f"{float(value):.{int(digits)}f}"
    except (TypeError, ValueError):
        return "–"


@register.simple_tag
def board_params(query, **change):
    """The query string of a board with some parameters changed (device "" clears it)."""
    params = query.params(**change)
    return urlencode(params)


@register.filter
def giga(value):
    """Per-second rates in G/s with two decimals."""
    return "–" if value is None else f"{value / 1e9:.2f}"
