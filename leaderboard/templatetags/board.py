from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Look up keys Django's dot syntax cannot (``fast@1.0``)."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def ms(seconds):
    return "–" if seconds is None else f"{seconds * 1e3:.3f}"
