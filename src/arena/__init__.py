"""Arena: a host for online-reality-game matches."""

__version__ = "0.1.0"
