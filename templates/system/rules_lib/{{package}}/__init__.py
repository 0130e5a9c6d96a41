"""{{name}} combat rules (source ``{{code}}``).

Every rule function cites its section of ``{{source_file}}`` (``{{code}} §1-1``); the readings
taken where the text is silent are named parameters (see ``book/{{system}}/_rulings.md``).
"""

from . import battle, rules

__all__ = ["battle", "rules"]
