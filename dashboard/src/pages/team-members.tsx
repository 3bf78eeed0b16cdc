import { useState } from 'preact/hooks';
import { get, put } from '../api';
import type { MeResponse, MemberListResponse, MemberResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm, Dialog } from '../ui/dialog';
import { when } from '../ui/format';
import { PermissionCheckboxes } from '../ui/permission-checkboxes';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

type MemberRow = MemberResponse & { id: number };

/**
 * The brand's members: permissions, second factor, last sign-in; their permissions changed or
 * the membership removed, both with PUT …/members/:userId (an empty list removes, contract §1).
 */
export function TeamMembers(props: { base: string; me: MeResponse; onMeChanged: () => void }) {
  const members = useLoad(() => get<MemberListResponse>(`${props.base}/members`), [props.base]);
  const [editing, setEditing] = useState<MemberResponse | null>(null);
  const [removing, setRemoving] = useState<MemberResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rows: MemberRow[] | undefined = members.data?.items.map((m) => ({ ...m, id: m.userId }));
  /** After a change: the list, and the page's own idea of what this account may do when it was the one changed. */
  const changed = (member: MemberResponse) => {
    members.reload();
    if (member.userId === props.me.id) props.onMeChanged();
  };

  return (
    <section class="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ErrorNote text={members.error ?? error} />
      <DataTable
        rows={rows}
        columns={[
          { header: 'Member', cell: (m) => (m.userId === props.me.id ? `${m.email} (you)` : m.email) },
          { header: 'Permissions', cell: (m) => m.permissions.join(', ') },
          { header: 'Second factor', cell: (m) => (m.secondFactor ? 'Yes' : 'No') },
          { header: 'Last sign-in', cell: (m) => when(m.lastSignInAt) },
          {
            header: 'Actions',
            hideHeader: true,
            class: 'row-actions',
            cell: (m) => (
              <>
                <button type="button" aria-label={`Edit permissions of ${m.email}`} onClick={() => setEditing(m)}>
                  Edit permissions
                </button>
                <button type="button" class="danger" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                  Remove
                </button>
              </>
            ),
          },
        ]}
      />
      {editing && (
        <EditPermissionsDialog
          base={props.base}
          member={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed(editing);
          }}
        />
      )}
      {removing && (
        <Confirm
          title={`Remove ${removing.email} from the team?`}
          action="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            if (await attempt(() => put(`${props.base}/members/${removing.userId}`, { permissions: [] }), setError)) {
              changed(removing);
            }
          }}
        >
          {removing.email} loses every permission in this store at once. Keys they issued keep working; revoke those on
          the Integration keys page if they should stop.
        </Confirm>
      )}
    </section>
  );
}

function EditPermissionsDialog(props: {
  base: string;
  member: MemberResponse;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [permissions, setPermissions] = useState<string[]>(props.member.permissions);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={`Permissions of ${props.member.email}`} onClose={props.onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const saved = await attempt(
            () => put(`${props.base}/members/${props.member.userId}`, { permissions }),
            setError,
          );
          if (saved) props.onSaved();
        }}
      >
        <PermissionCheckboxes legend="Permissions in this store" chosen={permissions} onChange={setPermissions} />
        {permissions.length === 0 && <p role="note">To take every permission away, close this and use Remove.</p>}
        <ErrorNote text={error} />
        <div class="actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" disabled={permissions.length === 0}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
