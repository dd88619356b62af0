"""``tools/check_site.py``: a built page that would load a font, stylesheet or script from another host
is caught; links a reader clicks are not."""

from __future__ import annotations

from pathlib import Path

from tools.check_site import external_loads


def test_external_assets_are_caught_and_links_are_not(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'
        '<script src="//cdn.example.org/x.js"></script>'
        '<link rel="canonical" href="https://example.org/">'
        '<a href="https://squidfunk.github.io/mkdocs-material/">Material</a>'
        '<img src="images/plot.png">'
    )
    (tmp_path / "a.css").write_text("@font-face{src:url(https://fonts.gstatic.com/r.woff2)} b{x:url(i.png)}")
    assert external_loads(tmp_path) == [
        "index.html: https://fonts.googleapis.com/css?family=Roboto",
        "index.html: //cdn.example.org/x.js",
        "a.css: https://fonts.gstatic.com/r.woff2",
    ]
