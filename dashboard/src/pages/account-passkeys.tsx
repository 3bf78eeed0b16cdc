import { useState } from 'preact/hooks';
import { del, post } from '../api';
import { newPasskey } from '../passkey';
import type { PasskeyEntry } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { when } from '../ui/format';
import { attempt, ErrorNote } from '../ui/use-load';

/**
 * The account's passkeys (contract §19): each named, so a lost device's can be told apart and
 * removed. The list is the Account page's, which the authenticator app's card reads too.
 */
export function AccountPasskeys(props: {
  passkeys: PasskeyEntry[] | undefined;
  loadError: string | null;
  onChanged: () => void;
}) {
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<PasskeyEntry | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  return (
    <section class="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>A passkey signs you in with this device's screen lock or a security key, without typing a code.</p>
      <ErrorNote text={props.loadError ?? error} />
      {props.passkeys?.length === 0 ? (
        <p>No passkey yet.</p>
      ) : (
        <DataTable
          rows={props.passkeys}
          columns={[
            { header: 'Name', cell: (p) => p.name },
            { header: 'Added', cell: (p) => when(p.createdAt) },
            { header: 'Last use', cell: (p) => when(p.lastUsedAt) },
            {
              header: 'Actions',
              hideHeader: true,
              class: 'row-actions',
              cell: (p) => (
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove passkey ${p.name}`}
                  onClick={() => setRemoving(p)}
                >
                  Remove
                </button>
              ),
            },
          ]}
        />
      )}
      <form
        aria-label="Add passkey"
        onSubmit={async (event) => {
          event.preventDefault();
          setAdded(null);
          const ok = await attempt(async () => {
            const credential = await newPasskey();
            await post<PasskeyEntry>('/auth/passkeys', { name, credential });
          }, setError);
          if (ok) {
            setAdded(`Passkey ${name.trim()} added.`);
            setName('');
            props.onChanged();
          }
        }}
      >
        <div class="inline">
          <label>
            Name
            <input
              required
              maxLength={100}
              placeholder="Work laptop"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Add passkey</button>
        </div>
      </form>
      {added && <p role="status">{added}</p>}
      {removing && (
        <Confirm
          title={`Remove the passkey ${removing.name}?`}
          action="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            if (await attempt(() => del(`/auth/passkeys/${removing.id}`), setError)) props.onChanged();
          }}
        >
          It no longer signs you in. The device keeps it until you delete it there too.
        </Confirm>
      )}
    </section>
  );
}
