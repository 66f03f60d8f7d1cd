"""Infrastructure every layer uses: user-facing errors, atomic writes, strict JSON output, the
user's directories and checked SQLite opening.

It sits at the bottom of the layers (app > ui > advisor > knowledge) and imports nothing else of
the project, so that any layer can use it without depending on the knowledge base itself.
"""
