"""Celery app, beat schedule and thin task wrappers over agentx_memory.maintenance (background-jobs issue)."""
