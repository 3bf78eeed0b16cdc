import type { ReadEvent } from './event-stream';

/** A `stock.changed` event's data (contract §16). */
export interface StockEventData {
  sizeId: number;
  productId: number;
  article: string;
  storefrontArticle: string | null;
  size: string;
  delta: number;
  stock: number;
  reason: string;
  orderId: number | null;
  returnId: number | null;
  sequence: number;
}

export const stockData = (events: ReadEvent[]): StockEventData[] =>
  events.filter((e) => e.type === 'stock.changed').map((e) => e.data as unknown as StockEventData);

/**
 * The §16 arithmetic of each size's stock events: sequences 1, 2, 3… with no gap, each `stock` the
 * previous one plus its `delta` (the first's previous is `start`, 0 for a size created with the
 * feature), no zero delta, and the deltas adding up to the size's stock now (`stockNow`).
 */
export function stockArithmeticProblems(
  events: StockEventData[],
  stockNow: Map<number, number>,
  start: (sizeId: number) => number = () => 0,
): string[] {
  const problems: string[] = [];
  const bySize = new Map<number, StockEventData[]>();
  for (const event of events) bySize.set(event.sizeId, [...(bySize.get(event.sizeId) ?? []), event]);
  for (const [sizeId, now] of stockNow) {
    const sorted = [...(bySize.get(sizeId) ?? [])].sort((a, b) => a.sequence - b.sequence);
    let stock = start(sizeId);
    sorted.forEach((event, i) => {
      if (event.sequence !== i + 1) problems.push(`size ${sizeId}: sequence ${event.sequence} at ${i + 1}`);
      if (event.delta === 0) problems.push(`size ${sizeId}: a zero delta at ${event.sequence}`);
      if (event.stock !== stock + event.delta)
        problems.push(`size ${sizeId}: stock ${event.stock} after ${stock} and delta ${event.delta}`);
      stock = event.stock;
    });
    if (stock !== now) problems.push(`size ${sizeId}: events end at ${stock}, the size has ${now}`);
  }
  return problems;
}
