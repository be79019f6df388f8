"""Automations, personas, campaigns, enrolments and the engine that runs them."""
