"""What a consultant hands over besides the report: a workbook (:mod:`.workbook`) and a slide deck
(:mod:`.slides`), both built from the advice JSON (``Advice.to_dict(expand=True)``), the one source
of every number they show. Pure Python: the deck's chart images come from the caller as bytes."""
