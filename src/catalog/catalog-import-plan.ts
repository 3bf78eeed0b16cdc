import { ErrorText } from '../common/errors/error-texts';
import type { ImportLine } from './catalog-csv';
import { sizeKeyOf } from './catalog-matcher';

/** A product the file names that the brand already has, as locked for the import. */
export interface CurrentProduct {
  id: number;
  article: string;
  name: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  sizes: Array<{ id: number; nameKey: string; priceKopeks: number | null }>;
}

/** A product of the brand holding a storefront article the file claims. */
export interface StorefrontHolder {
  article: string;
  storefrontArticle: string;
}

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  sizesCreated: number;
}

/** What the import writes, each part one set-based statement (catalog-import.repository.ts). */
export interface ImportPlan {
  counts: ImportCounts;
  creates: Array<{ article: string; name: string; storefrontArticle: string | null; priceKopeks: number }>;
  /** Existing products whose own columns change, with the values they end with. */
  updates: Array<{ id: number; name: string; storefrontArticle: string | null; priceKopeks: number }>;
  /** Products whose storefront article changes: cleared before any is set, so that two may swap. */
  storefrontMoves: number[];
  newSizes: Array<{ article: string; name: string; nameKey: string; priceKopeks: number | null }>;
  repricedSizes: Array<{ id: number; priceKopeks: number }>;
  /** Existing products changed in any way (their own columns or sizes): each gets a `product.updated`. */
  changedIds: number[];
}

/** One product of the file: the values its lines agree on, and its sizes by key. */
interface Group {
  article: string;
  first: ImportLine;
  name?: { value: string; line: number };
  priceKopeks?: { value: number; line: number };
  storefrontArticle?: { value: string; line: number };
  /** Each size by its key: the name it was first given, and its price with the line that gave it. */
  sizes: Map<string, { name: string; priceKopeks?: number; line: number }>;
}

/** The storefront articles the file gives, once each. */
export function claimedStorefrontArticles(lines: ImportLine[]): string[] {
  return [...new Set(lines.flatMap((line) => (line.storefrontArticle === undefined ? [] : [line.storefrontArticle])))];
}

/**
 * Judges the file's lines against the products they name (contract §18) and plans the writes. A
 * line is wrong when it disagrees with an earlier line of its article, when it is the first line
 * of a new product and lacks its name or price, or when it claims a storefront article that
 * another product would still hold after the import (one of the brand's, or another of the file's).
 * `problems` gets each wrong line's faults; the plan is meaningful only when it stays empty.
 */
export function planImport(
  lines: ImportLine[],
  current: Map<string, CurrentProduct>,
  holders: StorefrontHolder[],
  problems: Map<number, string[]>,
): ImportPlan {
  const note = (line: number, problem: string) => problems.set(line, [...(problems.get(line) ?? []), problem]);
  const groups = new Map<string, Group>();
  for (const line of lines) {
    const article = line.article!;
    let group = groups.get(article);
    if (!group) groups.set(article, (group = { article, first: line, sizes: new Map() }));
    agree(group, 'name', line.name, line.line, note);
    agree(group, 'priceKopeks', line.priceKopeks, line.line, note);
    agree(group, 'storefrontArticle', line.storefrontArticle, line.line, note);
    if (line.size !== undefined) {
      const key = sizeKeyOf(line.size);
      const size = group.sizes.get(key);
      if (!size) group.sizes.set(key, { name: line.size, priceKopeks: line.sizePriceKopeks, line: line.line });
      else if (line.sizePriceKopeks !== undefined) {
        if (size.priceKopeks === undefined) Object.assign(size, { priceKopeks: line.sizePriceKopeks, line: line.line });
        else if (size.priceKopeks !== line.sizePriceKopeks)
          note(line.line, ErrorText.importSizePriceDiffers(line.size, size.line));
      }
    }
  }

  // A new product's first line names it and prices it.
  for (const group of groups.values()) {
    if (current.has(group.article)) continue;
    for (const column of ['name', 'priceKopeks'] as const) {
      if (group.first[column] === undefined && !group.first.invalid?.includes(column)) {
        note(group.first.line, ErrorText.importNewProductNeeds(column));
      }
    }
  }

  // Storefront articles as the import would leave them: each held by one product at most.
  const claims = new Map<string, { article: string; line: number }>();
  for (const group of groups.values()) {
    const claim = group.storefrontArticle;
    if (!claim) continue;
    const earlier = claims.get(claim.value);
    if (earlier) note(claim.line, ErrorText.importStorefrontClaimed(claim.value, earlier.line));
    else claims.set(claim.value, { article: group.article, line: claim.line });
  }
  for (const holder of holders) {
    const claim = claims.get(holder.storefrontArticle);
    const keeps = groups.get(holder.article)?.storefrontArticle?.value ?? holder.storefrontArticle;
    if (claim && claim.article !== holder.article && keeps === holder.storefrontArticle) {
      note(claim.line, ErrorText.importStorefrontHeld(holder.storefrontArticle, holder.article));
    }
  }

  const plan: ImportPlan = {
    counts: { created: 0, updated: 0, unchanged: 0, sizesCreated: 0 },
    creates: [],
    updates: [],
    storefrontMoves: [],
    newSizes: [],
    repricedSizes: [],
    changedIds: [],
  };
  for (const group of groups.values()) {
    const product = current.get(group.article);
    const newSizes = [...group.sizes.entries()]
      .filter(([key]) => !product?.sizes.some((size) => size.nameKey === key))
      .map(([nameKey, size]) => ({
        article: group.article,
        name: size.name,
        nameKey,
        priceKopeks: size.priceKopeks ?? null,
      }));
    plan.newSizes.push(...newSizes);
    if (!product) {
      plan.creates.push({
        article: group.article,
        name: group.name?.value ?? '',
        storefrontArticle: group.storefrontArticle?.value ?? null,
        priceKopeks: group.priceKopeks?.value ?? 0,
      });
      continue;
    }
    const repriced = product.sizes.flatMap((size) => {
      const given = group.sizes.get(size.nameKey)?.priceKopeks;
      return given !== undefined && given !== size.priceKopeks ? [{ id: size.id, priceKopeks: given }] : [];
    });
    plan.repricedSizes.push(...repriced);
    const next = {
      id: product.id,
      name: group.name?.value ?? product.name,
      storefrontArticle: group.storefrontArticle?.value ?? product.storefrontArticle,
      priceKopeks: group.priceKopeks?.value ?? product.priceKopeks,
    };
    const ownChange =
      next.name !== product.name ||
      next.storefrontArticle !== product.storefrontArticle ||
      next.priceKopeks !== product.priceKopeks;
    if (ownChange) plan.updates.push(next);
    if (next.storefrontArticle !== product.storefrontArticle) plan.storefrontMoves.push(product.id);
    if (ownChange || repriced.length > 0 || newSizes.length > 0) plan.changedIds.push(product.id);
    else plan.counts.unchanged++;
  }
  // Rows are given in id order, the order the ledger locks sizes in, so that a concurrent order rarely deadlocks with
  // the import (a deadlock's victim is run again whole: Transactions.run).
  for (const rows of [plan.updates, plan.repricedSizes]) rows.sort((a, b) => a.id - b.id);
  plan.storefrontMoves.sort((a, b) => a - b);
  plan.counts.created = plan.creates.length;
  plan.counts.updated = plan.changedIds.length;
  plan.counts.sizesCreated = plan.newSizes.length;
  return plan;
}

/** Keeps the first value a product's lines give for `column`; a later, different one is the later line's fault. */
function agree<K extends 'name' | 'priceKopeks' | 'storefrontArticle'>(
  group: Group,
  column: K,
  value: Group[K] extends { value: infer V } | undefined ? V | undefined : never,
  line: number,
  note: (line: number, problem: string) => void,
): void {
  if (value === undefined) return;
  const earlier = group[column];
  if (earlier === undefined)
    (group as unknown as Record<K, { value: unknown; line: number }>)[column] = { value, line };
  else if (earlier.value !== value) note(line, ErrorText.importDiffers(column, group.article, earlier.line));
}
