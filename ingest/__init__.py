"""The pipeline, one package per stage, each callable alone:

- `paperkg.ingest.parse`: documents → Card and Page models (no driver, no database);
- `paperkg.ingest.graph`: the graph's contract, identity (which mentions are one work), rows
  (a document's assertions), and the two loaders that write them: transactions (`write`) and
  the offline admin import (`admin_import`);
- `paperkg.ingest.run`: a run: discover files, read them once, parse, batch, load, report.

The parsing API is re-exported here (`from paperkg.ingest import parse_file`)."""

from paperkg.ingest.parse import Card, Document, Page, ParseError, parse_bytes, parse_file

__all__ = ["Card", "Document", "Page", "ParseError", "parse_bytes", "parse_file"]
