"""How well they played: the decisions an analysing program states
(:mod:`.decisions`), match equity tables (:mod:`.met`) and the figures
computed from the decisions alone (:mod:`.figures`).

This layer comes after the replay and before the consumers: it knows the
match model, never a format or the CLI.
"""
