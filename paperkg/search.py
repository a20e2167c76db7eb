"""Search text for the full-text indexes, checked in Python before Neo4j sees it.

`search_claims` and `search_works` take Lucene's query syntax: words, "phrases" (a `~N` after
one allows N words between), `AND`, `OR`, `NOT` (or `&&`, `||`, `!`), a `+` or `-` before a
word (must, must not), parentheses, a wildcard inside or at the end of a word (`neuro*`,
`wom?n`), a fuzzy word (`root~`) and a boost (`root^2`). `search_text` reads that syntax,
refuses what Lucene would refuse or what can only find nothing, each with one sentence naming
the problem, and gives back the query to send:

* a word holding other punctuation (`in-context`, `x/y`, `ratio:3`) is sent as the phrase of
  its parts, so it finds them side by side, as the index splits them (`in context`);
* characters Lucene treats as syntax anywhere else (`: / [ ] { } ^ ~`) are matched literally,
  as inside a phrase;
* a wildcard word is lower-cased and its accents folded here, since Lucene does not analyse it.

The indexes use Neo4j's `standard-folding` analyzer (cypher/schema.cypher): lower case,
accents folded to ASCII, English stop words left out. A search made only of stop words would
find nothing, so it is refused too.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

EXAMPLE = 'search text looks like: polysemantic AND "single neurons", or neuro* NOT superposition'
# The English stop words Lucene's standard analyzers leave out (the `stopwords` that
# db.index.fulltext.listAvailableAnalyzers() gives for standard-folding).
STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then "  # noqa: SIM905
    "there these they this to was will with".split()
)
# What Lucene's classic query parser reads as syntax; escaped where meant literally.
SPECIAL = set('+-&|!(){}[]^"~*?:\\/')
WILDCARDS = "*?"
# Letters NFKD does not decompose, folded as Lucene's ASCIIFoldingFilter folds them.
FOLDS = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})
NUMBER = r"\d+(?:\.\d+)?"
SUFFIX = re.compile(rf"(?:~(?:{NUMBER})?)?(?:\^{NUMBER})?$")  # a word's fuzziness and boost
PHRASE_SUFFIX = re.compile(rf"(?:~{NUMBER})?(?:\^{NUMBER})?(?=[\s)]|$)")  # a phrase's slop and boost
OPERATORS = {"AND": "and", "OR": "or", "NOT": "not", "&&": "and", "||": "or"}
PREFIXES = {"+": "must", "-": "not", "!": "not"}


class SearchSyntaxError(ValueError):
    """The search text is not one Lucene can read, or it can only find nothing."""

    def __init__(self, problem: str):
        super().__init__(f"{problem} ({EXAMPLE})")


@dataclass(frozen=True)
class Token:
    kind: str  # word, phrase, open, close, and, or, not, must
    text: str  # as the user wrote it (a phrase without its quotes)
    at: int  # its first character, counted from 1
    literal: tuple[bool, ...] = ()  # per character of a word, whether a backslash escaped it
    suffix: str = ""  # a phrase's `~N` and `^N`


def search_text(text: str) -> str:
    """The Lucene query to send for `text`, or SearchSyntaxError naming what is wrong."""
    if not text.strip():
        raise SearchSyntaxError("the search text is empty")
    tokens = _tokens(text)
    clauses, end = _clauses(tokens, 0, None)
    if end < len(tokens):  # only a `)` stops the top level early
        raise SearchSyntaxError(f"the ')' at character {tokens[end].at} closes no '('")
    wanted = [clause for clause in clauses if not clause[0]]
    if not wanted:
        raise SearchSyntaxError("NOT and - only exclude: give a word to find as well")
    if all(clause[1] for clause in wanted):
        raise SearchSyntaxError(
            f"{text.strip()!r} finds nothing: the index leaves out punctuation and English stop words "
            "(a, in, not, of, the, …)"
        )
    return " ".join(_serialise(tokens))


def fold(text: str) -> str:
    """`text` lower-cased with its accents folded to ASCII, as the index stores words."""
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(FOLDS))
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _tokens(text: str) -> list[Token]:
    tokens: list[Token] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace():
            index += 1
        elif char in "()":
            tokens.append(Token("open" if char == "(" else "close", char, index + 1))
            index += 1
        elif char == '"':
            index = _phrase(text, index, tokens)
        elif text.startswith(("&&", "||"), index):
            tokens.append(Token(OPERATORS[text[index : index + 2]], text[index : index + 2], index + 1))
            index += 2
        elif char in PREFIXES:
            tokens.append(Token(PREFIXES[char], char, index + 1))
            index += 1
        else:
            index = _word(text, index, tokens)
    return tokens


def _phrase(text: str, start: int, tokens: list[Token]) -> int:
    index = start + 1
    while index < len(text) and text[index] != '"':
        index += 2 if text[index] == "\\" else 1
    if index >= len(text):
        raise SearchSyntaxError(f"the quote at character {start + 1} is never closed")
    suffix = PHRASE_SUFFIX.match(text, index + 1)
    taken = suffix.group(0) if suffix else ""
    tokens.append(Token("phrase", text[start + 1 : index], start + 1, suffix=taken))
    return index + 1 + len(taken)


def _word(text: str, start: int, tokens: list[Token]) -> int:
    chars: list[str] = []
    literal: list[bool] = []
    index = start
    while index < len(text) and not text[index].isspace() and text[index] not in '()"':
        if text[index] == "\\":
            if index + 1 >= len(text):
                raise SearchSyntaxError("the backslash at the end escapes nothing")
            chars.append(text[index + 1])
            literal.append(True)
            index += 2
            continue
        chars.append(text[index])
        literal.append(False)
        index += 1
    word = "".join(chars)
    if word in OPERATORS and not any(literal):
        tokens.append(Token(OPERATORS[word], word, start + 1))
    else:
        tokens.append(Token("word", word, start + 1, tuple(literal)))
    return index


# A clause: (whether it only excludes, whether it can match nothing by itself).
Clause = tuple[bool, bool]


def _clauses(tokens: list[Token], index: int, opened: Token | None) -> tuple[list[Clause], int]:
    """The clauses from `index` to the `)` closing `opened` (or to the end), checked."""
    clauses: list[Clause] = []
    binary: Token | None = None  # an AND or OR waiting for its right side
    while index < len(tokens) and tokens[index].kind != "close":
        token = tokens[index]
        if token.kind in ("and", "or"):
            if not clauses or binary:
                raise SearchSyntaxError(f"{token.text!r} at character {token.at} needs a word on each side")
            binary = token
            index += 1
            continue
        excludes = False
        while tokens[index].kind in ("not", "must"):
            prefix = tokens[index]
            excludes = excludes or prefix.kind == "not"
            index += 1
            if index >= len(tokens) or tokens[index].kind in ("close", "and", "or"):
                raise SearchSyntaxError(f"{prefix.text!r} at character {prefix.at} needs a word after it")
        token = tokens[index]
        if token.kind == "open":
            inner, index = _clauses(tokens, index + 1, token)
            if not inner:
                raise SearchSyntaxError(f"the parentheses at character {token.at} hold nothing")
            wanted = [clause for clause in inner if not clause[0]]
            empty = all(clause[1] for clause in wanted)
        else:
            empty = _finds_nothing(token)
        clauses.append((excludes, empty))
        binary = None
        index += 1
    if binary:
        raise SearchSyntaxError(f"{binary.text!r} at character {binary.at} needs a word on each side")
    if opened and index >= len(tokens):
        raise SearchSyntaxError(f"the '(' at character {opened.at} is never closed")
    return clauses, index


def _finds_nothing(token: Token) -> bool:
    """Whether a word or phrase holds no word the index keeps (a wildcard word may match any)."""
    if token.kind == "phrase":
        body = token.text
    else:
        body, wildcard, _ = _parts(token)
        if wildcard:
            return False
    return all(word in STOP_WORDS for word in re.findall(r"\w+", fold(body)))


def _parts(token: Token) -> tuple[str, bool, str]:
    """A word's body (its suffix taken off), whether it holds a wildcard, and its suffix;
    SearchSyntaxError for a wildcard first."""
    word = token.text
    literal = token.literal
    suffix = SUFFIX.search(word)
    cut = suffix.start() if suffix and suffix.group(0) and not any(literal[suffix.start() :]) else len(word)
    body = word[:cut]
    wildcard = any(char in WILDCARDS and not literal[i] for i, char in enumerate(body))
    if body and body[0] in WILDCARDS and not literal[0]:
        raise SearchSyntaxError(
            f"{word!r} at character {token.at} starts with a wildcard, which would read every word of "
            "the index: put the wildcard after the letters a word starts with (neuro*)"
        )
    return body, wildcard, word[cut:]


def _serialise(tokens: list[Token]) -> list[str]:
    out: list[str] = []
    prefix = ""
    for token in tokens:
        if token.kind in ("not", "must") and token.text in PREFIXES:
            prefix += token.text if token.text != "!" else "-"
            continue
        if token.kind in ("and", "or", "not"):
            out.append(token.kind.upper())
        elif token.kind in ("open", "close"):
            out.append(prefix + token.text)
        elif token.kind == "phrase":
            out.append(f'{prefix}"{token.text}"{token.suffix}')
        else:
            out.append(prefix + _word_query(token))
        prefix = ""
    return out


def _word_query(token: Token) -> str:
    body, wildcard, suffix = _parts(token)
    literal = token.literal
    if wildcard:
        if suffix.startswith("~"):
            raise SearchSyntaxError(f"{token.text!r} at character {token.at} is both a wildcard and fuzzy")
        return (
            "".join(
                char if char in WILDCARDS and not literal[i] else _escape(fold(char)) for i, char in enumerate(body)
            )
            + suffix
        )
    if re.fullmatch(r"[\w'.]+", body) or suffix.startswith("~"):
        return "".join(_escape(char) for char in body) + suffix
    # Punctuation inside a word separates words in the index: the parts side by side.
    return '"' + body.replace("\\", "\\\\").replace('"', '\\"') + '"' + suffix


def _escape(char: str) -> str:
    return "\\" + char if char in SPECIAL else char


def lucene_problem(message: str) -> str | None:
    """What Lucene said, from the message of a Neo4j error a full-text procedure raised with
    its exception (`… Caused by: org.apache.lucene….ParseException: Encountered …`); None when
    the error is not Lucene's."""
    cause = message.rpartition("Caused by: ")[2]
    if not cause.startswith("org.apache.lucene."):
        return None
    return cause.partition(": ")[2].split("\n", 1)[0].strip() or cause.split("\n", 1)[0]
