"""The README's Python example runs as written (from the repository's root)."""

import re

from conftest import readme_example, run_example


def test_the_readme_example_runs(capsys):
    example = readme_example("## Python")
    run_example(example)
    printed = capsys.readouterr().out
    assert re.match(r"\['p\d'\] \[[01]\.0, [01]\.0, [01]\.0\] \{'p1': \d+, 'p2': \d+, 'p3': \d+\}", printed), printed
