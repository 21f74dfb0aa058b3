#!/usr/bin/env python3
"""`gpusizer mcp` as an MCP client starts it: a child process spoken to over its stdin and stdout,
one JSON-RPC 2.0 message per line (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio).

Usage: mcp_client_test.py PATH/TO/gpusizer [ASSETS_DIR]   (standard library only)
"""
import json
import subprocess
import sys
import unittest

GPUSIZER = None
ASSETS = None


class McpStdio(unittest.TestCase):
    def setUp(self):
        args = [GPUSIZER, "mcp"] + (["--assets", ASSETS] if ASSETS else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def tearDown(self):
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def send(self, message):
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def receive(self):
        # The server answers each request with one line, flushed: reading it does not wait for the
        # end of the input.
        line = self.proc.stdout.readline()
        if not line.endswith("\n"):
            self.fail("no reply line (exit %s, stderr: %s)" % (self.proc.wait(timeout=30), self.proc.stderr.read()))
        return json.loads(line)

    def request(self, id_, method, params=None):
        self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params or {}})
        reply = self.receive()
        self.assertEqual(reply["id"], id_)
        return reply

    def test_session(self):
        init = self.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                              "clientInfo": {"name": "mcp_client_test", "version": "1"}})
        self.assertEqual(init["result"]["protocolVersion"], "2025-06-18")
        self.assertEqual(init["result"]["serverInfo"]["name"], "gpusizer")
        self.assertEqual(init["result"]["capabilities"]["tools"], {"listChanged": False})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})   # no reply to it

        tools = self.request(2, "tools/list")["result"]["tools"]
        self.assertEqual(sorted(t["name"] for t in tools),
                         ["estimate", "fit", "gpus", "inspect", "models", "plan", "recommend", "simulate"])
        estimate = next(t for t in tools if t["name"] == "estimate")
        config = estimate["inputSchema"]["properties"]["config"]["properties"]
        self.assertEqual(config["context"]["type"], "integer")
        self.assertIn("vllm", config["runtime"]["enum"])

        call = {"name": "estimate",
                "arguments": {"config": {"model": "llama-3-8b", "weights": "q4_k_m", "gpu": "rtx-4090"}}}
        result = self.request(3, "tools/call", call)["result"]
        self.assertFalse(result["isError"])
        report = json.loads(result["content"][0]["text"])
        self.assertEqual(report, result["structuredContent"])
        self.assertTrue(report["fits"])   # 8B at ~4.8 bits is ~5 GB on a 24 GB card
        # The same report as the CLI prints.
        cli = subprocess.run([GPUSIZER, "estimate", "--model", "llama-3-8b", "--weights", "q4_k_m", "--gpu", "rtx-4090",
                              "--json"] + (["--assets", ASSETS] if ASSETS else []),
                             capture_output=True, text=True, check=True)
        self.assertEqual(report, json.loads(cli.stdout))

        # A malformed line: -32700 with id null, and the server goes on.
        self.send("{this is not json")
        bad = self.receive()
        self.assertEqual(bad["error"]["code"], -32700)
        self.assertIsNone(bad["id"])
        self.assertEqual(self.request(4, "ping")["result"], {})

        # A bad key: a tool result with isError, naming the key.
        call["arguments"]["config"]["context"] = -5
        result = self.request(5, "tools/call", call)["result"]
        self.assertTrue(result["isError"])
        self.assertTrue(result["content"][0]["text"].startswith("context: "), result["content"][0]["text"])

        self.assertEqual(self.request(6, "no/such/method")["error"]["code"], -32601)

        # The end of the input ends the server, with exit status 0 and nothing more on stdout.
        self.proc.stdin.close()
        self.assertEqual(self.proc.wait(timeout=30), 0)
        self.assertEqual(self.proc.stdout.read(), "")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    GPUSIZER = sys.argv[1]
    ASSETS = sys.argv[2] if len(sys.argv) > 2 else None
    unittest.main(argv=[sys.argv[0]], verbosity=2)
