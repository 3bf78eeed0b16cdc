import type { ValueTransformer } from 'typeorm';

/**
 * Money columns are `bigint` kopeks, which pg hands over as strings (a bigint may exceed a JS
 * number); amounts here stay far below 2^53, so they are read as numbers. Null stays null.
 */
export const kopeks: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
