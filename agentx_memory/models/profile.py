"""User profile model: preferences, expertise and communication style (Postgres ``user_profiles``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["UserProfile"]


class UserProfile(BaseModel):
    """A user's profile; a user without a stored row gets the defaults (timestamps ``None``)."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    preferences: dict[str, Any] = Field(default_factory=dict)
    expertise_areas: list[str] = Field(default_factory=list)
    communication_style: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
