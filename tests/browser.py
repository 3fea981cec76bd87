"""(test helper) A headless Debian chromium with the network off, driven by selenium through chromedriver, and
what a page shows once MathJax has finished: counts of math elements (all, typeset, inline, TeX errors),
figures and loaded ones, code blocks and those wider than their box (scrolling sideways), any TeX delimiter
left in the visible text, and whether a request to a CDN got through (it must not)."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver",)

_REPORT = """
const done = arguments[arguments.length - 1];
const finish = () => fetch('https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js', {mode: 'no-cors'})
  .then(() => true, () => false).then(reached => report(reached));
const report = (reached) => {
  const math = [...document.querySelectorAll('.math')];
  const imgs = [...document.querySelectorAll('article img')];
  const text = document.querySelector('article') ? document.querySelector('article').innerText : '';
  const raw = (text.match(/\\\\\\(|\\\\\\)|\\\\\\[|\\\\\\]|\\$\\$/g) || []);
  const pres = [...document.querySelectorAll('article pre')];
  done({math: math.length, typeset: math.filter(m => m.querySelector('mjx-container')).length,
        inline_math: document.querySelectorAll('span.math').length,
        tex_errors: document.querySelectorAll('mjx-merror').length,
        images: imgs.length, loaded: imgs.filter(i => i.complete && i.naturalWidth > 0).length,
        code_blocks: pres.length, overflowing: pres.filter(p => p.scrollWidth > p.clientWidth + 1).length,
        raw_tex: raw, network: reached});
};
let polls = 0;          // MathJax missing (e.g. a CDN copy, offline): report after 10 s what the page shows
const ready = () => (window.MathJax && MathJax.startup && MathJax.startup.promise)
  ? MathJax.startup.promise.then(finish, finish) : (++polls > 200 ? finish() : setTimeout(ready, 50));
if (document.querySelectorAll('.math').length === 0) { finish(); } else { ready(); }
"""


def _first(paths) -> str:
    for p in paths:
        if Path(p).is_file():
            return p
    found = shutil.which(Path(paths[0]).name)
    if not found:
        raise FileNotFoundError(f"none of {paths} is installed (apt-get install chromium chromium-driver)")
    return found


@contextlib.contextmanager
def offline_chromium():
    """A headless chromium whose every network request fails (a dead proxy, no DNS, DevTools offline)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = _first(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--allow-file-access-from-files", "--proxy-server=http://127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1280,2000"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(_first(CHROMEDRIVER)), options=opts)
    try:
        driver.set_script_timeout(60)
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                                    "downloadThroughput": 0, "uploadThroughput": 0})
        yield driver
    finally:
        driver.quit()


def page_report(driver, path: Path) -> dict:
    """Open ``path`` (file://) and return what it shows after MathJax's typesetting (see the module doc)."""
    from selenium.webdriver.support.ui import WebDriverWait

    uri = Path(path).resolve().as_uri()
    driver.get(uri)
    # chromedriver's get() can return while a file:// document is still parsing (readyState "loading", no
    # <article> yet: a report then counts no math and no figures); wait until this document has loaded
    WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: d.execute_script("return document.readyState === 'complete' && document.URL") == uri)
    return driver.execute_async_script(_REPORT)
