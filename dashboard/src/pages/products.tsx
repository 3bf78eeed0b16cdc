import { useState } from 'preact/hooks';
import { ApiError, download, get, patch, post, postFile } from '../api';
import type { ImportResponse, ProductListResponse, ProductResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { money } from '../ui/format';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

interface SizeRow {
  name: string;
  stock: string;
  price: string;
}

const kopeks = (rubles: string) => Math.round(Number(rubles.replace(',', '.')) * 100);

/**
 * Products with their storefront article and sizes (spec §5.10: the storefront set-up happens
 * here). Stock of new sizes is their initial stock; later changes go through adjustments.
 */
export function ProductsPage() {
  const products = useLoad(() => get<ProductListResponse>('/catalog/products'));
  const [editing, setEditing] = useState<ProductResponse | null>(null);
  // The list is the whole catalog, so the filter is the page's own.
  const [unsellableOnly, setUnsellableOnly] = useState(false);
  const rows = products.data?.items.filter((product) => !unsellableOnly || product.storefrontArticle === null);
  return (
    <section aria-labelledby="products-title">
      <h1 id="products-title">Products</h1>
      <ErrorNote text={products.error} />
      <ProductForm
        key={editing?.id ?? 'new'}
        product={editing}
        onSaved={() => {
          setEditing(null);
          products.reload();
        }}
        onCancel={() => setEditing(null)}
      />
      <CatalogTransfer onImported={products.reload} />
      <label>
        <input
          type="checkbox"
          aria-describedby="unsellable-hint"
          checked={unsellableOnly}
          onChange={(e) => setUnsellableOnly(e.currentTarget.checked)}
        />{' '}
        Only those the storefront cannot sell yet
      </label>
      <p id="unsellable-hint">Their sizes have no storefront article: storefront orders cannot name them.</p>
      <DataTable
        rows={rows}
        columns={[
          { header: 'Name', cell: (product) => product.name },
          { header: 'Article', cell: (product) => product.article },
          { header: 'Storefront article', cell: (product) => product.storefrontArticle ?? '—' },
          { header: 'Price', cell: (product) => money(product.priceKopeks) },
          {
            header: 'Sizes (stock)',
            cell: (product) => product.sizes.map((s) => `${s.name} (${s.stock})`).join(', '),
          },
          {
            header: 'Actions',
            hideHeader: true,
            cell: (product) => (
              <button type="button" aria-label={`Edit ${product.name}`} onClick={() => setEditing(product)}>
                Edit
              </button>
            ),
          },
        ]}
      />
    </section>
  );
}

/**
 * The catalog from and to a spreadsheet (contract §18): the export as a download, and an import
 * checked first (a dry run: the counts, or every wrong line) before it is applied, all or nothing.
 */
function CatalogTransfer(props: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<{ answer?: ImportResponse; problems?: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (dryRun: boolean) => {
    if (!file) return setError('Choose a CSV file first.');
    setError(null);
    try {
      const answer = await postFile<ImportResponse>(`/catalog/products/import?dryRun=${dryRun}`, file, 'text/csv');
      setOutcome({ answer });
      if (!dryRun) props.onImported();
    } catch (e) {
      if (e instanceof ApiError && e.details.length > 0) setOutcome({ problems: [e.message, ...e.details] });
      else {
        setOutcome(null);
        setError(e instanceof ApiError ? e.message : String(e));
      }
    }
  };

  const answer = outcome?.answer;
  return (
    <form
      class="card"
      aria-label="Import and export"
      onSubmit={(e) => {
        e.preventDefault();
        void run(false);
      }}
    >
      <h2>Import and export</h2>
      <p>
        One line per size: article, name, storefrontArticle, priceKopeks, size, sizePriceKopeks. Empty cells change
        nothing; stock is never changed. A file with any wrong line changes nothing.
      </p>
      <div class="grid">
        <label>
          CSV file
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setOutcome(null);
            }}
          />
        </label>
      </div>
      <ErrorNote text={error} />
      <div role="status">
        {answer?.dryRun && (
          <p>
            The import would create {answer.created} products, update {answer.updated}, leave {answer.unchanged}{' '}
            unchanged and add {answer.sizesCreated} sizes; nothing was changed.
          </p>
        )}
        {answer && !answer.dryRun && (
          <p>
            Imported: {answer.created} created, {answer.updated} updated, {answer.unchanged} unchanged,{' '}
            {answer.sizesCreated} sizes added.
          </p>
        )}
        {outcome?.problems && (
          <>
            <p class="error">{outcome.problems[0]}: nothing was changed.</p>
            <ul aria-label="Wrong lines">
              {outcome.problems.slice(1).map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div class="actions">
        <button
          type="button"
          onClick={() => void attempt(() => download('/catalog/products/export', 'catalog.csv'), setError)}
        >
          Export
        </button>
        <button type="button" onClick={() => void run(true)}>
          Check
        </button>
        <button type="submit">Import</button>
      </div>
    </form>
  );
}

function ProductForm(props: { product: ProductResponse | null; onSaved: () => void; onCancel: () => void }) {
  const existing = props.product;
  const [name, setName] = useState(existing?.name ?? '');
  const [article, setArticle] = useState(existing?.article ?? '');
  const [storefrontArticle, setStorefrontArticle] = useState(existing?.storefrontArticle ?? '');
  const [price, setPrice] = useState(existing ? String(existing.priceKopeks / 100) : '');
  const [sizes, setSizes] = useState<SizeRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const setSize = (index: number, change: Partial<SizeRow>) =>
    setSizes((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const submit = async (event: Event) => {
    event.preventDefault();
    const newSizes = sizes
      .filter((s) => s.name.trim())
      .map((s) => ({
        name: s.name.trim(),
        ...(s.stock ? { stock: Number(s.stock) } : {}),
        ...(s.price ? { priceKopeks: kopeks(s.price) } : {}),
      }));
    const saved = await attempt(
      () =>
        existing
          ? patch(`/catalog/products/${existing.id}`, {
              name,
              article,
              storefrontArticle: storefrontArticle.trim() || null,
              priceKopeks: kopeks(price),
              ...(newSizes.length ? { sizes: newSizes.map(({ stock: _stock, ...size }) => size) } : {}),
            })
          : post('/catalog/products', {
              name,
              article,
              ...(storefrontArticle.trim() ? { storefrontArticle: storefrontArticle.trim() } : {}),
              priceKopeks: kopeks(price),
              sizes: newSizes,
            }),
      setError,
    );
    if (saved) {
      setSizes([]);
      if (!existing) {
        setName('');
        setArticle('');
        setStorefrontArticle('');
        setPrice('');
      }
      props.onSaved();
    }
  };

  return (
    <form class="card" aria-label={existing ? `Edit ${existing.name}` : 'New product'} onSubmit={submit}>
      <h2>{existing ? `Edit ${existing.name}` : 'New product'}</h2>
      <div class="grid">
        <label>
          Name
          <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Article
          <input required maxLength={64} value={article} onInput={(e) => setArticle(e.currentTarget.value)} />
        </label>
        <label>
          Storefront article
          <input
            maxLength={64}
            value={storefrontArticle}
            onInput={(e) => setStorefrontArticle(e.currentTarget.value)}
          />
        </label>
        <label>
          Price (₽)
          <input required inputMode="decimal" value={price} onInput={(e) => setPrice(e.currentTarget.value)} />
        </label>
      </div>
      {existing && (
        <p>
          Sizes: {existing.sizes.map((s) => s.name).join(', ') || 'none'}. A size named like an existing one updates its
          price.
        </p>
      )}
      {sizes.map((row, index) => (
        <div class="grid size-row" key={index} role="group" aria-label={`Size ${index + 1}`}>
          <label>
            Size
            <input
              required
              maxLength={50}
              value={row.name}
              onInput={(e) => setSize(index, { name: e.currentTarget.value })}
            />
          </label>
          {!existing && (
            <label>
              Stock
              <input
                inputMode="numeric"
                value={row.stock}
                onInput={(e) => setSize(index, { stock: e.currentTarget.value })}
              />
            </label>
          )}
          <label>
            Size price (₽, optional)
            <input
              inputMode="decimal"
              value={row.price}
              onInput={(e) => setSize(index, { price: e.currentTarget.value })}
            />
          </label>
        </div>
      ))}
      <ErrorNote text={error} />
      <div class="actions">
        <button type="button" onClick={() => setSizes((rows) => [...rows, { name: '', stock: '', price: '' }])}>
          Add size
        </button>
        {existing && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit">{existing ? 'Save' : 'Create'}</button>
      </div>
    </form>
  );
}
