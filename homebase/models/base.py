from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    if TYPE_CHECKING:
        # DeclarativeBase types __table__ as FromClause (a class may map a join or a
        # select); every model here maps one Table, checked below as each class is made,
        # so `Model.__table__` is typed as the Table that the sessions and queries take.
        __table__: ClassVar[Table]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if not isinstance(cls.__table__, Table):
            raise TypeError(f"{cls.__name__} must map a Table, not {type(cls.__table__)}")
