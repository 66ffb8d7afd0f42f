"""Every game's rules live in the repository, in docs/rules/<game>.md, with a heading for
each rule id; every rule id the tests, the code, the README or the other docs cite has its
heading there, and the README links each game's rules."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from tabletop.envs import names

ROOT = Path(__file__).parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
README = (ROOT / "README.md").read_text(encoding="utf-8")

HEADING = re.compile(r"^#{2,3} ([A-Z]{2})-(\d+)(?:\.(\d+))?\s", re.MULTILINE)
"""A rule's heading starts with its id: ``## RG-2 A turn``, ``### RG-2.1 Step 1: ...``."""
CITATION = re.compile(r"\b([A-Z]{2})-(\d+)(?:\.(\d+))?\b")
"""A rule id cited in prose or a docstring: ``RG-2.1``, ``KV-4``."""
TEST_NAME = re.compile(r"\bdef test_([a-z]{2})_(\d+)(?:_(\d+))?(?=_|\()")
"""A rules test named after its rule: ``def test_rg_2_1_...`` checks RG-2.1."""
CITING_SOURCES = ("tests", "envs", "agents", "training", "wrappers", "cli")
"""Folders whose text files cite rule ids (besides the README and the docs)."""


def other_docs() -> list[Path]:
    """The Markdown docs besides the rules themselves: game pages, training, search, ..."""
    return sorted(path for path in DOCS.rglob("*.md") if RULES not in path.parents)


def rule_id(prefix: str, section: str, rule: str | None) -> str:
    return f"{prefix.upper()}-{section}" + (f".{rule}" if rule else "")


def heading_ids(name: str) -> list[str]:
    """The rule ids of the headings of ``name``'s rules doc, in order."""
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    return [rule_id(*match) for match in HEADING.findall(text)]


def doc_ids_by_prefix() -> dict[str, set[str]]:
    """Rule-id prefix (``RG``) -> the ids headed in the doc that uses it."""
    ids: dict[str, set[str]] = {}
    for name in names():
        headed = heading_ids(name)
        ids[headed[0].split("-")[0]] = set(headed)
    return ids


def cited_ids(prefixes: set[str]) -> dict[str, set[str]]:
    """Every rule id with one of ``prefixes`` cited in the README, the other docs or a source
    folder's text files (ids in prose and rules-test names), with the files that cite it."""
    files = [ROOT / "README.md", *other_docs()]
    for folder in CITING_SOURCES:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md", ".txt")]
    cited: dict[str, set[str]] = defaultdict(set)
    for path in files:
        text = path.read_text(encoding="utf-8")
        for match in [*CITATION.findall(text), *TEST_NAME.findall(text)]:
            if match[0].upper() in prefixes:
                cited[rule_id(*match)].add(str(path.relative_to(ROOT)))
    return cited


@pytest.mark.parametrize("name", names())
def test_every_registered_game_has_a_rules_doc_with_one_id_prefix(name: str) -> None:
    assert (RULES / f"{name}.md").is_file(), f"{name}: docs/rules/{name}.md is missing"
    ids = heading_ids(name)
    assert ids, f"{name}: its rules doc has no rule headings"
    assert len({rule.split("-")[0] for rule in ids}) == 1, f"{name}: mixed rule-id prefixes"
    assert len(ids) == len(set(ids)), f"{name}: a rule id is headed twice"


@pytest.mark.parametrize("name", names())
def test_rule_ids_are_numbered_without_gaps(name: str) -> None:
    """Sections count up from their first number (GD-0 or RG-1) and the rules of a section
    from 1, each under its own section: a dropped or misnumbered rule shows as a gap."""
    ids = heading_ids(name)
    sections = [int(rule.split("-")[1]) for rule in ids if "." not in rule]
    assert sections == list(range(sections[0], sections[0] + len(sections))), sections
    assert sections[0] in (0, 1)
    current, expected_rule = None, 1
    for rule in ids:
        number = rule.split("-")[1]
        if "." not in number:
            current, expected_rule = number, 1
            continue
        section, index = number.split(".")
        assert section == current, f"{name}: {rule} is not under its section's heading"
        assert int(index) == expected_rule, f"{name}: {rule} follows rule {expected_rule - 1}"
        expected_rule += 1


def test_every_cited_rule_id_has_a_heading_in_its_rules_doc() -> None:
    headed = doc_ids_by_prefix()
    cited = cited_ids(set(headed))
    assert cited, "no rule id is cited anywhere: the citation patterns are broken"
    missing = {
        rule: sorted(files)
        for rule, files in cited.items()
        if rule not in headed[rule.split("-")[0]]
    }
    assert not missing, f"rule ids cited but not headed in docs/rules: {missing}"


@pytest.mark.parametrize("name", names())
def test_readme_links_every_rules_doc(name: str) -> None:
    linked = f"](docs/rules/{name}.md)" in README
    assert linked, f"README does not link docs/rules/{name}.md"


def test_readme_and_docs_cite_nothing_outside_the_repository() -> None:
    texts = {"README.md": README}
    texts.update(
        {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")}
    )
    citing = {
        source: [line for line in text.splitlines() if "shared/" in line]
        for source, text in texts.items()
    }
    citing = {source: lines for source, lines in citing.items() if lines}
    assert not citing, f"shared/ is not in the repository, yet cited: {citing}"
