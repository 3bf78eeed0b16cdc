import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: (...args: never[]) => unknown, thisArg?: unknown) => unknown;

/**
 * True when this Node.js gives every function bound by `AsyncResource#bind` the deprecated
 * `asyncResource` property (DEP0172) through `util.deprecate`, as Node 20 does.
 */
export function bindCarriesDeprecatedProperty(): boolean {
  const bound = new AsyncResource('probe').bind(() => undefined);
  return Object.getOwnPropertyDescriptor(bound, 'asyncResource')?.get !== undefined;
}

/**
 * `AsyncResource#bind` as Node.js has it since the deprecated `asyncResource` property of bound
 * functions went away (nodejs/node#58218, #58618). Node 20 and 24 still wrap that property's getter
 * and setter in `util.deprecate` on every call, which makes two functions and sets their
 * prototypes, and requests bind callbacks on every platform (Fastify's body parser, raw-body and
 * on-finished on Express, Nest's interceptors): decision record PERF-14 in docs/performance.md.
 *
 * The bound function runs `fn` in the resource's async context, with `thisArg` or the caller's
 * `this`, returns what it returns and keeps its `length`, as before; only the property nothing
 * here reads is gone. Installed once per process by the entry point (main.ts, which cluster.ts's
 * workers run too), and only on a Node that still defines that property.
 */
export function installLeanAsyncResourceBind(): boolean {
  if (!bindCarriesDeprecatedProperty()) return false;
  (AsyncResource.prototype as unknown as { bind: Bind }).bind = function (this: AsyncResource, fn, thisArg) {
    return leanBind(this, fn, thisArg);
  };
  return true;
}

function leanBind(resource: AsyncResource, fn: (...args: never[]) => unknown, thisArg: unknown): unknown {
  if (typeof fn !== 'function') {
    throw Object.assign(new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`), {
      code: 'ERR_INVALID_ARG_TYPE',
    });
  }
  const run = fn as (...args: unknown[]) => unknown;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(run, this, ...args);
        }
      : resource.runInAsyncScope.bind(resource, run, thisArg);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, writable: false, value: fn.length });
  return bound;
}
