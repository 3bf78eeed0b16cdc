import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { InvitationListResponse, InvitationResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { when } from '../ui/format';
import { PermissionCheckboxes } from '../ui/permission-checkboxes';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** Inviting by e-mail, and the invitations still pending, each revocable (contract §19). */
export function TeamInvitations(props: { base: string }) {
  const invitations = useLoad(() => get<InvitationListResponse>(`${props.base}/invitations`), [props.base]);
  const [revoking, setRevoking] = useState<InvitationResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const items = invitations.data?.items;
  return (
    <>
      <InviteForm base={props.base} onInvited={invitations.reload} />
      <section class="card" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Pending invitations</h2>
        <ErrorNote text={invitations.error ?? error} />
        {items?.length === 0 ? (
          <p>No invitation is waiting.</p>
        ) : (
          <DataTable
            rows={items}
            columns={[
              { header: 'E-mail', cell: (i) => i.email },
              { header: 'Permissions', cell: (i) => i.permissions.join(', ') },
              { header: 'Invited by', cell: (i) => i.invitedBy?.email ?? '—' },
              { header: 'Sent', cell: (i) => when(i.createdAt) },
              { header: 'Expires', cell: (i) => when(i.expiresAt) },
              {
                header: 'Actions',
                hideHeader: true,
                class: 'row-actions',
                cell: (i) => (
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke the invitation of ${i.email}`}
                    onClick={() => setRevoking(i)}
                  >
                    Revoke
                  </button>
                ),
              },
            ]}
          />
        )}
      </section>
      {revoking && (
        <Confirm
          title={`Revoke the invitation of ${revoking.email}?`}
          action="Revoke"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await attempt(() => post(`${props.base}/invitations/${revoking.id}/revoke`), setError);
            invitations.reload();
          }}
        >
          The link mailed to {revoking.email} stops working at once. Invite them again to send a new one.
        </Confirm>
      )}
    </>
  );
}

/** `E-mail`, a checkbox per permission and `Invite`; a new invitation of the same address replaces the pending one. */
function InviteForm(props: { base: string; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <form
      class="card"
      aria-labelledby="invite-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setSent(null);
        const invited = await attempt(async () => {
          const invitation = await post<InvitationResponse>(`${props.base}/invitations`, { email, permissions });
          setSent(`Invitation sent to ${invitation.email}; the link works until ${when(invitation.expiresAt)}.`);
        }, setError);
        if (invited) {
          setEmail('');
          setPermissions([]);
          props.onInvited();
        }
      }}
    >
      <h2 id="invite-title">Invite someone</h2>
      <label>
        E-mail
        <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <PermissionCheckboxes legend="Permissions they will hold" chosen={permissions} onChange={setPermissions} />
      <ErrorNote text={error} />
      {sent && <p role="status">{sent}</p>}
      <div class="actions">
        <button type="submit">Invite</button>
      </div>
    </form>
  );
}
