"""The scripted server (scripted.py), one per test module."""
import pytest

from scripted import Scripted


@pytest.fixture(scope="module")
def server():
    scripted = Scripted()
    yield scripted
    scripted.server.shutdown()
