# The portal's test deployment (tasks, held-out secret, a private var directory) for the client's
# tests too: they run the `ekb` command against a live portal and real workers.
from portal_helpers import broker, deployment, fresh_throttle_cache, isolated_media, workers  # noqa: F401 - fixtures
