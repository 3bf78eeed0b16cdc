/**
 * A Map that holds at most `capacity` entries: adding a new key to a full one first drops the
 * oldest (a Map iterates in insertion order). For the per-instance memories of the hot paths,
 * which must not grow with the traffic.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.capacity && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
