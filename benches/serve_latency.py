"""Latency of `oddsmith serve` through HTTP on this machine.

Starts the server on a free port and times, over one keep-alive
connection as the page uses it:
  * exact single-roll answers (gateway.challenge, cortex.basic, 4d6kh3),
    each asked a few hundred times: median and 95th percentile;
  * the first Monte Carlo estimate of a scene (the page's first round,
    20,000 trials), a few dozen times with different seeds.

    python3 benches/serve_latency.py target/release/oddsmith [N]
"""

import http.client
import json
import statistics
import subprocess
import sys
import time


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[2]
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        conn = http.client.HTTPConnection(host, int(port))

        def ask(body, ok=True):
            t = time.perf_counter()
            conn.request("POST", "/api/answer", json.dumps(body), {"content-type": "application/json"})
            r = conn.getresponse()
            data = r.read()
            ms = 1000 * (time.perf_counter() - t)
            if not ok:
                return r.status == 200
            assert r.status == 200, (r.status, data[:300])
            return ms

        cases = [
            ("gateway.challenge actor.trait=3", {"mechanic": "gateway.challenge", "params": {"actor.trait": 3}}),
            ("cortex.basic", {"mechanic": "cortex.basic"}),
            ("4d6kh3", {"expression": "4d6kh3"}),
        ]
        print(f"{'exact single roll':<36} {'requests':>8} {'median ms':>10} {'p95 ms':>8}")
        for name, body in cases:
            for _ in range(10):
                ask(body)
            times = [ask(body) for _ in range(n)]
            print(f"{name:<36} {n:>8} {statistics.median(times):>10.2f} {percentile(times, 0.95):>8.2f}")
        # Scenes simulated at their defaults (some need a list of players
        # first, and are left out).
        scenes = [m["name"] for m in json.loads(get(conn, "/api/mechanics")) if not m["exact"]]
        scenes = [s for s in scenes if ask({"mechanic": s, "trials": 1000}, ok=False)]
        print(f"\n{'first Monte Carlo estimate (20,000 trials)':<44} {'requests':>8} {'median ms':>10} {'p95 ms':>8}")
        for scene in scenes:
            times = [ask({"mechanic": scene, "trials": 20000, "seed": s}) for s in range(1, 41)]
            print(f"{scene:<44} {len(times):>8} {statistics.median(times):>10.2f} {percentile(times, 0.95):>8.2f}")
    finally:
        server.terminate()
        server.wait(timeout=10)


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    return r.read()


if __name__ == "__main__":
    main()
