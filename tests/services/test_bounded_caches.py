"""Nothing the bot process keeps in memory grows without bound with rallies, channels,
stages or web clients: the unit of work's states, the turn prompts of the autocomplete, the
store's per-rally locks (on both backends), the members' roles learnt from Discord (a bound and a
time limit), the web page's caches (in bytes) and its per-client request budgets, and every
`functools` cache of the bot (a bound each)."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil

import bot
from bot.services import Actor, Place
from bot.services.work import CACHE_SIZE
from bot.store.key_locks import KeyLocks
from bot.views.member_roles import MAX_KEPT, TTL_S, MemberRoles
from bot.views.options_cache import CHANNELS, OptionsCache
from bot.web.cache import Lru, body_bytes
from bot.web.guard import CLIENTS, Budget
from bot.web.site import replay_bytes

#: `functools` caches without a size, and why their keys are few
UNBOUNDED_ON_PURPOSE = {
    "bot.engine.roadrally.presets.preset": "a name among PRESETS (any other raises, and is not kept)",
}


def test_the_states_of_a_thousand_rallies_keep_the_last_few(service):
    for rally_id in range(1000):
        service.work.remember(rally_id, 1, object())
    assert len(service.work._cache) == CACHE_SIZE


def test_the_prompts_of_many_channels_keep_the_last_ones():
    prompts = OptionsCache(size=100)
    for channel in range(1000):
        prompts.remember(channel, None)  # None: known, no open turn
    assert len(prompts) == 100 and prompts.known(999) and not prompts.known(0)  # the oldest forgotten
    prompts.remember(900, None)  # a known channel again: the newest
    prompts.remember(1000, None)
    assert prompts.known(900) and not prompts.known(901)
    assert len(OptionsCache()) == 0 and OptionsCache().size == CHANNELS


def test_the_roles_of_many_members_keep_the_last_ones_five_minutes():
    now = [0.0]
    roles = MemberRoles(clock=lambda: now[0])
    for user in range(MAX_KEPT + 500):
        roles.keep(10, user, (55,))
    assert len(roles) == MAX_KEPT and roles.known(10, 0) is None and roles.known(10, MAX_KEPT + 499) == (55,)
    now[0] = TTL_S  # 5 minutes on: a role taken away meanwhile no longer counts
    assert roles.known(10, MAX_KEPT + 499) is None and len(roles) == MAX_KEPT - 1  # forgotten as it is read


async def test_key_locks_hold_only_the_keys_in_use():
    locks = KeyLocks()
    order: list[str] = []

    async def one(name: str, key: int) -> None:
        async with locks.hold(("rally", key)):
            order.append(name + "+")
            await asyncio.sleep(0.01)
            order.append(name + "-")

    await asyncio.gather(one("a", 1), one("b", 1), one("c", 2))
    assert order.index("a-") < order.index("b+")  # one holder of a key at a time
    assert len(locks) == 0  # nobody holds or waits: nothing kept
    for key in range(1000):
        async with locks.hold(("rally", key)):
            assert len(locks) == 1
    assert len(locks) == 0


async def test_the_store_keeps_no_lock_of_the_rallies_it_served(service):
    drivers = [Actor(9001, "Ada"), Actor(9002, "Seb")]
    for channel in range(30):
        place = Place(77, 5000 + channel)
        await service.create(place, drivers[0], "pinewood-sprint", drivers=2)
        for driver in drivers:
            await service.join(place, driver)
    assert len(service.store.db._locks) == 0  # every rally and channel locked, none kept


def test_the_web_caches_are_bounded_in_bytes_too():
    pages: Lru[int, tuple[str, bytes]] = Lru(512, 1_000_000, body_bytes)
    for page in range(1000):
        pages.put(page, ('"etag"', b"x" * 50_000))  # a large league page
        assert pages.bytes <= 1_000_000
    assert len(pages) == 1_000_000 // (50_000 + 6) and pages.get(999) is not None and pages.get(0) is None
    small: Lru[int, tuple[str, bytes]] = Lru(4, 1_000_000, body_bytes)
    for page in range(10):
        small.put(page, ("", b"x"))
    assert len(small) == 4  # and in entries
    huge: Lru[int, tuple[str, bytes]] = Lru(4, 10, body_bytes)
    huge.put(1, ("", b"x" * 100))
    assert huge.get(1) is not None  # the newest is kept, even alone over the bound
    assert replay_bytes((1, [])) == 0


def test_the_request_budgets_of_many_addresses_keep_the_last_ones():
    budget = Budget(rate=1.0, burst=5, clock=lambda: 0.0)
    for n in range(CLIENTS + 2000):
        budget.take(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    assert len(budget._buckets) == CLIENTS


def test_every_functools_cache_of_the_bot_has_a_bound():
    unbounded = []
    for module_info in pkgutil.walk_packages(bot.__path__, "bot."):
        if module_info.name.startswith(("bot.cogs", "bot.views", "bot.client", "bot.__main__")):
            continue  # discord.py's side: no functools cache there (grep), and slow to import
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            info = getattr(value, "cache_info", None)
            if callable(info) and callable(getattr(value, "cache_clear", None)):
                if getattr(value, "__module__", None) != module.__name__:
                    continue  # imported from elsewhere: checked there
                if info().maxsize is None and f"{module.__name__}.{name}" not in UNBOUNDED_ON_PURPOSE:
                    unbounded.append(f"{module.__name__}.{name}")
    assert unbounded == []
