"""The web page of `remem serve` in a real browser: the system's headless Chromium driven
by Playwright (never a downloaded browser), against a real server on 127.0.0.1. One
browser session signs in, searches in Chinese and English, filters, opens a memory,
edits it and sees the new version in its history, verifies and deletes one.

REMEM_WEB_SCREENSHOT=docs/web.png also writes the README's screenshot."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from remem.servers.auth import issue_token
from remem.servers.backend import Backend
from remem.servers.http import build_app, running
from remem.settings import Settings

pytestmark = pytest.mark.slow  # drives a real browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
MEMORIES = [
    {"content": "项目使用 JDK 17 和 Maven", "entity": "JDK"},
    {"content": "回答用中文，代码注释用英文", "type": "preference", "scope": "global"},
    {"content": "部署脚本在 scripts/deploy.sh，上线前先跑 make test", "type": "decision"},
    {"content": "The billing service listens on port 9090"},
    {"content": "Alice owns the payment service rollout", "type": "milestone"},
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    backend = Backend(Settings.resolve(db=tmp_path / "memory.db", project="shop"))
    token = issue_token(backend.store, "alice")[0]
    try:
        with running(build_app(backend)) as url:
            with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as c:
                for memory in MEMORIES:
                    assert c.post("/api/memories", json=memory).status_code == 201
            yield url, token
    finally:
        backend.close()


def test_the_web_page_in_a_browser(server: tuple[str, str], tmp_path: Path) -> None:
    if not os.path.exists(CHROMIUM):
        why = "the web test needs Debian's chromium (apt-get install chromium)"
        if os.environ.get("REMEM_REQUIRE_BROWSER") == "1":  # CI (.ci/run) requires it
            pytest.fail(why)
        pytest.skip(why + "; skipped here, required where REMEM_REQUIRE_BROWSER=1")
    from playwright.sync_api import expect, sync_playwright

    url, token = server
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True,
            viewport={"width": 1100, "height": 900}, locale="zh-CN",
        )  # fmt: skip
        try:
            page = browser.new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            _sign_in(page, url, token)
            _search(page, expect)
            _edit_and_history(page, expect)
            _verify_and_delete(page, expect)
            _forms_need_their_csrf(page, url)
        finally:
            browser.close()


def _sign_in(page: Any, url: str, token: str) -> None:
    page.goto(url + "/")
    assert "/login" in page.url  # no session yet
    page.fill("input[name=token]", "rmm_00000000_" + "A" * 43)
    page.click("button[type=submit]")
    assert "unknown or revoked" in page.inner_text("[role=alert]")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_selector("ol.memories li a.content")
    assert page.locator("ol.memories li").count() == len(MEMORIES)
    cookie = next(c for c in page.context.cookies() if c["name"] == "remem_token")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"


def _search(page: Any, expect: Any) -> None:
    page.fill("input[name=q]", "创建 Java 项目用什么 JDK")
    page.press("input[name=q]", "Enter")
    first = page.locator("ol.memories li a.content").first
    expect(first).to_have_text("项目使用 JDK 17 和 Maven")
    page.fill("input[name=q]", "which port does billing listen on")
    page.press("input[name=q]", "Enter")
    expect(page.locator("ol.memories li a.content").first).to_have_text(
        "The billing service listens on port 9090"
    )
    page.fill("input[name=q]", "")
    page.select_option("select[name=type]", "preference")
    page.click("form.search button[type=submit]")
    items = page.locator("ol.memories li a.content")
    expect(items).to_have_count(1)
    expect(items.first).to_have_text("回答用中文，代码注释用英文")
    assert "global" in page.inner_text("ol.memories li")
    screenshot = os.environ.get("REMEM_WEB_SCREENSHOT")
    if screenshot:
        page.select_option("select[name=type]", "")
        page.fill("input[name=q]", "项目 部署 JDK")
        page.press("input[name=q]", "Enter")
        page.wait_for_selector("ol.memories li")
        page.screenshot(path=screenshot, full_page=True)


def _edit_and_history(page: Any, expect: Any) -> None:
    page.select_option("select[name=type]", "")
    page.fill("input[name=q]", "JDK")
    page.press("input[name=q]", "Enter")
    page.click("ol.memories li a.content >> text=项目使用 JDK 17 和 Maven")
    expect(page.locator("h1.content")).to_have_text("项目使用 JDK 17 和 Maven")
    expect(page.locator("ol.timeline li")).to_have_count(1)
    page.fill("textarea[name=content]", "项目使用 JDK 21 和 Maven")
    page.click("form.edit button[type=submit]")  # confirm() is accepted
    expect(page.locator("h1.content")).to_have_text("项目使用 JDK 21 和 Maven")
    versions = page.locator("ol.timeline li")
    expect(versions).to_have_count(2)
    expect(versions.nth(0).locator("a.content")).to_have_text("项目使用 JDK 17 和 Maven")
    expect(versions.nth(1).locator("a.content")).to_have_text("项目使用 JDK 21 和 Maven")
    assert "→ now" in versions.nth(1).inner_text()  # the current version still holds
    old_period = versions.nth(0).locator(".period").inner_text()
    new_period = versions.nth(1).locator(".period").inner_text()
    assert "→ now" not in old_period  # the replaced one held until the new one began
    assert old_period.split(" → ")[1].split(" · ")[0] == new_period.split(" → ")[0]
    actions = page.locator("table.audit tbody td:nth-child(2)").all_inner_texts()
    assert actions == ["add", "replace", "supersede"]
    page.click("a:has-text('all memories')")
    page.fill("input[name=q]", "JDK 版本")
    page.press("input[name=q]", "Enter")
    expect(page.locator("ol.memories li a.content").first).to_have_text("项目使用 JDK 21 和 Maven")


def _verify_and_delete(page: Any, expect: Any) -> None:
    page.click("ol.memories li a.content >> text=项目使用 JDK 21 和 Maven")
    page.click("form[action$='/verify'] button")
    expect(page.locator("table.audit tbody tr").last).to_contain_text("verify")
    page.click("a.danger")
    expect(page.locator("h1")).to_have_text("Delete this memory?")
    assert "1 older version" in page.inner_text("main")
    page.click("button.danger")
    page.fill("input[name=q]", "JDK")
    page.press("input[name=q]", "Enter")
    expect(page.locator("ol.memories li.empty")).to_have_count(1)


def _forms_need_their_csrf(page: Any, url: str) -> None:
    status = page.evaluate(
        """async () => (await fetch('/memories', {method: 'POST', body: new URLSearchParams(
               {content: '没有 CSRF 的表单', csrf: 'forged'})})).status"""
    )
    assert status == 403
    page.goto(url + "/?q=CSRF")
    assert page.locator("ol.memories li.empty").count() == 1
