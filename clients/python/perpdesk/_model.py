"""The base of the generated pydantic models (perpdesk.models), and how a decoded JSON answer becomes its type."""
from __future__ import annotations

from typing import Any, Dict, Type, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

T = TypeVar("T", bound="Model")

_ADAPTERS: Dict[Any, TypeAdapter[Any]] = {}


class Model(BaseModel):
    """Base of every generated model: `Model.from_json(dict)` builds one; `to_json()` gives the dict back (JSON names).
    A field a newer service sends that this client does not know is kept (`unknown_fields`), not dropped."""

    # extra: a newer service's fields are kept; populate_by_name: an aliased field can be built by its Python name;
    # protected_namespaces: the service may name a field model_...
    model_config = ConfigDict(extra="allow", populate_by_name=True, protected_namespaces=())

    @classmethod
    def from_json(cls: Type[T], data: Any) -> T:
        return cls.model_validate(data)

    def to_json(self) -> Dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)

    @property
    def unknown_fields(self) -> Dict[str, Any]:
        """Fields this version of the client does not know, as sent."""
        return dict(self.model_extra or {})


def parse(tp: Any, value: Any) -> Any:
    """`value` (decoded JSON) as the type `tp` (a model, List[...], Optional[...], a union...); raises
    pydantic.ValidationError when it does not fit."""
    if tp is Any:
        return value
    adapter = _ADAPTERS.get(tp)
    if adapter is None:
        adapter = _ADAPTERS[tp] = TypeAdapter(tp)
    return adapter.validate_python(value)


def rebuild(namespace: Dict[str, Any]) -> None:
    """Resolves the forward references of every model in a generated module (a field may name a later class)."""
    for value in list(namespace.values()):
        if isinstance(value, type) and issubclass(value, Model) and value is not Model:
            value.model_rebuild(_types_namespace=namespace)


__all__ = ["Model", "ValidationError", "parse", "rebuild"]
