/**
 * CSV as RFC 4180 writes it, made safe to open in a spreadsheet: a cell that starts with a
 * character a spreadsheet reads as a formula (= + - @, or a tab or carriage return, OWASP's list)
 * gets a leading apostrophe, so `=cmd|' /C calc'!A0` shows as text and never runs. A reader that
 * wants the original value drops that one apostrophe.
 */
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

export function neutraliseFormula(value: string): string {
  return formulaStart.test(value) ? `'${value}` : value;
}

/** One cell: neutralised, then quoted (quotes doubled) when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = neutraliseFormula(String(value));
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF as RFC 4180 says. */
export function csvRecord(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
