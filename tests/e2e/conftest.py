# The portal's test deployment (tasks, held-out secret, a private var directory) for every test
# here, and the fixtures the modules ask for by name; the other helpers are imported where used.
from portal_helpers import broker, deployment, isolated_media, workers  # noqa: F401 - fixtures
