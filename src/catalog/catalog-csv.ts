import { parse, type Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { finished } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { MAX_PRICE_KOPEKS } from '../common/validation/money';
import { unguardFormula } from './csv-formula-cells';

/** The columns an import file may name (contract §18), in the order the export writes them. */
export const IMPORT_COLUMNS = [
  'article',
  'name',
  'storefrontArticle',
  'priceKopeks',
  'size',
  'sizePriceKopeks',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const MAX_IMPORT_LINES = 10_000;
/** Far more than the six columns: a wider header is refused before it is parsed (or echoed, name by name). */
const MAX_HEADER_COLUMNS = 32;
/** Text parsed between turns of the event loop: about a millisecond's work. */
const PARSE_SLICE_BYTES = 32 * 1024;
/** How much of an unknown column's name an error repeats. */
const NAME_ECHOED = 100;

/** The catalog's own bounds of each text column (the entities' lengths). */
const MAX_LENGTH: Partial<Record<ImportColumn, number>> = { article: 64, name: 200, storefrontArticle: 64, size: 50 };
const PRICE_COLUMNS: readonly ImportColumn[] = ['priceKopeks', 'sizePriceKopeks'];
const CANONICAL_INTEGER = /^(0|[1-9][0-9]*)$/;

/** A data line as read: its number (the header is line 1) and its non-empty cells, trimmed, prices as numbers. */
export interface ImportLine {
  line: number;
  article?: string;
  name?: string;
  storefrontArticle?: string;
  priceKopeks?: number;
  size?: string;
  sizePriceKopeks?: number;
  /** Columns whose cell was given but wrong (its problem is noted; the cell is left out). */
  invalid?: ImportColumn[];
}

export interface ImportFile {
  /** Every line that names an article, with the cells that could be read (a line's problems are noted too). */
  lines: ImportLine[];
  /** What is wrong with each line that could not be read, by line number. */
  problems: Map<number, string[]>;
}

/**
 * Reads an import file: UTF-8 (a byte-order mark is dropped), its fields separated by whichever of
 * `,` and `;` the header line uses, quoted as RFC 4180 says, lines ended by CRLF or LF. The header
 * is checked here (400 for an unknown, repeated or missing column), and so is the number of lines
 * (413: every line counts, a blank one too); each data line's own faults are collected, not thrown, so that the answer lists them all.
 * Lines are numbered as a spreadsheet numbers its rows: a quoted cell's line breaks stay in its row.
 * A line whose quotes are wrong ends the reading (the parser cannot tell where the next one begins).
 */
export async function readImportFile(bytes: Buffer): Promise<ImportFile> {
  const text = decodeUtf8(bytes);
  const delimiter = delimiterOf(headerLineOf(text));
  const problems = new Map<number, string[]>();
  const note = (line: number, problem: string) => problems.set(line, [...(problems.get(line) ?? []), problem]);
  const records: Array<{ line: number; cells: string[] }> = [];
  let line = 0;
  let tooMany = false;
  const parser = parse({
    delimiter,
    // Either ending on any line: one detected from the first line would glue the lines of a file that mixes them.
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    bom: true,
    on_record: (cells: string[]) => {
      line++;
      // Every line counts toward the limit, blank ones too (contract §18): the reading stops at the first
      // line too many, so 5 MiB of line ends costs no more than 10 000 lines do.
      tooMany ||= line > MAX_IMPORT_LINES + 1;
      if (tooMany) return null;
      // A blank row keeps its number and says nothing.
      if (line > 1 && cells.every((cell) => cell.trim() === '')) return null;
      records.push({ line, cells });
      return null;
    },
  });
  try {
    await feed(parser, bytes, () => tooMany);
  } catch (error) {
    // Past a quoting fault the parser cannot tell where the next line begins: the rest is not read.
    note(line + 1, unreadable((error as { code?: string }).code));
  }
  if (tooMany) throw AppError.payloadTooLarge();
  const header = records[0]?.line === 1 ? records.shift()!.cells.map((name) => name.trim()) : undefined;
  if (header === undefined) {
    throw AppError.badRequest([problems.has(1) ? ErrorText.importHeaderUnreadable : ErrorText.importNoHeader]);
  }
  const columns = columnsOf(header);
  const lines: ImportLine[] = [];
  for (const { line, cells } of records) {
    if (cells.length !== header.length) {
      note(line, ErrorText.importCellCount(cells.length, header.length));
      continue;
    }
    const read: ImportLine = { line };
    columns.forEach((column, i) => {
      // After the trim: the export's `'` is the cell's first character, and what it guards may be a tab.
      const cell = unguardFormula(cells[i].trim());
      if (cell === '') return;
      const problem = cellProblem(column, cell);
      if (problem) {
        note(line, problem);
        (read.invalid ??= []).push(column);
      } else if (PRICE_COLUMNS.includes(column)) (read as unknown as Record<string, number>)[column] = Number(cell);
      else (read as unknown as Record<string, string>)[column] = cell;
    });
    if (read.sizePriceKopeks !== undefined && read.size === undefined && !read.invalid?.includes('size')) {
      note(line, ErrorText.importSizePriceAlone);
    }
    if (read.article !== undefined) lines.push(read);
    else if (!read.invalid?.includes('article')) note(line, ErrorText.importCellRequired('article'));
  }
  return { lines, problems };
}

/**
 * The file, a slice at a time, with a turn of the event loop between slices: 5 MiB parsed at once
 * held every other request for as long as it took. Bytes, not text: the parser keeps a character
 * split between slices whole, where a string cut there would lose it.
 */
async function feed(parser: Parser, bytes: Buffer, stop: () => boolean): Promise<void> {
  const done = finished(parser);
  // A fault may end the parse while the loop waits for its turn; it is awaited below (or was no fault: a stop).
  done.catch(() => undefined);
  // Nothing is pushed (on_record keeps each line), but a paused stream would never end.
  parser.resume();
  for (let at = 0; at < bytes.length && !parser.destroyed; at += PARSE_SLICE_BYTES) {
    parser.write(bytes.subarray(at, at + PARSE_SLICE_BYTES));
    if (stop()) {
      parser.destroy();
      return;
    }
    await nextTurn();
  }
  parser.end();
  await done;
}

/** The file as text, for its header line; its bytes are parsed as such (a byte-order mark dropped by both). */
function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw AppError.badRequest([ErrorText.importNotUtf8]);
  }
}

/** The first line, refused (400) when it has more separators of either kind than a header could need. */
function headerLineOf(text: string): string {
  const end = text.search(/[\r\n]/);
  const headerLine = end < 0 ? text : text.slice(0, end);
  const columns = 1 + Math.max(countOf(headerLine, ','), countOf(headerLine, ';'));
  if (columns > MAX_HEADER_COLUMNS)
    throw AppError.badRequest([ErrorText.importTooManyColumns(columns, MAX_HEADER_COLUMNS)]);
  return headerLine;
}

function countOf(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at >= 0; at = text.indexOf(character, at + 1)) count++;
  return count;
}

/** `;` when the header line splits into more fields at `;` than at `,`, else `,`. */
function delimiterOf(headerLine: string): ',' | ';' {
  const fields = (delimiter: string) => {
    try {
      const records: string[][] = parseSync(headerLine, { delimiter, relax_column_count: true });
      return records[0]?.length ?? 0;
    } catch {
      return 0;
    }
  };
  return fields(';') > fields(',') ? ';' : ',';
}

function columnsOf(header: string[]): ImportColumn[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const unknown = new Set<string>();
  for (const name of header) {
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name)) {
      const echoed = name.length > NAME_ECHOED ? `${name.slice(0, NAME_ECHOED)}…` : name;
      if (!unknown.has(echoed)) problems.push(ErrorText.importUnknownColumn(echoed));
      unknown.add(echoed);
    } else if (seen.has(name)) problems.push(ErrorText.importRepeatedColumn(name));
    seen.add(name);
  }
  if (!seen.has('article')) problems.push(ErrorText.importNoArticleColumn);
  if (problems.length > 0) throw AppError.badRequest(problems);
  return header as ImportColumn[];
}

function cellProblem(column: ImportColumn, cell: string): string | undefined {
  if (cell.includes('\u0000')) return ErrorText.nulInText(column);
  if (PRICE_COLUMNS.includes(column)) {
    return CANONICAL_INTEGER.test(cell) && Number(cell) <= MAX_PRICE_KOPEKS
      ? undefined
      : ErrorText.importNotKopeks(column, MAX_PRICE_KOPEKS);
  }
  const max = MAX_LENGTH[column];
  return max !== undefined && cell.length > max && [...cell].length > max
    ? ErrorText.importTooLong(column, max)
    : undefined;
}

function unreadable(code: string | undefined): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return ErrorText.importQuoteNotClosed;
    case 'CSV_MAX_RECORD_SIZE_EXCEEDED':
      return ErrorText.importLineTooLong;
    default:
      return ErrorText.importBadQuotes;
  }
}
