"""Thin adapters of the facade for agent frameworks, each behind an optional extra; never imported by
``import agentx_memory``."""
