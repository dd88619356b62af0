"""agentx-memory."""
