"""Homebase: the real-estate workspace REST API."""

__version__ = "0.1.0"
API_VERSION = "v1"
