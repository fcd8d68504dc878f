/**
 * RFC 4180 CSV: CRLF line ends, a field with a comma, a double quote, CR or LF quoted and its
 * double quotes doubled; every record has the header's number of fields.
 */
export function csvOf(header: readonly string[], records: readonly (readonly string[])[]): string {
  return [header, ...records].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
