import { useState } from 'preact/hooks';
import { Dialog } from './dialog';

/**
 * A one-time secret (integration key, site key, webhook secret): shown here and nowhere else —
 * never in the URL, storage or logs. Copy, an optional .env download and a warning; Done or Escape
 * close it at once. The warning is said up front instead of asking on the way out: a question on
 * closing is what an accidental Enter or a dismissing browser answers wrong (contract §13).
 */
export function SecretDialog(props: { title: string; secret: string; envName?: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const download = () => {
    const blob = new Blob([`${props.envName}=${props.secret}\n`], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = '.env';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Dialog title={props.title} onClose={props.onClose} describedBy="secret-warning">
      <p class="warning" role="note" id="secret-warning">
        <strong>Shown once: copy it now.</strong> It cannot be shown again; closing this dialog loses it.
      </p>
      <code class="secret">{props.secret}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(props.secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          Copy
        </button>
        {props.envName && (
          <button type="button" onClick={download}>
            Download .env
          </button>
        )}
        <button type="button" onClick={props.onClose}>
          Done
        </button>
      </div>
      {copied && <p role="status">Copied.</p>}
    </Dialog>
  );
}
