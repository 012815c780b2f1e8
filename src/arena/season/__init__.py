"""Seasons (SE-1..SE-5): the episodes around the matches. Pure, beside core: it starts matches
through the core and reads their results, and never imports the server, store, web or CLI."""
