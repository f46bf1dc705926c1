"""Texts as message keys until they are shown (DESIGN §7): `Msg` and `Listed`, pure.

Below the boundary that shows texts (cogs, views, console, renderer), nothing is a sentence in a
language: the engine, the store and the services build `Msg(key, **params)` values, whose params
may themselves be messages (a refusal's reason, a list of dice joined by "or"). The boundary turns
one into text for its reader with `bot.i18n.render(value, lang)`.

A `Msg` is also a `str`: its value is its text in the default language (English), so logs, tests
and code that only needs *a* text keep working unchanged. That text comes from a renderer that
the message catalogue registers (`set_renderer`, done when `bot` is imported): the engine never
imports the catalogue. Plain `str` operations (`+`, `join`, f-strings) give plain English text and
lose the key, so code below the boundary composes messages with params and `Listed`, not with
string operations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _key_only(message: Msg) -> str:
    return message.key


_renderer: Callable[[Msg], str] = _key_only


def set_renderer(renderer: Callable[[Msg], str]) -> None:
    """Register how a message reads in the default language (the catalogue does, at import)."""
    global _renderer
    _renderer = renderer


class Msg(str):
    """A message key with its parameters; as a `str`, its default-language text."""

    key: str
    params: Mapping[str, Any]
    identity: tuple[Any, ...] | None = None  # how `msg`'s cache knows it (see `_identity`)

    def __new__(cls, key: str, /, **params: Any) -> Msg:
        probe = str.__new__(cls, key)
        probe.key = key
        probe.params = params
        self = str.__new__(cls, _renderer(probe))
        self.key = key
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, dict(self.params)))

    def to_json(self) -> dict[str, Any]:
        """The message as JSON data (an outbox row keeps it so, to render it for its reader)."""
        return {"key": self.key, "params": {k: to_json(v) for k, v in self.params.items()}}


def _rebuild(key: str, params: dict[str, Any]) -> Msg:
    return Msg(key, **params)


class Listed(str):
    """Items joined the way the reader's language joins them: `how` is `or`, `and`, `comma`,
    `dot`, `space` (the separators are catalogue texts `list.or` …: " or ", " ou " …), or `either` /
    `both`: commas, then "or" / "and" before the last item ("2, 3 or white")."""

    items: tuple[Any, ...]
    how: str

    def __new__(cls, items: list[Any] | tuple[Any, ...], how: str = "comma") -> Listed:
        self = str.__new__(cls, joined([str(i) for i in items], how, _SEPARATORS))
        self.items = tuple(items)
        self.how = how
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Listed, (list(self.items), self.how))

    def to_json(self) -> dict[str, Any]:
        return {"list": [to_json(i) for i in self.items], "how": self.how}


#: The default language's separators (the catalogue has every language's: `list.<how>`).
_SEPARATORS = {"or": " or ", "and": " and ", "comma": ", ", "dot": " · ", "space": " "}


def joined(items: list[str], how: str, separators: Mapping[str, str]) -> str:
    """`how`: a separator's name, or `either` / `both` (commas, then "or" / "and" before the last)."""
    if how in ("either", "both") and len(items) > 1:
        last = separators["or" if how == "either" else "and"]
        return separators["comma"].join(items[:-1]) + last + items[-1]
    return separators["comma" if how in ("either", "both") else how].join(items)


def to_json(value: Any) -> Any:
    """A text or a message as JSON data (plain values as they are)."""
    if isinstance(value, (Msg, Listed)):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """Back from `to_json` (the message is rendered again in the default language)."""
    if isinstance(value, dict) and set(value) == {"key", "params"}:
        return Msg(str(value["key"]), **{k: from_json(v) for k, v in dict(value["params"]).items()})
    if isinstance(value, dict) and set(value) == {"list", "how"}:
        return Listed([from_json(v) for v in value["list"]], str(value["how"]))
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def msg(key: str, /, **params: Any) -> str:
    """`Msg(key, **params)`: the engine's and the services' way to say something. Typed as `str`,
    which it is, so lists of lines mix messages and plain texts (names) freely. Messages are
    immutable, so the same key with the same params is made once (the engine names the same
    spaces and gears thousands of times a second)."""
    if not params:  # a word: the commonest case, most quickly
        found = _CACHE.get((key, ()))
        return found if found is not None else _cached(key, (), ())
    if all(type(value) in (str, int) for value in params.values()):  # the common case, quickly
        identity: tuple[Any, ...] = tuple((name, type(value) is int, value) for name, value in params.items())
    else:
        try:
            identity = tuple((name, _identity(value)) for name, value in params.items())
        except TypeError:  # a param that is not plain data: not cached
            return Msg(key, **params)
    return _cached(key, identity, tuple(params.items()))


def _identity(value: Any) -> Any:
    """What tells two params apart for the cache: a message by its key and params (two messages
    may read the same in English), a list by its items, plain data by type and value."""
    if isinstance(value, Msg):
        known = getattr(value, "identity", None)  # set on the messages `msg` made
        return known if known is not None else ("msg", value.key, tuple((k, _identity(v))
                                                                         for k, v in value.params.items()))
    if isinstance(value, Listed):
        return ("list", value.how, tuple(_identity(v) for v in value.items))
    if type(value) in (str, int, float, bool) or value is None:
        return (type(value).__name__, value)
    raise TypeError(f"not plain data: {type(value).__name__}")


_CACHE: dict[tuple[Any, ...], Msg] = {}
_CACHE_SIZE = 8192


def _cached(key: str, identity: tuple[Any, ...], items: tuple[tuple[str, Any], ...]) -> Msg:
    found = _CACHE.get((key, identity))
    if found is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        found = _CACHE[(key, identity)] = Msg(key, **dict(items))
        found.identity = ("msg", key, identity)
    return found


def counted(key: str, n: int, **params: object) -> str:
    """A message with a count: `key.one` for 1, `key.other` otherwise."""
    return msg(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)
