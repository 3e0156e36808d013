"""What is being evaluated, on the pages that show results: a board fills in as submissions
finish, and this says which are coming and how far each backend has got."""

from django import template
from django.db.models import Count

from evaluator.vocabulary import Track
from portal.models import Result, Submission

register = template.Library()

SHOWN = 8  # submissions listed; the rest are counted
RELOAD_S = 15  # the page reloads itself this often while any is in evaluation


@register.inclusion_tag("leaderboard/_in_evaluation.html")
def in_evaluation() -> dict:
    pending = Submission.objects.filter(public=True, state__in=[Submission.State.QUEUED, Submission.State.RUNNING])
    shown = list(pending.order_by("created_at")[:SHOWN])
    done = {(r["submission"], r["backend"]): r["n"] for r in
            Result.objects.filter(submission__in=shown, track=Track.PUBLIC)
            .values("submission", "backend").annotate(n=Count("id"))}
    for s in shown:
        per_backend = s.tasks_total // max(1, len(s.backends))
        s.progress = [(b, done.get((s.pk, b), 0), per_backend) for b in s.backends]
    return {"subs": shown, "more": max(0, pending.count() - len(shown)), "reload_s": RELOAD_S}
