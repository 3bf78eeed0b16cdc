import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'sql-formatter';
import type { ReviewedQuery } from '../../src/database/reviewed-query';
import { DomainEvents } from '../../src/domain-events/domain-events';
import type { DomainEventsSql } from '../../src/domain-events/domain-events.sql';
import { STOCK_EVENT_COLUMNS } from '../../src/stock-ledger/stock-event-columns';
import { WebhookFanOut } from '../../src/webhooks/webhook-fan-out';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

/** A module's list of the statements it prepares or composes. */
type QueryList = (events: DomainEventsSql) => ReviewedQuery[];

/**
 * The domain events' parts with the application's subscribers and ways of keeping, as DomainEvents
 * builds them once every module has said its own. The e2e check (in events-api.e2e-spec.ts) renders with the
 * running application's own, so a subscriber missing here fails there.
 */
export function applicationEvents(): DomainEventsSql {
  const events = new DomainEvents({ signal: () => undefined } as never);
  new WebhookFanOut(events, { committed: () => undefined } as never);
  events.keep(STOCK_EVENT_COLUMNS);
  return events.sql;
}

/** Every `src/<module>/…/*.queries.ts`, with the folder its files go to: the module's own `queries/`. */
function queryLists(): Array<{ folder: string; list: QueryList }> {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.queries.ts'))
    .sort()
    .map((file) => {
      const module = file.split(path.sep)[0];
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exports = require(path.join(SRC, file)) as { reviewedQueries?: QueryList };
      if (typeof exports.reviewedQueries !== 'function') throw new Error(`${file} exports no reviewedQueries()`);
      return { folder: path.join(SRC, module, 'queries'), list: exports.reviewedQueries };
    });
}

const kebab = (name: string) => name.replace(/_/g, '-');

/** The parameters' names as comment lines, a few a line. */
function parameterLines(parameters: readonly string[]): string[] {
  const named = parameters.map((name, i) => `$${i + 1} ${name}`);
  const lines: string[] = [];
  for (let i = 0; i < named.length; i += 6) lines.push(`--   ${named.slice(i, i + 6).join(', ')}`);
  return ['-- Parameters:', ...lines];
}

export function renderQuery(query: ReviewedQuery): string {
  const body = format(query.text, { language: 'postgresql', keywordCase: 'upper', tabWidth: 2, expressionWidth: 80 });
  return [
    `-- ${query.purpose}`,
    '-- Rendered by `npm run sql:render` from the code that composes it: edit the code, not this file.',
    ...(query.parameters ? parameterLines(query.parameters) : []),
    body,
    '',
  ].join('\n');
}

/** Every file that should be in a module's queries/ folder, by its path from the repository's root. */
export function renderedFiles(events: DomainEventsSql = applicationEvents()): Map<string, string> {
  const files = new Map<string, string>();
  for (const { folder, list } of queryLists()) {
    for (const query of list(events)) {
      const file = path.relative(ROOT, path.join(folder, `${kebab(query.name)}.sql`));
      if (files.has(file)) throw new Error(`two statements render to ${file}`);
      files.set(file, renderQuery(query));
    }
  }
  return files;
}

/** The .sql files in the modules' queries/ folders now, by their path from the repository's root. */
export function checkedInFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (path.basename(path.dirname(file)) === 'queries' && file.endsWith('.sql')) {
      files.set(path.join('src', file), readFileSync(path.join(SRC, file), 'utf8'));
    }
  }
  return files;
}

export const REPOSITORY_ROOT = ROOT;
