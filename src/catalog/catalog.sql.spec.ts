import { CatalogSql } from './catalog.sql';

const lines = CatalogSql.storefrontLinesFrom({ articles: '$2', sizeKeys: '$3', quantities: '$4', prices: '$5' });

describe('CatalogSql: the storefront matching rules, once', () => {
  const match = CatalogSql.matchStorefrontLines({ brandId: '$1', lines, condition: 'true' });
  const lookup = CatalogSql.lookupStorefrontLines({ brandId: '$1', lines });

  it('the write statement’s part and the lookup are the same rules, inner and outer joined', () => {
    const body = (text: string) => text.replace(/\s+(WHERE true|ORDER BY l\.line)$/, '').replace(/LEFT JOIN/g, 'JOIN');
    expect(body(lookup)).toEqual(body(match));
    expect(lookup).toMatch(/LEFT JOIN products p ON p\.brand_id = \$1 AND p\.storefront_article = l\.article/);
    expect(lookup).toMatch(/LEFT JOIN product_sizes s ON s\.product_id = p\.id AND s\.name_key = l\.size_key/);
  });

  it('prices a line with the given price, else the size’s, else the product’s', () => {
    for (const text of [match, lookup]) {
      expect(text).toContain('COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price');
    }
  });

  it('numbers the lines from the arrays in their order', () => {
    expect(lines).toMatch(/^unnest\(\$2::text\[\], \$3::text\[\], \$4::int\[\], \$5::bigint\[\]\)\s+WITH ORDINALITY/);
    expect(lookup).toMatch(/ORDER BY l\.line$/);
  });
});
