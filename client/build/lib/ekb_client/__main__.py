"""``python -m ekb_client``: the ``ekb`` command."""

from __future__ import annotations

import sys

from ekb_client.cli import main

sys.exit(main())
