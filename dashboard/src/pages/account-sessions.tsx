import { useState } from 'preact/hooks';
import { del, get, post } from '../api';
import type { SessionEntry, SessionListResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { when } from '../ui/format';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** The account's live sessions, newest first; any but this one can be ended (contract §19). */
export function AccountSessions(props: { version: number }) {
  const sessions = useLoad(() => get<SessionListResponse>('/auth/sessions'), [props.version]);
  const [ending, setEnding] = useState<SessionEntry | null>(null);
  const [endingOthers, setEndingOthers] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const others = sessions.data?.items.filter((s) => !s.current) ?? [];

  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p>Where this account is signed in. Ending a session signs that browser out at its next request.</p>
      <ErrorNote text={sessions.error ?? error} />
      <DataTable
        rows={sessions.data?.items}
        columns={[
          { header: 'Browser', cell: (s) => <span title={s.userAgent ?? undefined}>{agentOf(s.userAgent)}</span> },
          { header: 'Address', cell: (s) => s.ip ?? '—' },
          { header: 'Signed in', cell: (s) => when(s.createdAt) },
          { header: 'Last use', cell: (s) => when(s.lastSeenAt) },
          {
            header: 'Actions',
            hideHeader: true,
            class: 'row-actions',
            cell: (s) =>
              s.current ? (
                <strong>This session</strong>
              ) : (
                <button
                  type="button"
                  class="danger"
                  aria-label={`End session: ${agentOf(s.userAgent)} at ${s.ip ?? 'an unknown address'}, signed in ${when(s.createdAt)}`}
                  onClick={() => setEnding(s)}
                >
                  End session
                </button>
              ),
          },
        ]}
      />
      <button type="button" class="danger" disabled={others.length === 0} onClick={() => setEndingOthers(true)}>
        End all other sessions
      </button>
      {ending && (
        <Confirm
          title="End this session?"
          action="End session"
          onClose={() => setEnding(null)}
          onConfirm={async () => {
            await attempt(() => del(`/auth/sessions/${ending.id}`), setError);
            sessions.reload();
          }}
        >
          {agentOf(ending.userAgent)} at {ending.ip ?? 'an unknown address'}, last used {when(ending.lastSeenAt)}, is
          signed out and has to sign in again.
        </Confirm>
      )}
      {endingOthers && (
        <Confirm
          title="End every other session?"
          action="End all other sessions"
          onClose={() => setEndingOthers(false)}
          onConfirm={async () => {
            await attempt(() => post('/auth/sessions/end-others'), setError);
            sessions.reload();
          }}
        >
          {others.length} other session(s) of this account are signed out; this one stays.
        </Confirm>
      )}
    </section>
  );
}

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A browser's name as a person knows it ("Chrome on Linux"); the whole user agent is in the cell's title. */
function agentOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return userAgent.slice(0, 60);
  return system ? `${browser} on ${system}` : browser;
}
