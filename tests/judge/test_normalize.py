from __future__ import annotations

import pytest

from bemula.text import contains_sequence, normalize, normalize_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("March 5, 2024", "2024 m03 d05"),
        ("5 March 2024", "2024 m03 d05"),
        ("the 5th of March, 2024", "2024 m03 d05"),
        ("2024-03-05", "2024 m03 d05"),
        ("03/05/2024", "2024 m03 d05"),
        ("25/12/2023", "2023 m12 d25"),  # first part cannot be a month: day/month order
        ("March 2024", "2024 m03"),
        ("May 3", "m05 d03"),
        ("I may go", "i may go"),  # "may" is a month only next to a day or a year
        ("twenty-three", "23"),
        ("two hundred and five", "205"),
        ("1,200", "1200"),
        ("third", "3"),
        ("5th", "5"),
        ("Café  Müller!!", "cafe muller"),
        ("The Louvre", "louvre"),
        ("Dr. Hart", "doctor hart"),
        ("12 Baker St.", "12 baker street"),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_sub_sequence_of_a_full_date() -> None:
    full = normalize_tokens("Your appointment is on March 5th, 2024.")
    assert contains_sequence(full, normalize_tokens("March 2024"))
    assert contains_sequence(full, normalize_tokens("5 March"))
    assert contains_sequence(full, normalize_tokens("2024"))
    assert not contains_sequence(full, normalize_tokens("April 2024"))


def test_contains_sequence_respects_token_boundaries() -> None:
    assert not contains_sequence(normalize_tokens("the catalogue"), normalize_tokens("cat"))
    assert contains_sequence(normalize_tokens("my three cats"), normalize_tokens("3 cats"))
    assert not contains_sequence(normalize_tokens("anything"), ())
