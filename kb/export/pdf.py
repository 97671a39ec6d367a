"""The sheet on paper: the print HTML laid out by WeasyPrint, A4 or Letter.

Page numbers and the edition sit in the page margins (CSS paged media); the column headers are a
``<thead>``, which WeasyPrint repeats at the top of every page a table runs onto; rows never
split across pages unless one is taller than a page, and long words wrap instead of clipping.
"""

from __future__ import annotations

import logging

from kb.errors import KbError
from kb.export.html import TEMPLATES, render_html
from kb.export.sheet import Sheet

log = logging.getLogger(__name__)


def render_pdf(sheet: Sheet, *, paper: str = "a4", landscape: bool = False) -> bytes:
    """The sheet as PDF bytes."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:  # OSError: Pango/HarfBuzz libraries missing
        raise KbError(
            f"PDF needs WeasyPrint and its system libraries (Pango, HarfBuzz): {exc}; install "
            "them with `pip install 'kb[pdf]'` and, on Debian or Ubuntu, `apt-get install "
            "libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 "
            "fonts-dejavu-core` (other systems: WeasyPrint's installation guide), or use "
            "--format html"
        ) from None
    html = render_html(sheet, paper=paper, landscape=landscape, print_=True)
    # WeasyPrint logs every unsupported CSS property at WARNING; the sheet's CSS uses none, so
    # anything it says is worth seeing only with -v.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    document = HTML(string=html, base_url=str(TEMPLATES)).render()
    log.info("sheet laid out on %d pages", len(document.pages))
    pdf = document.write_pdf()
    assert pdf is not None
    return pdf
