"""What the portal announces, and what it asks, without knowing who listens.

The portal stores results; other apps (the leaderboard) keep their own views of them current by
connecting receivers here, in their ``AppConfig.ready()``. The portal never imports them.

Announced (``send``: a receiver's exception reaches the sender, which decides what it costs):

* ``result_landed(sender=Result, result=)``: one stored result, to reach the boards now.
* ``results_landed(sender=Result, results=)``: a batch of stored results (a compile-farm
  measurement job's, announced where the suite is), as a queryset.
* ``peak_measured(sender=None, backend=, device=, peak=)``: a backend's measured peak on a
  device (``Pipeline.peak``), sent by every evaluation job (the leaderboard keeps the first).

Asked (each receiver answers with a list; :func:`answers` joins them; nobody listening: none):

* ``submission_boards(sender=Submission, submission=)``: the submission's board summaries, for
  its page (``templates/portal/submission.html``: per board and track).
* ``submission_generalisation(sender=Submission, submission=)``: per board, the generalisation
  of its finished verified run (``SubmissionSerializer.generalisation``).
"""

from django.dispatch import Signal

result_landed = Signal()
results_landed = Signal()
peak_measured = Signal()

submission_boards = Signal()
submission_generalisation = Signal()


def answers(signal: Signal, sender, **kwargs) -> list:
    """Every receiver's answer to ``signal``, joined in the order they were connected."""
    return [item for _, answer in signal.send(sender=sender, **kwargs) for item in answer or ()]
