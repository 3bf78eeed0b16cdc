import { ErrorText } from '../common/errors/error-texts';
import type { ImportLine } from './catalog-csv';
import { planImport, type CurrentProduct } from './catalog-import-plan';

const shirt: CurrentProduct = {
  id: 7,
  article: 'SH',
  name: 'Shirt',
  storefrontArticle: 'SF-SH',
  priceKopeks: 100,
  sizes: [
    { id: 71, nameKey: 'm', priceKopeks: null },
    { id: 72, nameKey: 'l', priceKopeks: 150 },
  ],
};
const cap: CurrentProduct = {
  id: 8,
  article: 'CAP',
  name: 'Cap',
  storefrontArticle: 'SF-CAP',
  priceKopeks: 50,
  sizes: [],
};
const current = new Map([shirt, cap].map((p) => [p.article, p]));
const holders = [shirt, cap].map((p) => ({ article: p.article, storefrontArticle: p.storefrontArticle! }));

function plan(lines: Array<Omit<ImportLine, 'line'>>) {
  const problems = new Map<number, string[]>();
  const result = planImport(
    lines.map((line, i) => ({ line: i + 2, ...line })),
    current,
    holders,
    problems,
  );
  return { result, problems: Object.fromEntries(problems) };
}

describe('planImport', () => {
  it('leaves a product the lines say nothing new about unchanged, and counts it so', () => {
    const { result, problems } = plan([
      { article: 'SH', name: 'Shirt', size: 'M' },
      { article: 'SH', size: 'l', sizePriceKopeks: 150 },
      { article: 'CAP', storefrontArticle: 'SF-CAP' },
    ]);
    expect(problems).toEqual({});
    expect(result.counts).toEqual({ created: 0, updated: 0, unchanged: 2, sizesCreated: 0 });
    expect([result.updates, result.newSizes, result.repricedSizes, result.changedIds]).toEqual([[], [], [], []]);
  });

  it('a size added or repriced is a change of its product; sizes match regardless of case', () => {
    const { result } = plan([
      { article: 'SH', size: 'L', sizePriceKopeks: 160 },
      { article: 'SH', size: 'XL' },
      { article: 'NEW', name: 'New', priceKopeks: 5, size: 'One' },
    ]);
    expect(result.counts).toEqual({ created: 1, updated: 1, unchanged: 0, sizesCreated: 2 });
    expect(result.repricedSizes).toEqual([{ id: 72, priceKopeks: 160 }]);
    expect(result.newSizes).toEqual([
      { article: 'SH', name: 'XL', nameKey: 'xl', priceKopeks: null },
      { article: 'NEW', name: 'One', nameKey: 'one', priceKopeks: null },
    ]);
    expect(result.updates).toEqual([]);
    expect(result.changedIds).toEqual([7]);
  });

  it('lets two products swap storefront articles, clearing both first', () => {
    const { result, problems } = plan([
      { article: 'SH', storefrontArticle: 'SF-CAP' },
      { article: 'CAP', storefrontArticle: 'SF-SH' },
    ]);
    expect(problems).toEqual({});
    expect(result.storefrontMoves).toEqual([7, 8]);
    expect(result.updates.map((u) => [u.id, u.storefrontArticle])).toEqual([
      [7, 'SF-CAP'],
      [8, 'SF-SH'],
    ]);
  });

  it('refuses a storefront article its holder keeps, or that two articles of the file claim', () => {
    const { problems } = plan([
      { article: 'NEW', name: 'New', priceKopeks: 1, storefrontArticle: 'SF-CAP' },
      { article: 'A', name: 'A', priceKopeks: 1, storefrontArticle: 'SF-X' },
      { article: 'B', name: 'B', priceKopeks: 1, storefrontArticle: 'SF-X' },
    ]);
    expect(problems).toEqual({
      2: [ErrorText.importStorefrontHeld('SF-CAP', 'CAP')],
      4: [ErrorText.importStorefrontClaimed('SF-X', 3)],
    });
  });

  it("names the later line when an article's lines disagree, and a new product's first line without its name or price", () => {
    const { problems } = plan([
      { article: 'SH', name: 'Shirt II', priceKopeks: 120 },
      { article: 'SH', name: 'Shirt III', priceKopeks: 120 },
      { article: 'NEW', size: 'S' },
      { article: 'NEW', name: 'Late', priceKopeks: 1, size: 's', sizePriceKopeks: 2 },
      { article: 'NEW', size: 'S', sizePriceKopeks: 3 },
    ]);
    expect(problems).toEqual({
      3: [ErrorText.importDiffers('name', 'SH', 2)],
      4: [ErrorText.importNewProductNeeds('name'), ErrorText.importNewProductNeeds('priceKopeks')],
      6: [ErrorText.importSizePriceDiffers('S', 5)],
    });
  });
});
