import { useState, type FormEvent, type ReactNode } from 'react';
import { api, queryOf } from '../api';
import { describedChange, parameterRows, type ApprovalRequestView } from '../describe';
import { currencies, minorUnitsOf } from '../money';
import { Link } from '../../../../../libs/console-web/pages/router';
import { emptyTier, parsedTiers, type TypedTier } from '../fee-tiers';
import { FeeTiersEditor } from '../fee-tiers-editor';
import { ErrorNotice, Field, SuccessNotice } from '../ui';

const actions = [
  ['partner.fund', 'Fund a partner (credit)'],
  ['partner.funding.correct', 'Correct a funding'],
  ['disbursement.reverse', 'Reverse a disbursement'],
  ['partner.status.set', "Set a partner's status"],
  ['partner.permissions.set', "Set a partner's permissions"],
  ['partner.rate_limit.set', "Set a partner's rate limit"],
  ['tier_limit.set', 'Set a tier limit'],
  ['fee_schedule.set', 'Set a fee schedule (tiers, minimum, maximum)'],
] as const;

const tierLimitAmounts = [
  ['perTransactionMinor', 'Per transaction'],
  ['dailyMinor', 'Daily'],
  ['weeklyMinor', 'Weekly'],
  ['monthlyMinor', 'Monthly'],
  ['yearlyMinor', 'Yearly'],
] as const;
const tierLimitCounts = [
  ['perHourCount', 'Transactions an hour'],
  ['perDayCount', 'Transactions a day'],
] as const;
const feeAmounts = [
  ['minimumFeeMinor', 'Minimum fee'],
  ['maximumFeeMinor', 'Maximum fee'],
] as const;

function positiveMinorOf(typed: string): string | undefined {
  const parsed = minorUnitsOf(typed);
  return parsed.ok ? parsed.minor : undefined;
}

/** A whole-minor-unit string for a fee bound, which may be zero ("0.00" → "0"). */
function wholeMinorOf(typed: string): string | undefined {
  if (/^0*(\.0{0,2})?$/.test(typed.trim())) return '0';
  return positiveMinorOf(typed);
}
type Action = (typeof actions)[number][0];

interface Draft {
  action: Action;
  target: { kind: string; id: string };
  parameters: Record<string, unknown>;
  reason: string;
}

interface PartnerSummary {
  partnerId: string;
  name: string;
  status: string;
}

/**
 * A maker's four-eyes request: the form, then a review of exactly what will be requested (amounts
 * parsed from major units as decimal text, never floats), then the submission.
 */
export function NewRequestPage(props: { search: URLSearchParams }): ReactNode {
  const [action, setAction] = useState<Action>('partner.fund');
  const [partnerId, setPartnerId] = useState(props.search.get('partnerId') ?? '');
  const [currency, setCurrency] = useState<string>('USD');
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState('debit');
  const [correctsRequestId, setCorrectsRequestId] = useState('');
  const [disbursementId, setDisbursementId] = useState('');
  const [status, setStatus] = useState('active');
  const [permissions, setPermissions] = useState<string[]>(['collection', 'disbursement']);
  const [rateLimit, setRateLimit] = useState('');
  const [reason, setReason] = useState('');
  const [tier, setTier] = useState('Gold');
  const [transactionType, setTransactionType] = useState('collection');
  const [limits, setLimits] = useState<Record<string, string>>({});
  const [replaceTiers, setReplaceTiers] = useState(false);
  const [tierRows, setTierRows] = useState<TypedTier[]>([{ ...emptyTier }]);
  const [problem, setProblem] = useState<string>();
  const [draft, setDraft] = useState<Draft>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ApprovalRequestView>();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<PartnerSummary[]>();

  const needsPartner = action.startsWith('partner.');
  const needsAmount = action === 'partner.fund' || action === 'partner.funding.correct';
  const needsTypeAndCurrency = action === 'tier_limit.set' || action === 'fee_schedule.set';

  const findPartners = (): void => {
    setError(undefined);
    api<{ partners: PartnerSummary[] }>('GET', `/api/v1/partners${queryOf({ q: search, pageSize: '10' })}`)
      .then((answer) => setFound(answer.partners))
      .catch(setError);
  };

  const review = (event: FormEvent): void => {
    event.preventDefault();
    setProblem(undefined);
    setError(undefined);
    const parameters: Record<string, unknown> = {};
    if (needsAmount) {
      const parsed = minorUnitsOf(amount);
      if (!parsed.ok) {
        setProblem(`Amount: ${parsed.problem}`);
        return;
      }
      parameters.currency = currency;
      parameters.amountMinor = parsed.minor;
    }
    if (action === 'partner.funding.correct') {
      parameters.direction = direction;
      parameters.correctsRequestId = correctsRequestId.trim();
    }
    if (action === 'partner.status.set') parameters.status = status;
    if (action === 'partner.permissions.set') parameters.permissions = permissions;
    if (action === 'partner.rate_limit.set') {
      const limit = rateLimit.trim();
      if (limit !== '' && !/^[1-9]\d{0,9}$/.test(limit)) {
        setProblem('Rate limit: a whole number of requests a minute, or empty for the default');
        return;
      }
      parameters.rateLimitPerMinute = limit === '' ? null : Number(limit);
    }
    if (action === 'tier_limit.set' || action === 'fee_schedule.set') {
      const amountFields = action === 'tier_limit.set' ? tierLimitAmounts : feeAmounts;
      for (const [name, label] of amountFields) {
        const typedValue = (limits[name] ?? '').trim();
        if (typedValue === '') continue;
        const minor = action === 'fee_schedule.set' ? wholeMinorOf(typedValue) : positiveMinorOf(typedValue);
        if (minor === undefined) {
          setProblem(`${label}: an amount such as 1250.50, at most two decimals`);
          return;
        }
        parameters[name] = minor;
      }
      if (action === 'tier_limit.set')
        for (const [name, label] of tierLimitCounts) {
          const typedValue = (limits[name] ?? '').trim();
          if (typedValue === '') continue;
          if (!/^[1-9]\d{0,6}$/.test(typedValue)) {
            setProblem(`${label}: a whole number from 1`);
            return;
          }
          parameters[name] = Number(typedValue);
        }
      if (action === 'fee_schedule.set' && replaceTiers) {
        const tiers = parsedTiers(tierRows);
        if (!tiers.ok) {
          setProblem(tiers.problem);
          return;
        }
        parameters.tiers = tiers.tiers;
      }
      if (Object.keys(parameters).length === 0) {
        setProblem('Fill in at least one value to change');
        return;
      }
      parameters.currency = currency;
    }
    if (reason.trim() === '') {
      setProblem('Reason: say why this change is needed');
      return;
    }
    let target = needsPartner ? { kind: 'partner', id: partnerId.trim() } : { kind: 'disbursement', id: disbursementId.trim() };
    if (needsTypeAndCurrency) {
      // The currency is part of the target here, not a parameter.
      delete parameters.currency;
      target = action === 'tier_limit.set' ? { kind: 'tier_limit', id: `${tier}:${transactionType}:${currency}` } : { kind: 'fee_schedule', id: `${transactionType}:${currency}` };
    }
    setDraft({ action, target, parameters, reason: reason.trim() });
  };

  const submit = (): void => {
    if (draft === undefined) return;
    setBusy(true);
    setError(undefined);
    api<ApprovalRequestView>('POST', '/api/v1/approval-requests', draft)
      .then((request) => {
        setCreated(request);
        setDraft(undefined);
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };

  if (created !== undefined)
    return (
      <section aria-labelledby="new-request-title">
        <h1 id="new-request-title">New four-eyes request</h1>
        <SuccessNotice>
          Requested: {describedChange(created.action, created.target, created.parameters)}. Another person with the checker role must approve it before it runs.
        </SuccessNotice>
        <p>
          Request id <code>{created.requestId}</code>. <Link to="/approvals">See the pending requests</Link>.
        </p>
      </section>
    );

  if (draft !== undefined)
    return (
      <section aria-labelledby="review-title">
        <h1 id="review-title">Review the request</h1>
        <p className="lead">{describedChange(draft.action, draft.target, draft.parameters)}</p>
        <dl className="facts">
          <dt>Action</dt>
          <dd>
            <code>{draft.action}</code>
          </dd>
          <dt>Target</dt>
          <dd>
            {draft.target.kind} <code>{draft.target.id}</code>
          </dd>
          {parameterRows(draft.parameters, draft.target).map(([name, value]) => (
            <ReviewRow key={name} name={name} value={value} />
          ))}
          <dt>Reason</dt>
          <dd>{draft.reason}</dd>
        </dl>
        <ErrorNotice error={error} />
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={submit}>
            Submit for approval
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setDraft(undefined)}>
            Change it
          </button>
        </div>
      </section>
    );

  return (
    <section aria-labelledby="new-request-title">
      <h1 id="new-request-title">New four-eyes request</h1>
      <p>The change runs only after another person with the checker role approves it.</p>
      <ErrorNotice error={error} />
      {problem === undefined ? null : (
        <div className="notice notice-error" role="alert">
          {problem}
        </div>
      )}
      <form onSubmit={review} aria-label="Four-eyes request">
        <Field id="action" label="Action">
          <select id="action" value={action} onChange={(event) => setAction(event.target.value as Action)}>
            {actions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        {needsPartner ? (
          <fieldset>
            <legend>Partner</legend>
            <Field id="partner-id" label="Partner id" hint="The partner's id (a UUID); or find it by name below.">
              <input id="partner-id" required value={partnerId} aria-describedby="partner-id-hint" onChange={(event) => setPartnerId(event.target.value)} />
            </Field>
            <div className="inline">
              <Field id="partner-search" label="Find a partner by name">
                <input id="partner-search" value={search} onChange={(event) => setSearch(event.target.value)} />
              </Field>
              <button type="button" className="secondary" onClick={findPartners}>
                Search
              </button>
            </div>
            {found === undefined ? null : found.length === 0 ? (
              <p>No partner matches.</p>
            ) : (
              <ul className="choices">
                {found.map((partner) => (
                  <li key={partner.partnerId}>
                    <button type="button" className="link-button" onClick={() => setPartnerId(partner.partnerId)}>
                      Use {partner.name} ({partner.status})
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </fieldset>
        ) : needsTypeAndCurrency ? (
          <fieldset>
            <legend>{action === 'tier_limit.set' ? 'Which limit' : 'Which fee schedule'}</legend>
            {action === 'tier_limit.set' ? (
              <Field id="tier" label="Tier">
                <select id="tier" value={tier} onChange={(event) => setTier(event.target.value)}>
                  {['Basic', 'Silver', 'Gold', 'Platinum'].map((each) => (
                    <option key={each}>{each}</option>
                  ))}
                </select>
              </Field>
            ) : null}
            <Field id="transaction-type" label="Transaction type">
              <select id="transaction-type" value={transactionType} onChange={(event) => setTransactionType(event.target.value)}>
                <option value="collection">collection</option>
                <option value="disbursement">disbursement</option>
              </select>
            </Field>
            <Field id="schedule-currency" label="Currency">
              <select id="schedule-currency" value={currency} onChange={(event) => setCurrency(event.target.value)}>
                {currencies.map((each) => (
                  <option key={each}>{each}</option>
                ))}
              </select>
            </Field>
            <p className="hint">Leave a value empty to keep it as it is. Amounts in major units.</p>
            {(action === 'tier_limit.set' ? [...tierLimitAmounts, ...tierLimitCounts] : feeAmounts).map(([name, label]) => (
              <Field key={name} id={`limit-${name}`} label={label}>
                <input id={`limit-${name}`} inputMode={name.endsWith('Count') ? 'numeric' : 'decimal'} value={limits[name] ?? ''} onChange={(event) => setLimits({ ...limits, [name]: event.target.value })} />
              </Field>
            ))}
            {action === 'fee_schedule.set' ? (
              <>
                <div className="check">
                  <input id="replace-tiers" type="checkbox" checked={replaceTiers} onChange={(event) => setReplaceTiers(event.target.checked)} />
                  <label htmlFor="replace-tiers">Replace the tiers</label>
                </div>
                {replaceTiers ? <FeeTiersEditor rows={tierRows} onChange={setTierRows} /> : null}
              </>
            ) : null}
          </fieldset>
        ) : (
          <Field id="disbursement-id" label="Disbursement reference id" hint="PKD-…">
            <input id="disbursement-id" required value={disbursementId} aria-describedby="disbursement-id-hint" onChange={(event) => setDisbursementId(event.target.value)} />
          </Field>
        )}
        {needsAmount ? (
          <>
            <Field id="currency" label="Currency">
              <select id="currency" value={currency} onChange={(event) => setCurrency(event.target.value)}>
                {currencies.map((each) => (
                  <option key={each}>{each}</option>
                ))}
              </select>
            </Field>
            <Field id="amount" label="Amount" hint="In major units, at most two decimals, e.g. 1250.50">
              <input id="amount" inputMode="decimal" required value={amount} aria-describedby="amount-hint" onChange={(event) => setAmount(event.target.value)} />
            </Field>
          </>
        ) : null}
        {action === 'partner.funding.correct' ? (
          <>
            <Field id="direction" label="Direction">
              <select id="direction" value={direction} onChange={(event) => setDirection(event.target.value)}>
                <option value="debit">Debit (take back)</option>
                <option value="credit">Credit (add)</option>
              </select>
            </Field>
            <Field id="corrects" label="Request id of the funding it corrects">
              <input id="corrects" required value={correctsRequestId} onChange={(event) => setCorrectsRequestId(event.target.value)} />
            </Field>
          </>
        ) : null}
        {action === 'partner.status.set' ? (
          <Field id="status" label="New status">
            <select id="status" value={status} onChange={(event) => setStatus(event.target.value)}>
              <option value="active">active</option>
              <option value="suspended">suspended</option>
              <option value="inactive">inactive</option>
            </select>
          </Field>
        ) : null}
        {action === 'partner.permissions.set' ? (
          <fieldset>
            <legend>Permissions</legend>
            {['collection', 'disbursement'].map((permission) => (
              <div className="check" key={permission}>
                <input
                  id={`permission-${permission}`}
                  type="checkbox"
                  checked={permissions.includes(permission)}
                  onChange={(event) => setPermissions(event.target.checked ? [...permissions, permission] : permissions.filter((each) => each !== permission))}
                />
                <label htmlFor={`permission-${permission}`}>{permission}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        {action === 'partner.rate_limit.set' ? (
          <Field id="rate-limit" label="Requests a minute" hint="Empty for the default">
            <input id="rate-limit" inputMode="numeric" value={rateLimit} aria-describedby="rate-limit-hint" onChange={(event) => setRateLimit(event.target.value)} />
          </Field>
        ) : null}
        <Field id="reason" label="Reason" hint="Why this change is needed; the checker reads it.">
          <textarea id="reason" required maxLength={500} rows={3} value={reason} aria-describedby="reason-hint" onChange={(event) => setReason(event.target.value)} />
        </Field>
        <button type="submit" className="primary">
          Review
        </button>
      </form>
    </section>
  );
}

function ReviewRow(props: { name: string; value: string }): ReactNode {
  return (
    <>
      <dt>{props.name}</dt>
      <dd>{props.value}</dd>
    </>
  );
}
