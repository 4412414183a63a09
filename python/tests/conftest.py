"""Shared by the bindings' tests: the repository's scripts folder and the `boardscript`
binary built beside it (for comparisons with the CLI)."""

import json
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


@pytest.fixture
def scripts():
    return SCRIPTS


def readme_example(heading):
    """The first Python block of the README's section `heading` (its whole line)."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index(heading + "\n") :]
    return re.search(r"```python\n(.*?)```", section, re.S)[1]


def run_example(example):
    """Runs `example` from the repository's root, as a reader would; returns its globals."""
    cwd, scope = os.getcwd(), {}
    os.chdir(ROOT)
    try:
        exec(compile(example, "README.md", "exec"), scope)
    finally:
        os.chdir(cwd)
    return scope


def binary():
    """The `boardscript` binary: $BOARDSCRIPT_BIN (the Rust test that runs pytest sets it),
    else the release build of this tree."""
    path = os.environ.get("BOARDSCRIPT_BIN") or ROOT / "target" / "release" / "boardscript"
    if not pathlib.Path(path).is_file():
        pytest.skip(f"no boardscript binary at {path} (cargo build --release)")
    return str(path)


class Protocol:
    """`boardscript play GAME --json`: one command a line in, one JSON reply a line out."""

    def __init__(self, game, seed, seats=None):
        args = [binary(), "play", game, "--json", "--seed", str(seed), "--scripts", str(SCRIPTS)]
        if seats is not None:
            args += ["--seats", str(seats)]
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        assert reply["ok"], f"{line}: {reply}"
        return reply

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
