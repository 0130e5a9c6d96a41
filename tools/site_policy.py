"""The built site's security policy (issue 33): what a page may load and run, written into each page.

After the build (``apply_site_policy``, the last step of ``on_post_build``), every page gets, first in
its ``<head>``:

- a Content-Security-Policy ``<meta>``: scripts, workers, styles, fonts, images and requests from the
  site's own origin only; of the inline scripts, only those the build wrote, by their SHA-256
  (no ``'unsafe-inline'`` for scripts, no ``'unsafe-eval'``); WebAssembly compiled
  (``'wasm-unsafe-eval'``, for Pyodide); no plugins, no ``<base>`` elsewhere, no form sent elsewhere.
  Styles keep ``'unsafe-inline'``: the widgets' HTML (tables, hex figures) carries ``style``
  attributes, which only it allows, and a style runs nothing.
- the SHA-256 of the build's manifest (``rules-lib-manifest``): the Python worker reads the manifest
  only if it is the one the page was built with (live-python-worker.js), and the manifest names every
  runtime file, wheel and snapshot by its digest.

and every ``<script src>`` (and its ``<link rel="preload">``) carries Subresource Integrity, so the
browser runs a script only as the build wrote it (mkdocs-jupyter's ``<script src="">``, MathJax's
loader without a URL, is dropped: it loads nothing).

A meta policy cannot say ``frame-ancestors`` or report violations; GitHub Pages sends no headers the
site could set.
"""

from __future__ import annotations

import base64
import hashlib
import posixpath
import re
from pathlib import Path

#: a script element with its attributes and its text
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
#: the script types a browser runs; any other type (JSON, widget state, MathJax config) is data
_RUN_TYPES = {"", "text/javascript", "application/javascript", "module"}
_TYPE = re.compile(r"""\btype=["']?([^"'\s>]*)""", re.I)
_SRC = re.compile(r"""\bsrc=["']([^"']*)["']""", re.I)
_PRELOADED_SCRIPT = re.compile(r"""<link rel="preload" as="script" href="([^"]+)">""")
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)
#: where a page names its manifest (read by live-calculators.js and the early start, tools/mkdocs_hooks.py)
MANIFEST_META = "rules-lib-manifest"
MANIFEST = Path("vendor") / "wheels" / "manifest.json"

#: mkdocs-jupyter's template: a module script importing mermaid (and its layout) from cdnjs when a
#: page has a mermaid diagram; the book has none
_MERMAID_LOADER = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{\s*'
                             r'const diagrams = document\.querySelectorAll\("\.jp-Mermaid > pre\.mermaid"\);.*?</script>', re.S)


def without_mermaid_loader(html: str) -> str:
    """The page without the script that loads mermaid from a CDN; a page that has a mermaid diagram,
    or a template that loads it some other way, is an error (the site would load another origin)."""
    html = _MERMAID_LOADER.sub("", html)
    if "cdnjs.cloudflare.com" in html or '<pre class="mermaid"' in html:
        raise RuntimeError("a notebook page loads mermaid from a CDN in a way the hook does not know, or has a "
                           "mermaid diagram: see _MERMAID_LOADER in tools/site_policy.py")
    return html


def _runs(attributes: str) -> bool:
    found = _TYPE.search(attributes)
    return (found.group(1).lower() if found else "") in _RUN_TYPES


def _line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def inline_script_hashes(html: str) -> list[str]:
    """The CSP source of each distinct inline script the page runs (``'sha256-…'``), in page order."""
    # hashed as the browser reads the text: the HTML parser turns every line end into "\n"
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(_line_ends(text).encode()).digest()).decode()}'"
              for attributes, text in _SCRIPT.findall(html) if not _SRC.search(attributes) and _runs(attributes)]
    return list(dict.fromkeys(hashes))


def content_security_policy(script_hashes: list[str]) -> str:
    """The policy of a page whose inline scripts have these hashes."""
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'", *script_hashes],
        # the Python worker and the theme's search worker, both files of the site
        "worker-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        # the theme's icons and the widgets' figures are data: images
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def integrity(path: Path) -> str:
    """A file's Subresource Integrity value (SHA-384, as the SRI specification recommends)."""
    return "sha384-" + base64.b64encode(hashlib.sha384(path.read_bytes()).digest()).decode()


def _site_file(site_dir: Path, page: Path, url: str) -> Path:
    """The site's file that a page's relative (or root-relative) URL names."""
    url = url.split("#", 1)[0].split("?", 1)[0]
    if url.startswith("/"):
        return site_dir / url.lstrip("/")
    return site_dir / posixpath.normpath(posixpath.join(page.parent.relative_to(site_dir).as_posix(), url))


def with_integrity(html: str, site_dir: Path, page: Path) -> str:
    """Every ``<script src>`` and script preload of the page with the integrity of the file it names;
    a script the site does not hold is an error (the page would load it from elsewhere)."""
    def script(match: re.Match) -> str:
        attributes, text = match.group(1), match.group(2)
        source = _SRC.search(attributes)
        if not source or "integrity=" in attributes:
            return match.group(0)
        if not source.group(1):  # mkdocs-jupyter's MathJax loader, without a URL: it loads nothing
            return ""
        return f'<script{attributes} integrity="{integrity(_checked(site_dir, page, source.group(1)))}">{text}</script>'

    def preload(match: re.Match) -> str:
        path = _checked(site_dir, page, match.group(1))
        return f'<link rel="preload" as="script" href="{match.group(1)}" integrity="{integrity(path)}">'

    return _PRELOADED_SCRIPT.sub(preload, _SCRIPT.sub(script, html))


def _checked(site_dir: Path, page: Path, url: str) -> Path:
    path = _site_file(site_dir, page, url)
    if re.match(r"[a-z][a-z0-9+.-]*:|//", url, re.I) or not path.is_file():
        raise RuntimeError(f"{page.relative_to(site_dir)} loads the script {url}, which is not a file of the site")
    return path


def with_policy(html: str, manifest_digest: str) -> str:
    """The page with its policy and its manifest's digest first in its ``<head>``, before any script
    (a meta policy covers only what comes after it)."""
    charset = _CHARSET.search(html)
    if charset is None:
        raise RuntimeError("a page without <meta charset> gets no security policy: the hook does not know where its head starts")
    policy = content_security_policy(inline_script_hashes(html))
    metas = (f'\n<meta http-equiv="Content-Security-Policy" content="{policy}">'
             f'\n<meta name="{MANIFEST_META}" content="{manifest_digest}">')
    return html[:charset.end()] + metas + html[charset.end():]


def apply_site_policy(site_dir: Path) -> int:
    """Give every page of the built site its integrity values, its manifest digest and its policy;
    how many pages. Run last: a later change to a page's inline scripts would break their hashes."""
    digest = hashlib.sha256((site_dir / MANIFEST).read_bytes()).hexdigest()
    # the vendor folder holds the packages' files as published, no page of the site
    pages = [path for path in site_dir.rglob("*.html") if "vendor" not in path.relative_to(site_dir).parts]
    for path in pages:
        html = path.read_text(encoding="utf-8")
        path.write_text(with_policy(with_integrity(html, site_dir, path), digest), encoding="utf-8")
    return len(pages)
