"""`python3 -m pip install --no-build-isolation .` (the README's command), into a folder of its own,
through the project's build backend, reusing the build folder the test suite built
($GPUSIZER_PYTHON_BUILD_DIR, so that the module is not compiled twice): the installed package
imports from there alone and answers as the built one does."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


class PipInstall(unittest.TestCase):
    def test_install_and_import(self):
        build = os.environ.get("GPUSIZER_PYTHON_BUILD_DIR")
        if not build:
            raise unittest.SkipTest("GPUSIZER_PYTHON_BUILD_DIR is not set")
        with tempfile.TemporaryDirectory() as d:
            target, wheels = os.path.join(d, "site"), os.path.join(d, "wheels")
            env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
            # The wheel first (pip wheel), to check what it holds, then the install from the checkout.
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-q", "-w", wheels, ROOT],
                           check=True, env=env, cwd=d)
            (wheel,) = os.listdir(wheels)
            self.assertRegex(wheel, r"^gpusizer-\d+\.\d+\.\d+-cp\d+-cp\d+[a-z]*-[a-z0-9_]+\.whl$")
            with zipfile.ZipFile(os.path.join(wheels, wheel)) as z:
                names = z.namelist()
                record = z.read(next(n for n in names if n.endswith("/RECORD"))).decode()
            for want in ("gpusizer/__init__.py", "gpusizer/__init__.pyi", "gpusizer/py.typed", "gpusizer/assets/models.json",
                         "gpusizer/assets/gpus.json"):
                self.assertIn(want, names)
            self.assertEqual(len([n for n in names if "/_core" in n]), 1)
            self.assertEqual(len(record.strip().splitlines()), len(names))   # every file has its RECORD line
            subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-q", "--target", target, ROOT],
                           check=True, env=env, cwd=d)
            probe = ("import gpusizer, json; r = gpusizer.estimate({'model': 'llama-3.1-8b', 'weights': 'q4_k_m'}); "
                     "print(json.dumps([gpusizer.__file__, r['fits'], r['memory']['per_gpu']['total']]))")
            out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd=d,
                                 env={k: v for k, v in env.items() if k != "PYTHONPATH"} | {"PYTHONPATH": target}).stdout
            where, fits, total = json.loads(out)
            self.assertTrue(where.startswith(target), where)
            import gpusizer
            self.assertEqual([fits, total], [True, gpusizer.estimate({"model": "llama-3.1-8b", "weights": "q4_k_m"})["memory"]["per_gpu"]["total"]])


if __name__ == "__main__":
    unittest.main()
