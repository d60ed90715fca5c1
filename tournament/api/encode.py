"""The API's answers as JSON text, for the commands that print them (the same JSON the API sends)."""

import json

from ninja.responses import NinjaJSONEncoder
from pydantic import BaseModel


def json_of(answer: BaseModel | list[BaseModel]) -> str:
    """Indented JSON of an API answer, encoded as django-ninja encodes the API's responses."""
    plain = [item.model_dump() for item in answer] if isinstance(answer, list) else answer.model_dump()
    return json.dumps(plain, cls=NinjaJSONEncoder, indent=2, ensure_ascii=False)
