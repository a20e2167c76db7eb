"""The parser builds its small records (card items, claims, cited sources, references, raw
references) without validating them again (`paperkg.parse.models.built`). Every document it parses
must still be exactly what validation makes of the same data: revalidating it from plain data
gives an equal model with the same repr (field order) and the same fields set, at every level."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from paperkg.parse import Card, Page, parse_file

from seeds import FIXTURES, seeds_dir
from synth import generate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "corpus"


def _models(value: object, where: str):
    """Every model inside `value`, with where it sits (`claims[3].sources[0]`)."""
    if isinstance(value, BaseModel):
        yield where, value
        for name in type(value).model_fields:
            yield from _models(getattr(value, name), f"{where}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _models(item, f"{where}[{index}]")


def _assert_as_validated(path: Path) -> int:
    document = parse_file(path)
    validated = type(document).model_validate(document.model_dump(exclude_unset=True))
    assert validated == document, path
    assert repr(validated) == repr(document), path
    pairs = list(zip(_models(document, "doc"), _models(validated, "doc"), strict=True))
    for (where, parsed), (_, again) in pairs:
        assert type(parsed) is type(again), f"{path}: {where}"
        assert parsed.model_fields_set == again.model_fields_set, f"{path}: {where}"
        assert parsed.__pydantic_extra__ is None and parsed.__pydantic_private__ is None, f"{path}: {where}"
    return len(pairs)


def _documents(directory: Path) -> list[Path]:
    return sorted(path for path in directory.rglob("*.txt") if path.is_file())


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built")
    generate(out, papers=120, pages=3, seed=5, identity_cases=True)
    return out


def test_synthetic_and_example_documents_are_as_validation_makes_them(synthetic: Path):
    paths = _documents(synthetic) + _documents(EXAMPLES)
    kinds = {type(parse_file(path)) for path in paths}
    assert kinds == {Card, Page}
    # Each document holds many nested records, so this checks thousands of built models.
    assert sum(_assert_as_validated(path) for path in paths) > 5000


def test_seed_documents_are_as_validation_makes_them():
    paths = _documents(seeds_dir())
    assert len(paths) == 4
    assert sum(_assert_as_validated(path) for path in paths) > 500


def test_parse_fixtures_are_as_validation_makes_them():
    paths = _documents(FIXTURES)
    assert len(paths) == 3
    assert sum(_assert_as_validated(path) for path in paths) > 50
