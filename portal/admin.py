from django.contrib import admin

from portal.models import Endpoint, Result, Submission


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = ("workload", "backend", "status", "speedup_tvm_default", "speedup_vendor", "reason")
    readonly_fields = fields
    can_delete = False


class EndpointInline(admin.StackedInline):
    model = Endpoint
    extra = 0
    # the API key (even encrypted) is never shown
    fields = ("url", "model", "mode", "budget", "prompt_version", "tasks", "requests_used", "tokens_used")
    readonly_fields = fields
    can_delete = False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "owner", "kind", "state", "tasks_done", "tasks_total", "created_at")
    list_filter = ("state", "kind", "public")
    search_fields = ("name", "owner__username", "bundle_sha256")
    inlines = [EndpointInline, ResultInline]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("workload", "backend", "submission", "status", "speedup_tvm_default")
    list_filter = ("backend", "status", "level")
    search_fields = ("workload",)
