import { useState } from 'preact/hooks';
import { get, patch, post } from '../api';
import type {
  IssuedSiteKeyResponse,
  SiteKeyListResponse,
  SiteKeyResponse,
  SiteListResponse,
  SiteResponse,
} from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { when } from '../ui/format';
import { SecretDialog } from '../ui/secret-dialog';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** Production sites and their keys (contract §4). */
export function SitesPage(props: { brandId: number }) {
  const base = `/admin/brands/${props.brandId}/production-sites`;
  const sites = useLoad(() => get<SiteListResponse>(base), [base]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  return (
    <section aria-labelledby="sites-title">
      <h1 id="sites-title">Production sites</h1>
      <form
        class="inline"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await attempt(() => post(base, { name }), setError)) {
            setName('');
            sites.reload();
          }
        }}
      >
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create</button>
      </form>
      <ErrorNote text={sites.error ?? error} />
      {sites.data?.items.map((site) => (
        <SiteCard key={site.id} base={base} site={site} onChange={sites.reload} />
      ))}
    </section>
  );
}

function SiteCard(props: { base: string; site: SiteResponse; onChange: () => void }) {
  const path = `${props.base}/${props.site.id}`;
  const keys = useLoad(() => get<SiteKeyListResponse>(`${path}/keys`), [path]);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<SiteKeyResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <article class="card" aria-label={`Site ${props.site.name}`}>
      <h2>
        {props.site.name} <small>{props.site.active ? 'active' : 'switched off'}</small>
      </h2>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await attempt(async () => setShown((await post<IssuedSiteKeyResponse>(`${path}/keys`)).key), setError);
            keys.reload();
          }}
        >
          Issue site key
        </button>
        <button
          type="button"
          onClick={async () => {
            await attempt(() => patch(path, { active: !props.site.active }), setError);
            props.onChange();
          }}
        >
          {props.site.active ? 'Switch off' : 'Switch on'}
        </button>
      </div>
      <ErrorNote text={keys.error ?? error} />
      <DataTable
        rows={keys.data?.items}
        columns={[
          { header: 'Key', cell: (key) => <code>…{key.keyHint ?? '????'}</code> },
          { header: 'Status', cell: (key) => key.status },
          { header: 'Issued', cell: (key) => when(key.createdAt) },
          { header: 'Last used', cell: (key) => when(key.lastUsedAt) },
          {
            header: 'Actions',
            hideHeader: true,
            cell: (key) =>
              key.status === 'active' && (
                <button type="button" class="danger" onClick={() => setRevoking(key)}>
                  Revoke
                </button>
              ),
          },
        ]}
      />
      {shown && (
        <SecretDialog
          title={`Site key for ${props.site.name}`}
          secret={shown}
          envName="SITE_API_KEY"
          onClose={() => setShown(null)}
        />
      )}
      {revoking && (
        <Confirm
          title="Revoke this site key?"
          action="Revoke"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await attempt(() => post(`${path}/keys/${revoking.id}/revoke`), setError);
            keys.reload();
          }}
        >
          The site stops reaching the production API with this key (within 30 seconds on every instance).
        </Confirm>
      )}
    </article>
  );
}
