import { RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../src/app.module';
import {
  AUTH_REALM,
  IS_PUBLIC,
  NEEDS_BRAND,
  REQUIRED_PERMISSION,
  SESSION_ONLY,
  SIGNED_WEBHOOK,
} from '../src/common/decorators/auth-metadata';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule>;

/** Every controller of the application, found through the module graph as Nest walks it. */
function controllersOf(root: ModuleRef, seen = new Set<unknown>()): Type[] {
  if (root instanceof Promise || seen.has(root)) return [];
  seen.add(root);
  const cls = 'module' in root ? root.module : root;
  const dynamic = 'module' in root ? root : undefined;
  const imports: ModuleRef[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) as ModuleRef[] | undefined) ?? []),
    ...((dynamic?.imports as ModuleRef[] | undefined) ?? []),
  ];
  const controllers: Type[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, cls) as Type[] | undefined) ?? []),
    ...(dynamic?.controllers ?? []),
  ];
  return [...controllers, ...imports.flatMap((child) => controllersOf(child, seen))];
}

const meta = (key: string, handler: object, cls: Type): unknown =>
  Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, cls);

/** One line per route: who may call it, as the decorators declare and the global guards enforce. */
function accessTable(): { lines: string[]; problems: string[] } {
  const lines: string[] = [];
  const problems: string[] = [];
  for (const cls of controllersOf(AppModule.register({ databaseUrl: 'postgres://unused' }))) {
    const base = String(Reflect.getMetadata(PATH_METADATA, cls) ?? '');
    const proto = cls.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const path = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
      const route = `${RequestMethod[method]} ${path}`;
      const decisions = [
        meta(IS_PUBLIC, handler, cls) ? 'public' : null,
        meta(REQUIRED_PERMISSION, handler, cls)
          ? `permission ${String(meta(REQUIRED_PERMISSION, handler, cls))}`
          : null,
        meta(SESSION_ONLY, handler, cls) ? 'session only' : null,
        meta(SIGNED_WEBHOOK, handler, cls) ? `signed by ${String(meta(SIGNED_WEBHOOK, handler, cls))}` : null,
        meta(AUTH_REALM, handler, cls) ? `realm ${String(meta(AUTH_REALM, handler, cls))}` : null,
      ].filter((d): d is string => d !== null);
      if (decisions.length !== 1)
        problems.push(`${route}: ${decisions.length} access decorators (${decisions.join(', ')})`);
      const brand = !meta(NEEDS_BRAND, handler, cls)
        ? ''
        : path.includes(':brandId')
          ? ', brand from path'
          : ', brand scoped';
      lines.push(`${route.padEnd(70)} ${decisions.join(' + ') || 'NONE'}${brand}`);
    }
  }
  return { lines: lines.sort(), problems };
}

/**
 * Who may call what, from Nest's own metadata, against a reviewed snapshot: a route added, or a
 * permission changed, shows up as a diff in review (`npx jest test/route-access -u` after
 * checking it). Every route carries exactly one access decorator.
 */
describe('route access', () => {
  const table = accessTable();

  it('every route declares exactly one access decision', () => {
    expect(table.problems).toEqual([]);
  });

  it('matches the reviewed snapshot', () => {
    expect(table.lines.length).toBeGreaterThan(30);
    expect(table.lines.join('\n')).toMatchSnapshot();
  });
});
