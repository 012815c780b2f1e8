"""The pages: lobby, rules, the match shell, and their static assets (plain HTML/JS/CSS)."""
