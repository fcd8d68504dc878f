import { z } from 'zod';
import { currencyField, nonNegativeAmountField, phoneField, phoneInputField } from './fields';

export const accountStatuses = ['active', 'suspended', 'closed'] as const;
export const kycStatuses = ['pending', 'approved', 'rejected'] as const;

export const accountStatusField = z.enum(accountStatuses).meta({
  id: 'AccountStatus',
  description: 'The user account’s status; transact only when active.',
  example: 'active',
});

export const accountLookupParamsSchema = z.object({
  phone: phoneInputField.meta({
    param: { description: 'The user’s Liberian mobile number, 0… or +231… (send the + percent-encoded, %2B231…).', example: '0770000001' },
  }),
});

export const accountSchema = z
  .strictObject({
    name: z.string().min(1).meta({ description: 'The account holder’s name.', example: 'Comfort Gold' }),
    phone: phoneField,
    accountStatus: accountStatusField,
    kycStatus: z.enum(kycStatuses).meta({ description: 'Identity verification; transactions need approved.', example: 'approved' }),
    currencies: z.array(currencyField).max(2).meta({
      description: 'Currencies in which the user has an active wallet, LRD before USD; a frozen wallet’s currency is not listed, so the list can be empty.',
      example: ['LRD', 'USD'],
    }),
  })
  .meta({ id: 'Account', description: 'A wallet user, as the account lookup shows them.' });
export type PublicAccount = z.infer<typeof accountSchema>;

export const accountExample: PublicAccount = {
  name: 'Comfort Gold',
  phone: '+231770000001',
  accountStatus: 'active',
  kycStatus: 'approved',
  currencies: ['LRD', 'USD'],
};

export const partnerBalanceSchema = z
  .strictObject({
    LRD: nonNegativeAmountField.meta({ description: 'Your balance in LRD (0 if never funded).', example: 1000000 }),
    USD: nonNegativeAmountField.meta({ description: 'Your balance in USD (0 if never funded).', example: 10000 }),
  })
  .meta({ id: 'PartnerBalance', description: 'Your partner account’s balance per currency; both are always present.' });
export type PublicPartnerBalance = z.infer<typeof partnerBalanceSchema>;

export const partnerBalanceExample: PublicPartnerBalance = { LRD: 1000000, USD: 10000 };
