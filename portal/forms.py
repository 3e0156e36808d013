from django import forms
from django.conf import settings


class SubmissionForm(forms.Form):
    bundle = forms.FileField(help_text="a .zip or .tar.gz with manifest.json at its root")
    name = forms.RegexField(r"^[A-Za-z0-9._ -]{1,64}$", required=False,
                            help_text="optional; defaults to the manifest's name")
    description = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    public = forms.BooleanField(required=False, initial=True, help_text="show on the leaderboards")
    backends = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple,
                                         help_text="default: the bundle's backends served here")

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.fields["backends"].choices = [(b, b) for b in settings.EKB_BACKENDS]
