import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** How many entries a page of a list holds. */
export const PAGE_SIZE = 50;

/** What a {@link Pager} shows: a direction without a step is disabled. */
interface PagerProps {
  newer?: () => void;
  older?: () => void;
  position?: ComponentChildren;
}

/** Newer and Older under a list, newest first, with where the page is when the list says its total. */
export function Pager(props: PagerProps) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={!props.newer} onClick={props.newer}>
        Newer
      </button>
      {props.position !== undefined && <span>{props.position}</span>}
      <button type="button" disabled={!props.older} onClick={props.older}>
        Older
      </button>
    </nav>
  );
}

/**
 * Pages by `before` through a list that says its `total` (orders, returns: contract §6, §9, §21):
 * a page costs the same at any depth, where `offset` stops at 10 000. The cursors of the pages
 * passed are kept to go back up; the position counts the pages passed.
 */
export function useCountedPages() {
  const [cursors, setCursors] = useState<number[]>([]);
  const before = cursors.at(-1);
  const skipped = cursors.length * PAGE_SIZE;
  return {
    query: `limit=${PAGE_SIZE}${before ? `&before=${before}` : ''}`,
    /** Back to the first page, as after a change of filter. */
    reset: () => setCursors([]),
    pager: (total: number, page: readonly { id: number }[] = []): PagerProps => ({
      newer: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
      older:
        page.length === PAGE_SIZE && skipped + PAGE_SIZE < total
          ? () => setCursors([...cursors, page[page.length - 1].id])
          : undefined,
      position: `${page.length === 0 ? 0 : skipped + 1}–${skipped + page.length} of ${total}`,
    }),
  };
}

/**
 * Pages by `before` (the last id of the page above) through a list that has no total (the security
 * journal: contract §8). The cursors of the pages passed are kept to go back up.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<number[]>([]);
  const before = cursors.at(-1);
  return {
    query: `limit=${PAGE_SIZE}${before ? `&before=${before}` : ''}`,
    reset: () => setCursors([]),
    /** A page shorter than the page size is the last one. */
    pager: (page: readonly { id: number }[]): PagerProps => ({
      newer: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
      older: page.length === PAGE_SIZE ? () => setCursors([...cursors, page[page.length - 1].id]) : undefined,
    }),
  };
}
