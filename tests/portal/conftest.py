# The portal's test deployment (tasks, held-out secret, a private var directory) for every test
# here, and the fixtures the modules ask for by name; the other helpers are imported where used.
from portal_helpers import (broker, chat_server, deployment, fresh_throttle_cache, isolated_media,  # noqa: F401 - fixtures
                            loopback, workers)
