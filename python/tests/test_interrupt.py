"""Ctrl-C stops a long `sim` (the games run off the main thread, which keeps checking for
signals) and raises KeyboardInterrupt; the process goes on."""

import signal
import threading
import time

import pytest

import boardscript
from conftest import SCRIPTS


def test_ctrl_c_stops_a_sim():
    main = threading.get_ident()
    # The signal comes while the sim runs: a million games take minutes, not 0.3 s.
    sender = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            boardscript.sim("connect-four", games=1_000_000, seed=1, threads=2, scripts=SCRIPTS)
    finally:
        sender.cancel()
    assert boardscript.sim("connect-four", games=3, seed=1, scripts=SCRIPTS)["games"] == 3
