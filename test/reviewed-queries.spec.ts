import { checkedInFiles, renderedFiles } from './support/reviewed-queries';

/**
 * The statements the modules prepare or compose are checked in as SQL (src/<module>/queries/*.sql),
 * so a change to any part of one shows in review as a diff of the statement. `npm run sql:render`
 * writes them.
 */
describe('the reviewed SQL files', () => {
  const rendered = renderedFiles();
  const checkedIn = checkedInFiles();

  it('hold every statement as the code composes it', () => {
    const stale = [...rendered].filter(([file, text]) => checkedIn.get(file) !== text).map(([file]) => file);
    expect({ stale, hint: 'run npm run sql:render' }).toEqual({ stale: [], hint: 'run npm run sql:render' });
  });

  it('hold no statement the code no longer lists', () => {
    expect([...checkedIn.keys()].filter((file) => !rendered.has(file))).toEqual([]);
  });

  it('include the storefront and order-list statements', () => {
    const files = [...rendered.keys()];
    expect(files).toEqual(expect.arrayContaining(['src/orders/queries/accept-storefront-order-with-key.sql']));
    expect(files.filter((file) => file.startsWith('src/orders/queries/list-orders'))).toHaveLength(32);
  });
});
