# Generated from agentx_memory/api/profile_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for profile memory. Generated from ``api/profile_async.py``: edit that file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InvalidInputError
from ..models.profile import UserProfile
from ..validation import validate_content, validate_expertise, validate_metadata
from .core import FacadeCore

__all__ = ["ProfileApi"]


class ProfileApi(FacadeCore):
    """The user's profile (shared by every channel): preferences, expertise, communication style."""

    def get_profile(self) -> UserProfile:
        """The stored profile, or the defaults when none is stored yet."""
        backends = self._open_backends()
        profile = backends.profile.get(self.scope)
        backends.audit.log_read(self.scope, "get_profile", {"stored": profile.created_at is not None})
        return profile

    def update_profile(
        self,
        preferences: dict[str, Any] | None = None,
        expertise_areas: Sequence[str] | None = None,
        communication_style: str | None = None,
    ) -> UserProfile:
        """Merge into the profile: ``preferences`` key by key, ``expertise_areas`` as an ordered union,
        ``communication_style`` replaced. ``None`` leaves a field untouched."""
        prefs = None if preferences is None else validate_metadata(preferences, self.settings.limits)
        areas = validate_expertise(expertise_areas)
        style = None
        if communication_style is not None:
            style = validate_content(communication_style, self.settings.limits, "communication_style")
            if len(style) > self.settings.limits.max_title_chars:
                raise InvalidInputError(
                    f"communication_style is longer than {self.settings.limits.max_title_chars} characters"
                )
        backends = self._open_backends()
        profile = backends.profile.update(self.scope, prefs, areas, style)
        values = {"preferences": prefs, "expertise_areas": areas, "communication_style": style}
        backends.audit.log_write(
            self.scope,
            "update_profile",
            "profile",
            self.scope.user_id,
            {"fields": [name for name, value in values.items() if value is not None]},
            values,
        )
        return profile
