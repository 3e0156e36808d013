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


class EndpointSubmissionForm(forms.Form):
    """A model endpoint: the portal prompts it per task and evaluates what it returns."""

    name = forms.RegexField(r"^[A-Za-z0-9._ ()-]{1,64}$", required=False,
                            help_text="optional; defaults to 'model (mode)'")
    description = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    url = forms.CharField(max_length=500, label="Endpoint URL",
                          help_text="OpenAI-compatible: the base URL the OpenAI SDKs take (https://host/v1) or the "
                                    "full chat-completions URL (https://host/v1/chat/completions). On submit it is "
                                    "called once with a 1-token request: a URL that cannot answer (nothing "
                                    "listening, key refused, HTTP 404) is refused; a slow one is accepted")
    model = forms.CharField(max_length=200)
    api_key = forms.CharField(required=False, max_length=500, strip=False, label="API key",
                              widget=forms.PasswordInput(render_value=False),
                              help_text="sent as a bearer token; stored encrypted and never shown again")
    mode = forms.ChoiceField(choices=[("direct", "direct — one reply per task (k samples: Correct@k)"),
                                      ("agent", "agent — multi-turn with compile/check/timing feedback"),
                                      ("layered", "layered — compute → schedule → memory layer by layer")],
                             initial="agent")
    candidates = forms.IntegerField(min_value=1, max_value=64, initial=8,
                                    help_text="measured candidates per task (samples in direct mode)")
    time_s = forms.IntegerField(min_value=10, max_value=3600, initial=900, label="Time per task (s)")
    max_tokens = forms.IntegerField(min_value=1000, max_value=100_000_000, initial=5_000_000,
                                    label="Token budget", help_text="for the whole submission")
    tasks = forms.CharField(required=False, max_length=4000,
                            help_text="workload globs separated by spaces, e.g. 'matmul/* softmax/*'; "
                                      "empty: every public workload")
    public = forms.BooleanField(required=False, initial=True, help_text="show on the leaderboards")
    backends = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple,
                                         help_text="default: the first backend served here")

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.fields["backends"].choices = [(b, b) for b in settings.EKB_BACKENDS]

    def budget(self) -> dict:
        d = self.cleaned_data
        return {"candidates": d["candidates"], "time_s": float(d["time_s"]), "max_tokens": d["max_tokens"]}
