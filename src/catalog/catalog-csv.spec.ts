import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { MAX_IMPORT_LINES, readImportFile } from './catalog-csv';

const read = (text: string | Buffer) => readImportFile(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const refusal = (text: string | Buffer): { status: number; details?: string[] } => {
  try {
    read(text);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, details: error.details };
    throw error;
  }
  throw new Error('not refused');
};

describe('readImportFile', () => {
  it('takes the separator the header line uses, even when the other one is in the cells', () => {
    expect(read('article;name\nA,1;x,y\n').lines).toEqual([{ line: 2, article: 'A,1', name: 'x,y' }]);
    expect(read('article,name\nA;1,x;y\n').lines).toEqual([{ line: 2, article: 'A;1', name: 'x;y' }]);
    // A lone column: the comma.
    expect(read('article\nA;B\n').lines).toEqual([{ line: 2, article: 'A;B' }]);
  });

  it('drops a byte-order mark, reads CRLF, LF and a last line without an end, and trims cells', () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('article,priceKopeks\r\n A ,7\r\nB,0')]);
    expect(read(file).lines).toEqual([
      { line: 2, article: 'A', priceKopeks: 7 },
      { line: 3, article: 'B', priceKopeks: 0 },
    ]);
  });

  it('numbers lines as rows: a quoted line break stays in its row, a blank row keeps its number', () => {
    const file = read('article,name\n"A","two\nlines"\n\nB,"say ""hi"""\n');
    expect(file.lines).toEqual([
      { line: 2, article: 'A', name: 'two\nlines' },
      { line: 4, article: 'B', name: 'say "hi"' },
    ]);
    expect(file.problems.size).toBe(0);
  });

  it("notes each line's faults and goes on reading", () => {
    const file = read(
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

  it('refuses a header it cannot use with 400, and too many lines with 413', () => {
    expect(refusal('')).toEqual({ status: 400, details: [ErrorText.importNoHeader] });
    expect(refusal('\n\nA\n')).toMatchObject({ status: 400 });
    expect(refusal(Buffer.from([0x61, 0xff, 0x0a]))).toEqual({ status: 400, details: [ErrorText.importNotUtf8] });
    expect(refusal('article, name ,size,size,x\n')).toEqual({
      status: 400,
      details: [ErrorText.importRepeatedColumn('size'), ErrorText.importUnknownColumn('x')],
    });
    const lines = (n: number) => `article\n${'A\n'.repeat(n)}`;
    expect(read(lines(MAX_IMPORT_LINES)).lines).toHaveLength(MAX_IMPORT_LINES);
    expect(refusal(lines(MAX_IMPORT_LINES + 1))).toEqual({ status: 413, details: undefined });
  });
});
