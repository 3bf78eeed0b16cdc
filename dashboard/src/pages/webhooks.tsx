import { useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { ORDER_EVENT_TYPES, PRODUCT_EVENT_TYPES, RETURN_EVENT_TYPES, STOCK_EVENT_TYPES } from '../contract';
import type {
  CreatedWebhookEndpointResponse,
  WebhookDeliveryListResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm, Dialog } from '../ui/dialog';
import { when } from '../ui/format';
import { SecretDialog } from '../ui/secret-dialog';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...RETURN_EVENT_TYPES, ...STOCK_EVENT_TYPES, ...PRODUCT_EVENT_TYPES];

/** Webhook endpoints of the brand and what was delivered to them (contract §10). */
export function WebhooksPage(props: { brandId: number }) {
  const base = `/admin/brands/${props.brandId}/webhook-endpoints`;
  const endpoints = useLoad(() => get<WebhookEndpointListResponse>(base), [base]);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<WebhookEndpointResponse | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointResponse | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const toggle = (type: string) => setTypes((t) => (t.includes(type) ? t.filter((x) => x !== type) : [...t, type]));

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <form
        class="card"
        aria-label="New endpoint"
        onSubmit={async (event) => {
          event.preventDefault();
          await attempt(async () => {
            const created = await post<CreatedWebhookEndpointResponse>(base, {
              url,
              eventTypes: types,
              ...(description.trim() ? { description } : {}),
            });
            setSecret(created.secret);
            setUrl('');
            setTypes([]);
            setDescription('');
          }, setError);
          endpoints.reload();
        }}
      >
        <label>
          URL
          <input
            type="url"
            required
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
            placeholder="https://…"
          />
        </label>
        <fieldset>
          <legend>Event types</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} />
              {type}
            </label>
          ))}
        </fieldset>
        <label>
          Description
          <input maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button type="submit">Create</button>
      </form>
      <ErrorNote text={endpoints.error ?? error} />
      {sent && <p role="status">{sent}</p>}
      <DataTable
        rows={endpoints.data?.items}
        columns={[
          {
            header: 'URL',
            cell: (endpoint) => (
              <>
                {endpoint.url}
                {endpoint.description && <small> {endpoint.description}</small>}
              </>
            ),
          },
          { header: 'Events', cell: (endpoint) => endpoint.eventTypes.join(', ') },
          { header: 'Enabled', cell: (endpoint) => (endpoint.enabled ? 'yes' : 'no') },
          {
            header: 'Actions',
            hideHeader: true,
            class: 'row-actions',
            cell: (endpoint) => (
              <>
                <button type="button" onClick={() => setDeliveriesOf(endpoint)}>
                  Deliveries
                </button>
                <button
                  type="button"
                  onClick={async () => {
                    setSent(null);
                    if (await attempt(() => post(`${base}/${endpoint.id}/test`), setError)) {
                      setSent(
                        `A webhook.test message is on its way to ${endpoint.url}; its Deliveries show the answer.`,
                      );
                    }
                  }}
                >
                  Send test
                </button>
                <button
                  type="button"
                  onClick={async () => {
                    await attempt(() => patch(`${base}/${endpoint.id}`, { enabled: !endpoint.enabled }), setError);
                    endpoints.reload();
                  }}
                >
                  {endpoint.enabled ? 'Disable' : 'Enable'}
                </button>
                <button type="button" onClick={() => setRotating(endpoint)}>
                  Rotate secret
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(endpoint)}>
                  Delete
                </button>
              </>
            ),
          },
        ]}
      />
      {secret && (
        <SecretDialog title="Signing secret" secret={secret} envName="WEBHOOK_SECRET" onClose={() => setSecret(null)} />
      )}
      {deliveriesOf && (
        <DeliveriesDialog
          base={`${base}/${deliveriesOf.id}`}
          endpoint={deliveriesOf}
          onClose={() => setDeliveriesOf(null)}
        />
      )}
      {rotating && (
        <Confirm
          title="Rotate the signing secret?"
          action="Rotate"
          onClose={() => setRotating(null)}
          onConfirm={async () => {
            await attempt(
              async () =>
                setSecret((await post<WebhookSecretResponse>(`${base}/${rotating.id}/rotate-secret`, {})).secret),
              setError,
            );
          }}
        >
          For the next 24 hours every message carries both signatures; then only the new secret's.
        </Confirm>
      )}
      {deleting && (
        <Confirm
          title={`Delete ${deleting.url}?`}
          action="Delete"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await attempt(() => del(`${base}/${deleting.id}`), setError);
            endpoints.reload();
          }}
        >
          Nothing more is sent to it, and its pending deliveries are dropped.
        </Confirm>
      )}
    </section>
  );
}

function DeliveriesDialog(props: { base: string; endpoint: WebhookEndpointResponse; onClose: () => void }) {
  const deliveries = useLoad(() => get<WebhookDeliveryListResponse>(`${props.base}/deliveries?limit=50`), [props.base]);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={`Deliveries to ${props.endpoint.url}`} onClose={props.onClose}>
      <ErrorNote text={deliveries.error ?? error} />
      <ul class="deliveries">
        {deliveries.data?.items.map((d) => (
          <li key={d.messageId}>
            <strong>{d.eventType}</strong> <code>{d.messageId}</code> {d.status}
            {d.nextAttemptAt && <small> next attempt {when(d.nextAttemptAt)}</small>}
            <ol>
              {d.attempts.map((a, i) => (
                <li key={i}>
                  {when(a.at)}: {a.responseStatus ?? 'no answer'} in {a.durationMs} ms {a.error && `— ${a.error}`}
                </li>
              ))}
            </ol>
            <button
              type="button"
              onClick={async () => {
                await attempt(() => post(`${props.base}/deliveries/${d.messageId}/retry`), setError);
                deliveries.reload();
              }}
            >
              Retry
            </button>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
