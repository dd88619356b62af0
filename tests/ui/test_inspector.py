"""The memory inspector in a real browser (Debian's chromium through Playwright), over real stores:
every page renders for a seeded user, the graph draws, writes made in the pages reach the facade and
every store, another user's data never shows, and the token rule holds."""

from __future__ import annotations

import re

import httpx
import psycopg
import pytest
from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from agentx_memory import AgentMemory, NotFoundError
from agentx_memory.cli import app
from agentx_memory.retrieval.tokens import default_token_counter
from tests.ui.conftest import TOKEN, Inspector
from tools.ui_demo import DRAWN, SCREENS, TAP

pytestmark = pytest.mark.long

#: What the seeded Priya said or was learned from it: none of it may show on Sam's pages.
PRIYAS = ("Priya", "Manchester", "Arjun", "Siemens", "Radiohead", "vegan", "Tokyo")


NODE_LABELS = "window.agentxGraph.nodes().map(n => n.data('label'))"


def _facts(memory: AgentMemory) -> dict[str, bool]:
    """Claim → current, every version."""
    return {fact.claim: fact.is_current for fact in memory.list_facts(limit=500, include_history=True)}


def _chain(page: Page, claim: str) -> str:
    """The facts page's item whose current claim is ``claim`` (a CSS selector)."""
    fact_id = page.locator("li.chain", has=page.get_by_text(claim, exact=True)).first.get_attribute(
        "data-fact-id"
    )
    assert fact_id
    return f'li.chain[data-fact-id="{fact_id}"]'


def test_every_page_renders_for_the_seeded_user(page: Page, inspector: Inspector) -> None:
    seeded = inspector.seeded
    for name, path in SCREENS:
        response = page.goto(inspector.url + path.format(user=seeded.user, c=seeded.conversations[0]))
        assert response is not None
        assert response.status == 200, name
        expect(page.locator("h1").first).to_be_visible()
    page.goto(inspector.url + "/")
    expect(page.get_by_test_id("users")).to_contain_text("priya")
    expect(page.get_by_test_id("users")).to_contain_text("sam")
    page.goto(f"{inspector.url}/u/priya")
    expect(page.get_by_test_id("profile")).to_contain_text("Priya")
    page.goto(f"{inspector.url}/u/priya/facts")
    vegan = page.locator(_chain(page, "Priya is vegan."))
    expect(vegan.locator(".history")).to_contain_text("Priya is vegetarian.")  # the chain of corrections
    expect(vegan.locator(".sources").first).to_contain_text(
        "I'm vegetarian, so no meat please."
    )  # provenance
    expect(vegan).to_contain_text("confidence 0.95")
    page.goto(f"{inspector.url}/u/priya/conversations")
    expect(page.get_by_test_id("conversations").locator("li")).to_have_count(5)
    page.goto(f"{inspector.url}/u/priya/conversations/{seeded.conversations[0]}")
    expect(page.get_by_test_id("turns")).to_contain_text("My husband Arjun works for Siemens.")
    expect(page.get_by_test_id("turns")).to_contain_text("learned: Arjun works at Siemens.")
    page.goto(f"{inspector.url}/u/priya/review")
    expect(page.get_by_test_id("reviews")).to_contain_text("software engineer")
    expect(page.get_by_test_id("reviews")).to_contain_text("I am a software engineer.")  # its source turn
    page.goto(f"{inspector.url}/jobs")
    expect(page.get_by_test_id("jobs")).to_contain_text("consolidate")


def test_the_recall_debugger_shows_items_and_the_exact_context_block(
    page: Page, inspector: Inspector, priya: AgentMemory
) -> None:
    page.goto(f"{inspector.url}/u/priya/recall")
    page.get_by_label("query").fill("Who is Priya's husband?")
    page.get_by_role("button", name="Recall").click()
    rows = page.get_by_test_id("recall-items").locator("tbody tr")
    expect(rows.first).to_be_visible()
    assert rows.count() == len(priya.remember("Who is Priya's husband?", top_k=10).items)
    first = rows.first.locator("td")
    assert first.nth(1).inner_text() in {"episodic", "fact", "entity", "strategy", "goal"}
    assert float(first.nth(2).inner_text()) > 0
    assert first.nth(3).inner_text()  # found_by
    block = page.get_by_test_id("context-block").inner_text()
    assert block.startswith("## Memory")
    assert "Priya's husband is Arjun." in block
    assert int(page.get_by_test_id("context-tokens").inner_text()) == default_token_counter().count(block)


def test_the_graph_draws_the_entities_and_their_relations(page: Page, inspector: Inspector) -> None:
    page.goto(f"{inspector.url}/u/priya/graph")
    page.wait_for_function(DRAWN)
    labels = page.evaluate(NODE_LABELS)
    assert {"Priya", "Arjun", "Siemens", "Meera", "Tokyo"} <= set(labels)
    edges = page.evaluate("window.agentxGraph.edges().map(e => e.data('label'))")
    assert {"WORKS_FOR", "LOCATED_IN"} <= set(edges)
    canvas = page.locator("#graph canvas").first
    box = canvas.bounding_box()
    assert box is not None
    assert box["width"] > 200
    assert box["height"] > 200
    # Drawn: every node was laid out inside the visible box, and the canvas holds coloured pixels.
    inside = page.evaluate(
        "(() => { const cy = window.agentxGraph, w = cy.width(), h = cy.height();"
        " return cy.nodes().every(n => { const p = n.renderedPosition();"
        " return p.x >= 0 && p.y >= 0 && p.x <= w && p.y <= h; }); })()"
    )
    assert inside
    assert len(page.evaluate("window.agentxGraph.png()")) > 5000
    page.evaluate(TAP, "Arjun")
    expect(page.get_by_test_id("graph-info")).to_contain_text("person")


def test_a_correction_in_the_page_shows_in_list_facts_and_remember(
    page: Page, inspector: Inspector, priya: AgentMemory
) -> None:
    page.goto(f"{inspector.url}/u/priya/facts")
    chain = page.locator(_chain(page, "Priya lives in Manchester."))
    chain.get_by_text("Correct", exact=True).click()
    chain.get_by_label("corrected claim").fill("Priya lives in Salford.")
    chain.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("status")).to_contain_text("Corrected: Priya lives in Salford.")
    facts = _facts(priya)
    assert facts["Priya lives in Salford."] is True
    assert facts["Priya lives in Manchester."] is False
    recalled = [item.content for item in priya.remember("Where does Priya live?", top_k=10).items]
    assert "Priya lives in Salford." in recalled
    assert "Priya lives in Manchester." not in recalled
    # and undone from the page: Manchester is current again
    page.locator(_chain(page, "Priya lives in Salford.")).get_by_role(
        "button", name="Undo last change"
    ).click()
    expect(page.get_by_role("status")).to_contain_text("Correction undone: Priya lives in Manchester.")
    facts = _facts(priya)
    assert (facts["Priya lives in Manchester."], facts["Priya lives in Salford."]) == (True, False)


def test_a_forget_in_the_page_reaches_every_store(
    page: Page, inspector: Inspector, priya: AgentMemory
) -> None:
    claim = "Priya uses Python and Postgres at work."
    [fact] = [fact for fact in priya.list_facts(limit=500) if fact.claim == claim]
    backends = priya._open_backends()
    backends.access.touch(priya.scope, "fact", [fact.id])  # as a recall would (Redis)

    def facts_in_graph() -> int:
        rows = backends.graph.run("count_user_nodes", {"user_id": "priya"})
        return int(next(row["count"] for row in rows if row["label"] == "Fact"))

    before = facts_in_graph()
    page.goto(f"{inspector.url}/u/priya/facts")
    page.locator(_chain(page, claim)).get_by_role("button", name="Forget").click()
    expect(page.get_by_role("status")).to_contain_text("Forgotten everywhere")
    expect(page.get_by_test_id("facts")).not_to_contain_text(claim)
    assert claim not in _facts(priya)
    assert facts_in_graph() == before - 1
    assert backends.access.get(priya.scope, "fact", [fact.id]) == {}
    with psycopg.connect(inspector.settings.postgres.url or "") as conn:
        conn.execute(f'SET search_path TO "{inspector.settings.postgres.schema_name}", public')
        timeline = conn.execute("SELECT count(*) FROM memory_timeline WHERE memory_id = %s", (fact.id,))
        assert timeline.fetchone() == (0,)
        audit = conn.execute(
            "SELECT count(*) FROM memory_audit_log WHERE user_id = 'priya' AND operation = 'forget_fact'"
        )
        assert audit.fetchone() == (1,)
    with pytest.raises(NotFoundError):
        priya.forget_fact(fact.id)


def test_the_review_queue_accepts_in_the_page(page: Page, inspector: Inspector, priya: AgentMemory) -> None:
    page.goto(f"{inspector.url}/u/priya/review")
    page.get_by_role("button", name="Accept new").click()
    expect(page.get_by_role("status")).to_contain_text("Accepted the new fact")
    expect(page.get_by_test_id("review-empty")).to_be_visible()
    assert priya.review_queue() == []
    facts = _facts(priya)
    assert (facts["Priya works as a software engineer."], facts["Priya works as a nurse."]) == (True, False)


def test_another_users_data_is_never_shown(page: Page, inspector: Inspector) -> None:
    seeded = inspector.seeded
    for _, path in SCREENS[1:-1]:  # every page of one user (the users list and jobs are everyone's)
        sams = path.format(user=seeded.other, c=seeded.conversations[0]).replace("Priya", "Sam")
        page.goto(inspector.url + sams)
        text = page.locator("main").inner_text()
        assert not [word for word in PRIYAS if word in text], sams
    page.goto(f"{inspector.url}/u/sam/facts")
    expect(page.get_by_test_id("facts")).to_contain_text("Lisbon")
    page.goto(f"{inspector.url}/u/sam/graph")
    page.wait_for_function(DRAWN)
    assert "Arjun" not in page.evaluate(NODE_LABELS)


def test_a_channel_chosen_on_the_profile_stays_chosen(page: Page, inspector: Inspector) -> None:
    page.goto(f"{inspector.url}/u/sam")
    page.get_by_role("link", name="sailing").click()
    expect(page.get_by_test_id("current-user")).to_contain_text("sam · sailing")
    page.get_by_role("link", name="Conversations").click()
    assert page.url.endswith("/u/sam/conversations?channel=sailing")
    expect(page.get_by_test_id("conversations")).to_contain_text("The regatta")  # the channel's
    expect(page.get_by_test_id("conversations")).to_contain_text("Hello")  # and _global's
    page.goto(f"{inspector.url}/u/sam/conversations")
    expect(page.get_by_test_id("conversations")).not_to_contain_text("The regatta")


def test_an_unknown_fact_action_is_not_found(page: Page, inspector: Inspector) -> None:
    response = page.request.post(f"{inspector.url}/u/priya/facts/x/delete-everything", form={})
    assert response.status == 404


def test_a_write_under_another_user_changes_nothing(
    page: Page, inspector: Inspector, priya: AgentMemory
) -> None:
    [fact] = [fact for fact in priya.list_facts(limit=500) if fact.claim == "Arjun works at Siemens."]
    page.goto(f"{inspector.url}/u/priya/facts")
    form_token = page.locator("input[name=form_token]").first.input_value()
    response = page.request.post(
        f"{inspector.url}/u/sam/facts/{fact.id}/forget", form={"form_token": form_token}
    )
    assert response.status == 404
    assert _facts(priya)["Arjun works at Siemens."] is True
    forged = page.request.post(f"{inspector.url}/u/priya/facts/{fact.id}/forget", form={"form_token": "x"})
    assert forged.status == 403
    assert _facts(priya)["Arjun works at Siemens."] is True


def test_a_token_guards_every_request(page: Page, inspector: Inspector) -> None:
    assert httpx.get(inspector.guarded_url + "/").status_code == 401
    assert httpx.get(inspector.guarded_url + "/u/priya/facts", params={"token": "wrong"}).status_code == 401
    bearer = httpx.get(inspector.guarded_url + "/", headers={"Authorization": f"Bearer {TOKEN}"})
    assert bearer.status_code == 200
    # a browser opens the printed link once: the token moves into a cookie and out of the address bar
    page.goto(f"{inspector.guarded_url}/u/priya?token={TOKEN}")
    assert page.url == f"{inspector.guarded_url}/u/priya"
    page.goto(f"{inspector.guarded_url}/u/priya/facts")
    expect(page.get_by_test_id("facts")).to_contain_text("Priya")


def test_a_foreign_host_name_is_refused_on_loopback(inspector: Inspector) -> None:
    # DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends its own Host header.
    assert httpx.get(inspector.url + "/", headers={"Host": "evil.example"}).status_code == 421
    assert httpx.get(inspector.url + "/", headers={"Host": "localhost:1"}).status_code == 200


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_ui_refuses_a_non_loopback_address_without_a_token(host: str) -> None:
    result = CliRunner().invoke(app, ["ui", "--host", host], env={"AGENTX_UI__TOKEN": ""})
    assert result.exit_code == 2
    assert re.search(r"needs a\s+token", result.output)
