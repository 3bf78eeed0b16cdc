/**
 * Cells a spreadsheet would take for a formula (contract §18): one that starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return is exported with a leading `'`, which a spreadsheet shows as
 * text, and the import drops that `'` again. A cell that already starts with `'` and then such a
 * character gets one more, so that every value comes back as it was (`'=x` is written `''=x`).
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;

/** The cell as the export writes it. */
export const guardFormula = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** The cell as the import reads it: the export's `'` before a formula's first character dropped. */
export const unguardFormula = (cell: string): string => (GUARDED.test(cell) ? cell.slice(1) : cell);
