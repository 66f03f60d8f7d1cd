"""One module per decision. Each exposes ``DECISION`` (its name) and
``recommend(ctx: EngineContext) -> list[Recommendation]``; :mod:`advisor.recommend.catalog`
declares every decision once (title, what it runs after, its recommender; its charts are declared in
:mod:`advisor.figures.registry`), and
:mod:`advisor.engine` runs them in the catalogue's order, because later decisions read earlier
choices (``ctx.chosen``, ``ctx.facts``)."""
