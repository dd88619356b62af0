"""Facade mixins, one per memory kind: ``AsyncAgentMemory`` (and its generated twin) inherits them."""
