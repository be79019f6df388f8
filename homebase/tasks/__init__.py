"""Follow-up tasks: POST/GET /v1/tasks, deduplicated within a 60-second window."""
