"""Self-attention's charts show what the prose asks the reader to check (issue 42's screenshot pass)."""
from generator.render import charts

from .test_self_attention_figures import computed  # noqa: F401  (the fixture)


def test_step5_draws_each_length_at_its_own_scale_with_the_values_of_the_short_ones(computed):  # noqa: F811
    """At length 6 the prose asks the reader to find row 2 and to see that The and the have the
    same row. Held at the axes of the 48×48 matrix, those 36 cells were a few pixels each on a
    phone; each length now fills the chart, and the 6×6 matrix prints its values."""
    _, steps, _ = computed
    step = steps[4]
    kind = charts.get("heatmap")
    chart = charts.resolved(step.step.chart, [s.chart for s in step.states])  # as the build draws it
    for state in step.states:
        figure = kind.figure(chart, state.chart)
        length = state.choice["length"]
        ticks = figure["layout"]["yaxis"].get("ticktext") or []
        assert ticks and all(int(t.split()[0]) <= length for t in ticks), (length, ticks)
        if length == 6:
            assert "1 The" in ticks and "5 the" in ticks, ticks
            assert state.chart["z"][0] == state.chart["z"][4]  # The and the: the same row
