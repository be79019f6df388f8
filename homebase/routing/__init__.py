"""Lead routing: ordered rules, their conditions and methods (engine.py, pure), the
rule format (schemas.py), the database side (repository.py, service.py)."""
