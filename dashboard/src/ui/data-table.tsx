import type { ComponentChildren } from 'preact';

/** One column of a {@link DataTable}. */
export interface Column<T> {
  /** The header's text; for a column of row buttons it is read out but not shown (`hideHeader`). */
  header: string;
  hideHeader?: boolean;
  cell: (row: T) => ComponentChildren;
  /** The cells' class, such as `row-actions` for a column of buttons side by side. */
  class?: string;
}

/**
 * A list as a table: one header row, then one row per entry (keyed by its `id`: a number, or a
 * session's uuid), each cell drawn by its column. Until the rows arrive the body is empty.
 */
export function DataTable<T extends { id: number | string }>(props: {
  columns: Column<T>[];
  rows: readonly T[] | undefined;
}) {
  return (
    <table>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th key={column.header}>
              {column.hideHeader ? <span class="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows?.map((row) => (
          <tr key={row.id}>
            {props.columns.map((column) => (
              <td key={column.header} class={column.class}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
