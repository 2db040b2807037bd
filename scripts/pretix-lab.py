"""Helper for scripts/pretix-lab; run with the pretix venv's python, never on its own.

  pretix-lab.py seed DIR PORT         seed organizer/event/products/orders (Django ORM);
                                      writes DIR/token (0600), DIR/lab.json, DIR/seed.json
  pretix-lab.py wait DIR PID SECONDS  poll GET /api/v1/organizers/ until it answers 200
  pretix-lab.py checkins DIR          every check-in of the event, one JSON object a line

seed needs DJANGO_SETTINGS_MODULE and PRETIX_CONFIG_FILE set (the bash script does it).
Only loopback is ever contacted; proxies from the environment are ignored.
"""
import json
import os
import sqlite3
import sys
import time
import urllib.error
import urllib.request

ORGANIZER = "muster"
EVENT = "conf"

# (buyer email, [(product, given name, family name, attendee email, add-ons)])
ORDERS = [
    ("zoe@example.org", [("General", "Zoë", "Ångström", "zoe@example.org", [])]),
    ("jose@example.org", [("VIP", "José", "Müller", "jose@example.org", ["T-shirt"])]),
    ("ada@example.org", [
        ("General", "Ada", "Lovelace", "ada@example.org", []),
        ("General", "Grace", "Hopper", "grace@example.org", []),
        ("General", "Katherine", "Johnson", "katherine@example.org", []),
    ]),
    ("lukasz@example.org", [("Speaker", "Łukasz", "Żółw", "lukasz@example.org", [])]),
]


def log(msg):
    print(f"pretix-lab: {msg}", file=sys.stderr, flush=True)


def write_private(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)


# ---------------------------------------------------------------- seed

def seed(lab_dir, port):
    import datetime as dt
    from decimal import Decimal

    import django
    django.setup()

    from django.conf import settings
    from django.db import transaction
    from django.utils.timezone import now
    from django_scopes import scopes_disabled

    from pretix.base.models import (
        CheckinList, Event, Item, ItemAddOn, ItemCategory, Order,
        OrderPosition, Organizer, Team,
    )

    with scopes_disabled(), transaction.atomic():
        if Organizer.objects.filter(slug=ORGANIZER).exists():
            raise SystemExit("pretix-lab: organizer 'muster' already exists in this database")
        t0 = now().replace(microsecond=0)
        org = Organizer.objects.create(name="Muster Lab", slug=ORGANIZER)
        team = Team.objects.create(
            organizer=org, name="Muster Lab API",
            all_events=True, all_event_permissions=True, all_organizer_permissions=True,
        )
        token = team.tokens.create(name="pretix-lab")

        event = Event.objects.create(
            organizer=org, name="Muster Conf", slug=EVENT, currency="EUR",
            date_from=t0 - dt.timedelta(days=1), date_to=t0 + dt.timedelta(days=30),
            live=True, is_public=True, plugins=settings.PRETIX_PLUGINS_DEFAULT,
        )
        event.set_defaults()  # among others: name_scheme = given_family
        event.settings.timezone = "UTC"
        event.settings.locale = "en"
        event.settings.locales = ["en"]
        scheme = event.settings.name_scheme

        tickets = ItemCategory.objects.create(event=event, name="Tickets", position=0)
        addons = ItemCategory.objects.create(event=event, name="Add-ons", position=1, is_addon=True)
        items = {
            "General": Item.objects.create(
                event=event, category=tickets, name="General", default_price=Decimal("50.00"),
                admission=True, personalized=True, position=0),
            "VIP": Item.objects.create(
                event=event, category=tickets, name="VIP", default_price=Decimal("150.00"),
                admission=True, personalized=True, position=1),
            "Speaker": Item.objects.create(
                event=event, category=tickets, name="Speaker", default_price=Decimal("0.00"),
                admission=True, personalized=True, position=2, checkin_attention=True,
                **({"checkin_text": "Greet: keynote speaker"}
                   if any(f.name == "checkin_text" for f in Item._meta.get_fields()) else {})),
            "T-shirt": Item.objects.create(
                event=event, category=addons, name="T-shirt", default_price=Decimal("20.00"),
                admission=False, personalized=False, position=3),
        }
        for base in ("General", "VIP"):
            ItemAddOn.objects.create(base_item=items[base], addon_category=addons,
                                     min_count=0, max_count=1, price_included=False)

        clist = CheckinList.objects.create(
            event=event, name="Main", all_products=True, include_pending=False,
            allow_entry_after_exit=True,
        )

        web = org.sales_channels.get(identifier="web")
        seeded = []
        for buyer, lines in ORDERS:
            prices = [items[p].default_price for p, *_ in lines]
            prices += [items[a].default_price for *_, adds in lines for a in adds]
            order = Order.objects.create(
                event=event, email=buyer, status=Order.STATUS_PAID, locale="en",
                datetime=t0, expires=t0 + dt.timedelta(days=14), total=sum(prices, Decimal("0")),
                sales_channel=web,
            )
            positionid = 1
            out = []
            for product, given, family, email, adds in lines:
                parent = OrderPosition.objects.create(
                    order=order, positionid=positionid, item=items[product], variation=None,
                    price=items[product].default_price, attendee_email=email,
                    attendee_name_parts=({"_scheme": scheme, "given_name": given, "family_name": family}
                                         if scheme == "given_family"
                                         else {"_legacy": f"{given} {family}"}),
                )
                positionid += 1
                out.append(parent)
                for addon in adds:
                    out.append(OrderPosition.objects.create(
                        order=order, positionid=positionid, item=items[addon], variation=None,
                        price=items[addon].default_price, addon_to=parent,
                    ))
                    positionid += 1
            order.payments.create(provider="manual", amount=order.total,
                                  state="confirmed", payment_date=t0)
            order.create_transactions(is_new=True)
            seeded.append({
                "code": order.code, "email": order.email,
                "positions": [{
                    "id": p.pk, "positionid": p.positionid, "item": str(p.item.name),
                    "secret": p.secret, "attendee_name": p.attendee_name,
                    "attendee_email": p.attendee_email,
                    "addon_to": p.addon_to.positionid if p.addon_to else None,
                } for p in out],
            })

    url = f"http://127.0.0.1:{port}"
    token_file = os.path.join(lab_dir, "token")
    write_private(token_file, token.token + "\n")
    lab = {"url": url, "organizer": ORGANIZER, "event": EVENT, "list": clist.pk,
           "token_file": token_file}
    with open(os.path.join(lab_dir, "lab.json"), "w") as f:
        json.dump(lab, f, ensure_ascii=False, separators=(",", ":"))
    with open(os.path.join(lab_dir, "seed.json"), "w") as f:
        json.dump({**lab, "orders": seeded}, f, ensure_ascii=False, indent=1)
    log(f"seeded {len(seeded)} orders, {sum(len(o['positions']) for o in seeded)} positions, "
        f"check-in list {clist.pk}")


# ---------------------------------------------------------------- REST helpers

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def lab_state(lab_dir):
    with open(os.path.join(lab_dir, "lab.json")) as f:
        lab = json.load(f)
    with open(lab["token_file"]) as f:
        lab["token"] = f.read().strip()
    return lab


def api_get(lab, path_or_url, timeout=10):
    url = path_or_url if path_or_url.startswith("http") else lab["url"] + path_or_url
    req = urllib.request.Request(url, headers={"Authorization": "Token " + lab["token"],
                                               "Accept": "application/json"})
    with _OPENER.open(req, timeout=timeout) as r:
        return r.status, json.load(r)


def api_all(lab, path):
    url, results = path, []
    while url:
        _, page = api_get(lab, url)
        results += page["results"]
        url = page.get("next")
    return results


def wait(lab_dir, pid, seconds):
    lab = lab_state(lab_dir)
    deadline = time.monotonic() + seconds
    last = "no answer yet"
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            raise SystemExit(f"pretix-lab: server (pid {pid}) exited before answering; see {lab_dir}/server.log")
        try:
            status, _ = api_get(lab, "/api/v1/organizers/", timeout=5)
            if status == 200:
                return
            last = f"HTTP {status}"
        except urllib.error.HTTPError as e:
            last = f"HTTP {e.code}"
        except (urllib.error.URLError, OSError) as e:
            last = str(getattr(e, "reason", e))
        time.sleep(0.25)
    raise SystemExit(f"pretix-lab: server not ready after {seconds}s ({last}); see {lab_dir}/server.log")


def checkins(lab_dir):
    lab = lab_state(lab_dir)
    base = f"/api/v1/organizers/{lab['organizer']}/events/{lab['event']}"
    positions = {p["id"]: p for p in api_all(lab, base + "/orderpositions/?include_canceled_positions=true")}
    # The REST serializer of a check-in has no nonce / raw barcode; read those from the SQLite file.
    extra = {}
    db = os.path.join(lab_dir, "data", "db.sqlite3")
    if os.path.exists(db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            for row in con.execute("SELECT id, nonce, raw_barcode, forced, force_sent FROM pretixbase_checkin"):
                extra[row[0]] = {"nonce": row[1], "raw_barcode": row[2],
                                 "forced": bool(row[3]), "force_sent": bool(row[4])}
        finally:
            con.close()
    for ci in api_all(lab, base + "/checkins/?ordering=created"):
        pos = positions.get(ci["position"]) or {}
        x = extra.get(ci["id"], {})
        print(json.dumps({
            "id": ci["id"],
            "secret": pos.get("secret", x.get("raw_barcode")),
            "attendee_email": pos.get("attendee_email"),
            "attendee_name": pos.get("attendee_name"),
            "order": pos.get("order"),
            "positionid": pos.get("positionid"),
            "position": ci["position"],
            "type": ci["type"],
            "datetime": ci["datetime"],
            "created": ci["created"],
            "list": ci["list"],
            "successful": ci["successful"],
            "error_reason": ci["error_reason"],
            "nonce": x.get("nonce"),
            "forced": x.get("forced"),
            "device": ci.get("device"),
        }, ensure_ascii=False), flush=True)


def main(argv):
    if len(argv) >= 3 and argv[0] == "seed":
        seed(argv[1], int(argv[2]))
    elif len(argv) >= 4 and argv[0] == "wait":
        wait(argv[1], int(argv[2]), float(argv[3]))
    elif len(argv) >= 2 and argv[0] == "checkins":
        checkins(argv[1])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
