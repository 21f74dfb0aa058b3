"""The Python package's build backend (PEP 517): `python3 -m pip install --no-build-isolation .`.

It builds the extension module with the project's own CMake (target gpusizer_python,
python/CMakeLists.txt) and writes the wheel itself. Why not setuptools: its `bdist_wheel` needs
the `wheel` package, which neither Debian's python3-pybind11 nor an interpreter of its own
(pyenv, a venv) brings, and no Python registry is reachable here; a wheel is a zip file with
three small text files (PEP 427, PEP 491), so this file writes it with the standard library.

The build folder is build/python-<interpreter tag> in the source tree, kept between installs;
$GPUSIZER_PYTHON_BUILD_DIR names another (the test suite reuses build/native, whose module is
built already). $GPUSIZER_BUILD_JOBS sets the parallel jobs (default: every core).
"""

import base64
import csv
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

NAME = "gpusizer"
SUMMARY = "GPU sizing for deep learning and LLMs: memory, fit, speed, interconnect, power and cost"


def _root():
    return os.path.abspath(os.getcwd())   # PEP 517: hooks run in the source tree's root


def _version():
    with open(os.path.join(_root(), "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(gpusizer\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not m:
        raise RuntimeError("gpusizer: no `project(gpusizer VERSION x.y.z)` in CMakeLists.txt")
    return m.group(1)


def _tag():
    """The wheel's tag for this interpreter: cp311-cp311-linux_x86_64 (PEP 425)."""
    impl = sys.implementation.name
    py = ("cp" if impl == "cpython" else impl[:2]) + f"{sys.version_info[0]}{sys.version_info[1]}"
    abi = py + getattr(sys, "abiflags", "") if impl == "cpython" else "none"
    plat = re.sub(r"[^A-Za-z0-9_]", "_", sysconfig.get_platform())
    return f"{py}-{abi}-{plat}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3.8\n"
            "Description-Content-Type: text/markdown\n\n"
            "See README.md, section \"Python\", of the gpusizer repository.\n")


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, _dist_info())
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return _dist_info()


def _run(cmd):
    print("gpusizer:", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=sys.stderr)


def _build_module():
    """Configures (once) and builds the module; returns the folder that holds the package."""
    root = _root()
    build = os.environ.get("GPUSIZER_PYTHON_BUILD_DIR") or os.path.join(root, "build", "python-" + _tag().split("-")[0])
    build = os.path.abspath(build)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        _run(["cmake", "-S", root, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DGPUSIZER_BUILD_TESTS=OFF",
              "-DGPUSIZER_BUILD_BENCH=OFF", "-DGPUSIZER_BUILD_APP=OFF", "-DGPUSIZER_BUILD_CUDA=OFF",
              "-DGPUSIZER_BUILD_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"])
    jobs = os.environ.get("GPUSIZER_BUILD_JOBS") or str(os.cpu_count() or 1)
    _run(["cmake", "--build", build, "--target", "gpusizer_python", "-j", jobs])
    pkg = os.path.join(build, "python", NAME)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not os.path.exists(os.path.join(pkg, "_core" + suffix)):
        raise RuntimeError(f"gpusizer: {build} holds no _core{suffix} for this Python ({sys.executable}); "
                           "it was configured for another interpreter, or without pybind11 (Debian's pybind11-dev): "
                           "run `bash scripts/setup.sh` and remove the folder")
    return pkg


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    pkg = _build_module()
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = []
    for dirpath, _, names in os.walk(pkg):
        for n in sorted(names):
            if n.endswith(".so") and n != "_core" + suffix:
                continue   # a module for another interpreter, left by an earlier configuration
            if n.endswith((".pyc",)):
                continue
            full = os.path.join(dirpath, n)
            files.append((os.path.join(NAME, os.path.relpath(full, pkg)).replace(os.sep, "/"), full))
    files.sort()
    tag = _tag()
    wheel_name = f"{NAME}-{_version()}-{tag}.whl"
    info = _dist_info()
    record = []
    path = os.path.join(wheel_directory, wheel_name)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for arc, full in files:
            with open(full, "rb") as f:
                data = f.read()
            z.writestr(arc, data)
            record.append(_record_line(arc, data))
        meta = {
            f"{info}/METADATA": _metadata().encode(),
            f"{info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: gpusizer_build\nRoot-Is-Purelib: false\nTag: {tag}\n").encode(),
            f"{info}/top_level.txt": f"{NAME}\n".encode(),
        }
        for arc, data in meta.items():
            z.writestr(arc, data)
            record.append(_record_line(arc, data))
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerows(record)
        w.writerow([f"{info}/RECORD", "", ""])
        z.writestr(f"{info}/RECORD", out.getvalue())
    return wheel_name


# What a source distribution holds: what the module's build reads (the rest of the tree is the
# app, the browser build and the tests).
_SDIST = ["CMakeLists.txt", "CMakePresets.json", "README.md", "pyproject.toml", "core", "cli", "ui", "native",
          "cuda", "python", "assets"]


def build_sdist(sdist_directory, config_settings=None):
    root = _root()
    base = f"{NAME}-{_version()}"
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for entry in _SDIST:
            full = os.path.join(root, entry)
            if os.path.exists(full):
                t.add(full, arcname=f"{base}/{entry}",
                      filter=lambda ti: None if "__pycache__" in ti.name or ti.name.endswith(".pyc") else ti)
        data = ("Metadata-Version: 2.1\n" + _metadata().split("\n", 1)[1]).encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    return name
