"""Tests of the Python package: the same JSON as the CLI value for value, errors that name the key,
sweeps, stubs and docstrings from the key table, and the GIL released around long calls.

Run by ctest (tests/CMakeLists.txt: one ctest a test), with the built package on PYTHONPATH and
$GPUSIZER_CLI the command-line tool of the same build:
    PYTHONPATH=build/native/python GPUSIZER_CLI=build/native/gpusizer python3 -m unittest discover -s python/tests
"""

import json
import os
import pickle
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import gpusizer

CLI = os.environ.get("GPUSIZER_CLI", "")
HERE = os.path.dirname(os.path.abspath(__file__))


def cli_json(*args):
    """`gpusizer ARGS --json`, parsed."""
    if not CLI:
        raise unittest.SkipTest("GPUSIZER_CLI is not set")
    out = subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


LLAMA_8B_ON_4090 = {"model": "llama-3.1-8b", "weights": "q4_k_m", "gpu": "rtx-4090", "context": 16384}
SERVING = {"model": "llama-3.1-8b", "gpu": "h100-sxm", "runtime": "vllm", "isl": 1000, "osl": 200}


class SameAsTheCli(unittest.TestCase):
    def test_estimate(self):
        self.assertEqual(gpusizer.estimate(LLAMA_8B_ON_4090),
                         cli_json("estimate", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--gpu", "rtx-4090",
                                  "--context", "16384"))

    def test_estimate_takes_json_text(self):
        self.assertEqual(gpusizer.estimate(json.dumps(LLAMA_8B_ON_4090)), gpusizer.estimate(LLAMA_8B_ON_4090))

    def test_fit(self):
        self.assertEqual(gpusizer.fit({"model": "llama-3.1-70b", "gpu": "a100-80gb-sxm"}),
                         cli_json("fit", "--model", "llama-3.1-70b", "--gpu", "a100-80gb-sxm"))

    def test_recommend(self):
        self.assertEqual(gpusizer.recommend({"model": "llama-3.1-8b", "weights": "q4_k_m"}, budget_usd=1000),
                         cli_json("recommend", "--model", "llama-3.1-8b", "--weights", "q4_k_m", "--budget", "1000"))

    def test_plan(self):
        py = gpusizer.plan({**SERVING, "gpus": 4}, {"mode": "inference", "top": 3})
        cli = cli_json("plan", "--mode", "inference", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "4",
                       "--runtime", "vllm", "--isl", "1000", "--osl", "200", "--top", "3")
        # search.seconds is how long the search took on this machine, the one value that differs.
        for r in (py, cli):
            r["search"].pop("seconds")
        self.assertEqual(py, cli)
        self.assertEqual(len(py["top"]), 3)

    def test_simulate(self):
        py = gpusizer.simulate({**SERVING, "request_rate": 4}, requests=300, seed=7)
        cli = cli_json("simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--runtime", "vllm", "--isl", "1000",
                       "--osl", "200", "--request-rate", "4", "--requests", "300", "--seed", "7")
        # wall_s is how long the simulation took on this machine, the one value that differs.
        for r in (py, cli):
            r["simulation"].pop("wall_s")
        self.assertEqual(py, cli)
        self.assertEqual(py["simulation"]["requests"], 300)

    def test_simulate_max_rate(self):
        # The highest rate within the objectives: the CLI's search and run, the same keyword arguments.
        py = gpusizer.simulate(SERVING, requests=1000, max_rate=True, slo_tpot_ms=30, percentile=90)
        cli = cli_json("simulate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--runtime", "vllm", "--isl", "1000",
                       "--osl", "200", "--requests", "1000", "--max-rate", "--slo-tpot-ms", "30", "--percentile", "90")
        for r in (py, cli):
            r["simulation"].pop("wall_s")
        self.assertEqual(py, cli)
        found = py["simulation"]["max_rate"]
        self.assertEqual(found["percentile"], 90)
        self.assertGreater(found["rps"], 0)
        self.assertLess(found["rps"], found["saturated_rps"])
        self.assertEqual(py["simulation"]["request_rate"], found["rps"])
        self.assertLessEqual(py["simulation"]["tpot_s"]["p90"] * 1e3, 30)

    def test_models_and_gpus(self):
        self.assertEqual(gpusizer.models(), cli_json("models"))
        self.assertEqual(gpusizer.gpus(), cli_json("gpus"))

    def test_inspect_safetensors(self):
        # A two-tensor safetensors file written by hand: an 8-byte little-endian header length,
        # the JSON header, then the data (https://github.com/huggingface/safetensors, "Format").
        header = {"a.weight": {"dtype": "F16", "shape": [4, 8], "data_offsets": [0, 64]},
                  "b.weight": {"dtype": "BF16", "shape": [8], "data_offsets": [64, 80]}}
        text = json.dumps(header).encode()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "model.safetensors")
            with open(path, "wb") as f:
                f.write(struct.pack("<Q", len(text)) + text + bytes(80))
            py = gpusizer.inspect(path)
            self.assertEqual(py, cli_json("inspect", path))
        # 4 x 8 + 8 = 40 parameters in 80 bytes.
        self.assertEqual(py["totals"]["params"], 40)
        self.assertEqual(py["totals"]["bytes"], 80)

    def test_link_round_trip(self):
        link = gpusizer.link(LLAMA_8B_ON_4090)
        self.assertTrue(link.startswith("#v=1&"), link)
        back = gpusizer.config_from_link(link)
        self.assertEqual(gpusizer.estimate(back)["memory"], gpusizer.estimate(LLAMA_8B_ON_4090)["memory"])


class Errors(unittest.TestCase):
    def check(self, call, code, key, words):
        with self.assertRaises(gpusizer.Error) as cm:
            call()
        e = cm.exception
        self.assertEqual(e.code, code)
        self.assertEqual(e.key, key)
        self.assertIn(key, str(e))
        for w in words:
            self.assertIn(w, str(e))
        return e

    def test_value_out_of_range_names_the_key(self):
        self.check(lambda: gpusizer.estimate({"model": "llama-3.1-8b", "context": -5}), "bad_value", "context", ["-5"])

    def test_unknown_model(self):
        self.check(lambda: gpusizer.estimate({"model": "no-such-model"}), "unknown_id", "model", ["no-such-model"])

    def test_unknown_choice_lists_the_allowed_values(self):
        self.check(lambda: gpusizer.estimate({"model": "llama-3.1-8b", "runtime": "tgi"}), "bad_value", "runtime",
                   ["vllm", "sglang"])

    def test_malformed_json_text(self):
        e = self.check(lambda: gpusizer.estimate('{"model": '), "bad_value", "config", ["not valid JSON", "column 11"])
        self.assertTrue(str(e).startswith("config: "))

    def test_not_a_mapping(self):
        self.check(lambda: gpusizer.estimate([1, 2]), "bad_value", "config", ["dict"])

    def test_a_value_json_cannot_hold(self):
        self.check(lambda: gpusizer.estimate({"model": "llama-3.1-8b", "mfu": float("nan")}), "bad_value", "config", ["JSON"])

    def test_simulation_option(self):
        self.check(lambda: gpusizer.simulate({**SERVING, "request_rate": 1}, requests=-1), "bad_value", "requests", [])

    def test_missing_file(self):
        with self.assertRaises(gpusizer.Error) as cm:
            gpusizer.inspect("/no/such/file.gguf")
        self.assertIn("/no/such/file.gguf", str(cm.exception))

    def test_error_is_a_value_error_and_pickles(self):
        e = gpusizer.Error("must be positive", "bad_value", "context")
        self.assertEqual(str(e), "context: must be positive")
        self.assertIsInstance(e, ValueError)
        back = pickle.loads(pickle.dumps(e))
        self.assertEqual((back.message, back.code, back.key), (e.message, e.code, e.key))

    def test_still_usable_after_errors(self):
        for _ in range(1000):
            with self.assertRaises(gpusizer.Error):
                gpusizer.estimate({"model": "llama-3.1-8b", "gpus": 0})
        self.assertTrue(gpusizer.estimate(LLAMA_8B_ON_4090)["fits"])


class Sweep(unittest.TestCase):
    def test_grid_of_flat_rows(self):
        rows = gpusizer.sweep({"model": "llama-3.1-8b", "weights": "q4_k_m"}, gpu=["rtx-4090", "rtx-3060"],
                              context=[4096, 32768])
        self.assertEqual(len(rows), 4)   # 2 GPUs x 2 contexts, in product order
        self.assertEqual([(r["gpu"], r["context"]) for r in rows],
                         [("rtx-4090", 4096), ("rtx-4090", 32768), ("rtx-3060", 4096), ("rtx-3060", 32768)])
        for r in rows:
            self.assertTrue(all(not isinstance(v, (dict, list)) for v in r.values()), "a row holds scalars only")
            one = gpusizer.estimate({"model": "llama-3.1-8b", "weights": "q4_k_m", "gpu": r["gpu"], "context": r["context"]})
            self.assertEqual(r["memory.per_gpu.total"], one["memory"]["per_gpu"]["total"])
            self.assertEqual(r["fits"], one["fits"])
            self.assertIsNone(r["error"])
        # The KV cache grows with the context: 8x the tokens, 8x the bytes (same GPU).
        self.assertEqual(rows[1]["memory.per_gpu.kv_cache"], 8 * rows[0]["memory.per_gpu.kv_cache"])

    def test_a_refused_combination_is_a_row(self):
        rows = gpusizer.sweep({"model": "llama-3.1-8b"}, gpus=[1, 3], tp=[2])
        self.assertEqual(len(rows), 2)
        self.assertTrue(all(r["error"] for r in rows), rows)
        self.assertTrue(all(r["error_key"] for r in rows))
        with self.assertRaises(gpusizer.Error):
            gpusizer.sweep({"model": "llama-3.1-8b"}, errors="raise", gpus=[3], tp=[2])

    def test_scalar_axis(self):
        self.assertEqual(len(gpusizer.sweep({"model": "llama-3.1-8b"}, gpu="rtx-4090")), 1)


class FromTheKeyTable(unittest.TestCase):
    def test_docstrings_list_every_key(self):
        names = [k["name"] for k in gpusizer.config_keys()]
        self.assertGreater(len(names), 50)
        for n in names:
            self.assertIn(f"    {n}", gpusizer.estimate.__doc__)

    def test_stubs_are_generated(self):
        # The build writes them beside the module from the key table (python/gen_stub.py).
        sys.path.insert(0, os.path.join(HERE, ".."))
        try:
            import gen_stub
        finally:
            sys.path.pop(0)
        with open(os.path.join(os.path.dirname(gpusizer.__file__), "__init__.pyi"), encoding="utf-8") as f:
            built = f.read()
        self.assertEqual(built, gen_stub.stub_text())
        self.assertIn('runtime: Literal["auto", "none", "pytorch", "llama.cpp", "vllm"', built)
        self.assertIn("context: Optional[int]", built)
        for k in gpusizer.config_keys():
            self.assertRegex(built, rf"\n    {k['name']}: ")

    def test_every_public_name_has_a_stub(self):
        with open(os.path.join(os.path.dirname(gpusizer.__file__), "__init__.pyi"), encoding="utf-8") as f:
            stubs = f.read()
        for name in gpusizer.__all__:
            if name != "__version__":
                self.assertRegex(stubs, rf"(def|class) {name}\b")


class Notebook(unittest.TestCase):
    def test_repr_html_of_an_estimate(self):
        r = gpusizer.estimate(LLAMA_8B_ON_4090)
        page = r._repr_html_()
        per_gpu_gib = r["memory"]["per_gpu"]["total"] / 1024 ** 3
        self.assertIn(f"{per_gpu_gib:,.2f} GiB", page)
        self.assertIn("fits", page)
        self.assertIn("NVIDIA GeForce RTX 4090", page)

    def test_repr_html_escapes(self):
        page = gpusizer.Result({"name": "<script>"})._repr_html_()
        self.assertNotIn("<script>", page)


class Threads(unittest.TestCase):
    def test_the_gil_is_released_during_a_long_call(self):
        # A simulation of 60,000 requests takes well over 100 ms natively (10,000 take ~23 ms,
        # bench_plan BM_Simulate10k). While it runs in another thread, this thread keeps counting:
        # with the GIL held, its longest pause would be the whole call.
        done = threading.Event()
        took = []

        def work():
            t = time.perf_counter()
            gpusizer.simulate({**SERVING, "request_rate": 20}, requests=60000)
            took.append(time.perf_counter() - t)
            done.set()

        th = threading.Thread(target=work)
        last = time.perf_counter()
        longest = 0.0
        th.start()
        while not done.is_set():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
        th.join()
        self.assertGreater(took[0], 0.05, "the call was too short to tell")
        self.assertLess(longest, 0.5 * took[0], f"this thread stopped for {longest:.3f} s of a {took[0]:.3f} s call")

    def test_calls_from_many_threads_agree(self):
        want = gpusizer.estimate(LLAMA_8B_ON_4090)
        got = []
        ths = [threading.Thread(target=lambda: got.append(gpusizer.estimate(LLAMA_8B_ON_4090))) for _ in range(8)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        self.assertEqual(got, [want] * 8)


if __name__ == "__main__":
    unittest.main()
