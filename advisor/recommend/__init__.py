"""One module per decision. Each exposes ``DECISION`` (its name) and
``recommend(ctx: EngineContext) -> list[Recommendation]``; :mod:`advisor.engine` runs them in
:data:`ORDER`, because later decisions read earlier choices (``ctx.chosen``, ``ctx.facts``)."""

#: the order the engine runs the recommenders in (module names under advisor.recommend)
ORDER = ("hypervisor", "vcpu_overallocation", "storage_backend", "host_count", "cache_mode",
         "vm_period_budget", "image_transfer", "disk_placement", "cpu_governor", "io_block_size",
         "load_balancing")
