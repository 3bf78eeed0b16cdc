import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { BRAND_PERMISSIONS, SETTINGS_MANAGE } from '../contract';
import type { IntegrationKeyListResponse, IntegrationKeyResponse, IssuedIntegrationKeyResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { KeyRequestsDialog } from './key-requests';
import { Confirm, Dialog } from '../ui/dialog';
import { expiresSoon, when } from '../ui/format';
import { SecretDialog } from '../ui/secret-dialog';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** The permissions a key may hold, grouped by what they are about (orders, products, stock, returns). */
const GROUPS = [...new Set(BRAND_PERMISSIONS.map((p) => p.split('.')[0]))]
  .map((resource): [string, string[]] => [
    resource[0].toUpperCase() + resource.slice(1),
    BRAND_PERMISSIONS.filter((p) => p.startsWith(`${resource}.`) && p !== SETTINGS_MANAGE),
  ])
  .filter(([, permissions]) => permissions.length > 0);

const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Integration keys of the brand: list, issue, roll, pin to addresses, revoke (contract §3, §12). */
export function KeysPage(props: { brandId: number }) {
  const base = `/admin/brands/${props.brandId}/integration-keys`;
  const keys = useLoad(() => get<IntegrationKeyListResponse>(base), [base]);
  const [issuing, setIssuing] = useState(false);
  const [shown, setShown] = useState<IssuedIntegrationKeyResponse | null>(null);
  const [revoking, setRevoking] = useState<IntegrationKeyResponse | null>(null);
  const [rolling, setRolling] = useState<IntegrationKeyResponse | null>(null);
  const [watching, setWatching] = useState<IntegrationKeyResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Integration keys</h1>
      <p>Keys let the brand's integrations (the storefront, an ERP) call the API. Each is shown once.</p>
      <button type="button" onClick={() => setIssuing(true)}>
        Issue key
      </button>
      <ErrorNote text={keys.error ?? error} />
      <DataTable
        rows={keys.data?.items}
        columns={[
          { header: 'Name', cell: (key) => key.name },
          { header: 'Key', cell: (key) => <code>{key.keyHint}</code> },
          { header: 'Permissions', cell: (key) => (key.fullAccess ? 'Full access' : key.permissions.join(', ')) },
          {
            header: 'Status',
            cell: (key) => (
              <>
                {key.status}
                {key.status === 'active' && expiresSoon(key.expiresAt) && <span class="badge"> expires soon</span>}
              </>
            ),
          },
          { header: 'Expires', cell: (key) => (key.expiresAt ? when(key.expiresAt) : 'never') },
          {
            header: 'Last used',
            cell: (key) => (
              <>
                {when(key.lastUsedAt)}
                {key.lastUsedIp && <small> from {key.lastUsedIp}</small>}
              </>
            ),
          },
          { header: 'Created by', cell: (key) => key.createdBy.email },
          {
            header: 'Actions',
            hideHeader: true,
            class: 'row-actions',
            cell: (key) => (
              <>
                <button type="button" aria-label={`Requests of ${key.name}`} onClick={() => setWatching(key)}>
                  Requests
                </button>
                {key.status === 'active' && (
                  <>
                    <button type="button" aria-label={`Roll ${key.name}`} onClick={() => setRolling(key)}>
                      Roll
                    </button>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </button>
                  </>
                )}
              </>
            ),
          },
        ]}
      />
      {issuing && (
        <IssueKeyDialog
          base={base}
          onClose={() => setIssuing(false)}
          onIssued={(key) => {
            setIssuing(false);
            setShown(key);
            keys.reload();
          }}
        />
      )}
      {shown && (
        <SecretDialog
          title={`Key for ${shown.name}`}
          secret={shown.key}
          envName="INTEGRATION_API_KEY"
          onClose={() => setShown(null)}
        />
      )}
      {watching && <KeyRequestsDialog base={base} apiKey={watching} onClose={() => setWatching(null)} />}
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          action="Revoke"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await attempt(() => post(`${base}/${revoking.id}/revoke`), setError);
            keys.reload();
          }}
        >
          Every request with this key ({revoking.keyHint}) is refused from the next one on, in every instance: the
          integration "{revoking.name}" stops working until it gets a new key.
        </Confirm>
      )}
      {rolling && (
        <Confirm
          title={`Roll ${rolling.name}?`}
          action="Roll"
          onClose={() => setRolling(null)}
          onConfirm={async () => {
            await attempt(
              async () => setShown(await post<IssuedIntegrationKeyResponse>(`${base}/${rolling.id}/roll`, {})),
              setError,
            );
            keys.reload();
          }}
        >
          A new key with the same permissions and addresses replaces {rolling.keyHint}; the old key stops working now.
        </Confirm>
      )}
    </section>
  );
}

function IssueKeyDialog(props: {
  base: string;
  onClose: () => void;
  onIssued: (key: IssuedIntegrationKeyResponse) => void;
}) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [fullAccess, setFullAccess] = useState(false);
  const [expires, setExpires] = useState('');
  const [addresses, setAddresses] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toggle = (permission: string) =>
    setPermissions((current) =>
      current.includes(permission) ? current.filter((p) => p !== permission) : [...current, permission],
    );

  const submit = async (event: Event) => {
    event.preventDefault();
    const allowedIps = addresses.split(/[\s,]+/).filter(Boolean);
    await attempt(async () => {
      const issued = await post<IssuedIntegrationKeyResponse>(props.base, {
        name,
        ...(fullAccess ? { fullAccess: true } : { permissions }),
        ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}),
        ...(allowedIps.length > 0 ? { allowedIps } : {}),
      });
      props.onIssued(issued);
    }, setError);
  };

  return (
    <Dialog title="Issue key" onClose={props.onClose}>
      <form onSubmit={submit}>
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button
          type="button"
          onClick={() => {
            setFullAccess(false);
            setPermissions(['orders.create_partner']);
            if (!name) setName('Storefront webhook');
          }}
        >
          Storefront webhook preset
        </button>
        <fieldset disabled={fullAccess}>
          <legend>Permissions</legend>
          {GROUPS.map(([group, keys]) => (
            <div class="group" key={group}>
              <span class="group-name">{group}</span>
              {keys.map((permission) => (
                <label key={permission}>
                  <input
                    type="checkbox"
                    checked={permissions.includes(permission)}
                    onChange={() => toggle(permission)}
                  />
                  {permission}
                </label>
              ))}
            </div>
          ))}
        </fieldset>
        <label>
          <input type="checkbox" checked={fullAccess} onChange={(e) => setFullAccess(e.currentTarget.checked)} />
          Full access (every permission but the store's settings)
        </label>
        <label>
          Expires
          <input type="date" min={dateIn(1)} value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
        </label>
        <div class="presets" role="group" aria-label="Expiry presets">
          <button type="button" onClick={() => setExpires(dateIn(30))}>
            30 days
          </button>
          <button type="button" onClick={() => setExpires(dateIn(90))}>
            90 days
          </button>
          <button type="button" onClick={() => setExpires(dateIn(365))}>
            1 year
          </button>
          <button type="button" onClick={() => setExpires('')}>
            Never
          </button>
        </div>
        <label>
          Allowed addresses (one per line; empty: any)
          <textarea rows={3} value={addresses} onInput={(e) => setAddresses(e.currentTarget.value)} />
        </label>
        <ErrorNote text={error} />
        <div class="actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit">Issue key</button>
        </div>
      </form>
    </Dialog>
  );
}
