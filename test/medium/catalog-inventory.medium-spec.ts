import { CatalogModule } from '../../src/catalog/catalog.module';
import type { BrandContext } from '../../src/common/context/request-context';
import { IdentityModule } from '../../src/identity/identity.module';
import { StockLedger } from '../../src/stock-ledger/stock-ledger';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumProduct, superadminContext } from '../support/medium-fixtures';
import { seedOrder } from '../support/orders-seed';
import { stockAndLedger } from '../support/stock-probe';
import { withClient } from '../support/test-database';

/** What the schema itself holds the catalog's stock and order lines to, whatever a service does. */
describe('catalog and stock: the database keeps each brand to its own sizes', () => {
  let s: MediumSuite;
  let brandA: BrandContext;
  let brandB: BrandContext;

  beforeAll(async () => {
    s = await openMedium([IdentityModule, CatalogModule]);
    brandA = await superadminContext(s, await mediumBrand(s));
    brandB = await superadminContext(s, await mediumBrand(s));
  });
  afterAll(() => s?.close());

  it('the ledger itself refuses a size of another brand: the transaction fails and nothing moves', async () => {
    const own = await mediumProduct(s, brandA, { article: 'LDG-A', priceKopeks: 1, sizes: [{ name: 'S', stock: 4 }] });
    const foreign = await mediumProduct(s, brandB, {
      article: 'LDG-B',
      priceKopeks: 1,
      sizes: [{ name: 'S', stock: 4 }],
    });
    const ledger = s.get(StockLedger);
    const apply = s.dataSource.transaction((tx) =>
      ledger.apply(
        tx,
        brandA.brandId,
        [own.sizes[0].id, foreign.sizes[0].id].map((sizeId) => ({ sizeId, delta: -1, reason: 'adjustment' as const })),
        { kind: null, id: null },
      ),
    );
    await expect(apply).rejects.toThrow('violates foreign key constraint "fk_stock_movements_size_brand"');
    expect(await stockAndLedger(s.db.url, own.sizes[0].id)).toEqual({ stock: 4, ledger: 4 });
    expect(await stockAndLedger(s.db.url, foreign.sizes[0].id)).toEqual({ stock: 4, ledger: 4 });
  });

  it("an order line's size is a size of the line's product, or the database refuses the line", async () => {
    const [hat, cap] = await Promise.all(
      ['LINE-HAT', 'LINE-CAP'].map((article) =>
        mediumProduct(s, brandA, { article, priceKopeks: 1, sizes: [{ name: 'S', stock: 1 }] }),
      ),
    );
    const orderId = await seedOrder(s.db.url, brandA.brandId);
    const line = (line: number, productId: number, sizeId: number) =>
      withClient(s.db.url, (c) =>
        c.query(
          `INSERT INTO order_items (order_id, line, product_id, size_id, article, size, quantity, price_kopeks, line_total_kopeks)
           VALUES ($1, $2, $3, $4, 'A', 'S', 1, 1, 1)`,
          [orderId, line, productId, sizeId],
        ),
      );
    await line(1, hat.id, hat.sizes[0].id);
    await expect(line(2, hat.id, cap.sizes[0].id)).rejects.toThrow(
      'violates foreign key constraint "fk_order_items_size_product"',
    );
  });
});
