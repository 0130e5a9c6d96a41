"""rules_lib: exact rules for four Japanese mecha tabletop RPG combat systems.

``rules_lib.dice`` holds the shared dice engine; each system has its own package.
"""

__version__ = "0.1.0"
