import { useState } from 'preact/hooks';
import { Dialog } from './dialog';

/**
 * A one-time secret (integration key, site key, webhook secret): shown here and nowhere else —
 * never in the URL, storage or logs. Copy, an optional .env download, a warning, and a question
 * before closing when it was neither copied nor downloaded.
 */
export function SecretDialog(props: { title: string; secret: string; envName?: string; onClose: () => void }) {
  const [kept, setKept] = useState(false);
  const [copied, setCopied] = useState(false);
  const mayClose = () => kept || window.confirm('The secret will not be shown again. Close anyway?');
  const download = () => {
    const blob = new Blob([`${props.envName}=${props.secret}\n`], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = '.env';
    link.click();
    URL.revokeObjectURL(link.href);
    setKept(true);
  };
  return (
    <Dialog title={props.title} onClose={props.onClose} onCancel={mayClose}>
      <p class="warning" role="alert">
        Shown once: copy it now. It cannot be shown again.
      </p>
      <code class="secret">{props.secret}</code>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(props.secret).catch(() => undefined);
            setKept(true);
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
        <button type="button" onClick={() => mayClose() && props.onClose()}>
          Done
        </button>
      </div>
      {copied && <p role="status">Copied.</p>}
    </Dialog>
  );
}
