"""Parsing: bytes of the two input formats → validated Card and Page models, or a ParseError.

Needs neither the driver nor a database: `parse_file` and `parse_bytes` are callable alone."""

from paperkg.parse.errors import ParseError
from paperkg.parse.models import Card, Document, Page
from paperkg.parse.read import parse_bytes, parse_file

__all__ = ["Card", "Document", "Page", "ParseError", "parse_bytes", "parse_file"]
