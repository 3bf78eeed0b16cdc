import { RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../../src/app.module';
import {
  ACCOUNT_ROUTE,
  ANY_PERMISSION,
  AUTH_REALM,
  IS_PUBLIC,
  KEY_CHECKED_BY_STATEMENT,
  NEEDS_BRAND,
  RECENT_AUTHENTICATION,
  REQUIRED_PERMISSION,
  SESSION_ONLY,
  SIGNED_WEBHOOK,
} from '../../src/common/decorators/auth-metadata';
import { READ_ONLY_POST } from '../../src/idempotency/read-only-post.decorator';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule>;

/** Who may call a route, as its decorators declare and the global guards enforce. */
export type Access =
  | { kind: 'public' }
  | {
      kind: 'permission';
      permission: string;
      brand: 'path' | 'scoped' | null;
      /** An integration key's liveness is checked by the route's own statement (access-keys' fast lane). */
      keyCheckedByStatement: boolean;
    }
  /** Brand-scoped, for a caller holding any of `permissions` (the service decides the rest). */
  | { kind: 'anyPermission'; permissions: string[] }
  | { kind: 'session' }
  | { kind: 'signed'; signer: string }
  | { kind: 'realm'; realm: string };

export interface RouteEntry {
  method: string;
  path: string;
  /** Every access decision its decorators declare: exactly one is right. */
  decisions: Access[];
  /** The interceptors bound to the route (there are no global ones). */
  interceptors: string[];
  /** A POST that changes nothing and so records no Idempotency-Key (ReadOnlyPost). */
  readOnlyPost: boolean;
  /** A sensitive action: a session must have proved its account lately (contract §19). */
  recentAuthentication: boolean;
  /** `@AccountRoutes()`: a brand's second-factor policy leaves it open (contract §19). */
  accountRoute: boolean;
}

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

/** Every route of the application with its access decisions, from Nest's own metadata, sorted. */
export function routeTable(): RouteEntry[] {
  const routes: RouteEntry[] = [];
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
      const permission = meta(REQUIRED_PERMISSION, handler, cls) as string | undefined;
      const anyPermission = meta(ANY_PERMISSION, handler, cls) as string[] | undefined;
      const signer = meta(SIGNED_WEBHOOK, handler, cls) as string | undefined;
      const realm = meta(AUTH_REALM, handler, cls) as string | undefined;
      const brand = !meta(NEEDS_BRAND, handler, cls) ? null : path.includes(':brandId') ? 'path' : 'scoped';
      const decisions: Access[] = [
        ...(meta(IS_PUBLIC, handler, cls) ? [{ kind: 'public' } as const] : []),
        ...(permission
          ? [
              {
                kind: 'permission',
                permission,
                brand,
                keyCheckedByStatement: meta(KEY_CHECKED_BY_STATEMENT, handler, cls) === true,
              } as const,
            ]
          : []),
        ...(anyPermission ? [{ kind: 'anyPermission' as const, permissions: [...anyPermission] }] : []),
        ...(meta(SESSION_ONLY, handler, cls) ? [{ kind: 'session' } as const] : []),
        ...(signer ? [{ kind: 'signed', signer } as const] : []),
        ...(realm ? [{ kind: 'realm', realm } as const] : []),
      ];
      const interceptors = [
        ...((Reflect.getMetadata(INTERCEPTORS_METADATA, cls) as Type[] | undefined) ?? []),
        ...((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as Type[] | undefined) ?? []),
      ].map((interceptor) => interceptor.name);
      const readOnlyPost = Reflect.getMetadata(READ_ONLY_POST, handler) === true;
      const recentAuthentication = meta(RECENT_AUTHENTICATION, handler, cls) === true;
      const accountRoute = meta(ACCOUNT_ROUTE, handler, cls) === true;
      routes.push({
        method: RequestMethod[method],
        path,
        decisions,
        interceptors,
        readOnlyPost,
        recentAuthentication,
        accountRoute,
      });
    }
  }
  return routes.sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}

/** How the snapshot writes a decision. */
export function describeAccess(access: Access): string {
  switch (access.kind) {
    case 'public':
      return 'public';
    case 'anyPermission':
      return `brand scoped, the service checks ${access.permissions.join(', ')}`;
    case 'session':
      return 'session only';
    case 'signed':
      return `signed by ${access.signer}`;
    case 'realm':
      return `realm ${access.realm}`;
    case 'permission':
      return `permission ${access.permission}${access.brand === 'path' ? ', brand from path' : access.brand === 'scoped' ? ', brand scoped' : ''}${access.keyCheckedByStatement ? ', key checked by its statement' : ''}`;
  }
}
