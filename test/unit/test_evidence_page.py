"""The evidence page's server over a real socket (aiohttp client as the browser): loopback by
default, a token off loopback and on every request when set, rebound host names refused; the
current intervention and the documents as JSON (the page itself is tested in headless
Chromium: test/graph/test_group_graph.py)."""

import asyncio

import aiohttp
import pytest

from phanthy_agent.group.backbone import Intervention
from phanthy_agent.group.evidence_page import EvidencePage
from support.group import library


def test_the_evidence_page_is_not_exposed_off_loopback_without_a_token():
    with pytest.raises(ValueError, match="without a token"):
        EvidencePage(library(), host="0.0.0.0")


def test_the_page_serves_the_current_intervention_and_the_documents_to_whoever_has_the_token():
    async def scenario():
        page = EvidencePage(library(), port=0, token="s3cret")
        port = await page.start()
        base = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as http:
                assert (await http.get(f"{base}/")).status == 403
                assert (await http.get(f"{base}/api/current?token=nope")).status == 403
                assert (await http.get(f"{base}/?token=s3cret", headers={"Host": "evil.example"})).status == 403
                assert await (await http.get(f"{base}/api/current?token=s3cret")).json() == {}
                page.show(Intervention("iv1", "wrong", "her heart weighed 600 kilograms", "It weighed 180 kg.",
                                       ["whale:3"], ["Her heart alone weighed about 180 kilograms."], "speaking"))
                current = await (await http.get(f"{base}/api/current?token=s3cret")).json()
                documents = await (await http.get(f"{base}/api/documents?token=s3cret")).json()
        finally:
            await page.stop()
        return current, documents
    current, documents = asyncio.run(scenario())
    assert current["citations"] == ["whale:3"] and current["documents"] == ["whale"] and current["stale"] == []
    sentences = [s for sec in documents["whale"]["sections"] for s in sec["sentences"]]
    assert {"id": "whale:3", "text": "Her heart alone weighed about 180 kilograms."} in sentences


def test_a_citation_whose_sentence_changed_since_is_flagged_stale():
    from phanthy_agent.group.evidence_page import intervention_json
    item = Intervention("iv1", "wrong", "c", "t", ["whale:3"], ["An older text of that sentence."], "delivered")
    assert intervention_json(item, library())["stale"] == ["whale:3"]
