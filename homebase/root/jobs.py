"""Every worker job, in the order a round runs them: the one list the worker reads
(root/worker.py), under `homebase worker` and in-process under `homebase serve`.
Nothing registers itself by being imported; a new job is a line here.

The webhook jobs come first: a worker woken by a commit starts the event's delivery
before the other jobs' checks, which took most of the commit-to-first-attempt time
(docs/performance.md). The sweeps come last.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from homebase.ai import jobs as ai
from homebase.ai import outreach_jobs as ai_outreach
from homebase.automations import jobs as automations
from homebase.calendars import jobs as calendars
from homebase.custom_fields import jobs as custom_fields
from homebase.exports import jobs as exports
from homebase.imports import jobs as imports
from homebase.messaging import jobs as messaging
from homebase.retention import jobs as retention
from homebase.runtime import Runtime
from homebase.voice import jobs as voice
from homebase.voice import summaries as voice_summaries
from homebase.webhooks import jobs as webhooks


@dataclass(frozen=True)
class Job:
    name: str  # in logs, metrics and traces
    run: Callable[[Runtime], Awaitable[int]]  # a bounded batch; returns how much it did


JOBS: tuple[Job, ...] = (
    Job("webhooks.fan_out", webhooks.fan_out),
    Job("webhooks.deliver", webhooks.deliver_due),
    Job("automations.tick", automations.tick),
    Job("automations.campaigns", automations.campaigns),
    Job("calendars.push", calendars.run),
    # Before the send job: a reply queued by a finished compose goes out in this round.
    # It starts the model calls and does not wait for them (ai/jobs.py).
    Job("ai.respond", ai.respond_due),
    # What the AI sends unasked: first touches and follow-ups (ai/outreach_jobs.py).
    Job("ai.outreach", ai_outreach.run),
    Job("messages.send", messaging.send_due),
    # AI calls asked for (voice/jobs.py): each placed through the Calls API under a lease.
    Job("voice.place", voice.place_due),
    # Ended AI calls' summaries by the model, then their records (voice/summaries.py).
    # It starts the model calls and does not wait for them.
    Job("voice.summarize", voice_summaries.run),
    # Erased calls' recordings deleted at the provider, after the erasure committed.
    Job("voice.erase_recordings", voice.erase_recordings),
    # A deleted custom field's values, in bounded batches (nothing renders them already).
    Job("custom_fields.purge", custom_fields.purge_deleted),
    # Starts each export's writing and does not wait for it (exports/jobs.py).
    Job("exports.run", exports.run),
    # Starts each claimed import's batches and does not wait for them (imports/jobs.py).
    Job("imports.run", imports.run),
    Job("retention.prune", retention.prune),
    # Removes export files past their 7 days, those an erasure marked, and the console's
    # CSV uploads left for an hour.
    Job("exports.expire", exports.expire),
    Job("webhooks.sweep", webhooks.sweep),
)
