import { describe, expect, it } from 'vitest';
import { LimitExceeded } from '../../src/server/config/input-limits.js';
import { CsvScanner } from '../../src/server/imports/csv-scan.js';

const LIMITS = { rows: 5, columns: 4, cellBytes: 10 };
type Facts = Awaited<ReturnType<CsvScanner['end']>>;

/** Scans `text` pushed in chunks of `chunk` bytes; the facts, or the limit it stopped at. */
async function scan(text: string | Buffer, chunk = 3, limits = LIMITS, headRecords = 60) {
  const scanner = new CsvScanner({ limits, headRecords, headBytes: 1_048_576 });
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length; at += chunk) scanner.push(bytes.subarray(at, at + chunk));
    return await scanner.end();
  } catch (error) {
    if (error instanceof LimitExceeded) return { limit: error.kind, line: error.line };
    throw error;
  }
}

describe('the CSV upload scanner', () => {
  it('counts records that hold something, with quoted commas, quotes and line breaks, in any chunking', async () => {
    const text = '\uFEFFa,b,c,d\r\n1,"x,y","say ""hi""",4\r\n\r\n , ,\r\n"two\r\nlines",2\r\n3';
    for (const chunk of [1, 2, 7, 1_000]) {
      const facts = await scan(text, chunk);
      expect(facts).toMatchObject({ encoding: 'utf8', hasBom: true, lines: 4, bytes: Buffer.byteLength(text) });
      expect((facts as Facts).head.map((r) => r.cells)).toEqual([
        ['a', 'b', 'c', 'd'],
        ['1', 'x,y', 'say "hi"', '4'],
        [''],
        [' ', ' ', ''],
        ['two\r\nlines', '2'],
        ['3'],
      ]);
    }
  });

  it('ends records at the line break the parser takes for the file, as it does', async () => {
    // A CR LF file: a lone LF is part of the record, so these four fields are one record's.
    expect(await scan('a,b\r\n1,2\n3,4\r\n')).toMatchObject({ lines: 2 });
    expect(await scan('a,b\r\n1,2\n3,4,5,6\r\n')).toEqual({ limit: 'columns', line: 3 });
    // A CR file (old Mac): records end at each CR.
    expect(await scan('a,b\r1,2\r3,4\r')).toMatchObject({ lines: 3 });
  });

  it('stops at the first record with more columns than the limit, naming its line', async () => {
    expect(await scan('a,b\n1,2,3,4\n1,2,3,4,5\n')).toEqual({ limit: 'columns', line: 3 });
    // Delimiters inside quotes are not columns.
    expect(await scan('a\n"1,2,3,4,5,6"\n', 2, { ...LIMITS, cellBytes: 100 })).toMatchObject({ lines: 2 });
    // The delimiter is guessed as the parser does: semicolons here.
    expect(await scan('a;b;c;d;e\n')).toEqual({ limit: 'columns', line: 1 });
  });

  it('stops at the first cell larger than the limit, quoted or not', async () => {
    expect(await scan('a\n0123456789\n01234567890\n')).toEqual({ limit: 'cellBytes', line: 3 });
    expect(await scan('a\n"0123""456789"\n')).toEqual({ limit: 'cellBytes', line: 2 });
    expect(await scan('a\n"01234\n567890"\n')).toEqual({ limit: 'cellBytes', line: 3 });
  });

  it('counts data rows past the header, blank ones left out', async () => {
    expect(await scan('h\n1\n2\n\n3\n4\n5\n')).toMatchObject({ lines: 6 });
    expect(await scan('h\n1\n2\n3\n4\n5\n6')).toEqual({ limit: 'rows', line: 7 });
  });

  it('stops early on a file of a million columns, having kept little of it', async () => {
    const wide = Buffer.from(`${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n`);
    const scanner = new CsvScanner({ limits: { ...LIMITS, columns: 500 }, headRecords: 60, headBytes: 1_048_576 });
    let pushed = 0;
    let stopped: unknown = null;
    for (let at = 0; at < wide.length && !stopped; at += 65_536) {
      try {
        scanner.push(wide.subarray(at, at + 65_536));
        pushed += 65_536;
      } catch (error) {
        stopped = error;
      }
    }
    expect(stopped).toBeInstanceOf(LimitExceeded);
    expect((stopped as LimitExceeded).kind).toBe('columns');
    expect(pushed).toBeLessThan(65_536 * 2);
  });

  it('tells Windows-1252 from UTF-8, a character cut between chunks included', async () => {
    expect(await scan(Buffer.from('a\nCaf\u00e9\n'), 4)).toMatchObject({ encoding: 'utf8' });
    const cp1252 = Buffer.from([0x61, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]);
    const facts = (await scan(cp1252, 2)) as Facts;
    expect(facts.encoding).toBe('windows-1252');
    expect(facts.head.map((r) => r.cells)).toEqual([['a'], ['Café']]);
  });

  it('keeps the header and the first records only', async () => {
    const text = `h\n${Array.from({ length: 100 }, (_, i) => `r${i}`).join('\n')}\n`;
    const facts = (await scan(text, 5, { ...LIMITS, rows: 1_000 }, 10)) as Facts;
    expect(facts.lines).toBe(101);
    expect(facts.head).toHaveLength(11);
    expect(facts.head.at(-1)).toMatchObject({ index: 9, cells: ['r9'], line: 11 });
  });
});
