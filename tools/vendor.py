"""Front-end assets the site serves itself, fetched from the npm registry at pinned versions.

Nothing on a published page loads from a CDN: the widget manager that shows stored
widget state (@jupyter-widgets/html-manager) and require.js come from here. Each
tarball is checked against its registry integrity hash and cached in .cache/vendor.
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vendor"
REGISTRY = "https://registry.npmjs.org"


@dataclass(frozen=True)
class NpmAsset:
    name: str
    version: str
    integrity: str  # the registry's dist.integrity (sha512)
    folder: str  # what to take from the package
    target: str  # where it goes under the site's vendor/ folder
    skip: tuple[str, ...] = ()  # files of ``folder`` the site does not load

    @property
    def tarball_url(self) -> str:
        short = self.name.rsplit("/", 1)[-1]
        return f"{REGISTRY}/{self.name}/-/{short}-{self.version}.tgz"


ASSETS = (
    NpmAsset(
        "@jupyter-widgets/html-manager", "1.0.15",
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
        "package/dist/", "html-manager/", skip=("embed.js", "libembed-amd.js"),
    ),
    NpmAsset(
        "requirejs", "2.3.7",
        "sha512-DouTG8T1WanGok6Qjg2SXuCMzszOo0eHeH9hDZ5Y4x8Je+9JB38HdTLT4/VA8OaUhBa0JPVHJ0pyBkM1z+pDsw==",
        "package/require.js", "require.js",
    ),
)


def _download(asset: NpmAsset) -> bytes:
    cached = CACHE / f"{asset.name.replace('/', '__')}-{asset.version}.tgz"
    if cached.exists():
        data = cached.read_bytes()
    else:
        with urllib.request.urlopen(asset.tarball_url, timeout=120) as response:
            data = response.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != asset.integrity:
        cached.unlink(missing_ok=True)
        raise RuntimeError(f"{asset.name}@{asset.version}: integrity {digest} differs from the pinned {asset.integrity}")
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(data)
    return data


def vendor_into(site_vendor: Path) -> None:
    """Place every pinned asset under ``site_vendor`` (a folder of the built site)."""
    for asset in ASSETS:
        with tarfile.open(fileobj=io.BytesIO(_download(asset)), mode="r:gz") as archive:
            for member in archive.getmembers():
                if not member.isfile() or not member.name.startswith(asset.folder) or member.name.endswith(".map"):
                    continue
                relative = member.name[len(asset.folder):]
                if relative in asset.skip:
                    continue
                destination = site_vendor / asset.target / relative if relative else site_vendor / asset.target
                destination.parent.mkdir(parents=True, exist_ok=True)
                with archive.extractfile(member) as source, open(destination, "wb") as out:
                    shutil.copyfileobj(source, out)


if __name__ == "__main__":
    vendor_into(CACHE / "site")
    print(f"vendored {len(ASSETS)} packages into {CACHE / 'site'}")
