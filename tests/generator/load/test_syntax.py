"""Where code and citations sit in Markdown (load/syntax.py), as the load stage and the
render stage both read them."""
from generator.load.syntax import cited_keys, find_citations, prose_parts
from generator.render import citations, code


def test_code_is_set_apart_from_prose():
    text = "a `b` c\n\n```\n@key\n```\nd"
    assert prose_parts(text) == [(False, "a "), (True, "`b`"), (False, " c\n\n"), (True, "```\n@key\n```"),
                                 (False, "\nd")]


def test_citations_outside_code_in_order():
    assert cited_keys("[@b; @a] and `@c` and @a again") == ["b", "a"]
    [one] = find_citations("[see @k, p. 2]")
    assert one.items[0].key == "k" and one.items[0].prefix == "see" and one.items[0].locator == "p. 2"


def test_the_render_stage_reads_them_the_same_way():
    assert citations.find_citations is find_citations and code.prose_parts is prose_parts
