"""Small result tables that display themselves: HTML in Jupyter, text in a terminal.

A :class:`Table` is what a result offers when it is naturally a table (a policy comparison,
an agent tournament, a Super Six solve): a title, column names, rows of plain values and
optional notes. It renders as compact HTML (``_repr_html_``, which Jupyter shows), aligned
text, Markdown for reports, and a pandas DataFrame (``to_pandas``, the ``pandas`` extra).

Fractions are shown as ``p/q``; floats with ``digits`` significant figures unless a column
format says otherwise.
"""

from __future__ import annotations

import decimal
import numbers
import reprlib
from dataclasses import dataclass, field
from fractions import Fraction

from ._escape import html_text, markdown_text
from ._extras import require

#: Integers with more digits than this are shown abbreviated (:func:`shown_integer`).
SHOWN_DIGITS = 200
#: Digits kept at each end of an abbreviated integer.
SHOWN_EDGE = 20


def exact_digits(n: int) -> str:
    """Every decimal digit of the integer ``n``, whatever its size.

    ``str(n)`` refuses integers of more than 4,300 digits (Python's guard against slow
    conversions, ``sys.get_int_max_str_digits``); exact solves of large games reach them.
    This goes through :mod:`decimal`, which has no such limit, and changes no global state.
    (Reading such text back: ``int(decimal.Decimal(text))``.)

    >>> exact_digits(-1234)
    '-1234'
    >>> text = exact_digits(7**10_000)
    >>> len(text), text[:5], text[-5:]
    (8451, '95587', '00001')
    """
    n = int(n)
    try:
        return str(n)
    except ValueError:  # over the interpreter's int -> str limit
        return str(decimal.Decimal(n))


def fraction_text(value) -> str:
    """An exact value as ``"p/q"`` with every digit, for files and JSON (``format_value``
    abbreviates long numbers for people; this never does).

    >>> fraction_text(Fraction(3, 8)), fraction_text(Fraction(2))
    ('3/8', '2/1')
    >>> len(fraction_text(Fraction(1, 7**6000)))
    5073
    """
    value = Fraction(value)
    return f"{exact_digits(value.numerator)}/{exact_digits(value.denominator)}"


def json_number(value, exact: bool | None = None):
    """A value for JSON: exact ones as :func:`fraction_text` (every digit), others as a
    float. ``exact`` None decides by type (a Fraction is exact).

    >>> json_number(Fraction(36, 41)), json_number(Fraction(36, 41), exact=False)
    ('36/41', 0.8780487804878049)
    """
    if exact is None:
        exact = isinstance(value, Fraction)
    return fraction_text(value) if exact else float(value)


def shown_integer(n: int, limit: int = SHOWN_DIGITS) -> str:
    """``n`` for people: whole up to ``limit`` digits, else its first and last
    :data:`SHOWN_EDGE` digits and how many there are.

    >>> shown_integer(12345)
    '12345'
    >>> shown_integer(3**1000)
    '13220708194808066368...73102768902855220001 (478 digits)'
    """
    text = exact_digits(n)
    sign, body = ("-", text[1:]) if text.startswith("-") else ("", text)
    if len(body) <= limit:
        return text
    return f"{sign}{body[:SHOWN_EDGE]}...{body[-SHOWN_EDGE:]} ({len(body):,} digits)"


class _ShortRepr(reprlib.Repr):
    """reprlib with integers and Fractions of any size (``repr`` refuses past 4,300 digits)."""

    def __init__(self):
        super().__init__()
        self.maxstring = self.maxother = 60
        self.maxlong = SHOWN_EDGE * 2 + 20

    def repr_int(self, x, level):
        return shown_integer(x, SHOWN_EDGE * 2)

    def repr_Fraction(self, x, level):  # noqa: N802 - reprlib looks methods up by type name
        parts = (shown_integer(x.numerator, SHOWN_EDGE * 2), shown_integer(x.denominator, 40))
        return "Fraction({}, {})".format(*parts)


_SHORT_REPR = _ShortRepr()


def shown_repr(value) -> str:
    """``repr(value)`` for a one-line message: long containers, strings and integers cut
    short, Fractions of any size, never raising.

    >>> shown_repr(Fraction(1, 10**5000))
    'Fraction(1, 10000000000000000000...00000000000000000000 (5,001 digits))'
    >>> shown_repr(tuple(range(100)))
    '(0, 1, 2, 3, 4, 5, ...)'
    """
    try:
        return _SHORT_REPR.repr(value)
    except Exception:  # noqa: BLE001 - a user's __repr__ may raise anything
        return f"<a {type(value).__name__}>"


def format_value(value, digits: int = 6) -> str:
    """A cell as text: fractions as ``p/q``, floats to ``digits`` significant figures;
    integers of more than :data:`SHOWN_DIGITS` digits abbreviated (:func:`shown_integer`).

    >>> [format_value(v) for v in (Fraction(3, 8), 0.123456789, 1234, None)]
    ['3/8', '0.123457', '1,234', '']
    >>> format_value(Fraction(1, 3**5000))
    '1/40389976297871553397...93563136998276100001 (2,386 digits)'
    >>> format_value(-(10**200))
    '-10000000000000000000...00000000000000000000 (201 digits)'
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        numerator = shown_integer(value.numerator)
        if value.denominator == 1:
            return numerator
        return f"{numerator}/{shown_integer(value.denominator)}"
    if isinstance(value, numbers.Integral):
        value = int(value)
        return f"{value:,}" if abs(value) < 10**SHOWN_DIGITS else shown_integer(value)
    if isinstance(value, numbers.Real):
        return f"{float(value):.{digits}g}"
    return str(value)


@dataclass(frozen=True)
class Table:
    """A titled table of plain values.

    Parameters
    ----------
    columns : tuple of str
    rows : tuple of tuple
        One tuple per row, aligned with ``columns``.
    title : str, optional
    notes : tuple of str, optional
        Lines shown under the table.
    formats : dict, optional
        Column name -> a function turning a cell into text (default :func:`format_value`).

    Examples
    --------
    >>> table = Table(("policy", "win"), (("hilo", Fraction(1, 3)), ("max", 0.25)), title="Wins")
    >>> table
    Table 'Wins': 2 rows x 2 columns (policy, win)
    >>> print(table.to_text())
    Wins
    policy  win
    hilo    1/3
    max     0.25
    >>> "<th>policy</th>" in table._repr_html_()
    True
    """

    columns: tuple
    rows: tuple
    title: str = ""
    notes: tuple = ()
    formats: dict = field(default_factory=dict)
    digits: int = 6

    def __post_init__(self):
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "rows", tuple(tuple(row) for row in self.rows))
        object.__setattr__(self, "notes", tuple(self.notes))
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(
                    f"row {row!r} has {len(row)} cells for {len(self.columns)} columns"
                )

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        title = f" {self.title!r}" if self.title else ""
        return (
            f"Table{title}: {len(self.rows)} rows x {len(self.columns)} columns "
            f"({', '.join(map(str, self.columns))})"
        )

    def cell_text(self, column: str, value) -> str:
        """One cell as text, through the column's format when it has one."""
        formatter = self.formats.get(column)
        return formatter(value) if formatter else format_value(value, self.digits)

    def text_rows(self) -> list[list[str]]:
        """Every row as text cells."""
        return [[self.cell_text(c, v) for c, v in zip(self.columns, row)] for row in self.rows]

    def column(self, name: str) -> list:
        """The raw values of one column."""
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    def to_text(self) -> str:
        """Aligned plain text: title, header and rows (numbers right-aligned)."""
        cells = [list(map(str, self.columns)), *self.text_rows()]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        numeric = [self._numeric(i) for i in range(len(self.columns))]
        lines = [self.title] if self.title else []
        for row in cells:
            parts = [
                text.rjust(width) if right else text.ljust(width)
                for text, width, right in zip(row, widths, numeric)
            ]
            lines.append("  ".join(parts).rstrip())
        lines += list(self.notes)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """A GitHub-flavoured Markdown table, notes below it: every cell and note is escaped
        (:func:`gamegraph._escape.markdown_text`), so no text can hold raw HTML or a link.
        """
        escape = markdown_text
        align = ["---:" if self._numeric(i) else ":---" for i in range(len(self.columns))]
        lines = ["| " + " | ".join(escape(c) for c in self.columns) + " |"]
        lines.append("| " + " | ".join(align) + " |")
        for row in self.text_rows():
            lines.append("| " + " | ".join(escape(c) for c in row) + " |")
        if self.notes:
            lines.append("")
            lines += [escape(note) for note in self.notes]
        return "\n".join(lines)

    def to_html(self) -> str:
        """A compact HTML table with its title as caption and notes underneath."""
        parts = ['<table class="gamegraph-table">']
        if self.title:
            parts.append(f"<caption>{html_text(self.title)}</caption>")
        parts.append(
            "<thead><tr>"
            + "".join(f"<th>{html_text(c)}</th>" for c in self.columns)
            + "</tr></thead><tbody>"
        )
        numeric = [self._numeric(i) for i in range(len(self.columns))]
        for row in self.text_rows():
            cells = "".join(
                f'<td style="text-align:{"right" if right else "left"}">{html_text(text)}</td>'
                for text, right in zip(row, numeric)
            )
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table>")
        for note in self.notes:
            parts.append(f"<p><small>{html_text(note)}</small></p>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.to_html()

    def to_pandas(self):
        """The table as a ``pandas.DataFrame`` of the raw values (needs the ``pandas`` extra)."""
        pandas = require("pandas", "to_pandas()", extra="pandas")
        return pandas.DataFrame(list(self.rows), columns=list(self.columns))

    def _numeric(self, index: int) -> bool:
        values = [row[index] for row in self.rows if row[index] is not None]
        return bool(values) and all(
            isinstance(v, numbers.Number) and not isinstance(v, bool) for v in values
        )
