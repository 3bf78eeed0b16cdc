import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { MAX_IMPORT_LINES, readImportFile } from './catalog-csv';

const read = (text: string | Buffer) => readImportFile(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const refusal = async (text: string | Buffer): Promise<{ status: number; details?: string[] }> => {
  try {
    await read(text);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

describe('readImportFile', () => {
  it('takes the separator the header line uses, even when the other one is in the cells', async () => {
    expect((await read('article;name\nA,1;x,y\n')).lines).toEqual([{ line: 2, article: 'A,1', name: 'x,y' }]);
    expect((await read('article,name\nA;1,x;y\n')).lines).toEqual([{ line: 2, article: 'A;1', name: 'x;y' }]);
    // A lone column: the comma.
    expect((await read('article\nA;B\n')).lines).toEqual([{ line: 2, article: 'A;B' }]);
  });

  it('drops a byte-order mark, reads CRLF, LF and a last line without an end, and trims cells', async () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('article,priceKopeks\r\n A ,7\r\nB,0')]);
    expect((await read(file)).lines).toEqual([
      { line: 2, article: 'A', priceKopeks: 7 },
      { line: 3, article: 'B', priceKopeks: 0 },
    ]);
  });

  it('numbers lines as rows: a quoted line break stays in its row, a blank row keeps its number', async () => {
    const file = await read('article,name\n"A","two\nlines"\n\nB,"say ""hi"""\n');
    expect(file.lines).toEqual([
      { line: 2, article: 'A', name: 'two\nlines' },
      { line: 4, article: 'B', name: 'say "hi"' },
    ]);
    expect(file.problems.size).toBe(0);
  });

  it("notes each line's faults and goes on reading", async () => {
    const file = await read(
      'article,priceKopeks,size,sizePriceKopeks\nA,01,,5\nB,1e3,S,\n,1,,\nD,1,S,1,extra\nE,2,,\nC,"x"y,,\n',
    );
    expect(Object.fromEntries(file.problems)).toEqual({
      2: [ErrorText.importNotKopeks('priceKopeks', 100_000_000), ErrorText.importSizePriceAlone],
      3: [ErrorText.importNotKopeks('priceKopeks', 100_000_000)],
      4: [ErrorText.importCellRequired('article')],
      5: [ErrorText.importCellCount(5, 4)],
      7: [ErrorText.importBadQuotes],
    });
    expect(file.lines.map((l) => l.line)).toEqual([2, 3, 6]);
  });

  it('refuses a header it cannot use with 400, and too many lines with 413', async () => {
    expect(await refusal('')).toEqual({ status: 400, details: [ErrorText.importNoHeader] });
    expect(await refusal('\n\nA\n')).toMatchObject({ status: 400 });
    expect(await refusal(Buffer.from([0x61, 0xff, 0x0a]))).toEqual({ status: 400, details: [ErrorText.importNotUtf8] });
    expect(await refusal('article, name ,size,size,x\n')).toEqual({
      status: 400,
      details: [ErrorText.importRepeatedColumn('size'), ErrorText.importUnknownColumn('x')],
    });
    const lines = (n: number) => `article\n${'A\n'.repeat(n)}`;
    expect((await read(lines(MAX_IMPORT_LINES))).lines).toHaveLength(MAX_IMPORT_LINES);
    expect(await refusal(lines(MAX_IMPORT_LINES + 1))).toEqual({ status: 413, details: undefined });
  });

  it('counts blank lines toward the limit, and stops reading at the first line too many', async () => {
    expect((await read(`article\nA\n${'\n'.repeat(MAX_IMPORT_LINES - 1)}`)).lines).toHaveLength(1);
    expect(await refusal(`article\nA\n${'\n'.repeat(MAX_IMPORT_LINES)}`)).toEqual({ status: 413, details: undefined });
    expect(await refusal(`article\n${'\r\n'.repeat((5 * 1024 * 1024) / 2 - 10)}`)).toMatchObject({ status: 413 });
  });

  it('keeps a character that a slice of the parse cuts in two, and lets timers run between slices', async () => {
    // 'é' is two bytes; one straddles every slice boundary of an odd offset.
    const name = 'é'.repeat(100);
    const lines = Array.from({ length: 3000 }, (_, i) => `A-${i},${name}`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const file = await read(`article,name\n${lines.join('\n')}\n`);
    clearInterval(timer);
    expect(file.lines).toHaveLength(3000);
    expect(file.lines.every((line) => line.name === name)).toBe(true);
    expect(ticks).toBeGreaterThan(3);
  });
});
