"""The POST /v1/leads scenario (docs/leads.md, "Benchmark scenario"): a workspace with a
realistic routing rule set, and a lead that takes the whole path every time: matched to
its contact by phone, a consent artifact recorded, a round-robin turn taken, the contact
handed to the next agent, timeline entries and lead.created / lead.assigned events."""

import json
from pathlib import Path

LEAD_FIXTURES = {
    "offices": [{"ref": "downtown", "name": "Downtown"}],
    "teams": [{"ref": "buyers", "name": "Buyers", "office": "downtown"}],
    "members": [
        {
            "ref": f"a{n}",
            "email": f"a{n}@bench.example",
            "name": f"Agent {n}",
            "office": "downtown",
            "team": "buyers",
        }
        for n in range(4)
    ],
    "routing_rules": [
        {"name": "Luxury", "method": "agent", "agent": "a0", "conditions": {"price_min": 5000000}},
        {
            "name": "Portal buyers",
            "method": "round_robin",
            "team": "buyers",
            "conditions": {"source": ["Zillow", "Realtor.com"], "zip": ["941"]},
        },
        {"name": "Fallback", "method": "agent", "agent": "a1", "fallback": True},
    ],
}

LEAD_BODY = {
    "phone": "+1 415 555 0142",
    "source": "Zillow",
    "first_name": "Dana",
    "last_name": "Reyes",
    "email": "dana.reyes@example.com",
    "source_ref": "zl-884213",
    "context": {"zip": "94110", "city": "San Francisco", "price": 1250000, "tags": ["buyer"]},
    "consent": {
        "captured_at": "2026-11-20T17:03:58Z",
        "source_url": "https://www.zillow.com/homedetails/123-valencia-st",
        "ip": "203.0.113.7",
    },
}


def write_fixtures(directory: Path) -> Path:
    path = directory / "lead-fixtures.json"
    path.write_text(json.dumps(LEAD_FIXTURES))
    return path


def check_created(lead: dict) -> None:
    """The scenario took the full path (not the fallback, not skipped)."""
    if lead.get("routing_method") != "round_robin" or not lead.get("contact_id"):
        raise RuntimeError(f"POST /v1/leads did not route round-robin: {lead}")
