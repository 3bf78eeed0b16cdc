/**
 * A statement's parameters by name, so a long statement reads `${p.$.brandId}` rather than `$1`
 * kept in step with an array by comments: `$` gives each name's placeholder for the text, and
 * `values` the array the driver takes, in the same order, from an object that must name them all.
 */
export class NamedParameters<K extends string> {
  readonly $: Readonly<Record<K, string>>;

  constructor(readonly names: readonly K[]) {
    this.$ = Object.fromEntries(names.map((name, i) => [name, `$${i + 1}`])) as Record<K, string>;
  }

  values(given: Readonly<Record<K, unknown>>): unknown[] {
    return this.names.map((name) => given[name]);
  }
}
