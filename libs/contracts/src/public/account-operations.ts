import { accountExample, accountLookupParamsSchema, accountSchema, partnerBalanceExample, partnerBalanceSchema } from './accounts';
import { anyRoute, bearerAdmission, codes, example, operationFamily, partnerAccess } from './operation-parts';

/** The wallet user lookup (GET /partner/v1/account/{phone}) and the partner's own balance (GET /partner/v1/balance). */
export const accountOperations = operationFamily([
  {
    operationId: 'lookUpAccount',
    method: 'GET',
    pathTemplate: '/partner/v1/account/:phone',
    tag: 'Accounts',
    summary: 'Look up a wallet user',
    description:
      'Checks, before a transaction, that the user exists, is active and can transact in your currency. Proceed only when accountStatus is active, kycStatus is approved and your currency is in currencies. Suspended and closed accounts are found with their status. Any active partner may look up accounts.',
    ...partnerAccess(null),
    request: { params: accountLookupParamsSchema },
    success: { status: 200, description: 'The account.', schema: accountSchema, enveloped: true, examples: { account: example('Comfort Gold, a sandbox test user', accountExample) } },
    errorCodes: codes(anyRoute, bearerAdmission, ['PKC_2001', 'PKC_3001']),
  },
  {
    operationId: 'getBalance',
    method: 'GET',
    pathTemplate: '/partner/v1/balance',
    tag: 'Accounts',
    summary: 'Get your balance',
    description: 'Your partner account’s balance per currency, funded in advance by arrangement with the operator. It pays for disbursements (amount plus fee); collections are credited to it (the amount, without the fee).',
    ...partnerAccess(null),
    success: { status: 200, description: 'Both balances.', schema: partnerBalanceSchema, enveloped: true, examples: { balance: example('The sandbox partner after its first start', partnerBalanceExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
]);
