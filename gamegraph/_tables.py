"""Small result tables that display themselves: HTML in Jupyter, text in a terminal.

A :class:`Table` is what a result offers when it is naturally a table (a policy comparison,
an agent tournament, a Super Six solve): a title, column names, rows of plain values and
optional notes. It renders as compact HTML (``_repr_html_``, which Jupyter shows), aligned
text, Markdown for reports, and a pandas DataFrame (``to_pandas``, the ``pandas`` extra).

Fractions are shown as ``p/q``; floats with ``digits`` significant figures unless a column
format says otherwise.
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass, field
from fractions import Fraction

from ._extras import require


def format_value(value, digits: int = 6) -> str:
    """A cell as text: fractions as ``p/q``, floats to ``digits`` significant figures.

    >>> [format_value(v) for v in (Fraction(3, 8), 0.123456789, 1234, None)]
    ['3/8', '0.123457', '1,234', '']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value}"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
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
        """A GitHub-flavoured Markdown table (pipes escaped), notes below it."""

        def escape(text):
            return str(text).replace("|", "\\|")

        align = ["---:" if self._numeric(i) else ":---" for i in range(len(self.columns))]
        lines = ["| " + " | ".join(escape(c) for c in self.columns) + " |"]
        lines.append("| " + " | ".join(align) + " |")
        for row in self.text_rows():
            lines.append("| " + " | ".join(escape(c) for c in row) + " |")
        if self.notes:
            lines.append("")
            lines += list(self.notes)
        return "\n".join(lines)

    def to_html(self) -> str:
        """A compact HTML table with its title as caption and notes underneath."""
        parts = ['<table class="gamegraph-table">']
        if self.title:
            parts.append(f"<caption>{html.escape(self.title)}</caption>")
        parts.append(
            "<thead><tr>"
            + "".join(f"<th>{html.escape(str(c))}</th>" for c in self.columns)
            + "</tr></thead><tbody>"
        )
        numeric = [self._numeric(i) for i in range(len(self.columns))]
        for row in self.text_rows():
            cells = "".join(
                f'<td style="text-align:{"right" if right else "left"}">{html.escape(text)}</td>'
                for text, right in zip(row, numeric)
            )
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table>")
        for note in self.notes:
            parts.append(f"<p><small>{html.escape(note)}</small></p>")
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
