"""A deterministic synthetic corpus in the two document formats (docs/formats.md).

`generate(out_dir, papers=N, pages=M, seed=S)` builds a citation graph over N invented papers
with arXiv-style ids, then streams one paper card per paper and M claim-check pages about
papers of the graph, writing each file as soon as it is rendered. Only the graph (ids, titles,
dates and edges) is held in memory, never the documents.

Everything is invented (titles, people, claims, abstracts); only the layout and the fixed
sentences of the formats are the site's. Every document draws from its own `random.Random`
seeded from (S, document), so the bytes depend only on the arguments.

What the corpus exercises:
* cards: missing sections, lists cut at 30 of a larger total, publication years that differ
  from the id's prefix, old-style ids (`cs/0112017`) for the early papers;
* pages: every docs/formats.md#claims glue, hidden sources, ` source` entries that were not checked, verdicts,
  flagged-list sections glued to their text, support notes that repeat listed claims,
  references with and without titles, Self-citation/Preprint markers, raw references with
  continuation lines, orphan fragments, link labels and extraction debris;
* identity: a page names the papers of its graph neighbourhood by arXiv DOI, by publisher DOI,
  by title only (structured or raw) or by arXiv URL, so one work is reached several ways;
  with `identity_cases`, the hard cases of issue 15 too, with their truth (`_IdentityCases`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import string
import sys
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any, NamedTuple

from paperkg.parse.claims import (
    EXPERIMENTAL,
    FLAG_SENTENCES,
    NOT_SUBSTANTIAL,
    NOTE_SENTENCES,
    STATUS,
    SUBSTANTIAL,
    UNMATCHED,
)
from paperkg.parse.normalise import PREPRINT, SELF_CITATION, title_norm

SITE = "https://mlsanity.com/paper/"
CARD_LIST_LIMIT = 30  # a card shows at most 30 items of a list (001: "30 of 151")
CITED_BY_LIMIT = 100  # a page lists at most 100 citing works
FIRST_DAY = date(1998, 1, 1)
LAST_DAY = date(2026, 8, 31)
# arXiv switched from `archive/YYMMNNN` to `YYMM.NNNN` in April 2007 and to five digits in 2015.
NEW_STYLE_FROM = date(2007, 4, 1)
FIVE_DIGITS_FROM = date(2015, 1, 1)
# Highest sequence number used in a month, by id style (arXiv stays below ~30,000 a month).
_MONTHLY_NUMBERS = {3: 999, 4: 9999, 5: 29999}
_OLD_ARCHIVES = ("cs", "stat", "q-bio", "math")

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NOTE_OF = {identifier: sentence for sentence, identifier in NOTE_SENTENCES.items()}
_FLAG_OF = {identifier: sentence for sentence, identifier, _ in FLAG_SENTENCES}
_FLAG_ORDER = [identifier for _, identifier, _ in FLAG_SENTENCES]

# -------------------------------------------------------------------------- vocabulary

_ADJECTIVES = (
    "Sparse", "Causal", "Robust", "Latent", "Modular", "Contrastive", "Hierarchical", "Adaptive",
    "Recurrent", "Linear", "Nonlinear", "Compositional", "Stochastic", "Geometric", "Spectral",
    "Symbolic", "Distributed", "Low-Rank", "Multilingual", "Multimodal", "Self-Supervised",
    "Calibrated", "Faithful", "Emergent", "Structured", "Scalable", "Local", "Global",
    "Counterfactual", "Discrete", "Efficient", "Unsupervised", "Probabilistic", "Equivariant",
    "Dynamic", "Implicit", "Shallow", "Temporal", "Relational", "Generative", "Variational",
    "Bayesian", "Quantized", "Lightweight", "Noisy", "Federated", "Invariant", "Orthogonal",
    "Residual", "Gated", "Cross-Lingual", "Fine-Grained", "Long-Range", "Tractable", "Layerwise",
)  # fmt: skip
# (singular, plural) of countable things
_THINGS = (
    ("Representation", "Representations"), ("Probe", "Probes"), ("Circuit", "Circuits"),
    ("Feature", "Features"), ("Embedding", "Embeddings"), ("Encoder", "Encoders"),
    ("Decoder", "Decoders"), ("Neuron", "Neurons"), ("Dictionary", "Dictionaries"),
    ("Autoencoder", "Autoencoders"), ("Transformer", "Transformers"), ("Classifier", "Classifiers"),
    ("Tokenizer", "Tokenizers"), ("Memory", "Memories"), ("Objective", "Objectives"),
    ("Activation", "Activations"), ("Subspace", "Subspaces"), ("Manifold", "Manifolds"),
    ("Benchmark", "Benchmarks"), ("Curriculum", "Curricula"), ("Policy", "Policies"),
    ("Reward Model", "Reward Models"), ("Language Model", "Language Models"),
    ("Vision Model", "Vision Models"), ("Graph Network", "Graph Networks"), ("Head", "Heads"),
    ("Layer", "Layers"), ("Pathway", "Pathways"), ("Mixture", "Mixtures"), ("Expert", "Experts"),
    ("Kernel", "Kernels"), ("Prior", "Priors"), ("Agent", "Agents"), ("Detector", "Detectors"),
    ("Saliency Map", "Saliency Maps"), ("Concept Vector", "Concept Vectors"),
)  # fmt: skip
_TOPICS = (
    "Attention", "Retrieval", "Alignment", "Distillation", "Pruning", "Compression", "Steering",
    "Model Editing", "Attribution", "Abstraction", "Generalization", "Calibration", "Uncertainty",
    "Robustness", "Sparsity", "Superposition", "Polysemanticity", "Inference", "Planning",
    "Reasoning", "Routing", "Memorization", "Forgetting", "Grokking", "Tokenization", "Transfer",
    "Interpretability", "Disentanglement", "Localization", "Consistency",
)  # fmt: skip
_DOMAINS = (
    "Speech", "Source Code", "Protein Design", "Weather Forecasting", "Robotics", "Chess", "Music",
    "Legal Text", "Medical Imaging", "Satellite Imagery", "Dialogue", "Translation", "Arithmetic",
    "Board Games", "Molecules", "Tabular Data", "Time Series", "Video", "Handwriting",
    "Recommendation", "Sign Language", "Astronomy",
)  # fmt: skip
_VERBS = (
    "Encode", "Track", "Store", "Predict", "Forget", "Compose", "Memorize", "Represent", "Reuse",
    "Ignore", "Amplify", "Suppress", "Localize", "Route", "Compress", "Count", "Copy",
)  # fmt: skip
_GERUNDS = (
    "Probing", "Steering", "Editing", "Decomposing", "Measuring", "Explaining", "Auditing",
    "Tracing", "Mapping", "Disentangling", "Benchmarking", "Rethinking", "Scaling", "Aligning",
    "Localizing", "Patching", "Ablating", "Visualizing", "Quantifying", "Pruning", "Certifying",
)  # fmt: skip
_SYLLABLES = (
    "ba", "bre", "ca", "dor", "el", "fa", "gen", "hal", "ir", "jo", "ka", "lin", "mar", "nor",
    "ol", "pet", "qua", "ran", "sol", "tor", "ul", "ven", "wes", "ya", "zor", "ash", "bel", "cor",
    "dal", "fen", "gar", "hes", "ith", "kel", "lor", "mer", "nik", "ost", "pra", "rin", "sev",
    "tal", "ume", "vor", "wyn", "ez", "ani", "obu", "ter", "sa",
)  # fmt: skip
_SURNAME_TAILS = ("", "", "", "son", "ek", "ova", "ini", "ström", "ez", "ato", "ski", "ay", "é", "ü")
_NAME_PARTICLES = ("van der ", "de ", "da ", "El ")
_ORGANISATIONS = ("Lumen Team", "Corvid Labs", "Helix Consortium", "Open Orchard", "Tessera Group")
_FIELDS = (
    "Learning Representations", "Neural Computation", "Machine Learning", "Computational Linguistics",
    "Artificial Intelligence", "Pattern Recognition", "Knowledge Discovery", "Signal Processing",
    "Robot Learning", "Information Retrieval", "Cognitive Modelling", "Vision and Imaging",
)  # fmt: skip
_PUBLISHERS = ("Marrow & Finch", "Quillon Press", "Halberd Scientific", "Northgate Academic")
_EMOJI = ("🧭", "🪐", "🦉", "🌿")
_PREPRINT_VENUES = ("arXiv", "arXiv (Cornell University)")
_VERDICT_PLACES = (
    "The Introduction (p. 1)", "Section 2 (page unavailable)", "Section 3.1 (p. 4)", "Section 4.2 (p. 7)",
    "The Discussion", "The Methods section (pp. 3–4)", "Appendix B (page not provided)", "The Conclusion (p. 9)",
)  # fmt: skip
_LEADS = (
    "", "", "", "However, ", "In practice, ", "Notably, ", "As a result, ", "Prior work suggests that ",
    "We find that ", "Moreover, ", "Crucially, ", "It is well known that ",
)  # fmt: skip


class _Person(NamedTuple):
    given: str  # "Ilka" or "Jo-Ran"
    middle: str  # an initial such as "T" or ""
    surname: str

    def structured(self) -> str:
        """`Surname, I. T.` (docs/formats.md#references-citing-works-and-metadata author lines and the metadata's Authors)."""
        initials = "-".join(part[0] + "." for part in self.given.split("-"))
        return f"{self.surname}, {initials}" + (f" {self.middle}." if self.middle else "")

    def printed(self) -> str:
        """`Ilka T. Surname` (raw reference strings)."""
        return f"{self.given} {self.middle + '. ' if self.middle else ''}{self.surname}"


class _Words:
    """Invented titles, names, sentences; all randomness comes from the caller's rng."""

    def __init__(self, rng: random.Random, people: int) -> None:
        self.people = [self._person(rng) for _ in range(people)]

    @staticmethod
    def _name(rng: random.Random, syllables: int) -> str:
        return "".join(rng.choice(_SYLLABLES) for _ in range(syllables)).capitalize()

    def _person(self, rng: random.Random) -> _Person:
        surname = self._name(rng, rng.choice((2, 2, 3))) + rng.choice(_SURNAME_TAILS)
        roll = rng.random()
        if roll < 0.03:
            surname = rng.choice(_NAME_PARTICLES) + surname
        elif roll < 0.06:
            surname = f"{surname}-{self._name(rng, 2)}"
        given = self._name(rng, 2)
        if rng.random() < 0.04:
            given = f"{given}-{self._name(rng, 1)}"
        middle = rng.choice("ABCDEFGHJKLMNPRSTW") if rng.random() < 0.3 else ""
        return _Person(given, middle, surname)

    def authors(self, rng: random.Random) -> tuple[_Person, ...]:
        count = rng.choices((1, 2, 3, 4, 5, 6, 8, 12), (10, 22, 22, 16, 10, 8, 7, 5))[0]
        return tuple(rng.sample(self.people, count))

    @staticmethod
    def acronym(rng: random.Random) -> str:
        name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.choice((2, 3))))
        roll = rng.random()
        if roll < 0.4:
            return name.upper()
        if roll < 0.7:
            return name.capitalize() + rng.choice(("Net", "Lens", "Scope", "Bench", "Probe"))
        return name.capitalize() + f"-{rng.randint(1, 4)}"

    def title(self, rng: random.Random) -> str:
        """A title in one of the shapes real ones take: `:` subtitles, `?` endings, `-`, `--`."""
        adjective, adjective2 = rng.sample(_ADJECTIVES, 2)
        (thing, things), (thing2, things2) = rng.sample(_THINGS, 2)
        topic, domain = rng.choice(_TOPICS), rng.choice(_DOMAINS)
        verb, gerund = rng.choice(_VERBS), rng.choice(_GERUNDS)
        shapes = (
            f"{adjective} {things} for {adjective2} {topic}",
            f"{self.acronym(rng)}: {gerund} {things} with {adjective} {topic}",
            f"On the {topic} of {adjective} {things}",
            f"Do {adjective} {things} {verb} {topic}?",
            f"{gerund} {topic} -- {adjective} {things} in {domain}",
            f"Towards {adjective} {topic}: {gerund} {things} at Scale",
            f"When {things} {verb}: {adjective} {topic} and {thing2} Design",
            f"{topic}-Aware {things2} for {domain}",
            f"How {adjective} Are {things}? {gerund} {topic} in {domain}",
            f"{gerund} {adjective} {things}: A Case Study in {domain}",
            f"What {things} {verb} about {topic}",
            f"{adjective} {thing} {topic} Without {things2}",
            f"Beyond {topic}: {adjective} {things} for {adjective2} {thing2} {topic}",
        )
        title = rng.choice(shapes)
        if "?" in title[:-1]:
            # A `?` inside a title ends it early in raw reference strings; keep it only at the end.
            title = title.replace("?", ":", 1)
        if rng.random() < 0.2:  # sentence case, as many arXiv titles are written
            title = title[0] + " ".join(_sentence_case_word(word) for word in title[1:].split(" "))
        return title

    def sentence(self, rng: random.Random) -> str:
        """A declarative sentence, capitalised, ending in a period (claims, findings)."""
        adjective, adjective2 = (word.lower() for word in rng.sample(_ADJECTIVES, 2))
        (_, things), (thing2, things2) = ((a.lower(), b.lower()) for a, b in rng.sample(_THINGS, 2))
        topic, topic2 = (word.lower() for word in rng.sample(_TOPICS, 2))
        domain, domain2 = rng.sample(_DOMAINS, 2)
        verb = rng.choice(_VERBS).lower()
        number = rng.randint(2, 95)
        shapes = (
            f"{adjective.capitalize()} {things} {verb} {topic} more reliably than {adjective2} {things2}.",
            f"{topic.capitalize()} in {adjective} {things} depends on the choice of {thing2}.",
            f"Most {things} evaluated on {domain} benchmarks do not transfer to {domain2}.",
            f"{adjective.capitalize()} {things} can recover {topic} without access to {things2}.",
            f"{topic.capitalize()} improves by {number}% when {things} are trained with {adjective} objectives.",
            f"{things.capitalize()} {verb} {topic2} in a small number of {adjective} {things2}.",
            f"The {topic} of {adjective} {things} is rarely measured against {adjective2} baselines.",
            f"{topic.capitalize()} and {topic2} trade off against each other in {adjective} {things}.",
            f"{things.capitalize()} trained on {domain} data {verb} {topic} only in their later layers.",
            f"Scaling {things} beyond {number} billion parameters changes how they {verb} {topic}.",
            f"{adjective.capitalize()} {topic} is necessary but not sufficient for {topic2}.",
            f"Existing {things} for {topic} assume that {things2} are {adjective}.",
            f"{topic.capitalize()} methods that ignore {things2} overstate {topic2} by {number}%.",
        )
        return rng.choice(shapes)

    def abstract(self, rng: random.Random, title: str) -> str:
        topic = rng.choice(_TOPICS).lower()
        things = rng.choice(_THINGS)[1].lower()
        sentences = [
            f"{rng.choice(_GERUNDS)} {topic} in {things} remains an open problem.",
            *(self.sentence(rng) for _ in range(rng.randint(2, 5))),
            f"We introduce {self.acronym(rng)}, a {rng.choice(_ADJECTIVES).lower()} approach to {topic} "
            f"that we evaluate on {rng.randint(3, 14)} {rng.choice(_DOMAINS).lower()} tasks.",
        ]
        if rng.random() < 0.1:  # quoting in the `probing' style of LaTeX sources (001 L45)
            sentences.append(f"We revisit the `{topic}' view of {things} in this light.")
        text = " ".join(sentences)
        if rng.random() < 0.15:  # a glued sentence and a URL, kept verbatim (002 L57)
            text += f"The code is released at https://github.com/{rng.choice(_SYLLABLES)}lab/{_slug(title)}"
        return text


def _sentence_case_word(word: str) -> str:
    """Lower-cased unless it is a name or an acronym (a capital or a digit after its first letter)."""
    keep = any(char.isupper() or char.isdigit() for char in word[1:])
    return word if keep else word.lower()


def _slug(text: str) -> str:
    return "-".join(title_norm(text).split()[:4])


def _day(value: date) -> str:
    """`2 May 2020`: no leading zero (A)."""
    return f"{value.day} {_MONTHS[value.month - 1]} {value.year}"


def _count(value: int) -> str:
    return f"{value:,}"


# -------------------------------------------------------------------------- the graph


class _Work(NamedTuple):
    """One version of a work as a page lists it."""

    title: str
    authors: tuple[_Person, ...]
    organisation: str | None  # an organisation printed before the people (`Gemini Team,` style)
    year: int
    venue: str | None
    doi: str
    arxiv_id: str | None
    cited_by: int


class _Graph:
    """N papers in posting order with arXiv-style ids, and who cites whom among them.

    Papers cite earlier papers, by preferential attachment mixed with recency, so a few
    foundations collect many citers and lineages run several hops deep.
    """

    def __init__(self, seed: int, papers: int, page_papers: int) -> None:
        self.seed = seed
        rng = random.Random(f"{seed}:graph")
        self.words = _Words(rng, people=max(300, papers // 3))
        self.posted = self._posting_days(rng, papers)
        self.ids = self._arxiv_ids(rng, self.posted)
        self.years = array("H", (day.year + (rng.random() < 0.12) for day in self.posted))
        self.known_titles: set[str] = set()
        self.titles = [self.unique_title(rng) for _ in range(papers)]
        lower = papers // 3 if papers >= 3 else 0
        self.page_papers = sorted(rng.sample(range(lower, papers), min(page_papers, papers - lower)))
        self.reference_totals, self.refs = self._references(rng, papers, set(self.page_papers))
        citers: list[list[int]] = [[] for _ in range(papers)]
        for citing, cited in enumerate(self.refs):
            for target in cited:
                citers[target].append(citing)
        self.citers = [array("i", items) for items in citers]
        self.outside = [self._outside_work(rng) for _ in range(max(150, papers // 4))]
        self.data_through = LAST_DAY + timedelta(days=20)

    def unique_title(self, rng: random.Random) -> str:
        """A title whose normalised form no other work has, so title matching has one answer."""
        while True:
            title = self.words.title(rng)
            norm = title_norm(title)
            if norm not in self.known_titles:
                self.known_titles.add(norm)
                return title

    @staticmethod
    def _posting_days(rng: random.Random, papers: int) -> list[date]:
        # Exponential growth: most papers are recent, as on arXiv.
        growth = 3.0
        span = (LAST_DAY - FIRST_DAY).days
        fractions = sorted(math.log1p(rng.random() * math.expm1(growth)) / growth for _ in range(papers))
        return [FIRST_DAY + timedelta(days=int(fraction * span)) for fraction in fractions]

    @staticmethod
    def _arxiv_ids(rng: random.Random, posted: list[date]) -> list[str]:
        ids: list[str] = []
        start = 0
        while start < len(posted):
            month = (posted[start].year, posted[start].month)
            end = start
            while end < len(posted) and (posted[end].year, posted[end].month) == month:
                end += 1
            first_day = posted[start].replace(day=1)
            digits = 5 if first_day >= FIVE_DIGITS_FROM else 4 if first_day >= NEW_STYLE_FROM else 3
            step = _MONTHLY_NUMBERS[digits] // (end - start)
            # An old-style month with more papers than numbers (a corpus of a million) numbers
            # each archive on its own; smaller corpora keep the ids (and bytes) they had.
            per_archive = digits == 3 and step == 0
            if per_archive:
                step = _MONTHLY_NUMBERS[digits] // -(-(end - start) // len(_OLD_ARCHIVES))
            if step == 0:
                raise ValueError(f"too many papers in {month[0]}-{month[1]:02d} for {digits}-digit arXiv numbers")
            stamp = f"{month[0] % 100:02d}{month[1]:02d}"
            for offset in range(end - start):
                if per_archive:
                    archive, slot = _OLD_ARCHIVES[offset % len(_OLD_ARCHIVES)], offset // len(_OLD_ARCHIVES)
                    ids.append(f"{archive}/{stamp}{slot * step + rng.randint(1, step):03d}")
                    continue
                number = offset * step + rng.randint(1, step)  # disjoint ranges: unique, increasing
                if digits == 3:
                    ids.append(f"{rng.choice(_OLD_ARCHIVES)}/{stamp}{number:03d}")
                else:
                    ids.append(f"{stamp}.{number:0{digits}d}")
            start = end
        return ids

    def _references(self, rng: random.Random, papers: int, page_papers: set[int]) -> tuple[array, list[array]]:
        totals = array("H")
        refs: list[array] = []
        attachment = array("i")  # each paper once, plus once per citation it received
        for paper in range(papers):
            if paper in page_papers:  # pages list long reference lists (004: 346 entries)
                total = rng.randint(120, 320)
            else:
                total = min(260, max(4, int(rng.lognormvariate(math.log(38), 0.55))))
            wanted = min(paper, max(1, round(total * rng.uniform(0.15, 0.7))))
            if rng.random() < 0.04:  # no reference in the map: the card has no `Builds on` (001)
                wanted = 0
            window = max(50, paper // 5)
            chosen: dict[int, None] = {}
            for _ in range(4 * wanted):
                if len(chosen) == wanted:
                    break
                if rng.random() < 0.6:
                    target = attachment[rng.randrange(len(attachment))]
                else:
                    target = rng.randrange(max(0, paper - window), paper)
                chosen[target] = None
            refs.append(array("i", chosen))
            attachment.extend(chosen)
            attachment.append(paper)
            totals.append(max(total, len(chosen)))
        return totals, refs

    def _outside_work(self, rng: random.Random) -> _Work:
        """A work outside the map (not on arXiv), cited by pages only."""
        title = self.unique_title(rng)
        quirk = rng.random()
        if quirk < 0.02:
            title = f'"{title}"'
        elif quirk < 0.04:
            title = f"{title} {rng.choice(_EMOJI)}"
        elif quirk < 0.05:
            title = title.replace(" ", " $&!#* ", 1)
        elif quirk < 0.06:
            title = f"{rng.randint(2, 9)} {title} ({rng.randint(1940, 1990)})"
        elif quirk < 0.07:
            title = f"\\texttt{{{self.words.acronym(rng)}$^\\textbf{{2}}$}}: {title}"
        year = max(1950, int(LAST_DAY.year - rng.expovariate(1 / 9)))
        organisation = rng.choice(_ORGANISATIONS) if rng.random() < 0.03 else None
        return _Work(
            title=title,
            authors=self.words.authors(rng),
            organisation=organisation,
            year=year,
            venue=_venue(rng),
            doi=f"{_doi_prefix(rng)}/{rng.choice(_SYLLABLES)}.{year}.{rng.randint(10000, 99999)}",
            arxiv_id=None,
            cited_by=int(rng.lognormvariate(math.log(300), 1.6)),
        )

    # -- per-paper facts, derived on demand from the paper's own rng

    def cited_count(self, paper: int) -> int:
        """Citations counted by the site (more than the in-map citers)."""
        return len(self.citers[paper]) * (3 + paper % 7) + paper % 11

    def work(self, paper: int, published: bool) -> _Work:
        """The arXiv version of a paper, or its published version when it has one and `published`."""
        rng = random.Random(f"{self.seed}:paper:{paper}")
        authors = self.words.authors(rng)
        has_publication = rng.random() < 0.55
        venue = _venue(rng)
        doi = f"{_doi_prefix(rng)}/{rng.choice(_SYLLABLES)}{self.years[paper]}.{paper:06d}"
        if published and has_publication:
            return _Work(
                self.titles[paper], authors, None, self.years[paper], venue, doi, None, self.cited_count(paper)
            )
        return _Work(
            self.titles[paper],
            authors,
            None,
            self.posted[paper].year,
            rng.choice(_PREPRINT_VENUES),
            f"10.48550/arxiv.{self.ids[paper]}",
            self.ids[paper],
            self.cited_count(paper),
        )

    def item_line(self, paper: int) -> str:
        return f"- [{self.titles[paper]}]({SITE}{self.ids[paper]}/) ({self.years[paper]})"

    def most_cited_first(self, papers: array) -> list[int]:
        return sorted(papers, key=lambda paper: (-len(self.citers[paper]), paper))


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _doi_prefix(rng: random.Random) -> str:
    # Five digits, so no registrant code reads as a year in a raw reference string.
    return f"10.{rng.randint(10000, 99999)}"


def _venue(rng: random.Random) -> str:
    field_name = rng.choice(_FIELDS)
    return rng.choice(
        (
            f"Proceedings of the {_ordinal(rng.randint(2, 45))} Conference on {field_name}",
            f"Journal of {field_name}",
            f"Transactions on {field_name}",
            f"International Workshop on {field_name}",
            f"Findings of the Society for {field_name}",
        )
    )


# -------------------------------------------------------------------------- cards


def _card_text(graph: _Graph, paper: int) -> str:
    """A paper card (docs/formats.md#the-paper-card): title, arXiv line, key facts, the two lists (cut at 30), the abstract."""
    rng = random.Random(f"{graph.seed}:card:{paper}")
    identifier = graph.ids[paper]
    builds_on = graph.most_cited_first(graph.refs[paper])
    built_on_by = graph.most_cited_first(graph.citers[paper])
    facts = []
    if built_on_by:
        facts.append(
            f"- Cited by {_count(len(built_on_by))} papers in the map (data through {_day(graph.data_through)})."
        )
    if builds_on:
        facts.append(
            f"- Builds on {_count(len(builds_on))} of its {_count(graph.reference_totals[paper])} references"
            " that are in the map."
        )
    if rng.random() < 0.97:
        facts.append(f"- First posted on arXiv {_day(graph.posted[paper])}.")
    blocks = [
        [f"# {graph.titles[paper]}"],
        [f"arXiv: https://arxiv.org/abs/{identifier} · HTML: {SITE}{identifier}/"],
    ]
    if facts:
        blocks.append(["## Key facts", "", *facts])
    for name, papers in (("Builds on", builds_on), ("Built on by", built_on_by)):
        if papers:
            shown = papers[:CARD_LIST_LIMIT]
            heading = f"## {name} (most cited first, {len(shown)} of {_count(len(papers))})"
            blocks.append([heading, "", *(graph.item_line(item) for item in shown)])
    blocks.append(["## Abstract (arXiv)", "", graph.words.abstract(rng, graph.titles[paper])])
    return "\n\n".join("\n".join(block) for block in blocks)


# -------------------------------------------------------------------------- pages: works


class _Entry(NamedTuple):
    """A structured entry of `Cites` or `Cited by` (docs/formats.md#references-citing-works-and-metadata)."""

    work: _Work
    has_title: bool
    self_citation: bool
    preprint: bool
    shows_authors: bool
    shows_venue: bool


def _entry(rng: random.Random, work: _Work, self_citation_rate: float, untitled_rate: float) -> _Entry:
    has_title = rng.random() >= untitled_rate
    cornell = work.venue == _PREPRINT_VENUES[1]
    return _Entry(
        work=work,
        has_title=has_title,
        self_citation=rng.random() < self_citation_rate,
        preprint=has_title
        and rng.random()
        < (0.9 if cornell else 0.03),  # docs/formats.md#references-citing-works-and-metadata: never without a title
        shows_authors=rng.random() >= 0.01,
        shows_venue=rng.random() >= 0.02,
    )


def _structured_authors(rng: random.Random, work: _Work) -> str:
    """`Surname, A., Other, B., & Last, C.`; ten names then `et al.` for long lists."""
    names = ([work.organisation] if work.organisation else []) + [person.structured() for person in work.authors]
    if len(names) > 10 or (len(names) > 4 and rng.random() < 0.2):
        return ", ".join(names[:10] if len(names) > 10 else names[:3]) + ", et al."
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + ", & " + names[-1]


def _entry_lines(rng: random.Random, entry: _Entry) -> list[str]:
    """The optional title line (with the glued markers) and the author line."""
    work = entry.work
    authors = _structured_authors(rng, work) if entry.shows_authors else ""
    parts = [f"{authors} ({work.year})" if authors else f"({work.year})"]
    if entry.shows_venue and work.venue:
        parts.append(work.venue)
    parts += [f"doi:{work.doi}", f"Cited by {_count(work.cited_by)}"]
    author_line = " · ".join(parts)
    marker = SELF_CITATION if entry.self_citation else ""
    if not entry.has_title:
        return [marker + author_line]
    return [marker + work.title + (PREPRINT if entry.preprint else ""), author_line]


def _hyphen_debris(rng: random.Random, text: str) -> str:
    """`concep- tual`: a line-break hyphen left inside a long lowercase word."""
    words = text.split(" ")
    long_words = [
        index for index, word in enumerate(words) if len(word) >= 9 and word[1:].isalpha() and word[1:].islower()
    ]
    if not long_words:
        return text
    index = rng.choice(long_words)
    cut = rng.randint(3, len(words[index]) - 3)
    words[index] = f"{words[index][:cut]}- {words[index][cut:]}"
    return " ".join(words)


def _printed_authors(work: _Work) -> str:
    if work.organisation:
        return work.organisation
    names = [person.printed() for person in work.authors]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _editors(rng: random.Random, people: list[_Person], count: int) -> str:
    names = [person.printed() for person in rng.sample(people, count)]
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _imprint(rng: random.Random, year: int | str) -> str:
    """The publisher line a page break splits off (docs/formats.md#references-citing-works-and-metadata `Curran Associates, Inc., 2020. URL …`)."""
    return (
        f"{rng.choice(_PUBLISHERS)}, Inc., {year}. URL https://proceedings.example.org/{str(year)[:4]}/file/"
        f"{rng.getrandbits(64):016x}-Paper.pdf."
    )


def _raw_reference(
    rng: random.Random, work: _Work, year_suffix: str, people: list[_Person], one_line: bool
) -> list[str]:
    """One printed-but-unlinked reference (its `- ` lines) in a bibliography style, with docs/formats.md#references-citing-works-and-metadata debris."""
    title = work.title
    if rng.random() < 0.5:
        title = title[0] + " ".join(_sentence_case_word(word) for word in title[1:].split(" "))
    if rng.random() < 0.03:
        title = _hyphen_debris(rng, title)
    authors = _printed_authors(work)
    year = f"{work.year}{year_suffix}"
    field_name = rng.choice(_FIELDS)
    labels = ""
    # A title ending in `?` takes no period after it (`… a mirage? In …`).
    end = "" if title.endswith("?") else "."
    styles = ("arxiv", "proceedings", "conference", "journal", "book")
    weights = (40 if work.arxiv_id else 0, 0 if one_line else 8, 30, 0 if work.arxiv_id else 15, 5)
    style = rng.choices(styles, weights)[0]
    if style == "arxiv":
        url = f"https://arxiv.org/abs/{work.arxiv_id}"
        if rng.random() < 0.15 and "." in work.arxiv_id:  # `arxiv.org/abs/2402. 04614`
            head, _, tail = url.rpartition(".")
            url = f"{head}. {tail}"
        labels = " · arXiv" if rng.random() < 0.1 else ""
        lines = [f"{authors}. {title}, {year}. URL {url}."]
    elif style == "proceedings":
        pages = rng.randint(1, 30000)
        lines = [
            f"{authors}. {title}{end} In {_editors(rng, people, 3)} (eds.), Advances in {field_name}, "
            f"volume {rng.randint(1, 40)}, pp. {pages}-{pages + rng.randint(8, 20)}.",
            _imprint(rng, year),
        ]
    elif style == "conference":
        venue = f"Proceedings of the {field_name} Conference"
        if rng.random() < 0.2:
            venue = _hyphen_debris(rng, venue)
        forum = f"https://openreview.net/forum?id={rng.getrandbits(48):012x}"
        lines = [f"{authors}. {title}{end} In {venue}, {year}. URL {forum}."]
    elif style == "journal":
        volume, number, first = rng.randint(1, 60), rng.randint(1, 12), rng.randint(1, 900)
        lines = [
            f"{authors}. {title}{end} Journal of {field_name}, {volume}({number}):"
            f"{first}-{first + rng.randint(5, 30)}, "
            f"{_MONTHS[rng.randrange(12)]} {year}. doi: {work.doi}. URL https://doi.org/{work.doi}."
        ]
        labels = rng.choice((" · DOI", " · DOI", " · DOI · Paper page"))
    else:
        lines = [f"{authors}. {title}{end} {rng.choice(_PUBLISHERS)}, {rng.randint(2, 4)} edition, {year}."]
    if rng.random() < 0.05:
        lines[-1] = lines[-1].replace("https://", "https: //", 1)
    if rng.random() < 0.03 and len(lines[0]) > 260:  # cut off mid-entry, as some extractions are
        lines[0] = lines[0][: rng.randint(200, 260)].rstrip()
    lines[-1] += labels
    return ["- " + line for line in lines]


def _orphan_fragment(rng: random.Random, people: list[_Person]) -> list[str]:
    """docs/formats.md#references-citing-works-and-metadata: the tail of an entry whose head is missing, and the imprint line that continues it."""
    pages = rng.randint(1, 30000)
    return [
        f"- In {_editors(rng, people, 4)} (eds.), Advances in {rng.choice(_FIELDS)}, volume {rng.randint(1, 40)}, "
        f"pp. {pages}-{pages + rng.randint(8, 20)}.",
        "- " + _imprint(rng, rng.randint(2015, 2025)),
    ]


def _first_name_key(work: _Work) -> str | None:
    if work.organisation:
        return work.organisation
    return work.authors[0].surname if work.authors else None


def _key_author(work: _Work) -> str:
    """The author part of a cite key: `Surname`, `A & B`, `Surname et al.` or an organisation."""
    if work.organisation or len(work.authors) == 1:
        return _first_name_key(work)
    if len(work.authors) == 2:
        return f"{work.authors[0].surname} & {work.authors[1].surname}"
    return f"{work.authors[0].surname} et al."


# -------------------------------------------------------------------------- pages: claims


class _Key(NamedTuple):
    """A source as claims name it (docs/formats.md#claims)."""

    author: str  # "" for a bare year such as `[2023]`
    year: str  # with its a/b/c suffix
    matched: bool  # printed with the ` source` suffix

    def printed(self, parenthesised: bool = False) -> str:
        if not self.author:
            return f"[{self.year}]"
        return f"{self.author} ({self.year})" if parenthesised else f"{self.author}, {self.year}"


class _Cite(NamedTuple):
    key: _Key
    parenthesised: bool  # `Wei et al. (2022)` rather than `Wei et al., 2022`
    verdict: str | None  # the paragraph of a matched source found not to support the claim


@dataclass
class _Claim:
    kind: str
    basis: str
    section: str
    text: str
    quote: str
    substantial: bool
    counts: tuple[int, int] | None  # (N checked, M sources)
    cites: list[_Cite]
    rests: bool = False
    also_stated: tuple[str, str] | None = None  # (section, second quote)
    flags: tuple[str, ...] = ()  # identifiers in printed order; flagged list only

    @property
    def closes_its_line(self) -> bool:
        """docs/formats.md#claims: a status line ends its line only when cites or `- Rests …` follow on it."""
        return bool(self.cites) or self.rests


_KIND_BASIS = (("Premise", "citation"), ("Premise", "none given"), ("Interpretation", "citation"),
               ("Interpretation", "none given"), ("Interpretation", "reasoning"))  # fmt: skip
_KIND_BASIS_WEIGHTS = (101, 10, 35, 36, 39)  # the seed page's mix (docs/formats.md#claims)
_SOURCES_WEIGHTS = (66, 27, 43)  # M = 1, 2, 3 (docs/formats.md#claims)
# The a/b/c year suffix of each reference entry that needs one, by ("structured" | "raw", index).
_Suffixes = dict[tuple[str, int], str]


class _Page:
    """One claim-check page about a paper of the graph, planned whole, then rendered line by line."""

    def __init__(self, graph: _Graph, paper: int, plant: _Plant | None = None) -> None:
        self.graph = graph
        self.paper = paper
        self.words = graph.words
        self.rng = random.Random(f"{graph.seed}:page:{paper}")
        self.subject = graph.work(paper, published=True)
        self.texts: set[str] = set()
        self.references, raw_works, merged = self._reference_lists()
        suffixes = self._year_suffixes(raw_works, merged)
        self.keys, self.key_weights = self._key_pool(raw_works, merged, suffixes)
        self.raw_entry_lines = self._raw_entries(raw_works, merged, suffixes)
        self.main_sections, self.flagged_sections = self._sections()
        self.main, self.flagged = self._listed_claims()
        self.notes, self.note_only_claims = self._support_notes()
        self.citing, self.cited_by_total = self._citing_works()
        if plant:
            plant.apply(self)  # last, with its own rng: the page's other lines stay as without it
        self.raw_entries = len(self.raw_entry_lines)  # as the parser counts them, continuation lines joined
        self.raw_lines = [line for entry in self.raw_entry_lines for line in entry]
        self.lines_of: dict[int, int] = {}  # id() of a rendered entry or cite → its first line, for the truth

    # -- works

    def _reference_lists(self) -> tuple[list[_Entry], list[_Work], set[int]]:
        """Structured entries (most cited first), raw works (alphabetical) and which raw works share a line."""
        rng, graph = self.rng, self.graph
        structured: list[_Entry] = []
        raw_works: list[_Work] = []
        for cited in graph.refs[self.paper]:
            roll = rng.random()
            if roll < 0.62:
                published = rng.random() < 0.6
                work = graph.work(cited, published)
                structured.append(_entry(rng, work, 0.29, 0.15))
                other = graph.work(cited, not published)
                if (
                    other.doi != work.doi and rng.random() < 0.05
                ):  # both versions listed (docs/formats.md#references-citing-works-and-metadata duplicates)
                    structured.append(_entry(rng, other, 0.29, 0.0))
            elif roll < 0.88:
                raw_works.append(graph.work(cited, rng.random() < 0.5))
            # else the page does not list it at all
        outside = max(0, graph.reference_totals[self.paper] - len(graph.refs[self.paper]))
        earlier = [work for work in graph.outside if work.year <= self.subject.year]
        for work in rng.sample(earlier, min(outside, len(earlier))):
            if rng.random() < 0.55:
                structured.append(_entry(rng, work, 0.29, 0.15))
            else:
                raw_works.append(work)
        structured.sort(key=lambda entry: -entry.work.cited_by)
        raw_works.sort(key=lambda work: ((_first_name_key(work) or "").casefold(), work.year))
        # docs/formats.md#references-citing-works-and-metadata: a few lines hold two references; the second is invisible to a parser.
        merged = {index + 1 for index in range(len(raw_works) - 1) if rng.random() < 0.01}
        merged -= {index + 1 for index in merged}
        return structured, raw_works, merged

    def _year_suffixes(self, raw_works: list[_Work], merged: set[int]) -> _Suffixes:
        """a/b/c for works sharing first author and year, keyed by ("structured" | "raw", index) and
        numbered the way the resolver counts candidates: structured entries in list order, then raw ones."""
        groups: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for index, entry in enumerate(self.references):
            name = _first_name_key(entry.work)
            if name and entry.shows_authors:
                groups.setdefault((name.casefold(), entry.work.year), []).append(("structured", index))
        for index, work in enumerate(raw_works):
            name = _first_name_key(work)
            if name and index not in merged:
                groups.setdefault((name.casefold(), work.year), []).append(("raw", index))
        suffixes: _Suffixes = {}
        for members in groups.values():
            if len(members) > 1:
                suffixes.update(zip(members, string.ascii_lowercase))
        return suffixes

    def _key_pool(
        self, raw_works: list[_Work], merged: set[int], suffixes: _Suffixes
    ) -> tuple[list[_Key], list[float]]:
        """The sources claims cite, most often cited first: most name a listed work, some do not."""
        rng = self.rng
        keys: list[_Key] = []
        seen: set[tuple[str, str]] = set()

        def add(author: str, year: str, matched_rate: float) -> None:
            if (author, year) not in seen:
                seen.add((author, year))
                keys.append(_Key(author, year, rng.random() < matched_rate))

        for index, entry in enumerate(self.references):
            if entry.shows_authors and (entry.work.authors or entry.work.organisation) and rng.random() < 0.6:
                suffix = suffixes.get(("structured", index), "")
                add(_key_author(entry.work), f"{entry.work.year}{suffix}", 0.45)
        for index, work in enumerate(raw_works):
            if index not in merged and rng.random() < 0.6:
                add(_key_author(work), f"{work.year}{suffixes.get(('raw', index), '')}", 0.15)
        for _ in range(max(3, len(keys) // 3)):  # works the page does not list (or lists under another year)
            person = rng.choice(self.words.people)
            author = f"{person.surname} et al." if rng.random() < 0.6 else person.surname
            add(author, str(rng.randint(1995, 2026)), 0.05)
        add(rng.choice(_ORGANISATIONS), str(rng.randint(2018, 2026)), 0.0)
        if rng.random() < 0.3:
            add("", str(rng.randint(2018, 2025)), 0.0)  # `[2023]`, from `Chan et al., 2022b;2023`
        rng.shuffle(keys)
        weights = list(accumulate(1 / (rank + 1) ** 0.6 for rank in range(len(keys))))
        return keys, weights

    def _raw_entries(self, raw_works: list[_Work], merged: set[int], suffixes: _Suffixes) -> list[list[str]]:
        """The raw list: each entry's `- ` lines, with a duplicate and an orphan fragment now and then."""
        rng, people = self.rng, self.words.people
        entries: list[list[str]] = []
        for index, work in enumerate(raw_works):
            suffix = suffixes.get(("raw", index), "")
            lines = _raw_reference(rng, work, suffix, people, one_line=index in merged or index + 1 in merged)
            if index in merged:
                entries[-1][-1] += " " + lines[0][2:]
            else:
                entries.append(lines)
        if (
            entries and rng.random() < 0.5
        ):  # the same reference printed twice (docs/formats.md#references-citing-works-and-metadata duplicates)
            at = rng.randrange(len(entries))
            entries.insert(at, list(entries[at]))
        if rng.random() < 0.3:
            entries.insert(rng.randint(0, len(entries)), _orphan_fragment(rng, people))
        return entries

    def _citing_works(self) -> tuple[list[_Entry], int]:
        """`Cited by`: the paper's citers in the map plus a few outside it, most cited first, top 100."""
        rng, graph = self.rng, self.graph
        citers = sorted(graph.citers[self.paper], key=lambda paper: -graph.cited_count(paper))[:CITED_BY_LIMIT]
        citing = [_entry(rng, graph.work(paper, rng.random() < 0.3), 0.19, 0.11) for paper in citers]
        candidates = rng.sample(graph.outside, min(30, len(graph.outside)))
        later = [work for work in candidates if work.year >= self.subject.year]
        citing += [_entry(rng, work, 0.19, 0.11) for work in later[: rng.randint(0, 10)]]
        citing.sort(key=lambda entry: -entry.work.cited_by)
        total = len(graph.citers[self.paper]) + len(later) + rng.randint(0, 40)
        return citing[:CITED_BY_LIMIT], total

    # -- claims

    def _sections(self) -> tuple[list[str], list[str]]:
        """Section titles, none a prefix of another, each ending in a lowercase letter or `.:`
        so that docs/formats.md#claims splits a flagged claim's glued `<section><Text>` where it was glued."""
        rng = self.rng
        sections: list[str] = []
        while len(sections) < rng.randint(14, 30):
            gerund, topic = rng.choice(_GERUNDS), rng.choice(_TOPICS).lower()
            adjective, things = rng.choice(_ADJECTIVES).lower(), rng.choice(_THINGS)[1].lower()
            number = ".".join(str(rng.randint(1, 6)) for _ in range(rng.randint(1, 3))) + rng.choice(("", "", "a", "b"))
            section = rng.choice(
                (
                    f"{number} {gerund} {topic} in {adjective} {things}",
                    f"{number} {gerund} {things} for {topic}",
                    f"{adjective.capitalize()} {things} are hard to {rng.choice(_VERBS).lower()}.",
                    f"{topic.capitalize()} assumes {adjective} {things}:",
                    f"{number} '{adjective.capitalize()} {things}' need {topic}",
                    f"{topic.capitalize()} of {things}.",
                )
            )
            if not any(other.startswith(section) or section.startswith(other) for other in sections):
                sections.append(section)
        # About one in five flagged claims sits under a section no main-list header prints (docs/formats.md#claims).
        return sections[: len(sections) * 3 // 4], sections[len(sections) * 3 // 4 :]

    def _new_text(self) -> str:
        while True:
            text = self.words.sentence(self.rng)
            if text not in self.texts:
                self.texts.add(text)
                return text

    def _pick_keys(self, count: int) -> list[_Key]:
        picked: list[_Key] = []
        while len(picked) < min(count, len(self.keys)):
            key = self.keys[bisect_left(self.key_weights, self.rng.random() * self.key_weights[-1])]
            if key not in picked:
                picked.append(key)
        return picked

    def _verdict(self, text: str) -> str:
        rng = self.rng
        (_, things), (_, things2) = rng.sample(_THINGS, 2)
        topic = rng.choice(_TOPICS).lower()
        finding = rng.choice(
            (
                f"reports {topic} results for {things.lower()} trained on {rng.choice(_DOMAINS).lower()} data",
                f"describes how {things.lower()} are built and compares them with {things2.lower()}",
                f"discusses {topic} in {things.lower()} only in passing",
            )
        )
        claim = text[0].lower() + text[1:-1] if not text[:2].isupper() else text[:-1]
        negation = rng.choice(
            (
                f"It does not establish that {claim}.",
                f"Searches for {topic} and {things2.lower()} found no passage addressing the claim.",
                f"That supports part of the point, but the paper does not say that {claim}.",
            )
        )
        return f"{rng.choice(_VERDICT_PLACES)} {finding}. {negation} (LLM, conf={rng.randint(72, 88) / 100:.2f})"

    def _quote(self, text: str, keys: list[_Key]) -> str:
        """The sentence the claim was drawn from, with its in-text citations (docs/formats.md#claims)."""
        rng = self.rng
        body = text[:-1]
        named = [key for key in keys if key.author]
        narrative = named[0] if named and rng.random() < 0.12 else None  # `Wei et al. (2022) show that …`
        lead = f"{narrative.printed(True)} show that " if narrative else rng.choice(_LEADS)
        if lead and not body[:2].isupper():
            body = body[0].lower() + body[1:]
        body = lead + body
        if rest := [key for key in keys if key is not narrative]:
            body += " (" + ";".join(key.printed() for key in rest) + ")"
        roll = rng.random()
        if roll < 0.04:  # cut mid-sentence: `…under the EU AI Act to”`
            words = body.split(" ")
            return " ".join(words[: max(3, len(words) * 2 // 3)]) + rng.choice(("", ","))
        if roll < 0.06:  # extraction debris: `… foot_3 .”`
            return f"{body} foot_{rng.randint(1, 9)} ."
        return body + "."

    def _claim(self, sections: list[str], must_cite: bool) -> _Claim:
        rng = self.rng
        kind, basis = rng.choices(_KIND_BASIS, _KIND_BASIS_WEIGHTS)[0]
        text = self._new_text()
        counts, cites, rests = None, [], False
        if must_cite or rng.random() < (0.97 if basis == "citation" else 0.04):
            total = rng.choices((1, 2, 3), _SOURCES_WEIGHTS)[0]
            keys = self._pick_keys(total)
            total = len(keys)
            if (
                not must_cite and rng.random() < 0.03
            ):  # hidden sources: N of M but no `- cites` (docs/formats.md#which-sources-were-checked)
                counts = (rng.randint(0, total), total)
            else:
                cites = [
                    _Cite(key, rng.random() < 0.06, self._verdict(text) if key.matched and rng.random() < 0.5 else None)
                    for key in keys
                ]
                matched = sum(key.matched for key in keys)
                verdicts = sum(cite.verdict is not None for cite in cites)
                # Usually every matched source was checked; sometimes one was only matched (docs/formats.md#which-sources-were-checked).
                checked = matched if rng.random() < 0.88 else rng.randint(verdicts, matched)
                counts = (checked, total)
        else:
            rests = rng.random() < 0.04
            keys = self._pick_keys(rng.randint(1, 2)) if basis == "citation" else []
        return _Claim(
            kind=kind,
            basis=basis,
            section=rng.choice(sections),
            text=text,
            quote=self._quote(text, keys),
            substantial=rng.random() < 0.32,
            counts=counts,
            cites=cites,
            rests=rests,
        )

    def _listed_claims(self) -> tuple[list[_Claim], list[_Claim]]:
        rng = self.rng
        listed = rng.randint(90, 220)
        main_count = round(listed * rng.uniform(0.45, 0.55))
        flagged_count = listed - main_count
        # The list that follows a claim is never glued onto its status line, so each list's last
        # claim cites something (docs/formats.md#claims).
        main = [self._claim(self.main_sections, index == main_count - 1) for index in range(main_count)]
        all_sections = self.main_sections * 4 + self.flagged_sections
        flagged = [self._claim(all_sections, index == flagged_count - 1) for index in range(flagged_count)]
        for claims in (main, flagged):
            for index in range(1, len(claims)):
                if rng.random() < 0.01:  # two claims drawn from one sentence (L403/L470)
                    claims[index].quote = claims[index - 1].quote
        citing = [claim for claim in main if claim.cites and not claim.rests]
        if citing and rng.random() < 0.4:  # docs/formats.md#claims: stated again elsewhere, with a second quote
            claim = rng.choice(citing)
            claim.also_stated = (rng.choice(self.main_sections), self._quote(self._new_text(), []))
        for claim in flagged:
            claim.flags = self._flags()
        for kind in ("probably_not_substantial", "two_claims_in_one", "quote_partly_states"):
            if not any(kind in claim.flags for claim in flagged):  # the flag summary names all three kinds
                claim = rng.choice(flagged)
                claim.flags = tuple(sorted((*claim.flags, kind), key=_FLAG_ORDER.index))
        return main, flagged

    def _flags(self) -> tuple[str, ...]:
        rng = self.rng
        flags = []
        if rng.random() < 0.77:
            flags.append("probably_not_substantial")
            for reason, rate in (("too_vague", 0.22), ("conclusions_may_not_depend", 0.67), ("no_reason_given", 0.35)):
                if rng.random() < rate:
                    flags.append(
                        reason
                    )  # reasons only ever follow `Probably not …` (docs/formats.md#which-sources-were-checked)
        if rng.random() < 0.35 or not flags:
            flags.append("two_claims_in_one")
        return tuple(sorted(flags, key=_FLAG_ORDER.index))

    def _support_notes(self) -> tuple[list[tuple[str, str, str]], int]:
        """(note, claim text, quote): the `Rests on an assumption` claims again, then new claims (docs/formats.md#claims)."""
        rng = self.rng
        notes = [
            ("relies_without_support", claim.text, claim.quote) for claim in self.main + self.flagged if claim.rests
        ]
        new = 0
        for _ in range(rng.randint(8, 22)):
            note = "assumption" if rng.random() < 0.1 else "relies_without_support"
            if rng.random() < 0.06:  # three note claims drawn from one sentence (L1210–L1218)
                texts = [self._new_text() for _ in range(3)]
                clauses = [text[0].lower() + text[1:-1] for text in texts]
                quote = f"On the other hand, {clauses[0]}, {clauses[1]}, and {clauses[2]}."
                notes += [(note, text, quote) for text in texts]
                new += 3
            else:
                text = self._new_text()
                notes.append((note, text, self._quote(text, [])))
                new += 1
        rng.shuffle(notes)
        return notes, new

    # -- rendering

    def text(self) -> str:
        rng, subject, graph = self.rng, self.subject, self.graph
        listed = self.main + self.flagged
        sum_checked = sum(claim.counts[0] for claim in listed if claim.counts)
        sum_total = sum(claim.counts[1] for claim in listed if claim.counts)
        verdicts = sum(cite.verdict is not None for claim in listed for cite in claim.cites)
        works = len(self.references) + self.raw_entries
        # The header and metadata state reference totals that do not reconcile with the lists (docs/formats.md#which-sources-were-checked).
        stated_references = max(1, round(works * rng.uniform(0.6, 0.95)))
        registry = "The DOI matches its DataCite record" if subject.arxiv_id else "The DOI matches its Crossref record"
        lines = [
            f"{registry}; {_count(max(0, stated_references - rng.randint(0, 2)))} "
            f"of the {_count(stated_references)} references it cites were found in a registry or an index; "
            f"{_count(sum_checked)} of the {_count(sum_total)} sources its claims cite were checked for support.",
            graph.titles[self.paper],
            "Open accessAbstract",
            graph.words.abstract(rng, graph.titles[self.paper]),
            *self._snapshot(),
            "Claims the paper makes",
            f"{_count(sum_checked)} of {_count(sum_total)} cited sources checked · "
            f"{_count(sum_checked - verdicts)} supported · 0 flagged · accuracy not yet measured",
        ]
        self._render_claims(lines)
        lines += ["Citations", "Cites", "Part of this paper’s reference list could not be split into single entries."]
        for entry in self.references:
            self.lines_of[id(entry)] = len(lines) + 1
            lines += _entry_lines(rng, entry)
        lines += [
            "Flagged first, then by citations",
            f"Research works printed but not linked: {_count(len(self.raw_lines))}",
        ]
        for raw_entry in self.raw_entry_lines:
            self.lines_of[id(raw_entry)] = len(lines) + 1
            lines += raw_entry
        lines += ["Cited by", "Sorted by citations"]
        for entry in self.citing:
            lines += _entry_lines(rng, entry)
        lines += self._metadata(round(works * rng.uniform(0.5, 0.9)))
        lines += self._about()
        return "\n".join(lines)

    def _snapshot(self) -> list[str]:
        rng, words = self.rng, self.words
        return [
            "Overview",
            "AI snapshot",
            "Written from the paper’s full text.",
            "TL;DR",
            " ".join(words.sentence(rng) for _ in range(2)),
            "Key findings",
            *("- " + words.sentence(rng) for _ in range(rng.randint(3, 5))),
            "Methods",
            f"- Design: a {rng.choice(('controlled study', 'survey', 'benchmark study', 'position paper'))} of "
            f"{rng.choice(_TOPICS).lower()} in {rng.choice(_THINGS)[1].lower()}.",
            f"- Data or sample: {rng.randint(2, 40)} {rng.choice(_DOMAINS).lower()} datasets.",
            "- Main analysis: " + words.sentence(rng),
            "Limitations",
            "- Stated: " + words.sentence(rng),
            *("- Evident: " + words.sentence(rng) for _ in range(rng.randint(1, 2))),
            "Model-written summary. Check it against the paper before relying on it.",
            "Integrity signals",
            "Registry",
            "Cites",
            "Statistics",
            "Verification",
        ]

    def _render_claims(self, lines: list[str]) -> None:
        """Both lists with docs/formats.md#claims glue: what follows an open status line joins it."""
        status_open = False
        for claim in self.main:
            header = f"{claim.kind}{claim.basis}§ {claim.section}"
            if status_open:
                lines[-1] += " - " + header
            else:
                lines.append("- " + header)
            lines += [claim.text, f"“{claim.quote}”"]
            if claim.also_stated:
                lines += [f"- Also stated in: § {claim.also_stated[0]} · boosted", f"“{claim.also_stated[1]}”"]
            status_open = self._render_claim_body(lines, claim)
        for kind in ("probably_not_substantial", "two_claims_in_one", "quote_partly_states"):
            lines.append(f"- {_FLAG_OF[kind]} {sum(kind in claim.flags for claim in self.flagged)}")
        for claim in self.flagged:
            flags = " ".join(_FLAG_OF[flag] for flag in claim.flags)
            if status_open:
                lines[-1] += flags
            else:
                lines.append(flags)
            lines += [f"{claim.kind}{claim.basis}§ {claim.section}{claim.text}", f"“{claim.quote}”"]
            status_open = self._render_claim_body(lines, claim)
        for note, text, quote in self.notes:
            lines += [_NOTE_OF[note], text, f"“{quote}”"]

    def _render_claim_body(self, lines: list[str], claim: _Claim) -> bool:
        """The status line and what hangs off it; True when the status line is left open."""
        status = STATUS + (SUBSTANTIAL if claim.substantial else NOT_SUBSTANTIAL)
        if claim.counts:
            status += f"{claim.counts[0]} of {claim.counts[1]} sources checked"
        lines.append(status)
        if claim.rests:
            lines[-1] += f"- Rests on an assumption: {claim.text}"
            return False
        after_verdict = False
        for index, cite in enumerate(claim.cites):
            entry = f"- cites {cite.key.printed(cite.parenthesised)}" + (" source" if cite.key.matched else "")
            if index == 0:
                lines[-1] += entry
            elif after_verdict:
                lines[-1] += " " + entry
            else:
                lines.append(entry)
            self.lines_of[id(cite)] = len(lines)
            after_verdict = cite.verdict is not None
            if not cite.key.matched:
                lines.append(UNMATCHED)
            elif cite.verdict:
                lines += [cite.verdict, EXPERIMENTAL]
        if claim.also_stated:
            lines.append(f"- Also stated in: § {claim.also_stated[0]} · boosted")
        return not claim.closes_its_line

    def _metadata(self, stated_references: int) -> list[str]:
        rng, subject = self.rng, self.subject
        arxiv_id = self.graph.ids[self.paper]
        people = self.graph.work(self.paper, published=False).authors
        names = [person.structured() for person in people]
        authors = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]
        preprint = subject.arxiv_id is not None
        venue = "arXiv" if preprint else subject.venue
        pairs: list[tuple[str, list[str]]] = [
            ("Authors", [authors]),
            ("ORCID", []),
            ("Venue", [venue]),
            ("Publisher", ["arXiv" if preprint else rng.choice(_PUBLISHERS)]),
            ("Published", [str(subject.year)]),
            ("ISSN", [f"{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)} (ISSN-L)"]),
        ]
        if not preprint:
            pairs.append(("DOI", [subject.doi]))
        topics = rng.sample(_TOPICS, rng.randint(1, 3))
        version = rng.choice(("submittedVersion", "acceptedVersion"))
        by_year = " · ".join(f"{year}: {rng.randint(1, 200)}" for year in range(2026, max(subject.year, 2023) - 1, -1))
        pairs += [
            ("arXiv", [arxiv_id]),
            ("OpenAlex", [f"W{rng.randint(10**9, 10**10 - 1)}"]),
            ("Semantic Scholar", [f"{rng.getrandbits(160):040x}"]),
            ("Cited by", [_count(self.cited_by_total)]),
            ("References", [_count(stated_references)]),
            ("Citations by year", [by_year] if by_year else []),  # a paper not yet cited: no value
            ("Type", ["posted content" if preprint else "article"]),
            ("Language", ["en"]),
            ("Open access", ["green", "arxiv.org"]),
            ("Licence", []),
            ("Locations", [f"arXiv (Cornell University) ({version}, cc-by)"]),
            ("Topics", [f"Formal Sciences › Computing › Machine Learning › {topic}" for topic in topics]),
            ("Keywords", [", ".join(rng.sample(_TOPICS, 4)).lower()]),
        ]
        return ["Metadata"] + [f"- {text}" for key, values in pairs for text in (key, *values)]

    def _about(self) -> list[str]:
        rng = self.rng
        day = date(2026, rng.randint(1, 9), rng.randint(1, 28)).isoformat()
        return [
            "About these checks",
            "Counts and registry lookups on this page are computed; claims and their checks come from language"
            " models and can be wrong, so read the quote and the cited source before relying on a verdict.",
            f"A language model drew the claims from the paper on {day}, under version {rng.randint(2, 5)} of the"
            f" claim definition (model quillstone-{rng.randint(2, 4)}.{rng.randint(0, 9)}-mini,"
            f" prompt extract-v{rng.randint(2, 5)}).",
            f"A second model labelled each claim on {day} (model tallyhand-{rng.randint(1, 3)}.{rng.randint(0, 20)},"
            f" definition revision labels-v0.{rng.randint(1, 9)}).",
            f"Cited sources are checked with a language model’s help (verity-{rng.randint(3, 7)}).",
            "Totals on this page are recounted from the lists above, not taken from the paper.",
            "What counts as a claim ›How we measure confidence ›How we check this ›",
            "Are you an author, or do you see a problem with this page? Request a review",
        ]


# -------------------------------------------------------------------------- identity cases

# Hidden, so that discovery skips it and the corpus directory stays ingestible as a whole.
TRUTH_FILE = ".truth.json"


@dataclass
class _Plant:
    """What the identity cases add to one page, drawn from an rng of its own."""

    rng: random.Random
    references: list[_Entry] = field(default_factory=list)
    raw_groups: list[list[list[str]]] = field(default_factory=list)  # raw entries kept together, in order
    claims: list[list[_Cite]] = field(default_factory=list)  # each the cites of one main-list claim

    def apply(self, page: _Page) -> None:
        for entry in self.references:  # where its count puts it: the list stays most cited first (docs/formats.md#references-citing-works-and-metadata)
            at = next(
                (index for index, other in enumerate(page.references) if other.work.cited_by < entry.work.cited_by),
                len(page.references),
            )
            page.references.insert(at, entry)
        for group in self.raw_groups:
            at = self.rng.randint(0, len(page.raw_entry_lines))
            page.raw_entry_lines[at:at] = group
        for cites in self.claims:
            while (text := page.words.sentence(self.rng)) in page.texts:
                pass
            page.texts.add(text)
            quote = f"{text[:-1]} ({';'.join(cite.key.printed() for cite in cites)})."
            page.main.insert(
                0,
                _Claim(
                    "Premise",
                    "citation",
                    page.main_sections[0],
                    text,
                    quote,
                    substantial=False,
                    counts=(0, len(cites)),
                    cites=cites,
                ),
            )


def _planted_entry(work: _Work) -> _Entry:
    return _Entry(work, has_title=True, self_citation=False, preprint=False, shows_authors=True, shows_venue=True)


def _ended_title(title: str) -> str:
    """The title as a raw reference ends it: `?` takes no period (`… a mirage? In …`)."""
    return title if title.endswith("?") else title + "."


def _raw_arxiv(work: _Work) -> str:
    return f"{_printed_authors(work)}. {work.title}, {work.year}. URL https://arxiv.org/abs/{work.arxiv_id}."


def _raw_journal(rng: random.Random, work: _Work, doi: str, url: str | None = None, cut: bool = False) -> str:
    """A journal entry printing `doi`; `cut` ends the line inside it, as extractions cut long entries."""
    volume, number, first = rng.randint(1, 60), rng.randint(1, 12), rng.randint(1, 900)
    text = (
        f"{_printed_authors(work)}. {_ended_title(work.title)} Journal of {rng.choice(_FIELDS)}, "
        f"{volume}({number}):{first}-{first + rng.randint(5, 30)}, {_MONTHS[rng.randrange(12)]} {work.year}. "
        f"doi: {doi}"
    )
    return text if cut else f"{text}. URL {url or 'https://doi.org/' + doi}."


def _raw_conference(rng: random.Random, work: _Work, year: str) -> str:
    return (
        f"{_printed_authors(work)}. {_ended_title(work.title)} In Proceedings of the {rng.choice(_FIELDS)} "
        f"Conference, {year}. URL https://openreview.net/forum?id={rng.getrandbits(48):012x}."
    )


def _raw_yearless(rng: random.Random, work: _Work) -> str:
    return f"{_printed_authors(work)}. {_ended_title(work.title)} Technical report, {rng.choice(_PUBLISHERS)}."


class _IdentityCases:
    """The identity cases of issue 15, planted in the first (up to) four pages, and their truth:
    which planted mentions are one work, which fit two works, what each source key names.

    (a) glued raw lines whose two entries carry their own ids and years, the second entry's work
        also a structured reference elsewhere; (b) source keys whose a/b/c suffix a positional
        pick gets wrong; (c) a yearless raw title that two works, years apart, carry; (d) a cut
        DOI beside the full one, with title-only mentions; (e) a preprint on cards and its
        published DOI on pages, one raw entry printing both.
    """

    def __init__(self, graph: _Graph) -> None:
        if len(graph.page_papers) < 2:
            raise ValueError("identity cases need at least 2 pages")
        self.graph = graph
        self.rng = random.Random(f"{graph.seed}:identity")
        self.pages = [graph.page_papers[index % len(graph.page_papers)] for index in range(4)]
        self.plants = {paper: _Plant(random.Random(f"{graph.seed}:identity:{paper}")) for paper in self.pages}
        self.surnames = {person.surname for person in graph.words.people}
        self.used = set(graph.page_papers)
        self.pending: list[tuple[dict[str, Any], int, object]] = []  # (mention, page, element rendered)
        self.carded: dict[int, dict[str, Any]] = {}  # paper of the graph → its work's truth record
        self.cases = [
            self._glued(),
            self._suffix_gaps(),
            self._yearless_title(),
            self._cut_doi(),
            self._preprint_published(),
        ]

    # -- the truth as it is built

    def _map_work(self, name: str, page: int, published: bool) -> tuple[int, dict[str, Any]]:
        """A paper of the graph the page cites (else an earlier one): no page's subject, not used
        yet, cited in the map so other cards list it, with a publisher version if `published`."""
        graph = self.graph

        def fits(paper: int) -> bool:
            return (
                paper not in self.used
                and len(graph.citers[paper]) > 0
                and (not published or graph.work(paper, True).arxiv_id is None)
            )

        candidates = [*graph.refs[page], *range(page - 1, -1, -1)]
        fitting = [paper for paper in candidates if fits(paper)]
        if not fitting:
            raise ValueError("the corpus is too small for the identity cases")
        # A published version a year after the preprint where there is one: "year within one", not equal.
        paper = next(
            (paper for paper in fitting if published and graph.years[paper] != graph.posted[paper].year), fitting[0]
        )
        self.used.add(paper)
        work = graph.work(paper, published=False)
        record = self._record(name, work)
        if published:
            record["doi"] = graph.work(paper, published=True).doi
        self.carded[paper] = record
        return paper, record

    def _person(self) -> _Person:
        """Someone with a surname no other person has, so only the planted entries carry it."""
        while (surname := self.graph.words._name(self.rng, 3)) in self.surnames:
            pass
        self.surnames.add(surname)
        return _Person(self.graph.words._name(self.rng, 2), "", surname)

    def _work(self, year: int, title: str | None = None, first_author: _Person | None = None) -> _Work:
        """A work outside the map, with three authors so that its key reads `Surname et al.`."""
        rng = self.rng
        authors = rng.sample(self.graph.words.people, 3)
        if first_author:
            authors[0] = first_author
        return _Work(
            title or self.graph.unique_title(rng),
            tuple(authors),
            None,
            year,
            _venue(rng),
            f"{_doi_prefix(rng)}/{rng.choice(_SYLLABLES)}.{year}.{rng.randint(10000, 99999)}",
            None,
            int(rng.lognormvariate(math.log(300), 1.6)),
        )

    @staticmethod
    def _record(name: str, work: _Work) -> dict[str, Any]:
        return {
            "work": name,
            "title": work.title,
            "year": work.year,
            "arxiv_id": work.arxiv_id,
            "doi": None if work.arxiv_id else work.doi,
            "mentions": [],
        }

    def _mention(self, page: int, element: object, kind: str, **prints: Any) -> dict[str, Any]:
        """A planted mention on a page; its line is filled in once the page is rendered."""
        mention = {
            "file": _file_name("page", self.graph.ids[page]),
            "line": None,
            "as": kind,
            "prints": {key: value for key, value in prints.items() if value is not None},
        }
        self.pending.append((mention, page, element))
        return mention

    def _structured(self, record: dict[str, Any], page: int, work: _Work) -> None:
        entry = _planted_entry(work)
        self.plants[page].references.append(entry)
        record["mentions"].append(
            self._mention(page, entry, "structured reference", title=work.title, year=work.year, doi=work.doi)
        )

    def _raw(self, page: int, *texts: str) -> list[list[str]]:
        """One group of raw entries (one line each), planted together in this order."""
        group = [["- " + text] for text in texts]
        self.plants[page].raw_groups.append(group)
        return group

    # -- the cases

    def _glued(self) -> dict[str, Any]:
        rng, graph = self.rng, self.graph
        first_page, second_page = self.pages[0], self.pages[1]
        works = []
        # arXiv entry, then a DOI entry of another year; and the other way round on the next page.
        for page, other_page, arxiv_first in ((first_page, second_page, True), (second_page, first_page, False)):
            tag = "arxiv-first" if arxiv_first else "doi-first"
            paper, carded = self._map_work(f"a:{tag}:arxiv-entry", page, published=False)
            preprint = graph.work(paper, published=False)
            work = self._work(year=max(1950, preprint.year - rng.randint(3, 8)))
            doi_record = self._record(f"a:{tag}:doi-entry", work)
            parts = [_raw_arxiv(preprint), _raw_journal(rng, work, work.doi)]
            (line,) = self._raw(page, " ".join(parts if arxiv_first else parts[::-1]) + " · DOI")
            place = ("first", "second") if arxiv_first else ("second", "first")
            carded["mentions"].append(
                self._mention(
                    page,
                    line,
                    f"raw reference, {place[0]} of two on one line",
                    arxiv_id=preprint.arxiv_id,
                    year=preprint.year,
                )
            )
            doi_record["mentions"].append(
                self._mention(page, line, f"raw reference, {place[1]} of two on one line", doi=work.doi, year=work.year)
            )
            self._structured(doi_record, other_page, work)
            works += [carded, doi_record]
        return {
            "case": "glued_ids",
            "about": "A raw line holding two references (docs/formats.md#references-citing-works-and-metadata), each with its "
            "own id and year; the DOI entry's work is also a structured reference on another page. Each "
            "part is its own work; neither part's id or year names the other.",
            "works": works,
        }

    def _suffix_gaps(self) -> dict[str, Any]:
        rng, page = self.rng, self.pages[2]
        year = self.graph.posted[page].year
        plant = self.plants[page]
        works, keys = [], []

        def work(name: str, person: _Person, year: int) -> tuple[_Work, dict[str, Any]]:
            planted = self._work(year, first_author=person)
            record = self._record(name, planted)
            works.append(record)
            return planted, record

        def raw(records: list[tuple[_Work, dict[str, Any], str]]) -> None:
            group = self._raw(page, *(_raw_conference(rng, planted, printed) for planted, _, printed in records))
            for (planted, record, printed), entry in zip(records, group):
                record["mentions"].append(
                    self._mention(page, entry, "raw reference", title=planted.title, year=printed)
                )

        def claim(person: _Person, cited: list[tuple[str, str | None, str]]) -> None:
            cites = [_Cite(_Key(f"{person.surname} et al.", printed, False), False, None) for printed, _, _ in cited]
            plant.claims.append(cites)
            for cite, (_, refers_to, why) in zip(cites, cited):
                mention = self._mention(page, cite, "source key", key=cite.key.printed())
                mention.update(refers_to=refers_to, why=why)
                keys.append(mention)

        # X prints `a` and `c` only: `b` names an entry the page does not list.
        x = self._person()
        xa, xa_record = work("b:x-a", x, year)
        xc, xc_record = work("b:x-c", x, year)
        raw([(xa, xa_record, f"{year}a"), (xc, xc_record, f"{year}c")])
        claim(
            x,
            [
                (f"{year}a", "b:x-a", "printed a"),
                (f"{year}b", None, "no entry prints b; the 2nd is c"),
                (f"{year}c", "b:x-c", "printed c, yet only the 2nd candidate"),
            ],
        )
        # Y: two structured entries (which print no suffix) come first, so `b` is the raw one printing it.
        y = self._person()
        for index in (1, 2):
            structured, record = work(f"b:y-structured-{index}", y, year - 1)
            self._structured(record, page, structured)
        yb, yb_record = work("b:y-b", y, year - 1)
        raw([(yb, yb_record, f"{year - 1}b")])
        claim(y, [(f"{year - 1}b", "b:y-b", "printed b; the 2nd candidate is a structured entry")])
        # Z prints `b` only: `a` of that year and `a` one year off name entries the page does not list.
        z = self._person()
        zb, zb_record = work("b:z-b", z, year - 2)
        raw([(zb, zb_record, f"{year - 2}b")])
        claim(
            z,
            [
                (f"{year - 2}b", "b:z-b", "printed b"),
                (f"{year - 2}a", None, "no entry prints a"),
                (f"{year - 1}a", None, "one year off, and the entry prints b, not a"),
            ],
        )
        return {
            "case": "suffix_gaps",
            "about": "Source keys against raw entries that print their a/b/c suffix: "
            "a key names the entry printing its suffix, or no entry (refers_to null) where none prints it.",
            "works": works,
            "keys": keys,
        }

    def _yearless_title(self) -> dict[str, Any]:
        rng = self.rng
        title = self.graph.unique_title(rng)
        earlier = self._work(rng.randint(1996, 2010), title=title)
        later = self._work(earlier.year + rng.randint(3, 9), title=title)
        works = [self._record("c:earlier", earlier), self._record("c:later", later)]
        self._structured(works[0], self.pages[0], earlier)
        self._structured(works[1], self.pages[1], later)
        (dated,) = self._raw(self.pages[3], _raw_conference(rng, later, str(later.year)))
        works[1]["mentions"].append(self._mention(self.pages[3], dated, "raw reference", title=title, year=later.year))
        someone = earlier._replace(authors=tuple(rng.sample(self.graph.words.people, 2)))
        (yearless,) = self._raw(self.pages[2], _raw_yearless(rng, someone))
        ambiguous = self._mention(self.pages[2], yearless, "raw reference without a year", title=title)
        ambiguous["fits"] = ["c:earlier", "c:later"]
        return {
            "case": "yearless_title",
            "about": f"Two works share a title, {later.year - earlier.year} years "
            "apart; a raw reference prints the title with no year (and authors of neither). It fits both and "
            "must bridge neither.",
            "works": works,
            "ambiguous": [ambiguous],
        }

    def _cut_doi(self) -> dict[str, Any]:
        rng = self.rng
        work = self._work(rng.randint(2005, 2016))
        cut = work.doi[:-4]  # `…/abc.2011.82374` → `…/abc.2011.8`
        record = self._record("d:work", work)
        self._structured(record, self.pages[1], work)
        (line,) = self._raw(self.pages[3], _raw_journal(rng, work, cut, cut=True))
        record["mentions"].append(
            self._mention(
                self.pages[3], line, "raw reference cut inside its DOI", title=work.title, year=work.year, doi=cut
            )
        )
        for page in (self.pages[0], self.pages[2]):
            (titled,) = self._raw(page, _raw_conference(rng, work, str(work.year)))
            record["mentions"].append(
                self._mention(page, titled, "raw reference, title only", title=work.title, year=work.year)
            )
        return {
            "case": "cut_doi",
            "about": f"One work: its DOI {work.doi} in full on one page, cut to {cut} "
            "on another, and title-only mentions elsewhere.",
            "works": [record],
        }

    def _preprint_published(self) -> dict[str, Any]:
        graph = self.graph
        paper, record = self._map_work("e:work", self.pages[2], published=True)
        published, preprint = graph.work(paper, published=True), graph.work(paper, published=False)
        self._structured(record, self.pages[2], published)
        (both,) = self._raw(
            self.pages[3],
            _raw_journal(self.rng, published, published.doi, url=f"https://arxiv.org/abs/{preprint.arxiv_id}"),
        )
        record["mentions"].append(
            self._mention(
                self.pages[3],
                both,
                "raw reference printing both ids",
                title=published.title,
                year=published.year,
                doi=published.doi,
                arxiv_id=preprint.arxiv_id,
            )
        )
        return {
            "case": "preprint_published",
            "about": "A preprint named by arXiv id on cards and by its publisher "
            "DOI (same title, year within one) on a page; one raw entry prints both. One work with both ids.",
            "works": [record],
        }

    # -- after rendering

    def note_card(self, file: str, paper: int, text: str) -> None:
        """The card mentions of the planted works of the graph: the subject line and list items."""
        for carded, record in self.carded.items():
            if carded == paper:
                record["mentions"].append(
                    {"file": file, "line": 1, "as": "card subject", "prints": {"arxiv_id": self.graph.ids[paper]}}
                )
                continue
            needle = f"]({SITE}{self.graph.ids[carded]}/)"
            if needle in text:
                line = next(number for number, content in enumerate(text.split("\n"), 1) if needle in content)
                record["mentions"].append(
                    {"file": file, "line": line, "as": "card item", "prints": {"arxiv_id": self.graph.ids[carded]}}
                )

    def note_page(self, page: _Page) -> None:
        for mention, paper, element in self.pending:
            if paper == page.paper:
                mention["line"] = page.lines_of[id(element)]

    def truth(self) -> dict[str, Any]:
        graph = self.graph
        for case in self.cases:
            for record in case["works"]:
                record["mentions"].sort(key=lambda mention: (mention["file"], mention["line"]))
        return {
            "about": "Planted identity cases (bench/synth.py --identity-cases): each case's works are one "
            "work each, with the mentions listed; `ambiguous` mentions fit several works; `keys` give what "
            "each planted source key names.",
            "seed": graph.seed,
            "cases": self.cases,
        }


# -------------------------------------------------------------------------- the corpus


@dataclass(frozen=True)
class SynthSummary:
    """What `generate` wrote."""

    out_dir: str
    seed: int
    papers: int  # works in the citation graph, one card each
    cards: int
    pages: int
    card_list_items: int  # `Builds on` + `Built on by` items over all cards
    claims: int  # listed claims plus claims found only in support notes, over all pages
    references: int  # structured `Cites` entries
    raw_reference_lines: int
    citing_works: int  # `Cited by` entries
    bytes_written: int
    files: int
    truth: str | None = None  # the identity cases' truth file, when they were planted


def _file_name(kind: str, arxiv_id: str) -> str:
    return f"{kind}_{arxiv_id.replace('/', '_')}.txt"


def generate(
    out_dir: str | Path, papers: int = 1000, pages: int = 10, seed: int = 0, identity_cases: bool = False
) -> SynthSummary:
    """Write `papers` paper cards and up to `pages` claim-check pages (one per paper, at most
    two thirds of the papers) into out_dir as `card_<id>.txt` / `page_<id>.txt`.

    With `identity_cases`, the first (up to) four pages also carry the planted lines of
    `_IdentityCases`, and their truth is written to `TRUTH_FILE` in out_dir; every other line
    is as without them. Same arguments, same bytes. Files already in out_dir are overwritten,
    never removed.
    """
    if papers < 1 or pages < 0:
        raise ValueError("papers must be at least 1 and pages at least 0")
    graph = _Graph(seed, papers, pages)
    cases = _IdentityCases(graph) if identity_cases else None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = items = claims = references = raw_lines = citing = 0
    for paper in range(papers):
        text = _card_text(graph, paper)
        name = _file_name("card", graph.ids[paper])
        if cases:
            cases.note_card(name, paper, text)
        data = text.encode("utf-8")
        (out / name).write_bytes(data)
        written += len(data)
        items += min(CARD_LIST_LIMIT, len(graph.refs[paper])) + min(CARD_LIST_LIMIT, len(graph.citers[paper]))
    for paper in graph.page_papers:
        page = _Page(graph, paper, cases.plants.get(paper) if cases else None)
        data = page.text().encode("utf-8")
        if cases:
            cases.note_page(page)
        (out / _file_name("page", graph.ids[paper])).write_bytes(data)
        written += len(data)
        claims += len(page.main) + len(page.flagged) + page.note_only_claims
        references += len(page.references)
        raw_lines += len(page.raw_lines)
        citing += len(page.citing)
    return SynthSummary(
        out_dir=str(out),
        seed=seed,
        papers=papers,
        cards=papers,
        pages=len(graph.page_papers),
        card_list_items=items,
        claims=claims,
        references=references,
        raw_reference_lines=raw_lines,
        citing_works=citing,
        bytes_written=written,
        files=papers + len(graph.page_papers),
        truth=_write_truth(out, cases) if cases else None,
    )


def _write_truth(out: Path, cases: _IdentityCases) -> str:
    path = out / TRUTH_FILE
    path.write_text(json.dumps(cases.truth(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write a deterministic synthetic corpus in both document formats.",
        epilog="python bench/synth.py --papers 2000 --pages 20 --out /tmp/corpus --seed 1",
    )
    parser.add_argument("--papers", type=int, default=1000, help="papers in the citation graph (one card each)")
    parser.add_argument("--pages", type=int, default=10, help="claim-check pages")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same bytes)")
    parser.add_argument(
        "--identity-cases",
        action="store_true",
        help="also plant, in the first four pages, the hard identity cases (glued raw lines with "
        "ids, a/b/c suffix gaps, a yearless title two works share, a cut DOI, preprint/published "
        "pairs) and write their truth to .truth.json in the output directory (needs 2 pages)",
    )
    args = parser.parse_args(argv)
    try:
        summary = generate(
            args.out, papers=args.papers, pages=args.pages, seed=args.seed, identity_cases=args.identity_cases
        )
    except ValueError as exc:
        print(f"synth: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {summary.cards:,} cards and {summary.pages:,} pages ({summary.bytes_written:,} bytes) to {args.out}")
    if summary.truth:
        print(f"planted the identity cases; which mentions are one work: {summary.truth}")
    return 0


SHOWN = re.compile(r", (?P<shown>\d+) of")


def revised(text: str) -> str:
    """A document's next version: the last entry of its last citation list dropped (the list's
    heading then shows one fewer), or, where it has none, a sentence added at the end."""
    lines = text.split("\n")
    listed = [i for i, line in enumerate(lines) if line.startswith("- [")]
    headings = [i for i, line in enumerate(lines) if SHOWN.search(line) and line.startswith("## ")]
    before = [i for i in headings if listed and i < listed[-1]]
    if listed and before:
        heading = before[-1]
        lines[heading] = SHOWN.sub(lambda m: f", {int(m['shown']) - 1} of", lines[heading])
        del lines[listed[-1]]
        return "\n".join(lines)
    return text.rstrip("\n") + " A sentence added in revision.\n"


if __name__ == "__main__":
    sys.exit(main())
