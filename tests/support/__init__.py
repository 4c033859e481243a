"""Helpers the tests share (not fixtures): imported by name, never from a ``conftest.py``."""
