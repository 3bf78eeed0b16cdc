import { useState } from 'preact/hooks';
import { get, post, put } from '../api';
import { BRAND_PERMISSIONS } from '../contract';
import type { BrandListResponse, UserListResponse } from '../types';
import { PasswordRule } from '../ui/new-password-form';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** The superadministrator's extras (contract §1): stores, users, and who may do what in the open store. */
export function PlatformPage(props: { brandId: number | null; onBrandsChanged: () => void }) {
  const brands = useLoad(() => get<BrandListResponse>('/admin/brands'));
  const users = useLoad(() => get<UserListResponse>('/admin/users'));
  const [store, setStore] = useState({ name: '', slug: '', staffEmail: '' });
  const [user, setUser] = useState({ email: '', password: '' });
  const [member, setMember] = useState<number | ''>('');
  const [granted, setGranted] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const storeName = brands.data?.items.find((b) => b.id === props.brandId)?.name ?? '';

  return (
    <section aria-labelledby="platform-title">
      <h1 id="platform-title">Platform</h1>
      <ErrorNote text={brands.error ?? users.error ?? error} />
      {saved && <p role="status">{saved}</p>}
      <form
        class="card"
        aria-label="New store"
        onSubmit={async (event) => {
          event.preventDefault();
          const body = {
            name: store.name,
            slug: store.slug,
            ...(store.staffEmail ? { staffEmail: store.staffEmail } : {}),
          };
          if (await attempt(() => post('/admin/brands', body), setError)) {
            setSaved(`Store ${store.name} created.`);
            setStore({ name: '', slug: '', staffEmail: '' });
            brands.reload();
            props.onBrandsChanged();
          }
        }}
      >
        <h2>New store</h2>
        <div class="grid">
          <label>
            Store name
            <input required value={store.name} onInput={(e) => setStore({ ...store, name: e.currentTarget.value })} />
          </label>
          <label>
            Slug
            <input
              required
              pattern="[a-z0-9-]{2,40}"
              value={store.slug}
              onInput={(e) => setStore({ ...store, slug: e.currentTarget.value })}
            />
          </label>
          <label>
            Staff e-mail
            <input
              type="email"
              value={store.staffEmail}
              onInput={(e) => setStore({ ...store, staffEmail: e.currentTarget.value })}
            />
          </label>
        </div>
        <button type="submit">Create store</button>
      </form>
      <form
        class="card"
        aria-label="New user"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await attempt(() => post('/admin/users', user), setError)) {
            setSaved(`User ${user.email} created.`);
            setUser({ email: '', password: '' });
            users.reload();
          }
        }}
      >
        <h2>New user</h2>
        <div class="grid">
          <label>
            User e-mail
            <input
              type="email"
              required
              value={user.email}
              onInput={(e) => setUser({ ...user, email: e.currentTarget.value })}
            />
          </label>
          <label>
            Initial password
            <input
              type="password"
              autoComplete="new-password"
              required
              aria-describedby="initial-password-rule"
              value={user.password}
              onInput={(e) => setUser({ ...user, password: e.currentTarget.value })}
            />
          </label>
        </div>
        <PasswordRule id="initial-password-rule" />
        <button type="submit">Create user</button>
      </form>
      {props.brandId !== null && (
        <form
          class="card"
          aria-label={`Membership in ${storeName}`}
          onSubmit={async (event) => {
            event.preventDefault();
            if (member === '') return;
            if (
              await attempt(
                () => put(`/admin/brands/${props.brandId}/members/${member}`, { permissions: granted }),
                setError,
              )
            ) {
              setSaved(granted.length ? 'Permissions saved.' : 'Membership removed.');
            }
          }}
        >
          <h2>Membership in {storeName}</h2>
          <label for="member-user">User</label>
          <select id="member-user" value={member} onChange={(e) => setMember(Number(e.currentTarget.value))}>
            <option value="">Choose a user</option>
            {users.data?.items.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
          <fieldset>
            <legend>Permissions in this store (none: no membership)</legend>
            {BRAND_PERMISSIONS.map((permission) => (
              <label key={permission}>
                <input
                  type="checkbox"
                  checked={granted.includes(permission)}
                  onChange={() =>
                    setGranted((g) => (g.includes(permission) ? g.filter((p) => p !== permission) : [...g, permission]))
                  }
                />
                {permission}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={member === ''}>
            Save permissions
          </button>
        </form>
      )}
    </section>
  );
}
