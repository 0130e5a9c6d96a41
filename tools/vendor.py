"""Runtime assets the site serves itself, fetched from the package registries at pinned versions.

Nothing on a published page loads from a CDN:
- from npm: the Pyodide core that runs the live calculators, and the Japanese web font
  (@fontsource/noto-sans-jp: 124 subsets by unicode-range, so a page downloads only the glyphs
  it shows); each tarball is checked against its registry integrity hash;
- from PyPI: the pure-Python wheels the calculators import in the browser, at the versions
  pinned in constraints.txt;
- this project's own wheel, built from the working tree.
Everything is cached in .cache/vendor; the own wheel is rebuilt only when its sources change.
"""

from __future__ import annotations

import base64
import fnmatch
import functools
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from precompile import BYTECODE, precompile
from snapshot import snapshot_into

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vendor"
REGISTRY = "https://registry.npmjs.org"
BUILD_CONSTRAINTS = ROOT / "build-constraints.txt"


@dataclass(frozen=True)
class NpmAsset:
    name: str
    version: str
    integrity: str  # the registry's dist.integrity (sha512)
    folder: str  # what to take from the package
    target: str  # where it goes under the site's vendor/ folder
    skip: tuple[str, ...] = ()  # files of ``folder`` the site does not load
    only: tuple[str, ...] = ()  # if given, the only files of ``folder`` the site loads (glob patterns)
    font_css: bool = False  # its CSS: woff2 only, and unicode ranges limited to Japanese (see japanese_font_css)
    #: files also written gzip-compressed beside themselves (``name.gz``), which the pages load instead:
    #: the bytes sent are then the compressed ones whatever the server does (GitHub Pages compresses
    #: text, and was seen compressing .wasm, but that is not promised)
    gzipped: tuple[str, ...] = ()

    @property
    def tarball_url(self) -> str:
        short = self.name.rsplit("/", 1)[-1]
        return f"{REGISTRY}/{self.name}/-/{short}-{self.version}.tgz"


ASSETS = (
    NpmAsset(
        "pyodide", "314.0.7",
        "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
        "package/", "pyodide/",
        only=("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"),
        # 9.6 MB and 1.25 MB, 3.5 and 0.26 compressed; the build runs the plain files in Node
        gzipped=("pyodide.asm.wasm", "pyodide.asm.mjs"),
    ),
    NpmAsset(
        # Japanese terms on every page (stylesheets/fonts.css); the regular weight only, bold is synthesised
        "@fontsource/noto-sans-jp", "5.2.8",
        "sha512-ngWXPtSV3XH8ZmNX9hnfeQ+x/3mCoaAOA3BVDcyS5jQdh4FYqKjf/S9tEUEYDPwGa2pULJVXTO2+oFg42gWvSw==",
        "package/", "noto-sans-jp/",
        only=("400.css", "LICENSE", "files/noto-sans-jp-[0-9]*-400-normal.woff2"), font_css=True,
    ),
    # The worker's restore of a memory snapshot (live-python-worker.js): zstd to unpack the snapshot,
    # and for files it defers until first touched, an unzip and a SHA-256 that run synchronously
    # (a file system call cannot wait for a promise)
    NpmAsset(
        "zstddec", "0.3.4",
        "sha512-3Y/NMP6MNdp9b0fWhjCUGiybog7RC3EbUSIJLWnfjylOvnbuGykeu4zYUuH4IRLy5xI7NytXTHN3CWQKIN3cSg==",
        "package/", "zstddec/", only=("dist/zstddec.mjs", "LICENSE"),
    ),
    NpmAsset(
        "fflate", "0.8.3",
        "sha512-tbZNuJrLwGUp3zshBtdy4W+ORxZuIh8a5ilyIEQDC5rY1f3U20JMry0Ll3WBzU58EZKsEuJFXhb5gwv8CsPvgA==",
        "package/", "fflate/", only=("esm/browser.js", "LICENSE"),
    ),
    NpmAsset(
        "@noble/hashes", "2.4.0",
        "sha512-X5XaVWZIBCT7HHZGm5I7ZQXDwLG+bGXuSrMQAW+7Zvl87h1kmc1ZB1VSRJcpUfoUrGQp4Fkoxm5kZ+Ms+aW+eA==",
        "package/", "noble-hashes/", only=("sha2.js", "_md.js", "_u64.js", "utils.js", "LICENSE"),
    ),
)
PYODIDE = next(asset for asset in ASSETS if asset.name == "pyodide")
_WOFF_FALLBACK = re.compile(r",\s*url\([^)]*\.woff\) format\('woff'\)")
_FONT_FACE = re.compile(r"/\*[^*]*\*/\s*@font-face\s*\{[^}]*\}")
_UNICODE_RANGE = re.compile(r"unicode-range:\s*([^;]+);")
_NUMBERED_SUBSET = re.compile(r"url\(\./files/[a-z-]+-\d+-\d+-normal\.woff2\)")
#: below this the reader's own fonts draw the text: Latin letters, dashes, quotes, the minus sign
JAPANESE_FROM = 0x2460  # enclosed numbers (①), shapes (■ ◆ ○), kana, kanji, full-width forms


def japanese_font_css(css: str) -> str:
    """Fontsource's CSS for the Japanese font, so that it can come first in a font stack.

    Chromium draws a character missing from the first (system) font with a box rather than wait
    for a later web font's subset, so the Japanese font must come first; its subsets also hold
    Latin letters and punctuation, which must stay in the reader's font. Only the numbered
    (Japanese) subsets are kept, each with its ranges from ``JAPANESE_FROM`` up, and the .woff
    fallbacks go (every browser the site serves reads woff2).
    """
    faces = []
    for face in _FONT_FACE.findall(css):
        if not _NUMBERED_SUBSET.search(face):
            continue  # latin, latin-ext, cyrillic, vietnamese: the reader's own fonts draw those
        found = _UNICODE_RANGE.search(face)
        kept = []
        for part in found.group(1).split(",") if found else ():
            first, _, last = part.strip().removeprefix("U+").partition("-")
            if int(last or first, 16) >= JAPANESE_FROM:
                start = max(int(first, 16), JAPANESE_FROM)
                kept.append(f"U+{start:X}" + (f"-{last}" if last else ""))
        if kept:
            face = _UNICODE_RANGE.sub(f"unicode-range: {', '.join(kept)};", face)
            faces.append(_WOFF_FALLBACK.sub("", face))
    return "\n".join(faces) + "\n"


def _japanese_ranges(face: str) -> list[tuple[int, int]]:
    found = _UNICODE_RANGE.search(face)
    ranges = []
    for part in found.group(1).split(",") if found else ():
        first, _, last = part.strip().removeprefix("U+").partition("-")
        ranges.append((int(first, 16), int(last or first, 16)))
    return ranges


@functools.cache
def japanese_font_subsets() -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """Each subset file of the Japanese font the site serves (its path under ``vendor/``) with its
    unicode ranges, as ``japanese_font_css`` writes them; read from the pinned npm package."""
    asset = next(a for a in ASSETS if a.font_css)
    with tarfile.open(fileobj=io.BytesIO(_download(asset)), mode="r:gz") as archive:
        css = archive.extractfile(f"{asset.folder}400.css").read().decode()
    subsets = []
    for face in _FONT_FACE.findall(japanese_font_css(css)):
        url = re.search(r"url\(\./([^)]+)\)", face).group(1)
        subsets.append((f"{asset.target}{url}", tuple(_japanese_ranges(face))))
    return tuple(subsets)


@functools.cache
def _subset_of_character() -> dict[int, int]:
    """Code point -> index of the first subset whose ranges hold it (the one the browser fetches)."""
    found: dict[int, int] = {}
    for index, (_, ranges) in enumerate(japanese_font_subsets()):
        for first, last in ranges:
            for code in range(first, last + 1):
                found.setdefault(code, index)
    return found


def japanese_font_faces(paths: list[str], root: str) -> str:
    """The ``@font-face`` rules of the given subset files (paths under ``vendor/``, as
    ``japanese_subsets_for`` names them), each as the site's copy of the font's CSS declares it, with
    its URL from a page ``root`` away."""
    wanted = set(paths)
    faces = []
    for path, ranges in japanese_font_subsets():
        if path in wanted:
            unicode_range = ",".join(f"U+{first:X}" + (f"-{last:X}" if last != first else "") for first, last in ranges)
            faces.append(f'@font-face{{font-family:"Noto Sans JP";font-style:normal;font-display:swap;font-weight:400;'
                         f'src:url("{root}/vendor/{path}") format("woff2");unicode-range:{unicode_range}}}')
    return "\n".join(faces)


def japanese_subsets_for(text: str) -> list[str]:
    """The subset files (paths under ``vendor/``) that hold the Japanese characters of ``text``, in
    the font's order."""
    subset_of = _subset_of_character()
    indices = {subset_of[code] for code in {ord(c) for c in text} if code in subset_of}
    subsets = japanese_font_subsets()
    return [subsets[index][0] for index in sorted(indices)]
#: what the calculators import in the browser besides rules_lib (all pure Python)
BROWSER_WHEELS = ("ipywidgets", "traitlets", "comm")
#: browser wheels fetched only when a calculator first imports them (top-level module -> package,
#: rules_lib.browser.LazyWheels). None now: icepool was one, for two binomials a page needed, and
#: its import delayed that page's first live result by 0.5-0.9 s; rules_lib.dice.binomial gives them.
LAZY_WHEELS: dict[str, str] = {}
#: the sha256 of each browser wheel at the version constraints.txt pins; a download or a cached
#: copy that differs is refused (and removed). Bumping a pin means adding its hash here.
WHEEL_SHA256 = {
    "ipywidgets-8.1.9-py3-none-any.whl": "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d",
    "traitlets-5.16.1-py3-none-any.whl": "f775618166caa0396c8e337099240f2bd3e5e917d203b2e6fbe21a58d3cb1f6b",
    "comm-0.2.3-py3-none-any.whl": "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417",
}


#: the build fetches the vendor folder in a thread beside the pages, which read the font's subsets
_DOWNLOADING = threading.Lock()


def _download(asset: NpmAsset) -> bytes:
    with _DOWNLOADING:  # one download of each asset, and no half-written file read
        return _download_once(asset)


def _download_once(asset: NpmAsset) -> bytes:
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
        partial = cached.with_name(cached.name + ".partial")
        partial.write_bytes(data)
        partial.replace(cached)
    return data


def vendor_into(site_vendor: Path) -> None:
    """Place every pinned asset under ``site_vendor`` (a folder of the built site)."""
    for asset in ASSETS:
        with tarfile.open(fileobj=io.BytesIO(_download(asset)), mode="r:gz") as archive:
            for member in archive.getmembers():
                name = _member_name(member)
                if not member.isfile() or not name.startswith(asset.folder) or name.endswith(".map"):
                    continue
                relative = name[len(asset.folder):]
                if relative in asset.skip or (asset.only and not any(fnmatch.fnmatchcase(relative, p) for p in asset.only)):
                    continue
                destination = _confined(site_vendor / asset.target, relative)
                destination.parent.mkdir(parents=True, exist_ok=True)
                with archive.extractfile(member) as source, open(destination, "wb") as out:
                    if asset.font_css and relative.endswith(".css"):
                        out.write(japanese_font_css(source.read().decode()).encode())
                    else:
                        shutil.copyfileobj(source, out)
                if relative in asset.gzipped:
                    # no name or time in the header: the same bytes every build
                    destination.with_name(destination.name + ".gz").write_bytes(
                        gzip.compress(destination.read_bytes(), compresslevel=9, mtime=0))


def _member_name(member: tarfile.TarInfo) -> str:
    """A tar member's path, normalised; refused if absolute or climbing out with ``..``."""
    path = PurePosixPath(member.name)
    if path.is_absolute() or ".." in path.parts or "\\" in member.name:
        raise RuntimeError(f"tar member {member.name!r} is not a plain relative path")
    return "/".join(part for part in path.parts if part != ".")


def _confined(folder: Path, relative: str) -> Path:
    """``folder / relative``, refused unless it stays inside ``folder``."""
    destination = (folder / relative).resolve() if relative else folder.resolve()
    if destination != folder.resolve() and folder.resolve() not in destination.parents:
        raise RuntimeError(f"{relative!r} would be written outside {folder}")
    return destination


def pinned_versions() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        name, _, version = line.partition("==")
        if version:
            pins[name.strip().lower()] = version.strip()
    return pins


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True)


def _own_wheel() -> Path:
    sources = sorted(
        # README.md too: it is the wheel's long description (its METADATA), so a wheel cached before
        # a README change would differ from a fresh build of the same commit
        p for p in [*(ROOT / "rules_lib").rglob("*"), *(ROOT / "examples").glob("*.toml"), ROOT / "pyproject.toml",
                    ROOT / "README.md", BUILD_CONSTRAINTS]
        if p.is_file() and "__pycache__" not in p.parts
    )
    digest = hashlib.sha256()
    for path in sources:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    folder = CACHE / "own-wheel" / digest.hexdigest()[:16]
    if not list(folder.glob("*.whl")):
        shutil.rmtree(folder.parent, ignore_errors=True)
        _pip("wheel", "--no-deps", "--build-constraint", str(BUILD_CONSTRAINTS), "-w", str(folder), str(ROOT))
    return next(folder.glob("*.whl"))


def _checked_wheel(wheel: Path) -> Path:
    """The wheel, if its sha256 is the pinned one (checked on every use: cached copies too)."""
    pinned = WHEEL_SHA256.get(wheel.name)
    if pinned is None:
        raise RuntimeError(f"{wheel.name} has no pinned sha256: add it to WHEEL_SHA256 in tools/vendor.py")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != pinned:
        wheel.unlink()
        raise RuntimeError(f"{wheel.name}: sha256 {digest} differs from the pinned {pinned}; the file was removed")
    return wheel


def runtime_digests(runtime: Path) -> dict[str, str]:
    """The sha256 of each Pyodide runtime file the site serves; the page's worker runs only these bytes."""
    files = sorted(path for path in runtime.iterdir() if path.is_file()) if runtime.is_dir() else []
    names = {path.name for path in files}
    missing = [name for name in PYODIDE.only if name not in names]
    if missing:
        raise RuntimeError(f"the Pyodide runtime in {runtime} lacks {', '.join(missing)}: run vendor_into first")
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


def wheels_into(site_wheels: Path) -> list[str]:
    """Place the browser's wheels under ``site_wheels`` and write their manifest."""
    pins = pinned_versions()
    cache = CACHE / "wheels"
    site_wheels.mkdir(parents=True, exist_ok=True)
    names = []
    lazy = {}
    for package in BROWSER_WHEELS:
        version = pins[package]
        pattern = f"{package.replace('-', '_')}-{version}-*.whl"
        if not list(cache.glob(pattern)):
            _pip("download", "--no-deps", "--only-binary=:all:", "-d", str(cache), f"{package}=={version}")
        wheel = _checked_wheel(next(cache.glob(pattern)))
        shutil.copy2(wheel, site_wheels / wheel.name)
        names.append(wheel.name)
        lazy.update({module: wheel.name for module, lazy_package in LAZY_WHEELS.items() if lazy_package == package})
    own = _own_wheel()
    shutil.copy2(own, site_wheels / own.name)
    names.append(own.name)
    runtime = site_wheels.parent / PYODIDE.target
    bytecode = site_wheels / BYTECODE
    bytecode.unlink(missing_ok=True)
    precompiled = precompile(runtime, [site_wheels / name for name in names], sorted(LAZY_WHEELS), bytecode)
    # Python's memory as a page's worker starts it (tools/snapshot.py); only over the precompiled
    # standard library, which is what the pages are served
    snapshots = (snapshot_into(runtime, [*(site_wheels / name for name in names), bytecode], site_wheels)
                 if precompiled else None) or []
    checked = [*names, *([BYTECODE] if bytecode.exists() else []), *(entry["file"] for entry in snapshots)]
    manifest = {
        "wheels": names,
        "runtime": runtime_digests(runtime),
        # their start-up modules' bytecode (tools/precompile.py), unpacked over them; absent without Node
        "bytecode": BYTECODE if bytecode.exists() else None,
        # the memory snapshots pages restore (tools/snapshot.py): [{file, modules, built}]; none without Node
        "snapshots": snapshots,
        # the page checks every wheel, the bytecode and each snapshot against these before using it
        "sha256": {name: hashlib.sha256((site_wheels / name).read_bytes()).hexdigest() for name in checked},
        "lazy": lazy,
    }
    (site_wheels / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return names


if __name__ == "__main__":
    vendor_into(CACHE / "site")
    wheels_into(CACHE / "site" / "wheels")
    print(f"vendored {len(ASSETS)} packages into {CACHE / 'site'}")
