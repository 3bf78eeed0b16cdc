import { getMetadataStorage, ValidationTypes, type ValidationArguments, type ValidatorOptions } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];

/** A property's rules, split by kind as class-validator's executor splits them on every call. */
interface PropertyRules {
  name: string;
  defined: ValidationMetadata[];
  conditions: ValidationMetadata[];
  custom: ValidationMetadata[];
  nested: ValidationMetadata[];
}

type ByProperty = ReturnType<Storage['groupByPropertyName']>;

/** A rule answered with a promise: only class-validator's executor can settle it. */
const UNDECIDED = Symbol('undecided');
type Verdict = boolean | typeof UNDECIDED;

// Options under which the check walks exactly as the executor; any other one, set, sends every
// object to class-validator (skip*, stopAtFirstError, groups, forbidNonWhitelisted, ...).
const FOLLOWED_OPTIONS = new Set(['whitelist', 'forbidUnknownValues', 'validationError']);

/**
 * Whether class-validator would find no error in an object, decided by the same rules (its
 * metadata storage) and the same constraint implementations, in the same order and with the same
 * whitelist deletions, but without the executor's error tree: for every property of every object
 * it filters the rules five times, builds a ValidationError and a closure per rule, and then drops
 * the empty errors again. That was a third of what a storefront order allocates
 * (docs/performance.md, the eighteenth session).
 *
 * `passes` answers true only for an object class-validator finds valid, so the pipe answers with
 * class-validator's errors whenever it is not true (an error, a rule answered with a promise,
 * an option it does not follow); validity-check.spec.ts holds the two to the same verdict.
 */
export class ValidityCheck {
  // By class-validator's grouping of a class's rules, which validation-metadata-cache keeps per class.
  private readonly rules = new WeakMap<ByProperty, PropertyRules[]>();

  constructor(private readonly storage: Storage = getMetadataStorage()) {}

  passes(object: object, options: ValidatorOptions): boolean {
    for (const name in options) {
      const value = options[name as keyof ValidatorOptions];
      if (!FOLLOWED_OPTIONS.has(name) && value !== undefined && value !== false) return false;
    }
    return this.execute(object, undefined, options) === true;
  }

  /** class-validator's ValidationExecutor.execute, answering whether it would add an error. */
  private execute(object: object, schema: string | undefined, options: ValidatorOptions): Verdict {
    const metadatas = this.storage.getTargetValidationMetadatas(object.constructor, schema!, false, false);
    const byProperty = this.storage.groupByPropertyName(metadatas);
    // class-validator forbids unknown values unless the option is false.
    if (options.forbidUnknownValues !== false && metadatas.length === 0) return false;
    const record = object as Record<string, unknown>;
    if (options.whitelist) {
      for (const name of Object.keys(record)) {
        if (!byProperty[name] || byProperty[name].length === 0) delete record[name];
      }
    }
    // As the executor's `object.constructor.name` for each rule, read once.
    const targetName = object.constructor ? object.constructor.name : undefined;
    for (const rules of this.rulesOf(byProperty)) {
      const value = record[rules.name];
      if (value instanceof Promise) return UNDECIDED;
      const verdict = this.property(object, targetName, value, rules, options);
      if (verdict !== true) return verdict;
    }
    return true;
  }

  /** performValidations: the conditions first (all false skip the property), then its rules. */
  private property(
    object: object,
    targetName: string | undefined,
    value: unknown,
    rules: PropertyRules,
    options: ValidatorOptions,
  ): Verdict {
    let applies = true;
    for (const condition of rules.conditions) {
      // Every condition runs, as the executor maps them all before it reduces.
      applies = Boolean((condition.constraints[0] as (o: object, v: unknown) => boolean)(object, value)) && applies;
    }
    if (!applies) return true;
    const defined = this.custom(object, targetName, value, rules.defined);
    if (defined !== true) return defined;
    const custom = this.custom(object, targetName, value, rules.custom);
    if (custom !== true) return custom;
    return this.nested(value, rules.nested, options);
  }

  private custom(
    object: object,
    targetName: string | undefined,
    value: unknown,
    metadatas: ValidationMetadata[],
  ): Verdict {
    for (const metadata of metadatas) {
      if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
      for (const constraint of this.storage.getTargetValidatorConstraints(metadata.constraintCls)) {
        const args: ValidationArguments = {
          targetName: targetName!,
          property: metadata.propertyName,
          object,
          value,
          constraints: metadata.constraints,
        };
        const instance = constraint.instance as { validate(value: unknown, args: ValidationArguments): unknown };
        if (!metadata.each || !isCollection(value)) {
          const valid = instance.validate(value, args);
          if (isThenable(valid)) return UNDECIDED;
          if (!valid) return false;
          continue;
        }
        for (const item of collectionValues(value)) {
          const valid = instance.validate(item, args);
          if (isThenable(valid)) return UNDECIDED;
          if (!valid) return false;
        }
      }
    }
    return true;
  }

  /** nestedValidations: each item of an array, or the object by its own class's rules. */
  private nested(value: unknown, metadatas: ValidationMetadata[], options: ValidatorOptions): Verdict {
    if (value === undefined) return true;
    for (const metadata of metadatas) {
      let verdict: Verdict;
      if (Array.isArray(value)) {
        verdict = true;
        // An item is validated by the nested rules alone (a hole, as undefined, passes).
        for (let index = 0; index < value.length && verdict === true; index++) {
          verdict = this.nested(value[index], metadatas, options);
        }
      } else if (value instanceof Set || value instanceof Map) {
        verdict = UNDECIDED;
      } else if (value instanceof Object) {
        const target = metadata.target;
        verdict = this.execute(value, typeof target === 'string' ? target : target.name, options);
      } else {
        verdict = false;
      }
      if (verdict !== true) return verdict;
    }
    return true;
  }

  private rulesOf(byProperty: ByProperty): PropertyRules[] {
    let rules = this.rules.get(byProperty);
    if (!rules) {
      rules = Object.entries(byProperty).map(([name, metadatas]) => {
        const others = metadatas.filter(
          (m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST,
        );
        return {
          name,
          defined: metadatas.filter((m) => m.type === ValidationTypes.IS_DEFINED),
          conditions: others.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
          custom: others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION),
          nested: others.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION),
        };
      });
      this.rules.set(byProperty, rules);
    }
    return rules;
  }
}

function isCollection(value: unknown): value is unknown[] | Set<unknown> | Map<unknown, unknown> {
  return Array.isArray(value) || value instanceof Set || value instanceof Map;
}

function collectionValues(value: unknown[] | Set<unknown> | Map<unknown, unknown>): unknown[] {
  if (value instanceof Map) return Array.from(value.values());
  return Array.isArray(value) ? value : Array.from(value);
}

/** class-validator's test for an answer to await: any object with a `then`. */
function isThenable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
