"""What a list reads: a list described once (listing), a page tried step by step (pages),
a synced list's walk of changes (changes)."""
