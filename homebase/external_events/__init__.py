"""Catalogue events caused by features v1 does not have (document signing, listing-alert
digests), emitted through `homebase admin emit-event` with validated data."""
