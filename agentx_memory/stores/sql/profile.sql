-- User profiles: preferences (JSON object), expertise areas (JSON array), communication style.

-- name: get_profile
SELECT user_id, preferences, expertise_areas, communication_style, created_at, updated_at
FROM user_profiles
WHERE user_id = %(user_id)s

-- name: drop_profile_preferences
-- Preferences that no longer hold (the user quit the job the profile named): removed by key.
UPDATE user_profiles
SET preferences = preferences - %(keys)s::text[], updated_at = now()
WHERE user_id = %(user_id)s AND preferences ?| %(keys)s::text[]
RETURNING user_id

-- name: upsert_profile
-- One statement: a NULL parameter leaves its field untouched; preferences merge key by key (||);
-- expertise areas are a union that keeps first-seen order.
INSERT INTO user_profiles AS p (user_id, preferences, expertise_areas, communication_style)
VALUES (%(user_id)s, COALESCE(%(preferences)s::jsonb, '{}'::jsonb),
        COALESCE(%(expertise_areas)s::jsonb, '[]'::jsonb), %(communication_style)s)
ON CONFLICT (user_id) DO UPDATE SET
    preferences = p.preferences || EXCLUDED.preferences,
    expertise_areas = (
        SELECT COALESCE(jsonb_agg(merged.value ORDER BY merged.first), '[]'::jsonb)
        FROM (
            SELECT e.value, min(e.ord) AS first
            FROM jsonb_array_elements(p.expertise_areas || EXCLUDED.expertise_areas) WITH ORDINALITY
                AS e(value, ord)
            GROUP BY e.value
        ) AS merged
    ),
    communication_style = COALESCE(EXCLUDED.communication_style, p.communication_style),
    updated_at = now()
RETURNING user_id, preferences, expertise_areas, communication_style, created_at, updated_at
