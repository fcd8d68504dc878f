import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { formattedMoney } from '../money';
import { Pager, useCursorTrail } from '../../../../../libs/console-web/pages/paging';
import { Link } from '../../../../../libs/console-web/pages/router';
import { hasRole, useSession } from '../session';
import { ErrorNotice, Field, dateTime, newIdempotencyKey } from '../ui';
import { ClientSecretOverlap } from './PartnerClientSecretOverlap';
import { PartnerDashboardAdmin } from './PartnerDashboardAdmin';
import { SecretRotations } from './PartnerSecrets';

interface Partner {
  partnerId: string;
  clientId: string;
  name: string;
  status: string;
  permissions: string[];
  rateLimitPerMinute: number | null;
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

interface PartnerChange {
  requestId: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  reason: string;
  operatorName: string;
  makerId: string;
  checkerId: string;
  recordedAt: string;
}

/** A change one person made (onboarding, webhook URL, a secret rotation): who and when, never a secret. */
interface PartnerAction {
  requestId: string;
  action: string;
  after: Record<string, unknown>;
  operatorName: string;
  /** operator: one of the operator's staff on the back-office; member: one of the partner's own team in their dashboard. */
  actorKind: 'operator' | 'member';
  recordedAt: string;
}

/** The partner's client secrets at auth: since when the current one, and a second one while both get tokens (never a secret). */
interface ClientSecretSlots {
  currentSince: string;
  secondSince: string | null;
}

type PartnerDetail = Partner & { changes: PartnerChange[]; operatorActions: PartnerAction[]; clientSecrets: ClientSecretSlots | null };

/** Who acted, as a reader of the history needs it: the person's name and which side they act for. */
function actorOf(action: PartnerAction): string {
  return action.actorKind === 'member' ? `${action.operatorName} (the partner’s dashboard member)` : `${action.operatorName} (operator)`;
}

interface Onboarded {
  partner: Partner;
  replayed: boolean;
  credentials: { clientId: string; clientSecret: string; webhookSecret: string } | null;
}

/** Partners by name or id, newest first, in keyset pages; makers and admins onboard from here. */
export function PartnersPage(): ReactNode {
  const { session } = useSession();
  const trail = useCursorTrail();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState<{ partners: Partner[]; nextCursor: string | null }>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    setError(undefined);
    api<{ partners: Partner[]; nextCursor: string | null }>('GET', `/api/v1/partners${queryOf({ q: query, cursor: trail.cursor, pageSize: '20' })}`)
      .then(setPage)
      .catch(setError);
  }, [query, trail.cursor]);

  const search = (event: FormEvent): void => {
    event.preventDefault();
    trail.reset();
    setQuery(typed);
  };

  return (
    <section aria-labelledby="partners-title">
      <h1 id="partners-title">Partners</h1>
      <form className="inline" role="search" onSubmit={search}>
        <Field id="partner-query" label="Name, partner id or client id">
          <input id="partner-query" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </Field>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      <ErrorNotice error={error} />
      {page === undefined ? null : page.partners.length === 0 ? (
        <p className="empty">No partner matches.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Partners</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Permissions</th>
                <th scope="col">Partner id</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.partners.map((partner) => (
                <tr key={partner.partnerId}>
                  <td>
                    <Link to={`/partners/${partner.partnerId}`}>{partner.name}</Link>
                  </td>
                  <td>{partner.status}</td>
                  <td>{partner.permissions.join(', ') || 'none'}</td>
                  <td>
                    <code>{partner.partnerId}</code>
                  </td>
                  <td>{dateTime(partner.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager trail={trail} nextCursor={page?.nextCursor} />
      {hasRole(session, 'maker', 'admin') ? <OnboardPartner /> : null}
    </section>
  );
}

/** Onboarding: one idempotency key per form, so a double click or a retry makes one partner; the secrets are shown once. */
function OnboardPartner(): ReactNode {
  const [key, setKey] = useState(newIdempotencyKey);
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>(['collection', 'disbursement']);
  const [status, setStatus] = useState('active');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [onboarded, setOnboarded] = useState<Onboarded>();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = { name: name.trim(), permissions, status, webhookUrl: webhookUrl.trim() === '' ? null : webhookUrl.trim() };
    api<Onboarded>('POST', '/api/v1/partners', body, { 'Idempotency-Key': key })
      .then(setOnboarded)
      .catch(setError)
      .finally(() => setBusy(false));
  };

  if (onboarded !== undefined)
    return (
      <section aria-labelledby="onboarded-title" className="card">
        <h2 id="onboarded-title">Partner {onboarded.partner.name} onboarded</h2>
        {onboarded.credentials === null ? (
          <p>This partner was created by an earlier answer to the same form, which showed its secrets. If they were lost, rotate the client secret.</p>
        ) : (
          <div className="once">
            <p>
              <strong>Shown only now:</strong> give these to the partner through a safe channel.
            </p>
            <dl className="facts">
              <dt>Client id</dt>
              <dd>
                <code>{onboarded.credentials.clientId}</code>
              </dd>
              <dt>Client secret</dt>
              <dd>
                <code>{onboarded.credentials.clientSecret}</code>
              </dd>
              <dt>Webhook secret</dt>
              <dd>
                <code>{onboarded.credentials.webhookSecret}</code>
              </dd>
            </dl>
          </div>
        )}
        <div className="actions">
          <Link to={`/partners/${onboarded.partner.partnerId}`} className="button primary">
            Open the partner
          </Link>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setOnboarded(undefined);
              setKey(newIdempotencyKey());
              setName('');
            }}
          >
            Onboard another
          </button>
        </div>
      </section>
    );

  return (
    <section aria-labelledby="onboard-title">
      <h2 id="onboard-title">Onboard a partner</h2>
      <ErrorNotice error={error} />
      <form onSubmit={submit} aria-label="Onboard a partner">
        <Field id="onboard-name" label="Partner name">
          <input id="onboard-name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <fieldset>
          <legend>Permissions</legend>
          {['collection', 'disbursement'].map((permission) => (
            <div className="check" key={permission}>
              <input id={`onboard-${permission}`} type="checkbox" checked={permissions.includes(permission)} onChange={(event) => setPermissions(event.target.checked ? [...permissions, permission] : permissions.filter((each) => each !== permission))} />
              <label htmlFor={`onboard-${permission}`}>{permission}</label>
            </div>
          ))}
        </fieldset>
        <Field id="onboard-status" label="Status">
          <select id="onboard-status" value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="active">active</option>
            <option value="pending_activation">pending activation</option>
          </select>
        </Field>
        <Field id="onboard-webhook" label="Webhook URL (optional)">
          <input id="onboard-webhook" type="url" value={webhookUrl} onChange={(event) => setWebhookUrl(event.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={busy}>
          Onboard
        </button>
      </form>
    </section>
  );
}

/** One partner: settings, balances from the ledger, and the approved changes with who, before and after. */
export function PartnerDetailPage(props: { partnerId: string }): ReactNode {
  const { session } = useSession();
  const [partner, setPartner] = useState<PartnerDetail>();
  const [balances, setBalances] = useState<{ currency: string; balanceMinor: string }[]>();
  const [error, setError] = useState<unknown>();
  const [balanceError, setBalanceError] = useState<unknown>();

  const load = useCallback(() => {
    const id = encodeURIComponent(props.partnerId);
    api<PartnerDetail>('GET', `/api/v1/partners/${id}`).then(setPartner).catch(setError);
    api<{ balances: { currency: string; balanceMinor: string }[] }>('GET', `/api/v1/partners/${id}/balances`)
      .then((answer) => setBalances(answer.balances))
      .catch(setBalanceError);
  }, [props.partnerId]);
  useEffect(load, [load]);

  if (error !== undefined)
    return (
      <section>
        <h1>Partner</h1>
        <ErrorNotice error={error} />
      </section>
    );
  if (partner === undefined) return <h1>Partner</h1>;
  return (
    <section aria-labelledby="partner-title">
      <div className="page-head">
        <h1 id="partner-title">{partner.name}</h1>
        {hasRole(session, 'maker') ? (
          <Link to={`/approvals/new?partnerId=${partner.partnerId}`} className="button primary">
            Request a change
          </Link>
        ) : null}
      </div>
      <dl className="facts">
        <dt>Partner id</dt>
        <dd>
          <code>{partner.partnerId}</code>
        </dd>
        <dt>Client id</dt>
        <dd>
          <code>{partner.clientId}</code>
        </dd>
        <dt>Status</dt>
        <dd>{partner.status}</dd>
        <dt>Permissions</dt>
        <dd>{partner.permissions.join(', ') || 'none'}</dd>
        <dt>Rate limit</dt>
        <dd>{partner.rateLimitPerMinute === null ? 'default' : `${partner.rateLimitPerMinute} a minute`}</dd>
        <dt>Webhook URL</dt>
        <dd>
          {partner.webhookUrl ?? 'none'}
          {hasRole(session, 'maker', 'admin') ? <WebhookUrlEditor partnerId={partner.partnerId} current={partner.webhookUrl} onSaved={load} /> : null}
        </dd>
        <dt>Created</dt>
        <dd>{dateTime(partner.createdAt)}</dd>
        <dt>Client secrets</dt>
        <dd data-testid="client-secrets">
          {partner.clientSecrets === null
            ? 'unknown'
            : partner.clientSecrets.secondSince === null
              ? `one, since ${dateTime(partner.clientSecrets.currentSince)}`
              : `two active (both get tokens until the previous one is revoked): the previous since ${dateTime(partner.clientSecrets.currentSince)}, the second since ${dateTime(partner.clientSecrets.secondSince)}`}
        </dd>
      </dl>
      {hasRole(session, 'maker', 'admin') ? <SecretRotations partnerId={partner.partnerId} partnerName={partner.name} onRotated={load} /> : null}
      {hasRole(session, 'maker', 'admin') ? <ClientSecretOverlap partnerId={partner.partnerId} partnerName={partner.name} secondSince={partner.clientSecrets?.secondSince} onChanged={load} /> : null}
      {hasRole(session, 'maker', 'admin') ? <PartnerDashboardAdmin partnerId={partner.partnerId} partnerName={partner.name} /> : null}
      <h2>Balances</h2>
      <ErrorNotice error={balanceError} />
      {balances === undefined ? null : balances.length === 0 ? (
        <p className="empty">No ledger account yet.</p>
      ) : (
        <table aria-label="Balances">
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col" className="number">
                Balance
              </th>
            </tr>
          </thead>
          <tbody>
            {balances.map((balance) => (
              <tr key={balance.currency}>
                <td>{balance.currency}</td>
                <td className="number" data-testid={`balance-${balance.currency}`}>
                  {formattedMoney(balance.balanceMinor, balance.currency)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Approved changes</h2>
      {partner.changes.length === 0 ? (
        <p className="empty">No approved change yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Approved changes">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
                <th scope="col">Reason</th>
                <th scope="col">Approved by</th>
              </tr>
            </thead>
            <tbody>
              {partner.changes.map((change) => (
                <tr key={change.requestId}>
                  <td>{dateTime(change.recordedAt)}</td>
                  <td>
                    <code>{change.action}</code>
                  </td>
                  <td>
                    <code>{change.before === null ? '—' : JSON.stringify(change.before)}</code>
                  </td>
                  <td>
                    <code>{JSON.stringify(change.after)}</code>
                  </td>
                  <td>{change.reason}</td>
                  <td>{change.operatorName}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Changes by one person</h2>
      {partner.operatorActions.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Changes by one person">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">After</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {partner.operatorActions.map((action) => (
                <tr key={action.requestId}>
                  <td>{dateTime(action.recordedAt)}</td>
                  <td>
                    <code>{action.action}</code>
                  </td>
                  <td>
                    <code>{JSON.stringify(action.after)}</code>
                  </td>
                  <td>{actorOf(action)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A partner's webhook URL (makers and admins, no four eyes: it only moves where the partner's own events go), confirmed before it is sent. */
function WebhookUrlEditor(props: { partnerId: string; current: string | null; onSaved: () => void }): ReactNode {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(props.current ?? '');
  const [key, setKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const save = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    api('PUT', `/api/v1/partners/${encodeURIComponent(props.partnerId)}/webhook-url`, { webhookUrl: value.trim() === '' ? null : value.trim() }, { 'Idempotency-Key': key })
      .then(() => {
        setEditing(false);
        setKey(newIdempotencyKey());
        props.onSaved();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  if (!editing)
    return (
      <div>
        <button type="button" className="link-button" onClick={() => setEditing(true)}>
          Change the webhook URL
        </button>
      </div>
    );
  return (
    <form onSubmit={save} aria-label="Change the webhook URL" className="confirm">
      <ErrorNotice error={error} />
      <Field id="webhook-url" label="New webhook URL" hint="Empty to send no webhooks. The partner's next events go here.">
        <input id="webhook-url" type="url" value={value} aria-describedby="webhook-url-hint" onChange={(event) => setValue(event.target.value)} />
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Save the webhook URL
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
