import time
import pytest
from portal_helpers import (RELU_DEFAULT, MATMUL_HAND_TUNED, SUM_HAND_TUNED, SOFTMAX_HAND_TUNED, broker, bundle_zip, fresh_throttle_cache, isolated_media, make_user, token_client, upload, wait_for, workers)  # noqa

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

@pytest.mark.django_db(transaction=True)
def test_exp(workers, broker):
    from portal.models import Result, Submission
    first = workers.start(EKB_VISIBILITY_TIMEOUT="10")
    resp = token_client(make_user("a")).post("/api/v1/submissions/", {"bundle": upload(bundle_zip(RELU_DEFAULT, MATMUL_HAND_TUNED, SUM_HAND_TUNED, SOFTMAX_HAND_TUNED))}, format="multipart")
    sid = resp.json()["id"]
    wait_for(lambda: Result.objects.filter(submission_id=sid).exclude(status="missing").exists(), timeout=100, what="x")
    first.kill(); t = time.monotonic()
    time.sleep(11)
    second = workers.start()  # default 3600 s timeout
    time.sleep(15)
    print("default-timeout worker after", time.monotonic() - t, "s: unacked", broker.hlen("unacked"), "queue", broker.llen("eval.cpu-llvm"),
          "results", Result.objects.filter(submission_id=sid).count(), "received" in second.log())
