"""The workbench in a real browser: headless Chromium driven by Selenium.

Starts `oddsmith serve` on a free port, then: picks gateway.challenge and
sets actor.trait to 3 and checks the shown p_success against `oddsmith
odds` for the same config; types the expression 4d6kh3 and checks the
shown mean; pins, changes a parameter and checks that both values show;
reloads the URL and checks that the state is restored; copies the link
(it shows, selected, with "copied" or how to copy it); shows a slow
exact solve's progress, cancels it, then waits for its answer; fills a
policy from its examples menu (by keyboard) and checks the answer changes
as `oddsmith odds` says; asks best play for a duel in the best-play
panel and checks its value, gap, rules and dominance bars against
`oddsmith best`; then, beside the page, requests with a foreign
Host or Origin or a text/plain body are refused. With --shots DIR it
saves screenshots of the main views there.

    python .ci/workbench_browser.py --bin target/release/oddsmith [--shots docs/src/images]
"""

import argparse
import json
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


def odds(binary, *words):
    """`oddsmith odds … --format json`, parsed."""
    out = subprocess.run([binary, "odds", *words, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def best(binary, *words):
    """`oddsmith best … --format json`, parsed."""
    out = subprocess.run([binary, "best", *words, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def metric(answer, name):
    return next(m["value"] for m in answer["configs"][0]["metrics"] if m["name"] == name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shots")
    args = ap.parse_args()
    server = subprocess.Popen([args.bin, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:"), line
        run(args, url)
        refusals(url)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print("workbench browser test: all checks passed")


def refusals(url):
    """What the page's requests pass, others' do not: a foreign Host (421)
    or Origin (403), a body that is not JSON (415)."""
    import urllib.error
    import urllib.request

    body = json.dumps({"expression": "3d6"}).encode()
    port = url.rstrip("/").rsplit(":", 1)[1]
    for headers, want in [
        ({"Content-Type": "application/json", "Origin": url.rstrip("/")}, 200),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
        ({"Content-Type": "application/json", "Host": f"rebound.example:{port}"}, 421),
    ]:
        req = urllib.request.Request(url + "api/answer", data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, answer = r.status, json.load(r)
        except urllib.error.HTTPError as e:
            status, answer = e.code, json.load(e)
        assert status == want, (headers, status, answer)
        assert want == 200 or answer["error"], answer
    print("refused: a foreign Host (421) or Origin (403), a text/plain body (415)")


def run(args, url):
    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,1000", "--disable-dev-shm-usage"]:
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=opts)
    wait = WebDriverWait(driver, 30)
    shots = args.shots

    def shot(name, where=None, block="end"):
        if shots:
            if where:
                driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: arguments[1]})", where, block)
            else:
                driver.execute_script("window.scrollTo(0, 0)")
            os.makedirs(shots, exist_ok=True)
            driver.save_screenshot(os.path.join(shots, f"serve-{name}.png"))

    def shown_for(params=None, expression=None, mechanic=None):
        """Wait until the shown answer is the final one for this question."""
        def ready(d):
            q = d.find_element(By.ID, "answer").get_attribute("data-question")
            if not q:
                return False
            q = json.loads(q)
            if not q.get("final"):
                return False
            if expression is not None:
                return q.get("expression") == expression
            if mechanic is not None and q.get("mechanic") != mechanic:
                return False
            return all(str(q["params"].get(k)) == str(v) for k, v in (params or {}).items())
        wait.until(ready)

    def value_of(name, cls="value"):
        cell = driver.find_element(By.CSS_SELECTOR, f'#metrics tr[data-metric="{name}"] td.{cls}')
        return float(cell.get_attribute("data-value")), cell.text

    def set_param(key, value):
        box = driver.find_element(By.NAME, f"param:{key}")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(str(value))

    try:
        started = time.time()
        driver.get(url)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.mech[data-name="gateway.challenge"]'))
        driver.find_element(By.CSS_SELECTOR, '.mech[data-name="gateway.challenge"]').click()
        wait.until(lambda d: d.find_elements(By.NAME, "param:actor.trait"))
        set_param("actor.trait", 3)
        shown_for({"actor.trait": 3})
        p3, text = value_of("p_success")
        want = metric(odds(args.bin, "gateway.challenge", "actor.trait=3"), "p_success")
        assert abs(p3 - want) < 1e-12, (p3, want)
        assert text == f"{100 * want:.2f}%", (text, want)
        print(f"gateway.challenge actor.trait=3: page {text}, odds {want}")
        # The distribution table gives ≥ and ≤ only for an ordered field.
        heads = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#dist tr:first-child th")]
        fields = odds(args.bin, "gateway.challenge", "actor.trait=3")["configs"][0]["fields"]
        shown = next(f for f in fields if f["name"] == heads[0])
        assert ("≥" in heads) == shown["ordered"], (heads, shown["name"], shown["ordered"])
        print(f"distribution of {heads[0]}: columns {heads[1:]}")
        shot("mechanic")

        # Pin, change a parameter: both values show, with the difference.
        driver.find_element(By.ID, "pin").click()
        set_param("actor.trait", 4)
        shown_for({"actor.trait": 4})
        p4, _ = value_of("p_success")
        pinned, _ = value_of("p_success", "pinned")
        want4 = metric(odds(args.bin, "gateway.challenge", "actor.trait=4"), "p_success")
        assert abs(pinned - want) < 1e-12 and abs(p4 - want4) < 1e-12, (pinned, p4, want, want4)
        diff = driver.find_element(By.CSS_SELECTOR, '#metrics tr[data-metric="p_success"] td.diff').text
        assert "pp" in diff, diff
        print(f"compare: pinned {pinned}, now {p4}, difference {diff}")
        shot("compare")

        # Reload the URL in a fresh page: the state comes back.
        link = driver.current_url
        assert "p.actor.trait=4" in link and "pin=" in link, link
        driver.get("about:blank")
        driver.get(link)
        shown_for({"actor.trait": 4})
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#metrics tr[data-metric="p_success"] td.pinned'))
        assert driver.find_element(By.NAME, "param:actor.trait").get_attribute("value") == "4"
        again, _ = value_of("p_success")
        wait.until(lambda d: value_of("p_success", "pinned")[0] == pinned)
        assert again == p4, (again, p4)
        print("reload: state restored from", link)

        # Copy link: the link shows, selected, and the page says whether it
        # was copied (headless Chromium may refuse the clipboard).
        driver.find_element(By.ID, "copy-link").click()
        wait.until(lambda d: d.find_element(By.ID, "link-said").text)
        shown_link = driver.find_element(By.ID, "link").get_attribute("value")
        assert shown_link == driver.current_url, (shown_link, driver.current_url)
        selected = driver.execute_script(
            "const i = document.getElementById('link');"
            " return document.activeElement === i && i.selectionStart === 0 && i.selectionEnd === i.value.length"
        )
        assert selected, "the link is not selected"
        said = driver.find_element(By.ID, "link-said").text
        assert said == "copied" or said.startswith("not copied: the link is selected"), said
        print("copy link:", said)
        shot("copy-link", "#question")

        # A sweep: a line for one parameter, a heatmap for two.
        driver.find_element(By.ID, "unpin").click()
        sw1 = driver.find_element(By.ID, "sw1")
        driver.execute_script("arguments[0].value = 'actor.trait'", sw1)
        driver.find_element(By.ID, "swv1").send_keys("1..6")
        driver.find_element(By.ID, "run-sweep").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart svg polyline"))
        shot("sweep", "#sweep-box")
        second = driver.execute_script(
            "const o = [...document.getElementById('sw2').options].map(o => o.value).filter(v => v && v !== 'actor.trait');"
            "return o.find(v => /difficulty|opposition|vs/.test(v)) || o[0];")
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, "sw2"), second)
        swv2 = driver.find_element(By.ID, "swv2")
        swv2.send_keys(Keys.ENTER)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chart svg rect")) > 20)
        print("sweep: line chart and heatmap over actor.trait and", second)
        shot("heatmap", "#sweep-box")

        # An expression: 4d6kh3's mean, 15869/1296.
        expr = driver.find_element(By.ID, "expr")
        expr.send_keys("4d6kh3")
        shown_for(expression="4d6kh3")
        mean, text = value_of("mean")
        want = metric(odds(args.bin, "4d6kh3"), "mean")
        assert abs(mean - want) < 1e-12 and abs(mean - 15869 / 1296) < 1e-12, (mean, want)
        assert text == f"{want:.4f}", text
        print(f"4d6kh3: page mean {text}, odds {want}")
        shot("expression")

        # A slow exact solve: the progress panel shows the chain's rounds,
        # Cancel stops it, and asked again the answer replaces the panel.
        # (gateway.skirmish, two PCs against the key entity on a ladder of
        # 50: about 0.4 s; gateway.ensemble's 0.5 s fell to 0.17 s, too
        # quick to catch.)
        fast = WebDriverWait(driver, 30, poll_frequency=0.03)
        slow = "m=gateway.skirmish&p.pcs=" + "%5B%7B%7D%2C%7B%7D%5D"
        driver.get(url + "#" + slow + "&p.ladder=50")
        fast.until(lambda d: d.find_element(By.ID, "progress").is_displayed())
        # Centred first: scrolled only as far as its edge, the button can
        # sit under the sticky mechanics list, which then takes the click.
        cancel = driver.find_element(By.ID, "progress-cancel")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", cancel)
        cancel.click()
        wait.until(lambda d: "cancelled" in d.find_element(By.ID, "status").text)
        assert not driver.find_element(By.ID, "progress").is_displayed()
        print("progress: Cancel stops the exact solve:", driver.find_element(By.ID, "status").text)
        set_param("ladder", 49)
        fast.until(lambda d: "round" in d.find_element(By.ID, "progress-text").text)
        progress_text = driver.find_element(By.ID, "progress-text").text
        shot("progress")
        shown_for({"ladder": 49})
        assert not driver.find_element(By.ID, "progress").is_displayed()
        assert driver.find_element(By.ID, "method").text == "exact"
        first = driver.find_element(By.CSS_SELECTOR, "#metrics tr[data-metric]").get_attribute("data-metric")
        got, _ = value_of(first)
        want = metric(odds(args.bin, "gateway.skirmish", "pcs=[{},{}]", "ladder=49"), first)
        assert abs(got - want) < 1e-12, (got, want)
        print(f"progress: '{progress_text}', then {first} = {got} (odds: {want})")

        # The policy editor: an example from a shipped scenario fills the
        # field (chosen with the keyboard) and changes the answer, as `odds`
        # gives it; a mistake shows the command line's message beside it.
        driver.get(url + "#m=gateway.scene")
        wait.until(lambda d: d.find_elements(By.NAME, "param:a.policy"))
        shown_for({}, mechanic="gateway.scene")
        before, _ = value_of("p_a_wins")
        driver.find_element(By.ID, "pin").click()
        menu = driver.find_element(By.CSS_SELECTOR, '[data-examples-for="a.policy"]')
        labels = [o.text for o in menu.find_elements(By.TAG_NAME, "option")]
        rush = next(i for i, t in enumerate(labels) if t.startswith("rush"))
        menu.send_keys(Keys.HOME)
        for _ in range(rush):
            menu.send_keys(Keys.DOWN)
        policy = driver.find_element(By.NAME, "param:a.policy").get_attribute("value")
        assert policy.startswith('{ name = "rush"'), policy
        shown_for({"a.policy": policy})
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-check-for="a.policy"]').text == "✓ valid")
        after, text = value_of("p_a_wins")
        want = metric(odds(args.bin, "gateway.scene", "a.policy=" + policy), "p_a_wins")
        assert abs(after - want) < 1e-12 and abs(after - before) > 1e-6, (before, after, want)
        assert value_of("p_a_wins", "pinned")[0] == before
        print(f"policy example rush: p_a_wins {before:.4f} -> {after:.4f} (odds: {want:.4f})")
        driver.find_element(By.CSS_SELECTOR, '.field[data-key="a.policy"] details summary').click()
        shot("policy", '.field[data-key="a.policy"]', "center")
        driver.find_element(By.ID, "unpin").click()
        box = driver.find_element(By.NAME, "param:a.policy")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys('[{ effect = "climb" }]')
        wait.until(lambda d: "not an effect" in d.find_element(By.CSS_SELECTOR, '[data-error-for="a.policy"]').text)
        print("policy error:", driver.find_element(By.CSS_SELECTOR, '[data-error-for="a.policy"]').text)

        # Best play: the panel shows for a mechanic best play covers, asks
        # with the form's values, and shows `oddsmith best`'s numbers.
        driver.get(url + "#m=gateway.scene&p.ladder=4&p.round_cap=8&p.initiative=random")
        wait.until(lambda d: d.find_element(By.ID, "best-box").is_displayed())
        driver.find_element(By.ID, "run-best").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#best-values td"))
        want = best(args.bin, "gateway.scene", "ladder=4", "round_cap=8", "initiative=random", "--metric", "p_a_wins")
        cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#best-values td")]
        assert cells[0] == f"{100 * want['best']:.2f}%" and cells[1] == f"{100 * want['given']:.2f}%", (cells, want["best"])
        assert cells[2] == f"+{100 * want['gap']:.2f} points", cells
        bars = driver.find_elements(By.CSS_SELECTOR, ".best-bar")
        assert len(bars) == len(want["dominance"]) > 0, (len(bars), want["dominance"])
        rules = driver.find_elements(By.CSS_SELECTOR, "#best-rules tr")
        assert len(rules) == len(want["rules"]) + 1, (len(rules), len(want["rules"]))
        print(f"best play: {cells[0]} against {cells[1]} ({cells[2]}), {len(bars)} dominance bars, {len(rules) - 1} rules")
        shot("best", "#best-box", "start")
        # Both sides best: the duel's value, A's one-sided best, what B's
        # best play takes back, both given, and B's rules too.
        driver.find_element(By.ID, "best-duel").click()
        assert "p_a_wins" in driver.find_element(By.ID, "best-duel-what").text
        driver.find_element(By.ID, "run-best").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#best-rules-b tr"))
        want = best(args.bin, "gateway.scene", "ladder=4", "round_cap=8", "initiative=random", "--metric", "p_a_wins",
                    "--against", "best")
        cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#best-values td")]
        assert cells[0] == f"{100 * want['best']:.2f}%", (cells, want["best"])
        assert cells[1] == f"{100 * want['duel']['one_sided']:.2f}%", (cells, want["duel"])
        assert cells[2] == f"{100 * want['duel']['taken_back']:.2f} points", (cells, want["duel"])
        assert cells[3] == f"{100 * want['given']:.2f}%", (cells, want["given"])
        rules_b = driver.find_elements(By.CSS_SELECTOR, "#best-rules-b tr")
        assert len(rules_b) == len(want["duel"]["rules"]) + 1, (len(rules_b), len(want["duel"]["rules"]))
        bars_b = driver.find_elements(By.CSS_SELECTOR, "#best-bars-b .best-bar")
        assert len(bars_b) == len(want["duel"]["dominance"]) > 0, (len(bars_b), want["duel"]["dominance"])
        print(f"duel: {cells[0]} (A one-sided {cells[1]}, B takes back {cells[2]}), {len(rules_b) - 1} rules and "
              f"{len(bars_b)} dominance bars for B")
        shot("best-duel", "#best-box", "start")
        # A metric no duel is played for: a message in the panel, no answer.
        Select(driver.find_element(By.ID, "best-metric")).select_by_value("mean_rounds")
        assert "not mean_rounds" in driver.find_element(By.ID, "best-duel-what").text
        driver.find_element(By.ID, "run-best").click()
        wait.until(lambda d: "not zero-sum" in d.find_element(By.ID, "best-error").text)
        print("duel refused:", driver.find_element(By.ID, "best-error").text.splitlines()[0][:100])
        driver.get(url + "#m=cortex.basic")
        wait.until(lambda d: d.find_elements(By.NAME, "param:actor.pool"))
        assert not driver.find_element(By.ID, "best-box").is_displayed()

        # An error shows beside the field at fault.
        driver.find_element(By.CSS_SELECTOR, '.mech[data-name="gateway.challenge"]').click()
        wait.until(lambda d: d.find_elements(By.NAME, "param:actor.trait"))
        set_param("actor.trait", 99)
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-error-for="actor.trait"]').text)
        print("error beside the field:", driver.find_element(By.CSS_SELECTOR, '[data-error-for="actor.trait"]').text.splitlines()[0])
        shot("error")
        print(f"browser checks took {time.time() - started:.1f} s")
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
