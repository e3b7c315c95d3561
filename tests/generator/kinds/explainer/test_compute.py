"""kinds/explainer/compute.py: every state of every step from the model, its readouts formatted and
where each control leads."""


def test_every_state_of_the_step(coin_flips):
    _, computed, _, _ = coin_flips
    [step] = computed["coin-flips"]
    assert [s.key for s in step.states] == ["0", "1", "2"] and step.default_key == "1"
    assert [s.values["outcomes"] for s in step.states] == [2, 4, 8]
    assert [s.readouts for s in step.states] == [["0.50", "2"], ["0.25", "4"], ["0.13", "8"]]
    assert all(s.to == [["0", "1", "2"]] for s in step.states)
