import type { ReactNode } from 'react';
import { dateTime } from './ui';

/** A person's passkey as both consoles list it (never its public key). */
export interface ListedPasskey {
  passkeyId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The person's own passkeys on their account page, each with its remove button; the page asks to confirm. */
export function PasskeyList<Passkey extends ListedPasskey>(props: { passkeys: readonly Passkey[] | undefined; onRemove: (passkey: Passkey) => void }): ReactNode {
  if (props.passkeys === undefined) return null;
  if (props.passkeys.length === 0) return <p className="empty">No passkey yet.</p>;
  return (
    <table aria-label="Passkeys">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Added</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.passkeys.map((passkey) => (
          <tr key={passkey.passkeyId}>
            <td>{passkey.name}</td>
            <td>{dateTime(passkey.createdAt)}</td>
            <td>{dateTime(passkey.lastUsedAt)}</td>
            <td>
              <button type="button" className="danger small" onClick={() => props.onRemove(passkey)}>
                Remove {passkey.name}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
