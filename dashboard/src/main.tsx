import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, onSignedOut, post, setBrand, setCsrfToken } from './api';
import { AccountPage } from './pages/account';
import { JournalPage } from './pages/journal';
import { KeysPage } from './pages/keys';
import { OrdersPage } from './pages/orders';
import { PersonalDataPage } from './pages/personal-data';
import { PlatformPage } from './pages/platform';
import { ProductsPage } from './pages/products';
import { ResetPasswordPage } from './pages/reset-password';
import { ReturnsPage } from './pages/returns';
import { SignInPage } from './pages/sign-in';
import { SitesPage } from './pages/sites';
import { WebhooksPage } from './pages/webhooks';
import type { BrandListResponse, BrandResponse, MeResponse } from './types';
import { StepUpHost } from './ui/step-up-dialog';

const SECTIONS = [
  ['keys', 'Integration keys'],
  ['sites', 'Production sites'],
  ['webhooks', 'Webhooks'],
  ['journal', 'Security journal'],
  ['personal-data', 'Personal data'],
  ['orders', 'Orders'],
  ['returns', 'Returns'],
  ['products', 'Products'],
  ['platform', 'Platform'],
  ['account', 'Account'],
] as const;
type Section = (typeof SECTIONS)[number][0];

/** A store in the chooser: until the superadministrator's full list arrives, the memberships name them. */
type StoreChoice = Pick<BrandResponse, 'id' | 'name' | 'slug'>;

const sectionOf = (hash: string): Section => SECTIONS.find(([id]) => `#/${id}` === hash)?.[0] ?? 'keys';

/** Where a mailed link lands (contract §19): reachable signed in or not, before the sections. */
type AccountLink = { kind: 'reset'; token: string };

function accountLinkOf(hash: string): AccountLink | null {
  const match = /^#\/reset\/([^/?#]+)$/.exec(hash);
  return match ? { kind: 'reset', token: decodeURIComponent(match[1]) } : null;
}

function App() {
  const [me, setMe] = useState<MeResponse | null | 'signed-out'>(null);
  const [hash, setHash] = useState(location.hash);
  // What the sign-in page says about what just happened (a password set through a reset link).
  const [notice, setNotice] = useState<string | null>(null);
  /** Who is signed in now, as the API sees it: after sign-in, and after a link changed that. */
  const refresh = () =>
    get<MeResponse>('/auth/me').then(
      (who) => {
        setCsrfToken(who.csrfToken);
        setMe(who);
      },
      () => {
        setCsrfToken(null);
        setMe('signed-out');
      },
    );
  useEffect(() => {
    onSignedOut(() => {
      setCsrfToken(null);
      setMe('signed-out');
    });
    const follow = () => setHash(location.hash);
    addEventListener('hashchange', follow);
    void refresh();
    return () => removeEventListener('hashchange', follow);
  }, []);

  const link = accountLinkOf(hash);
  let screen;
  if (link?.kind === 'reset') {
    screen = (
      <ResetPasswordPage
        token={link.token}
        onDone={async () => {
          // The reset ended every session of the account: sign-in says the password is set.
          setNotice('Your new password is set. Sign in with it.');
          location.hash = '#/';
          await refresh();
        }}
      />
    );
  } else if (me === null) {
    screen = <p role="status">Loading…</p>;
  } else if (me === 'signed-out') {
    screen = (
      <SignInPage
        notice={notice}
        onSignedIn={async () => {
          setNotice(null);
          await refresh();
        }}
      />
    );
  } else {
    screen = <Shell key={me.id} me={me} onSignedOut={() => setMe('signed-out')} />;
  }
  return (
    <>
      {screen}
      <StepUpHost />
    </>
  );
}

function Shell(props: { me: MeResponse; onSignedOut: () => void }) {
  const [brands, setBrands] = useState<StoreChoice[]>(
    props.me.memberships.map((m) => ({ id: m.brandId, name: m.brandName, slug: m.brandSlug })),
  );
  const [brandId, setBrandId] = useState<number | null>(brands[0]?.id ?? null);
  const [section, setSection] = useState<Section>(sectionOf(location.hash));
  useEffect(() => {
    const follow = () => setSection(sectionOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const [brandsVersion, setBrandsVersion] = useState(0);
  useEffect(() => {
    // A superadministrator works in every store: the chooser lists them all.
    if (props.me.isSuperadmin) {
      get<BrandListResponse>('/admin/brands').then(
        (all) => {
          setBrands(all.items);
          setBrandId((current) => current ?? all.items[0]?.id ?? null);
        },
        () => undefined,
      );
    }
  }, [props.me.isSuperadmin, brandsVersion]);
  // During render, not in an effect: the pages' own effects run first and already load with it.
  setBrand(brandId);

  return (
    <>
      <header>
        <strong>Admin area</strong>
        <label for="store" class="inline-label">
          Store
        </label>
        <select id="store" value={brandId ?? ''} onChange={(e) => setBrandId(Number(e.currentTarget.value))}>
          {brands.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
        <span>{props.me.email}</span>
        <button
          type="button"
          onClick={async () => {
            await post('/auth/logout').catch(() => undefined);
            setCsrfToken(null);
            props.onSignedOut();
          }}
        >
          Sign out
        </button>
      </header>
      <nav aria-label="Sections">
        <ul>
          {SECTIONS.filter(([id]) => id !== 'platform' || props.me.isSuperadmin).map(([id, label]) => (
            <li key={id}>
              <a href={`#/${id}`} aria-current={section === id ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        {section === 'account' ? (
          <AccountPage me={props.me} />
        ) : brandId === null ? (
          props.me.isSuperadmin ? (
            <PlatformPage brandId={null} onBrandsChanged={() => setBrandsVersion((v) => v + 1)} />
          ) : (
            <p>No store is open to this account.</p>
          )
        ) : (
          <Page
            key={`${brandId}-${section}`}
            section={section}
            brandId={brandId}
            onBrandsChanged={() => setBrandsVersion((v) => v + 1)}
          />
        )}
      </main>
    </>
  );
}

/** A section of the open store (the account's page is the person's, in no store). */
function Page(props: { section: Exclude<Section, 'account'>; brandId: number; onBrandsChanged: () => void }) {
  switch (props.section) {
    case 'keys':
      return <KeysPage brandId={props.brandId} />;
    case 'sites':
      return <SitesPage brandId={props.brandId} />;
    case 'webhooks':
      return <WebhooksPage brandId={props.brandId} />;
    case 'journal':
      return <JournalPage brandId={props.brandId} />;
    case 'personal-data':
      return <PersonalDataPage brandId={props.brandId} />;
    case 'orders':
      return <OrdersPage />;
    case 'returns':
      return <ReturnsPage />;
    case 'products':
      return <ProductsPage />;
    case 'platform':
      return <PlatformPage brandId={props.brandId} onBrandsChanged={props.onBrandsChanged} />;
  }
}

render(<App />, document.getElementById('app')!);
