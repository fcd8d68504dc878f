import { csvCell, csvRecord, neutraliseFormula } from '../../src';

describe('CSV cells', () => {
  it('when a cell is plain text, then it is written as it is', () => {
    expect(csvCell('partner.status.change')).toBe('partner.status.change');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
  });

  it('when a cell holds a quote, comma or line break, then it is quoted with quotes doubled (RFC 4180)', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
  });

  it.each(['=cmd|\' /C calc\'!A0', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'])('when a cell starts like a formula (%j), then it is prefixed with an apostrophe', (value) => {
    expect(neutraliseFormula(value)).toBe(`'${value}`);
    expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/);
  });

  it('when a formula cell also needs quotes, then the apostrophe sits inside the quotes', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('when text merely contains = or @ later on, then it is left alone', () => {
    expect(csvCell('a=b @c')).toBe('a=b @c');
  });

  it('when a record is written, then cells are joined by commas and the record ends with CRLF', () => {
    expect(csvRecord(['a', null, 'b,c', 1])).toBe('a,,"b,c",1\r\n');
  });
});
