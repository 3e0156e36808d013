"""Client for an EdgeKernelBench portal's REST API (``/api/v1/``) and the ``ekb`` command.

    from ekb_client import Client
    client = Client("https://portal.example", token="...")
    for task in client.tasks(level="L1"):
        print(task["workload"])
"""

from __future__ import annotations

from ekb_client.api import ApiError, Client, ClientError, NetworkError

__version__ = "0.1.0"
__all__ = ["ApiError", "Client", "ClientError", "NetworkError", "__version__"]
