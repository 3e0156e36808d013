from django.contrib import admin

from leaderboard.models import BackendPeak, Board


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("backend", "device", "version", "updated_at")
    readonly_fields = ("version", "updated_at")


@admin.register(BackendPeak)
class BackendPeakAdmin(admin.ModelAdmin):
    list_display = ("backend", "device", "flops_per_s", "bytes_per_s", "measured_at")
