"""The small inline chart of the quality table's history (core.charts.sparkline)."""

from core.charts import sparkline


def test_steps_span_the_width_and_values_the_height():
    # width 120, height 32, margin 2: x from 2 to 118 in 2 steps of 58; y = 30 − 28·v/100
    chart = sparkline([[0.0, 50.0, 100.0], [None, 25.0, None]])
    assert (chart["width"], chart["height"], chart["steps"]) == (120, 32, 3)
    first, second = chart["lines"]
    assert first["points"] == "2.0,30.0 60.0,16.0 118.0,2.0"
    # a missing value leaves no point; a lone one still has its dot
    assert second == {"points": "60.0,23.0", "dots": [{"cx": 60.0, "cy": 23.0}]}


def test_one_step_sits_in_the_middle_and_values_above_top_are_clipped():
    chart = sparkline([[150.0]])
    assert chart["lines"][0]["dots"] == [{"cx": 60.0, "cy": 2.0}]


def test_no_series():
    assert sparkline([]) == {"width": 120, "height": 32, "steps": 0, "lines": []}
