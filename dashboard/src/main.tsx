import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, onSecondFactorRequired, onSignedOut, post, setBrand, setCsrfToken } from './api';
import { AccountPage } from './pages/account';
import { SETTINGS_MANAGE } from './contract';
import { InvitationPage } from './pages/invitation';
import { JournalPage } from './pages/journal';
import { KeysPage } from './pages/keys';
import { OrdersPage } from './pages/orders';
import { PersonalDataPage } from './pages/personal-data';
import { PlatformPage } from './pages/platform';
import { ProductsPage } from './pages/products';
import { ResetPasswordPage } from './pages/reset-password';
import { ReturnsPage } from './pages/returns';
import { SecondFactorNeeded } from './pages/second-factor-needed';
import { SignInPage } from './pages/sign-in';
import { SitesPage } from './pages/sites';
import { TeamPage } from './pages/team';
import { WebhooksPage } from './pages/webhooks';
import type { BrandListResponse, BrandResponse, MeResponse } from './types';
import { StepUpHost } from './ui/step-up-dialog';

const SECTIONS = [
  ['keys', 'Integration keys'],
  ['sites', 'Production sites'],
  ['webhooks', 'Webhooks'],
  ['journal', 'Security journal'],
  ['personal-data', 'Personal data'],
  ['team', 'Team'],
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
type AccountLink = { kind: 'reset' | 'invitation'; token: string };

function accountLinkOf(hash: string): AccountLink | null {
  const match = /^#\/(reset|invitation)\/([^/?#]+)$/.exec(hash);
  return match ? { kind: match[1] as AccountLink['kind'], token: decodeURIComponent(match[2]) } : null;
}

function App() {
  const [me, setMe] = useState<MeResponse | null | 'signed-out'>(null);
  const [hash, setHash] = useState(location.hash);
  // What the sign-in page says about what just happened (a password set through a reset link).
  const [notice, setNotice] = useState<string | null>(null);
  // The store an accepted invitation joined: the shell opens in it.
  const [landing, setLanding] = useState<number | null>(null);
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
          await refresh();
          location.hash = '#/';
        }}
      />
    );
  } else if (me === null) {
    screen = <p role="status">Loading…</p>;
  } else if (link?.kind === 'invitation') {
    screen = (
      <InvitationPage
        token={link.token}
        me={me === 'signed-out' ? null : me}
        onSignedIn={refresh}
        onJoined={async (brandId) => {
          // Who is signed in first, so the shell opens at once, without sign-in in between.
          setLanding(brandId);
          await refresh();
          location.hash = '#/';
        }}
      />
    );
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
    screen = (
      <Shell key={me.id} me={me} landing={landing} onMeChanged={refresh} onSignedOut={() => setMe('signed-out')} />
    );
  }
  return (
    <>
      {screen}
      <StepUpHost secondFactor={typeof me === 'object' && me !== null && me.secondFactor} />
    </>
  );
}

function Shell(props: {
  me: MeResponse;
  /** The store to open first (one an invitation just joined), else the first. */
  landing: number | null;
  onMeChanged: () => Promise<void>;
  onSignedOut: () => void;
}) {
  const [brands, setBrands] = useState<StoreChoice[]>(
    props.me.memberships.map((m) => ({ id: m.brandId, name: m.brandName, slug: m.brandSlug })),
  );
  const [brandId, setBrandId] = useState<number | null>(
    brands.find((b) => b.id === props.landing)?.id ?? brands[0]?.id ?? null,
  );
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
  // The store whose policy refused this session: /auth/me may predate the policy being turned on.
  const [refusedIn, setRefusedIn] = useState<number | null>(null);
  useEffect(() => onSecondFactorRequired(setRefusedIn), []);
  const factorNeeded =
    !props.me.secondFactor &&
    brandId !== null &&
    (refusedIn === brandId || props.me.memberships.some((m) => m.brandId === brandId && m.secondFactorRequired));
  /** Platform is the superadministrator's; Team, as the API decides, needs settings.manage in the open store. */
  const shown = (id: Section) =>
    id === 'platform'
      ? props.me.isSuperadmin
      : id !== 'team' ||
        props.me.isSuperadmin ||
        props.me.memberships.some((m) => m.brandId === brandId && m.permissions.includes(SETTINGS_MANAGE));

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
          {SECTIONS.filter(([id]) => shown(id)).map(([id, label]) => (
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
          <AccountPage me={props.me} onMeChanged={props.onMeChanged} />
        ) : factorNeeded ? (
          <SecondFactorNeeded storeName={brands.find((b) => b.id === brandId)?.name ?? null} />
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
            me={props.me}
            onMeChanged={props.onMeChanged}
            onBrandsChanged={() => setBrandsVersion((v) => v + 1)}
          />
        )}
      </main>
    </>
  );
}

/** A section of the open store (the account's page is the person's, in no store). */
function Page(props: {
  section: Exclude<Section, 'account'>;
  brandId: number;
  me: MeResponse;
  onMeChanged: () => Promise<void>;
  onBrandsChanged: () => void;
}) {
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
    case 'team':
      return <TeamPage brandId={props.brandId} me={props.me} onMeChanged={() => void props.onMeChanged()} />;
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
