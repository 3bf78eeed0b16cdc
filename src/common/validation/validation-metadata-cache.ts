import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];

type BySchema = Map<string | undefined, Array<ReturnType<Lookup> | undefined>>;

const installed = new WeakSet<Storage>();

/**
 * Remembers class-validator's rules per class. Its storage works them out again on every
 * validation of every (nested) object, and to find inherited rules it tests the class against
 * every class that has any: a good part of validating a storefront order's body
 * (docs/performance.md, PERF-9). The rules only change
 * when a decorator registers one, which empties the cache; a lookup by validation groups is
 * passed through, since the groups vary per call.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookUp: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  // Per class, then per schema, then per options (always, strictGroups): the same for every call of
  // one pipe. No key is built per lookup, since there is one lookup per validated object.
  const known = new Map<unknown, BySchema>();

  storage.addValidationMetadata = (metadata) => {
    known.clear();
    register(metadata);
  };
  // class-validator groups a class's rules by property on every validation of every object;
  // the rules above are the same array each time, so the grouping can be remembered by it.
  const group = storage.groupByPropertyName.bind(storage);
  const grouped = new WeakMap<object, ReturnType<Storage['groupByPropertyName']>>();
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    let ofTarget = known.get(target);
    if (!ofTarget) known.set(target, (ofTarget = new Map() as BySchema));
    let ofSchema = ofTarget.get(schema);
    if (!ofSchema) ofTarget.set(schema, (ofSchema = []));
    const slot = (always ? 2 : 0) + (strictGroups ? 1 : 0);
    let rules = ofSchema[slot];
    if (!rules) {
      rules = lookUp(target, schema, always, strictGroups, groups);
      ofSchema[slot] = rules;
    }
    return rules;
  };
}
