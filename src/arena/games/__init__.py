"""The five games. Each subpackage exposes ``GAME`` (see ``arena.core.registry``)."""
