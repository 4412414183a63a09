"""The README's Python example runs as written (from the repository's root)."""

import os
import re

from conftest import ROOT


def test_the_readme_example_runs(capsys):
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python\n"):]
    example = re.search(r"```python\n(.*?)```", section, re.S)[1]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(example, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = capsys.readouterr().out
    assert re.match(r"\['p\d'\] \[[01]\.0, [01]\.0, [01]\.0\] \{'p1': \d+, 'p2': \d+, 'p3': \d+\}", printed), printed
