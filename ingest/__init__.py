"""Reading documents: parse the two input formats into validated models."""

from .errors import ParseError
from .models import Card, Document, Page
from .parse import parse_bytes, parse_file

__all__ = ["Card", "Document", "Page", "ParseError", "parse_bytes", "parse_file"]
