"""The AI responder: answers a lead's texts as the workspace's responder persona (docs/ai.md)."""
