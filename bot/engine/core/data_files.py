"""Data files read into pydantic models, one way for every game: a file that is not JSON, or not
what its model says, is refused naming the file, the field (or the line) and the reason."""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from bot.engine.core.errors import DataError

M = TypeVar("M", bound=BaseModel)


def parse_model(model: type[M], text: str, source: str) -> M:
    """`model` from the JSON `text` of the file `source` (named in every refusal)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(source, f"line {exc.lineno}", f"not valid JSON ({exc.msg})") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top)"
        raise DataError(source, field, err["msg"]) from None
