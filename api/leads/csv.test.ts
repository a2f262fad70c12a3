import { describe, expect, it } from 'vitest';
import { csvCell } from './csv';

describe('CSV cells', () => {
  it('quote what RFC 4180 says must be quoted, doubling quotes', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(43.2)).toBe('43.2');
  });

  it('never let a spreadsheet run a cell as a formula', () => {
    for (const formula of ['=1+1', '+44 161', '-2', '@SUM(A1)', '\t=1', '\r=1']) expect(csvCell(formula).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });
});
