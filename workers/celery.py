"""``celery -A workers worker -B``: the app built from the ``AGENTX_*`` environment (the entry point
reads the settings; nothing else does)."""

from agentx_memory.settings import Settings, owning_process

from .app import make_app

app = make_app(owning_process(Settings()))
