"""Latency of `oddsmith serve` through HTTP on this machine.

Starts the server on a free port and times, over one keep-alive
connection as the page uses it:
  * exact single-roll answers (gateway.challenge, cortex.basic, 4d6kh3),
    each asked a few hundred times: median and 95th percentile;
  * a slow exact scene solve: alone, to its first progress report, and
    to its 409 once a newer request from its tab supersedes it;
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
        slow_exact(host, port, ask)
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


def slow_exact(host, port, ask):
    """A slow exact solve (gateway.ensemble, two PCs on a ladder of 50):
    its time alone; how soon /api/progress reports its first chain round
    (polled every 5 ms on a second connection); and how soon it answers
    409 once a newer request from its tab arrives (it is abandoned
    mid-chain rather than solved to the end)."""
    import threading

    body = {"mechanic": "gateway.ensemble", "params": {"pcs": "[{trait = 3}, {trait = 3}]", "ladder": 50}}
    alone = [ask(body) for _ in range(5)]
    poll = http.client.HTTPConnection(host, port)

    def post(conn, path, b):
        conn.request("POST", path, json.dumps(b), {"content-type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read())

    first, stop = [], []
    for k in range(10):
        tab = f"bench-{k}"
        done = {}

        def run():
            c = http.client.HTTPConnection(host, port)
            done["status"], _ = post(c, "/api/answer", {**body, "tab": tab})
            done["at"] = time.perf_counter()

        t0 = time.perf_counter()
        th = threading.Thread(target=run)
        th.start()
        while True:
            _, p = post(poll, "/api/progress", {"tab": tab})
            if p.get("running") and p.get("round", 0) > 0:
                break
            time.sleep(0.005)
        first.append(1000 * (time.perf_counter() - t0))
        t1 = time.perf_counter()
        post(poll, "/api/answer", {"mechanic": "gateway.challenge", "tab": tab})
        th.join()
        assert done["status"] == 409, done
        stop.append(1000 * (done["at"] - t1))
    print(f"\n{'slow exact solve (gateway.ensemble, 2 PCs, ladder 50)':<56} {'median ms':>10} {'max ms':>8}")
    print(f"{'  solved alone (5 requests)':<56} {statistics.median(alone):>10.1f} {max(alone):>8.1f}")
    print(f"{'  first progress report with a chain round (10)':<56} {statistics.median(first):>10.1f} {max(first):>8.1f}")
    print(f"{'  abandoned after a newer request from its tab (10)':<56} {statistics.median(stop):>10.1f} {max(stop):>8.1f}")


def get(conn, path):
    conn.request("GET", path)
    r = conn.getresponse()
    return r.read()


if __name__ == "__main__":
    main()
