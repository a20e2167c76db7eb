"""The claim-support layer as RDF with CiTO, the Citation Typing Ontology (needs `paperkg[rdf]`).

What the graph holds becomes these triples:

=============================================  ====================================================
graph                                          RDF
=============================================  ====================================================
``(a:Paper)-[:CITES]->(b:Paper)``              ``a cito:cites b``
``(c:Claim)-[:CITES]->(s:Source)``             ``c cito:citesAsEvidence s`` (a sub-property of cites)
``(s:Source)-[:SUPPORTS]->(c:Claim)``          ``s cito:supports c`` (a check found support)
``(p:Paper)-[:MAKES]->(c:Claim)``              ``c dcterms:isPartOf p``
``(s:Source)-[:REFERS_TO]->(p:Paper)``         ``s dcterms:references p`` (the work the key names)
=============================================  ====================================================

plus a type and a label for each node: papers are ``fabio:Work`` with ``dcterms:title`` and
``fabio:hasPublicationYear``; claims ``paperkg:Claim`` with ``rdfs:label`` (the text); sources
``paperkg:Source`` with ``rdfs:label`` (the key as cited). A paper's IRI is its arXiv abstract
page, else its DOI resolver address, else ``urn:paperkg:paper:<paper_id>``; claims and sources
have ``urn:paperkg:claim:…`` and ``urn:paperkg:source:…``. Checks that found no support have no
CiTO property (``not supported`` is not ``refutes``) and are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from paperkg.errors import MissingExtra

CITO = "http://purl.org/spar/cito/"
FABIO = "http://purl.org/spar/fabio/"
DCTERMS = "http://purl.org/dc/terms/"
PAPERKG = "urn:paperkg:vocab:"


def _rdflib():
    try:
        import rdflib
    except ImportError:
        raise MissingExtra("RDF export needs rdflib: pip install 'paperkg[rdf]'") from None
    return rdflib


def paper_iri(row: dict[str, Any]) -> str:
    if row.get("arxiv_id"):
        return f"https://arxiv.org/abs/{quote(row['arxiv_id'], safe='/.')}"
    if row.get("doi"):
        return f"https://doi.org/{quote(row['doi'], safe='/.()-_;:')}"
    return f"urn:paperkg:paper:{quote(row['id'], safe=':.-_')}"


def _urn(kind: str, key: str) -> str:
    # claim_id and source_id already read `claim:…` / `source:…`; keep one prefix.
    key = key.split(":", 1)[1] if key.startswith(f"{kind}:") else key
    return f"urn:paperkg:{kind}:{quote(key, safe=':.-_')}"


def claim_support_graph(kb):
    """An rdflib Graph of the claim-support layer of the knowledge base `kb`."""
    rdflib = _rdflib()
    from rdflib import RDF, RDFS, Literal, Namespace, URIRef
    from rdflib.namespace import XSD

    cito, fabio, dcterms, vocab = Namespace(CITO), Namespace(FABIO), Namespace(DCTERMS), Namespace(PAPERKG)
    graph = rdflib.Graph()
    for prefix, namespace in (("cito", cito), ("fabio", fabio), ("dcterms", dcterms), ("paperkg", vocab)):
        graph.bind(prefix, namespace)

    papers = {}
    for row in kb.read("rdf_papers"):
        node = papers[row["id"]] = URIRef(paper_iri(row))
        graph.add((node, RDF.type, fabio.Work))
        if row["title"]:
            graph.add((node, dcterms.title, Literal(row["title"])))
        if row["year"] is not None:
            graph.add((node, fabio.hasPublicationYear, Literal(str(row["year"]), datatype=XSD.gYear)))
    for row in kb.read("rdf_paper_cites"):
        graph.add((papers[row["a"]], cito.cites, papers[row["b"]]))

    for row in kb.read("rdf_claims"):
        node = URIRef(_urn("claim", row["id"]))
        graph.add((node, RDF.type, vocab.Claim))
        graph.add((node, RDFS.label, Literal(row["text"])))
        graph.add((node, dcterms.isPartOf, papers[row["paper"]]))
    for row in kb.read("rdf_sources"):
        node = URIRef(_urn("source", row["id"]))
        graph.add((node, RDF.type, vocab.Source))
        graph.add((node, RDFS.label, Literal(row["key"])))
    for row in kb.read("rdf_claim_cites"):
        graph.add((URIRef(_urn("claim", row["claim"])), cito.citesAsEvidence, URIRef(_urn("source", row["source"]))))
    for row in kb.read("rdf_supports"):
        graph.add((URIRef(_urn("source", row["source"])), cito.supports, URIRef(_urn("claim", row["claim"]))))
    for row in kb.read("rdf_refers_to"):
        graph.add((URIRef(_urn("source", row["source"])), dcterms.references, papers[row["paper"]]))
    return graph


def export_turtle(kb, path: str | Path) -> int:
    """Write the claim-support layer to `path` as Turtle; returns the number of triples."""
    graph = claim_support_graph(kb)
    Path(path).write_text(graph.serialize(format="turtle"), encoding="utf-8")
    return len(graph)
