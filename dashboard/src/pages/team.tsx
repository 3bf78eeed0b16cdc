import type { MeResponse } from '../types';
import { TeamInvitations } from './team-invitations';
import { TeamMembers } from './team-members';
import { TeamPolicy } from './team-policy';

/**
 * The store's own team (contract §19): who works in its admin area with which permissions, and
 * who is invited. Shown to members holding settings.manage and to superadministrators.
 */
export function TeamPage(props: { brandId: number; me: MeResponse; onMeChanged: () => void }) {
  const base = `/admin/brands/${props.brandId}`;
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <p>The people who work in this store's admin area. Invite someone by e-mail; the link works once, for 7 days.</p>
      <TeamPolicy base={base} onChanged={props.onMeChanged} />
      <TeamMembers base={base} me={props.me} onMeChanged={props.onMeChanged} />
      <TeamInvitations base={base} />
    </section>
  );
}
