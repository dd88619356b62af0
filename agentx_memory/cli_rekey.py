"""``agentx-memory rotate-key``: re-encrypt the ledger's sensitive values under the current key, with a
progress bar per table. Safe to interrupt and to run while applications write: a rerun finishes it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import Progress

from .cli_reindex import ProgressBars, progress_columns
from .cli_support import errors, state_of

__all__ = ["rotate_key"]


def rotate_key(
    ctx: typer.Context,
    batch: Annotated[int, typer.Option("--batch", min=1, max=10_000, help="Rows per write.")] = 500,
) -> None:
    """Re-encrypt every encrypted (or still plain) tool input/output, metadata and audit payload of every
    user under AGENTX_SECURITY__ENCRYPTION_KEY, decrypting with it or AGENTX_SECURITY__OLD_ENCRYPTION_KEYS.
    Remove the old keys from the settings once it reports done."""
    state = state_of(ctx)
    from agentx_memory.maintenance.rekey import rekey

    with errors(state.err), Progress(*progress_columns(), console=state.err) as bar:
        report = rekey(state.settings, batch=batch, progress=ProgressBars(bar))
    copies = ", ".join(f"{n:,} {where}" for where, n in report.copies.items())
    state.out.print(
        f"Re-encrypted {sum(report.rows.values()):,} rows (and the copies: {copies}) under key {report.kid} "
        f"in {report.seconds:.1f} s "
        f"({report.rate:,.0f} rows/s); every sensitive value is now under it: the old keys can be removed "
        "from AGENTX_SECURITY__OLD_ENCRYPTION_KEYS.",
        soft_wrap=True,
    )
