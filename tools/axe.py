"""axe-core, the accessibility checker the browser tests run on every page (tests/test_browser_a11y.py).

Fetched once from the npm registry at a pinned version, checked against the registry's integrity
hash and cached in .cache/vendor, like the site's own npm assets (tools/vendor.py). The site never
serves it: a test injects it into the page it checks.
"""

from __future__ import annotations

import functools
import io
import tarfile

from vendor import NpmAsset, _download

AXE_CORE = NpmAsset(
    "axe-core", "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
    "package/", "",  # not served: the test reads the script from the tarball
)
SCRIPT = "package/axe.min.js"


@functools.cache
def axe_script() -> str:
    """The text of axe.min.js from the pinned, checked tarball."""
    with tarfile.open(fileobj=io.BytesIO(_download(AXE_CORE)), mode="r:gz") as archive:
        return archive.extractfile(SCRIPT).read().decode()


if __name__ == "__main__":
    print(f"axe-core {AXE_CORE.version}: {len(axe_script()):,} characters")
