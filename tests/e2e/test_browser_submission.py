"""The browser test: a new user signs up, logs in, uploads a bundle through the web submit form,
watches the submission page until a real ``celery worker`` has evaluated it, and finds the
submission's rank on the leaderboard page.

Headless Chromium from Debian's packages (``chromium``, ``chromium-driver``; the Makefile's
``system`` target installs them), driven by Selenium through the system chromedriver. Every
assertion reads text the page shows a user. With ``EKB_E2E_SCREENSHOTS=<dir>`` the test also saves
the submission page and the board as PNGs there (the source of docs/screenshots/e2e-*.png).
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from evaluator.vocabulary import Status
from portal_helpers import BACKEND, MATMUL_HAND_TUNED, RELU_DEFAULT, bundle_zip, served_tasks

# Debian's browser and driver, never a downloaded one: the driver's path is given, so Selenium
# Manager (which would fetch a driver) never runs.
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOTS = "EKB_E2E_SCREENSHOTS"

PAGE_S = 20  # one page load or form round trip
# From the worker's start to the page showing the finished submission: 15-40 s here (a cold
# baseline cache, a busy 2-core machine); the limit only bounds a hung evaluation.
EVALUATED_S = 90
WINDOW = (1280, 1000)


@pytest.fixture
def browser(tmp_path):
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip(f"no browser for the e2e test ({', '.join(missing)} missing): install Debian's "
                    "chromium and chromium-driver (`make system` does, as root)")
    opts = Options()
    opts.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", f"--window-size={WINDOW[0]},{WINDOW[1]}", "--disable-dev-shm-usage",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        opts.add_argument(arg)
    # Chromium's own sandbox refuses root and needs user namespaces that CI containers often lack;
    # the browser only ever loads this test's own server.
    opts.add_argument("--no-sandbox")
    service = Service(executable_path=str(CHROMEDRIVER), log_output=str(tmp_path / "chromedriver.log"))
    driver = webdriver.Chrome(options=opts, service=service)
    driver.set_page_load_timeout(PAGE_S)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver, name: str) -> None:
    """Save the window as ``$EKB_E2E_SCREENSHOTS/name`` when that is set; nothing otherwise."""
    folder = os.environ.get(SCREENSHOTS)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(Path(folder) / name)), f"could not save {name} in {folder}"


def text(driver, css: str) -> str:
    try:
        return driver.find_element(By.CSS_SELECTOR, css).text
    except WebDriverException as e:
        # the page reloaded itself between finding the element and reading it: Chromium 156's
        # driver says so as an inspector error rather than a stale element (failed once in CI)
        if "does not belong to the document" in str(e):
            raise StaleElementReferenceException(str(e)) from e
        raise


def fill(driver, field: str, value: str) -> None:
    box = driver.find_element(By.NAME, field)
    box.clear()
    box.send_keys(value)


def click_link(driver, label: str) -> None:
    wait_until(driver, lambda d: d.find_elements(By.LINK_TEXT, label), f"a link {label!r}")[0].click()


def wait_until(driver, predicate, what: str, timeout: float = PAGE_S, logs=lambda: ""):
    """Poll ``predicate(driver)`` (through page reloads) until it is truthy; fail with the page's
    text and ``logs()`` on timeout."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.25,
                             ignored_exceptions=(StaleElementReferenceException,)).until(predicate)
    except TimeoutException:
        body = driver.find_element(By.TAG_NAME, "body").text
        pytest.fail(f"timed out after {timeout:.0f} s waiting for {what} at {driver.current_url}:\n{body}\n{logs()}")


def table_rows(driver, css: str) -> list[list[str]]:
    """The text of each body cell of the tables matching ``css``, row by row: read in the page in
    one call (a WebDriver round trip per cell takes seconds for a board's tasks)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' tbody tr'), "
        "tr => Array.from(tr.cells, td => td.innerText.trim()))", css)


@pytest.mark.django_db(transaction=True)
def test_a_new_user_submits_a_bundle_in_the_browser_and_finds_its_rank(isolated_media, live_server, browser,
                                                                       workers, tmp_path):
    username, password, name = "e2e-user", f"Kernel-{uuid.uuid4().hex[:12]}", "browser-e2e"
    tasks = len(served_tasks())  # the deployment's board (portal_helpers.PORTAL_TASKS)
    bundle = tmp_path / "bundle.zip"
    bundle.write_bytes(bundle_zip(MATMUL_HAND_TUNED, RELU_DEFAULT, name="e2e-bundle"))

    # Sign up through the form on the site, then log in (the sign-up page sends a new user there).
    browser.get(live_server.url + "/")
    click_link(browser, "Sign up")
    wait_until(browser, lambda d: text(d, "h1") == "Sign up", "the sign-up page")
    fill(browser, "username", username)
    fill(browser, "password1", password)
    fill(browser, "password2", password)
    browser.find_element(By.CSS_SELECTOR, "main form button").click()
    wait_until(browser, lambda d: "/accounts/signup/" not in d.current_url, "the sign-up form to be accepted")
    if browser.find_elements(By.NAME, "password"):
        assert text(browser, "h1") == "Log in"
        fill(browser, "username", username)
        fill(browser, "password", password)
        browser.find_element(By.CSS_SELECTOR, "main form button").click()
    wait_until(browser, lambda d: f"Log out {username}" in text(d, "header"), "the header to show the logged-in user")

    # Submit the bundle through the web form. No worker runs yet: the page shows it queued.
    click_link(browser, "Submit")
    wait_until(browser, lambda d: text(d, "h1") == "Submit a bundle", "the submit page")
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=bundle]").send_keys(str(bundle))
    fill(browser, "name", name)
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    m = wait_until(browser, lambda d: re.search(r"/submissions/(\d+)/$", d.current_url), "the submission page")
    sub_url, sub_id = browser.current_url, m.group(1)
    assert text(browser, "h1") == f"{name} queued"
    assert f"by {username}" in text(browser, "main") and f"backends {BACKEND}" in text(browser, "main")
    assert f"Progress: 0 / {tasks} tasks" in text(browser, "main")
    screenshot(browser, "e2e-submission.png")

    # A real worker evaluates it; the page reloads itself until the submission is done.
    workers.start()
    state = wait_until(browser, lambda d: (s := text(d, "h1 .state")) in ("finished", "failed", "cancelled") and s,
                       "the submission to be evaluated", EVALUATED_S, logs=workers.logs)
    assert browser.current_url == sub_url
    assert state == "finished", f"{text(browser, 'main')}\n{workers.logs()}"
    page = text(browser, "main")
    assert f"Progress: {tasks} / {tasks} tasks" in page
    assert f"Summary on {BACKEND}" in page
    statuses = {row[0]: row[2] for row in table_rows(browser, "table.tasks")}
    assert len(statuses) == tasks
    assert statuses.pop(MATMUL_HAND_TUNED.workload) == Status.CORRECT
    assert statuses.pop(RELU_DEFAULT.workload) == Status.CORRECT
    assert set(statuses.values()) == {Status.MISSING}
    # Against tvm-default: 2 of the board's tasks correct (Correct@1, 3 decimals).
    summary = {row[0]: row for row in table_rows(browser, "table.board")}
    assert summary["tvm-default"][3] == f"{2 / tasks:.3f}"
    assert page.count(f"{Status.MISSING} ×{tasks - 2}") == 1  # the failures, grouped

    # The leaderboard: the submission's row, linked to its page, and its rank.
    click_link(browser, "Leaderboard")
    wait_until(browser, lambda d: text(d, "h1").startswith(f"Leaderboard: {BACKEND}"), "the leaderboard")
    rows = table_rows(browser, "table.board")
    ranked = [(row[0], row[1]) for row in rows]
    ours = browser.find_elements(By.CSS_SELECTOR, f"table.board tbody tr:has(a[href$='/submissions/{sub_id}/'])")
    assert len(ours) == 1, ranked
    cells = browser.execute_script("return Array.from(arguments[0].cells, td => td.innerText.trim())", ours[0])
    rank = cells[0]
    assert rank.isdigit(), ranked
    assert cells[1] == f"{name} {username}"
    assert cells[2] == f"{2 / tasks:.3f}"  # Correct@1
    assert f"2/{tasks}" in cells  # attempted / tasks
    assert "1 ranked submission ·" in text(browser, "p.note")
    # The board lists its entries in rank order, and tvm-default (correct at 1x on every task)
    # ranks above 2 correct tasks.
    assert [r for r, _ in ranked] == [str(i) for i in range(1, len(ranked) + 1)], ranked
    assert ranked.index((rank, f"{name} {username}")) + 1 == int(rank), ranked
    assert ranked[0] == ("1", "baseline tvm-default"), ranked
    assert int(rank) > 1
    screenshot(browser, "e2e-board.png")
