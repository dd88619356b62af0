"""``reconcile``: what the ledger holds and the graph never confirmed is written to the graph again.
Async source of ``reconcile.py``.

A turn is durable once its ledger row commits (DESIGN §3); its graph write may fail after that (a
graph server restarting), and the turn stays on the ledger's list of unsynced turns
(``turn_sync_pending``). Reconcile replays those writes
through the episodic subsystem — the same idempotent statement as ``store_turn`` (one node per turn
id) — so a replay never duplicates a node, whatever was written before the failure. Conversations whose
node was never confirmed are restored first; tool invocations, ledger-first too, are replayed last
(their graph statement counts an invocation in its tool's statistics only once).
"""

from __future__ import annotations

from ..errors import GraphSyncError, NotFoundError
from .runner_async import AsyncJobContext

__all__ = ["BATCH", "reconcile"]

#: Turns replayed per ledger read (the job reads again until nothing is left, or nothing moves).
BATCH = 200


async def reconcile(context: AsyncJobContext) -> None:
    episodic = context.backends.episodic
    for user_id, conversation_id in await episodic.unsynced_conversations(BATCH):
        context.tally.plan(f"restore conversation {user_id}/{conversation_id}")
        if not context.dry_run:
            await episodic.restore_graph_conversation(user_id, conversation_id)
            context.tally.count("conversations")
    failed: set[str] = set()
    while True:
        turns = [turn for turn in await episodic.unsynced_turns(BATCH + len(failed)) if turn.id not in failed]
        if not turns:
            break
        for turn in turns:
            context.tally.plan(f"replay turn {turn.user_id}/{turn.conversation_id}#{turn.index}")
            if context.dry_run:
                context.tally.count("turns")
                continue
            try:
                await episodic.sync_turn(turn)
                context.tally.count("turns")
            except GraphSyncError:  # the graph is still down: the next run tries again
                failed.add(turn.id)
                context.tally.count("failed")
            except NotFoundError:  # forgotten since it was read: nothing left to replay
                failed.add(turn.id)
                context.tally.count("forgotten")
        if context.dry_run:
            break
    await _replay_invocations(context)


async def _replay_invocations(context: AsyncJobContext) -> None:
    procedural = context.backends.procedural
    failed: set[str] = set()
    while True:
        pending = await procedural.unsynced_invocations(BATCH + len(failed))
        invocations = [invocation for invocation in pending if invocation.id not in failed]
        if not invocations:
            return
        for invocation in invocations:
            context.tally.plan(f"replay tool invocation {invocation.user_id}/{invocation.id}")
            if context.dry_run:
                context.tally.count("invocations")
                continue
            try:
                await procedural.sync_invocation(invocation)
                context.tally.count("invocations")
            except GraphSyncError:  # the graph is still down: the next run tries again
                failed.add(invocation.id)
                context.tally.count("failed")
        if context.dry_run:
            return
