"""kinds/explainer/__init__.py: the explainer kind's answers to the PageKind interface: its files,
what its computation reads (never its prose), how many states it has, how many questions it scores."""
from generator.build import read_site
from generator.compute.states import compute_site
from generator.kinds import PageKind, discover
from generator.kinds.explainer import KIND


def test_the_kind_in_the_registry():
    assert discover()["explainer"] is KIND and isinstance(KIND, PageKind)
    assert (KIND.main_file, KIND.model_file, KIND.runtime) == ("explainer.md", "model.py", "runtime.js")
    assert all(table for table in KIND.schema.values())


def test_what_the_computation_reads_leaves_the_prose_out(tmp_site):
    content = tmp_site()
    source = KIND.load(content / "coin-flips", [])
    step = content / "coin-flips" / "steps" / "01-runs.md"
    step.write_text(step.read_text("utf-8") + "\nA new sentence of prose.\n", "utf-8")
    assert KIND.declarations(KIND.load(content / "coin-flips", [])) == KIND.declarations(source)
    assert KIND.scored(source) == len(source.quiz) == 0


def test_its_states_are_counted_over_its_steps(tmp_site):
    site = read_site(tmp_site())
    computed = compute_site(site)["coin-flips"]
    assert KIND.state_count(computed) == sum(len(step.states) for step in computed) > 0
    assert KIND.warnings(computed) == []
