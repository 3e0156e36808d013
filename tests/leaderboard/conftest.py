# The portal's test deployment (tasks, held-out secret, a private var directory) for every test
# here, and the fixtures the modules ask for by name; the other helpers are imported where used.
from portal_helpers import deployment, isolated_media  # noqa: F401 - fixtures
