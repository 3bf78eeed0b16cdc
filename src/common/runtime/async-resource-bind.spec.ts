import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { bindCarriesDeprecatedProperty, installLeanAsyncResourceBind } from './async-resource-bind';

describe('installLeanAsyncResourceBind', () => {
  const nodeBind = Object.getOwnPropertyDescriptor(AsyncResource.prototype, 'bind')!;
  const nodeCarriesProperty = bindCarriesDeprecatedProperty();
  beforeAll(() => installLeanAsyncResourceBind());
  // Only the process entry points install it: the suites this worker runs next get Node's own.
  afterAll(() => {
    Object.defineProperty(AsyncResource.prototype, 'bind', nodeBind);
  });

  it("is still needed: Node's own bind gives bound functions the deprecated property (when not, delete the module)", () => {
    expect(nodeCarriesProperty).toBe(true);
  });

  it('leaves bound functions without the deprecated asyncResource property, and installs once', () => {
    expect(bindCarriesDeprecatedProperty()).toBe(false);
    expect(
      Object.getOwnPropertyDescriptor(
        AsyncResource.bind(() => 1),
        'asyncResource',
      ),
    ).toBeUndefined();
    expect(installLeanAsyncResourceBind()).toBe(false);
  });

  it('runs the function in the async context it was bound in', async () => {
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('where it was bound', () => AsyncResource.bind(() => storage.getStore()));
    expect(storage.run('where it is called', () => bound())).toBe('where it was bound');
    // And from a later turn of the event loop, as a parser's callback is called.
    const later = await new Promise((resolve) => setImmediate(() => resolve(bound())));
    expect(later).toBe('where it was bound');
  });

  it("passes arguments and the caller's this, or thisArg, and returns the result", () => {
    const receiver = { name: 'receiver' };
    const other = { name: 'other' };
    function label(this: { name: string } | undefined, a: number, b: number) {
      return `${this?.name}:${a + b}`;
    }
    const withCallerThis = new AsyncResource('test').bind(label);
    expect(withCallerThis.call(receiver, 1, 2)).toBe('receiver:3');
    const withThisArg = AsyncResource.bind(label, 'test', other);
    expect(withThisArg.call(receiver, 2, 3)).toBe('other:5');
    expect(withCallerThis.length).toBe(2);
    expect(withThisArg.length).toBe(2);
  });

  it('refuses what is not a function, as Node does', () => {
    expect(() => new AsyncResource('test').bind(42 as never)).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }) as Error,
    );
  });
});
