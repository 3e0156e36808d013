"""The built-in search agent: ``space`` (the schedule space of a workload as layered-trace
layers) and ``agent`` (the search over it, answering chat-completion requests)."""
