from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from portal import reaper
from portal.models import Endpoint, Result, Submission
from portal.submissions import request_verification


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = ("workload", "backend", "track", "status", "speedup_tvm_default", "speedup_tvm_tuned", "speedup_vendor",
              "reason")
    readonly_fields = fields
    can_delete = False


class EndpointInline(admin.StackedInline):
    model = Endpoint
    extra = 0
    # the API key (even encrypted) is never shown
    fields = ("url", "model", "mode", "budget", "prompt_version", "tasks", "requests_used", "tokens_used")
    readonly_fields = fields
    can_delete = False


class StuckFilter(admin.SimpleListFilter):
    """Queued or running with nothing moved for EKB_REAP_AFTER_S (``reaper.stalled``), whether or
    not the reaper would act on them yet (a live worker may still be on one)."""

    title = "stuck"
    parameter_name = "stuck"

    def lookups(self, request, model_admin):
        return [("yes", f"no progress for {settings.EKB_REAP_AFTER_S} s")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=reaper.stalled().values("pk"))
        return queryset


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "owner", "kind", "state", "verification", "tasks_done", "tasks_total", "requeues",
                    "progressed_at", "created_at")
    list_filter = (StuckFilter, "state", "kind", "public", "verification")
    search_fields = ("name", "owner__username", "bundle_sha256")
    inlines = [EndpointInline, ResultInline]
    actions = ["verify", "requeue", "fail_stuck"]

    @admin.action(description="Re-queue the unfinished jobs (counts as a re-queue)")
    def requeue(self, request, queryset):
        for sub in queryset:
            queued = reaper.requeue(sub) if not sub.is_done else []
            if queued:
                self.message_user(request, f"{sub}: re-queued on {', '.join(queued)} (re-queue {sub.requeues})")
            else:
                self.message_user(request, f"{sub}: nothing re-queued (ended, or no unfinished backend)",
                                  messages.WARNING)

    @admin.action(description="Fail with the reason: no worker finished it")
    def fail_stuck(self, request, queryset):
        for sub in queryset:
            reason = reaper.give_up(sub, reaper.pending_backends(sub)) if not sub.is_done else ""
            if reason:
                self.message_user(request, f"{sub}: failed: {reason}")
            else:
                self.message_user(request, f"{sub}: already ended; left as it is", messages.WARNING)

    @admin.action(description="Run the verified evaluation (hidden workloads, secret seeds)")
    def verify(self, request, queryset):
        for sub in queryset:
            try:
                request_verification(sub)
            except ValidationError as e:
                self.message_user(request, " ".join(e.messages), messages.WARNING)
            else:
                self.message_user(request, f"{sub}: verification queued")


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("workload", "backend", "track", "submission", "status", "speedup_tvm_default", "reason")
    list_filter = ("backend", "track", "status", "level")
    search_fields = ("workload",)
    actions = ["clear_suspect", "mark_hacked"]

    def _review(self, request, queryset, verdict: str, done: str) -> None:
        for result in queryset:
            try:
                getattr(result, verdict)(by=request.user)
            except ValidationError as e:  # not suspect: said per result, the others still reviewed
                self.message_user(request, " ".join(e.messages), messages.ERROR)
            else:
                self.message_user(request, f"{result.workload} on {result.backend} (submission "
                                           f"#{result.submission_id}): {done}; its board rows are rescored")

    @admin.action(description="Clear: the timing is genuine")
    def clear_suspect(self, request, queryset):
        self._review(request, queryset, "clear_suspect", "cleared, now correct")

    @admin.action(description="Mark hacked")
    def mark_hacked(self, request, queryset):
        self._review(request, queryset, "mark_hacked", "marked hacked, ranked as wrong")
