import { passkeyStoreOf } from '@pwa/web-auth';

/** The operators' passkeys (migration 1700000000400): the statements are libs/web-auth's, shared with the dashboard's members. */
export const operatorPasskeys = passkeyStoreOf({ name: 'operator_passkeys', personColumn: 'operator_id' });
