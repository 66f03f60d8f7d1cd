"""Chart data and figure text in the core (no Qt): what cards, charts, the what-if summary and the
report show, computed once from the same :class:`~advisor.engine.Advice`."""
