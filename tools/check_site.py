"""Check a built docs site fetches nothing from the network when read: no stylesheet, script, image,
font or frame is loaded from another host (links a reader clicks are fine).

    python tools/check_site.py site/
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# What a browser loads by itself: <script src>, <img src>, <iframe src>, <link rel=stylesheet|preload|
# icon href>, CSS url(...) and @import.
_HTML_LOADS = re.compile(
    r"<(?:script|img|iframe|source|audio|video)\b[^>]*\bsrc=[\"']?(?P<src>(?:https?:)?//[^\"'\s>]+)"
    r"|<link\b(?=[^>]*\brel=[\"']?(?:stylesheet|preload|preconnect|icon|modulepreload))[^>]*"
    r"\bhref=[\"']?(?P<href>(?:https?:)?//[^\"'\s>]+)",
    re.I,
)
_CSS_LOADS = re.compile(r"(?:url\(|@import\s+)[\"']?(?P<url>(?:https?:)?//[^\"')\s]+)", re.I)


def external_loads(site: Path) -> list[str]:
    """Every ``file: url`` the site's pages or stylesheets would fetch from another host."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for match in _HTML_LOADS.finditer(page.read_text(errors="replace")):
            found.append(f"{page.relative_to(site)}: {match.group('src') or match.group('href')}")
    for sheet in sorted(site.rglob("*.css")):
        for match in _CSS_LOADS.finditer(sheet.read_text(errors="replace")):
            found.append(f"{sheet.relative_to(site)}: {match.group('url')}")
    return found


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    site = Path(sys.argv[1])
    if not (site / "index.html").exists():
        raise SystemExit(f"{site} holds no built site (index.html missing)")
    loads = external_loads(site)
    if loads:
        raise SystemExit("the docs site would fetch from the network:\n  " + "\n  ".join(loads))
    print(f"{site}: nothing loaded from another host")


if __name__ == "__main__":
    main()
