"""``capadvisor costs``: the cost catalogue (your own prices of host models, storage, licences,
power, rack space and the years of operation), stored in the user database; import and export
as YAML."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

SECTION_NAMES = {"host": "hosts", "hosts": "hosts", "storage": "storage", "licence": "licences",
                 "licences": "licences", "license": "licences", "licenses": "licences"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "costs", help="the cost catalogue: your prices of hosts, storage, licences and power",
        description="The cost catalogue holds YOUR prices (Capacity Advisor never invents one): host models "
                    "(CPU, cores, RAM, disks, NIC, price, power draw, rack units), shared storage (arrays per TB, "
                    "distributed storage per node), licences (per socket, per core with a minimum per CPU, per "
                    "host, per cluster, per node; once or per year), the power price and the years of "
                    "operation. It is stored in your user database; 'advise' prices its design with it and "
                    "'optimize' searches the cheapest design. Start from the example with placeholder prices: "
                    "capadvisor costs example --import.")
    p.add_argument("--db", type=Path, metavar="FILE", help="user database (default: yours)")
    ssub = p.add_subparsers(dest="costs_command", metavar="ACTION", required=True)
    ls = ssub.add_parser("list", help="every entry of the stored catalogue with its main prices")
    ls.add_argument("--format", choices=("text", "json"), default="text")
    ls.set_defaults(func=cmd_list)
    sh = ssub.add_parser("show", help="the stored catalogue (or one entry) as YAML or JSON")
    sh.add_argument("name", nargs="?", help="an entry's name (default: the whole catalogue)")
    sh.add_argument("--format", choices=("yaml", "json"), default="yaml")
    sh.set_defaults(func=cmd_show)
    im = ssub.add_parser("import", help="validate a catalogue file (YAML or JSON) and store it",
                         description="Validate FILE and store it as your cost catalogue, replacing the stored one "
                                     "(--merge: add its entries, replacing entries of the same name, and take "
                                     "its settings). Nothing is stored when a field is wrong: every problem is "
                                     "named with the file and the field.")
    im.add_argument("file", type=Path, metavar="FILE")
    im.add_argument("--merge", action="store_true", help="add to the stored catalogue instead of replacing it")
    im.add_argument("--dry-run", action="store_true", help="only validate and show what would be stored")
    im.set_defaults(func=cmd_import)
    ex = ssub.add_parser("export", help="write the stored catalogue as YAML (or JSON by the file's suffix)")
    ex.add_argument("file", metavar="FILE", help="file to write (atomically), or - for standard output")
    ex.set_defaults(func=cmd_export)
    ck = ssub.add_parser("check", help="validate a catalogue file without storing it")
    ck.add_argument("file", type=Path, metavar="FILE")
    ck.set_defaults(func=cmd_check)
    rm = ssub.add_parser("remove", help="remove one entry (host, storage or licence) from the stored catalogue")
    rm.add_argument("section", choices=sorted(SECTION_NAMES), metavar="SECTION",
                    help="host, storage or licence")
    rm.add_argument("name")
    rm.set_defaults(func=cmd_remove)
    cl = ssub.add_parser("clear", help="forget the stored catalogue")
    cl.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    cl.set_defaults(func=cmd_clear)
    eg = ssub.add_parser("example", help="the shipped example catalogue (placeholder prices)")
    eg.add_argument("--import", dest="do_import", action="store_true",
                    help="store it as your catalogue (replacing the stored one)")
    eg.set_defaults(func=cmd_example)


def _db(args):
    from knowledge.userdb import UserDatabase

    return UserDatabase(args.db)


def _stored(db):
    cat = db.cost_catalogue()
    if cat is None:
        raise InputError("no cost catalogue stored yet: capadvisor costs import FILE "
                         "(or capadvisor costs example --import for one with placeholder prices)")
    return cat


def summary_rows(cat) -> list[tuple[str, str, str, str]]:
    """(section, name, what, prices) of every entry, for a table."""
    from advisor.cost import money

    cur = cat.currency
    rows = []
    for h in cat.hosts:
        rows.append(("host", h.name + (" (example)" if h.example else ""), h.describe(),
                     f"{money(h.price, cur)}; {h.power_w:g} W; {h.rack_units:g} U"
                     + (f"; {money(h.support_per_year, cur)}/year" if h.support_per_year else "")))
    for s in cat.storage:
        what = f"{s.kind}, {s.network_gbps:g} Gb/s"
        if s.per_node:
            prices = (f"{money(s.price_per_node or 0, cur)} per node of {s.tb_per_node:g} TB, {s.copies} copies, "
                      f"at least {s.min_nodes}")
        else:
            prices = (f"{money(s.base_price, cur)} + {money(s.price_per_tb or 0, cur)} per TB")
        rows.append(("storage", s.name + (" (example)" if s.example else ""), what, prices))
    for lic in cat.licences:
        what = f"{lic.hypervisor or lic.storage}, per {lic.per}" + (
            f" (at least {lic.min_cores_per_cpu} cores per CPU)" if lic.min_cores_per_cpu else "")
        prices = "; ".join(x for x in (f"{money(lic.price, cur)} once" if lic.price else "",
                                       f"{money(lic.per_year, cur)} per year" if lic.per_year else "") if x) or "free"
        rows.append(("licence", lic.name + (" (example)" if lic.example else ""), what, prices))
    return rows


def _describe(cat) -> str:
    from app.textfmt import table

    head = (f"{cat.name}: {len(cat.hosts)} host models, {len(cat.storage)} storage, {len(cat.licences)} licences; "
            f"{cat.currency}; {cat.years:g} years; power {cat.power.price_per_kwh:g} {cat.currency}/kWh x PUE "
            f"{cat.power.pue:g}" + (f"; rack {cat.rack_price_per_unit_per_year:g} {cat.currency} per U and year"
                                    if cat.rack_price_per_unit_per_year else ""))
    if cat.examples:
        head += f"\n{cat.examples} entries are EXAMPLES with placeholder prices: replace them with your own"
    rows = summary_rows(cat)
    return head + ("\n\n" + table(("section", "name", "what", "prices"), rows) if rows else "")


def cmd_list(args) -> int:
    with _db(args) as db:
        cat = db.cost_catalogue()
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(cat.to_dict() if cat is not None else None, indent=2) + "\n")
        return 0
    if cat is None:
        print("no cost catalogue stored yet: capadvisor costs import FILE (or capadvisor costs example --import)")
        return 0
    print(_describe(cat))
    return 0


def cmd_show(args) -> int:
    from knowledge.costs import SECTIONS, dumps_catalogue, entry_to_dict

    with _db(args) as db:
        cat = _stored(db)
    if args.name is None:
        sys.stdout.write(dumps_catalogue(cat, args.format))
        return 0
    found = [(s, e) for s in SECTIONS for e in cat.entries(s) if e.name == args.name]
    if not found:
        names = [e.name for s in SECTIONS for e in cat.entries(s)]
        raise InputError(f"the cost catalogue has no entry named {args.name!r} (entries: {', '.join(names) or 'none'})")
    data = [{"section": s, **entry_to_dict(e)} for s, e in found]
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(data[0] if len(data) == 1 else data, indent=2) + "\n")
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(data[0] if len(data) == 1 else data, sort_keys=False, allow_unicode=True))
    return 0


def cmd_check(args) -> int:
    from knowledge.costs import load_catalogue

    cat = load_catalogue(args.file)
    print(f"{args.file}: valid cost catalogue")
    print(_describe(cat))
    return 0


def cmd_import(args) -> int:
    from knowledge.costs import load_catalogue

    cat = load_catalogue(args.file)
    if args.dry_run:
        print(f"{args.file}: valid; would {'merge into' if args.merge else 'replace'} the stored catalogue (dry run)")
        print(_describe(cat))
        return 0
    with _db(args) as db:
        db.save_cost_catalogue(cat, merge=args.merge)
        stored = db.cost_catalogue()
    assert stored is not None
    print(f"stored {args.file} as the cost catalogue ({'merged' if args.merge else 'replaced'}): "
          f"{len(stored.hosts)} host models, {len(stored.storage)} storage, {len(stored.licences)} licences",
          file=sys.stderr)
    if stored.examples:
        print(f"note: {stored.examples} entries are examples with placeholder prices", file=sys.stderr)
    return 0


def cmd_export(args) -> int:
    from knowledge.costs import dumps_catalogue
    from knowledge.infra.atomic import write_text_atomic

    with _db(args) as db:
        cat = _stored(db)
    fmt = "json" if str(args.file).lower().endswith(".json") else "yaml"
    text = dumps_catalogue(cat, fmt)
    if args.file == "-":
        sys.stdout.write(text)
        return 0
    write_text_atomic(Path(args.file), text)
    print(f"wrote the cost catalogue to {args.file}", file=sys.stderr)
    return 0


def cmd_remove(args) -> int:
    section = SECTION_NAMES[args.section]
    with _db(args) as db:
        db.remove_cost_entry(section, args.name)
    print(f"removed {args.name!r} from the cost catalogue's {section}", file=sys.stderr)
    return 0


def cmd_clear(args) -> int:
    if not args.yes:
        if not sys.stdin.isatty():
            raise InputError("clearing the cost catalogue needs --yes when not run interactively")
        if input("forget the stored cost catalogue? [y/N] ").strip().lower() not in ("y", "yes"):
            print("kept")
            return 1
    with _db(args) as db:
        db.clear_cost_catalogue()
    print("cost catalogue cleared", file=sys.stderr)
    return 0


def cmd_example(args) -> int:
    from knowledge.costs import example_path, load_catalogue

    path = example_path()
    cat = load_catalogue(path)
    if args.do_import:
        with _db(args) as db:
            db.save_cost_catalogue(cat)
        print(f"stored the example catalogue ({path}): its prices are PLACEHOLDERS, replace them with yours",
              file=sys.stderr)
        return 0
    print(path)
    return 0


def catalogue_for(args):
    """The catalogue ``advise``/``optimize`` price with: ``--catalogue FILE``, else the stored one
    (None when there is none, or with ``--no-catalogue``)."""
    from knowledge.costs import load_catalogue

    if getattr(args, "no_catalogue", False):
        return None
    path = getattr(args, "catalogue", None)
    if path is not None:
        return load_catalogue(path)
    from knowledge.infra.paths import user_db_path

    db_path = user_db_path()
    if not db_path.exists():
        return None
    from knowledge.userdb import UserDatabase

    with UserDatabase(db_path) as db:
        return db.cost_catalogue()
