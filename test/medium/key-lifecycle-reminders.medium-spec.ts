import { AccessKeysModule } from '../../src/access-keys/access-keys.module';
import { IntegrationKeysService } from '../../src/access-keys/integration-keys.service';
import { KeyExpiryReminders } from '../../src/access-keys/key-expiry-reminders';
import { BrandsService } from '../../src/identity/brands.service';
import { IdentityModule } from '../../src/identity/identity.module';
import { NotificationsModule } from '../../src/notifications/notifications.module';
import { SecurityJournal } from '../../src/security-journal/security-journal.service';
import { eventually } from '../support/eventually';
import { openMedium, type MediumSuite } from '../support/medium';
import { superadminContext } from '../support/medium-fixtures';
import { SmtpSink } from '../support/smtp-sink';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const MODULES = [IdentityModule, AccessKeysModule, NotificationsModule];
const STAFF = 'staff@reminded.example';
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** Contract §12: the brand's staff are mailed 7 days and 1 day before a key expires, once each. */
describe('key expiry reminders', () => {
  let db: TestDatabase;
  let sink: SmtpSink;
  const opened: MediumSuite[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    sink = new SmtpSink();
  });
  afterAll(async () => {
    await Promise.all(opened.map((instance) => instance.close()));
    await sink?.stop();
    await db?.drop();
  });

  it('mails staff 7 days and 1 day before, once each, with two instances checking every second', async () => {
    const smtp = await sink.start();
    // The keys are made where no check runs (the default: hourly, the first an hour after start).
    const setup = await openMedium(MODULES, { db, env: { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' } });
    opened.push(setup);
    const brand = await setup.get(BrandsService).create({ name: 'Reminded', slug: 'reminded', staffEmail: STAFF });
    const ctx = await superadminContext(setup, brand.id);
    const keys = setup.get(IntegrationKeysService);
    const issue = (name: string, hours: number) =>
      keys.issue(ctx, { name, permissions: ['orders.read'], expiresAt: inHours(hours) });
    const week = await issue('In three days', 72);
    const day = await issue('In twelve hours', 12);
    await issue('In a month', 24 * 30);
    // A rolled key ending within the hour is replaced already: its successor is the one reminded.
    const rolledAway = await issue('Rolled', 72);
    const successor = await keys.roll(ctx, rolledAway.id, inHours(1));

    const env = { KEY_EXPIRY_CHECK_SECONDS: '1', OUTBOX_POLL_MS: '50', SMTP_URL: smtp, WEBHOOK_WORKER: 'false' };
    const instances = await Promise.all([1, 2].map(() => openMedium(MODULES, { db, env })));
    opened.push(...instances);
    await Promise.all(instances.map((instance) => instance.get(KeyExpiryReminders).runOnce()));
    const mails = () => sink.received.filter((m) => m.to.includes(STAFF));
    await eventually(() => expect(mails()).toHaveLength(3));
    // Two more checks of each instance find nothing more to send.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(
      mails()
        .map((m) => m.subject)
        .sort(),
    ).toEqual([
      'Reminded: the integration key In three days expires in a week',
      'Reminded: the integration key In twelve hours expires tomorrow',
      'Reminded: the integration key Rolled expires in a week',
    ]);
    const entries = (await setup.get(SecurityJournal).list({ brandId: brand.id, limit: 200 })).filter(
      (e) => e.type === 'integration_key_expiring',
    );
    expect(entries.map((e) => [e.details.keyId, e.details.window]).sort()).toEqual(
      [
        [week.id, '7d'],
        [day.id, '1d'],
        [successor.id, '7d'],
      ].sort(),
    );
  });
});
