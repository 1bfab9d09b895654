"""How long the table page takes to render one state frame, in Chromium, on the desktop profile.

Sets up a table with three bots on a throw-away SQLite database, serves it with daphne (as the
browser tests do), opens the page in Debian's Chromium at 1366×768, lets a round be played, then
replays the page's last state frame through its own renderer many times. Each render is timed with
the performance timeline (``performance.measure``), including the style and layout it causes (a
layout read right after forces them). Also reports the JS heap and DOM size before and after
1000 frames (ten hands' worth), to show there is no growth.

    python bench/table_render.py [--frames 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

MEASURE = """async (count) => {
  const base = window.__okeyTest.lastFrame;
  const times = [];
  for (let i = 0; i < count; i++) {
    const frame = structuredClone(base);
    frame.events = [];
    frame.hand.move = base.hand.move + i + 1;
    frame.move = frame.hand.move;
    performance.mark("okey-frame-start");
    window.__okeyTest.applyFrame(frame);
    void document.body.offsetHeight;  // style and layout belong to the render
    performance.mark("okey-frame-end");
    times.push(performance.measure("okey-frame", "okey-frame-start", "okey-frame-end").duration);
    if (i % 20 === 0) await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  window.__okeyTest.applyFrame(base);
  return times;
}"""

FOOTPRINT = """() => ({ heap: performance.memory ? performance.memory.usedJSHeapSize : null,
                   nodes: document.getElementsByTagName("*").length })"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    database = os.path.join(tempfile.mkdtemp(prefix="okey-bench-"), "bench.sqlite3")
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    os.environ.setdefault("DEBUG", "1")  # a local measurement: the development defaults
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # set-up code next to Playwright's event loop
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer
    from tests.e2e.table_helpers import bots_draw_and_throw_until_seat, table_with_bots

    table, person = table_with_bots()
    server = LiveServer()
    server.start()
    client = Client()
    client.force_login(person, backend="django.contrib.auth.backends.ModelBackend")
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
              "url": server.url}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--enable-precise-memory-info"])
        context = browser.new_context(base_url=server.url, viewport={"width": 1366, "height": 768}, locale="tr-TR")
        context.add_cookies([cookie])
        page = context.new_page()
        page.goto(f"/tables/{table.id}/")
        page.wait_for_function("() => window.__okeyTest && window.__okeyTest.lastFrame && window.__okeyTest.lastFrame.hand")
        bots_draw_and_throw_until_seat(table, 0)
        page.wait_for_function("() => window.__okeyTest.lastFrame.hand.turn === 0")
        page.evaluate(MEASURE, 30)  # warm-up: JIT and caches
        times = sorted(page.evaluate(MEASURE, args.frames))
        before = page.evaluate(FOOTPRINT)
        page.evaluate(MEASURE, 1000)
        page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 50))")
        after = page.evaluate(FOOTPRINT)
        browser.close()
    server.stop()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"state frame render, desktop 1366x768, {len(times)} frames: "
          f"median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, max {times[-1]:.2f} ms (goal < 16 ms)")
    heap = (f"JS heap {before['heap'] / 1e6:.1f} MB -> {after['heap'] / 1e6:.1f} MB"
            if before["heap"] is not None else "JS heap not exposed")
    print(f"after 1000 more frames: {heap}, DOM elements {before['nodes']} -> {after['nodes']}")


if __name__ == "__main__":
    main()
