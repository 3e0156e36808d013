"""Model endpoints as competitors: prompts, the chat client, reply extraction, the three mode
loops, and two models that need no external service.

A model endpoint is an OpenAI-compatible chat-completions URL. The portal prompts it per task,
evaluates what comes back with the same :class:`~evaluator.pipeline.Pipeline` as any bundle
(inside the sandbox), and keeps every turn as the task's optimisation trace.

::

    prompts.py   versioned templates: the task (TVMScript compute, shapes, dtype, backend,
                 constraints, output format) and the feedback after each measurement
    netguard.py  SSRF guard: resolve once, refuse non-public addresses, connect to the checked one
    client.py    the chat client: timeouts, retries with backoff, response size cap, budget
                 accounting, typed failure reasons, the API key redacted from every message
    extract.py   reply → kernel (a layered-trace document, a layer's steps, or TVMScript)
    budget.py    the budget every mode shares (measured candidates, requests, tokens, time)
    modes.py     direct (k samples), agent (multi-turn with feedback), layered (LEKA-style:
                 compute → schedule → memory, measured after each step, best kept)
    trace.py     the recorded turn (the task's optimisation trace) and its JSON shape
    server.py    a small OpenAI-compatible HTTP server for local models: scripted transcripts
                 (tests) and the built-in search agent (demo); ``python -m evaluator.agents serve``
    search/      the built-in search agent: a real search over layered-trace schedules, driven
                 by the measurements the conversation carries back

No Django here: the portal calls :func:`modes.run_task` from its worker.
"""
