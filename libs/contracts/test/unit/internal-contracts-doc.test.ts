import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import {
  bulkQuoteAnswerSchema,
  bulkQuoteConsumeRequestSchema,
  bulkQuoteItemSchema,
  bulkQuoteRequestSchema,
  consumedBulkQuoteAnswerSchema,
  consumedQuoteAnswerSchema,
  internal,
  quoteConsumeRequestSchema,
  quotesContractExamples,
  walletCancellationAnswerSchema,
  walletCheckAnswerSchema,
  walletCheckRequestSchema,
  walletContractExamples,
  walletTransferAnswerSchema,
  walletTransferBatchAnswerSchema,
  walletTransferBatchCheckAnswerSchema,
  walletTransferBatchCheckItemSchema,
  walletTransferBatchCheckRequestSchema,
  walletTransferBatchItemSchema,
  walletTransferBatchRequestSchema,
  walletTransferRequestSchema,
} from '../../src';

/**
 * docs/internal-contracts.md is checked against the schemas of libs/contracts/src/internal: the
 * documented examples are the contract's own and parse, and every field of every schema is named.
 */
const documentation = readFileSync(path.resolve(__dirname, '../../../../docs/internal-contracts.md'), 'utf8');

function documentedExample(name: string): unknown {
  const match = new RegExp(`<!-- contract-example: ${name.replace('.', '\\.')} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(documentation);
  if (!match?.[1]) throw new Error(`docs/internal-contracts.md has no example ${name}`);
  return JSON.parse(match[1]) as unknown;
}

const examples: [string, unknown, z.ZodType][] = [
  ['wallet.checkRequest', walletContractExamples.checkRequest, walletCheckRequestSchema],
  ['wallet.checkAnswer', walletContractExamples.checkAnswer, walletCheckAnswerSchema],
  ['wallet.transferAnswer', walletContractExamples.transferAnswer, walletTransferAnswerSchema],
  ['wallet.transferBatchRequest', walletContractExamples.transferBatchRequest, walletTransferBatchRequestSchema],
  ['wallet.transferBatchAnswer', walletContractExamples.transferBatchAnswer, walletTransferBatchAnswerSchema],
  ['quotes.consumeRequest', quotesContractExamples.consumeRequest, quoteConsumeRequestSchema],
  ['quotes.consumedAnswer', quotesContractExamples.consumedAnswer, consumedQuoteAnswerSchema],
  ['wallet.transferBatchCheckRequest', walletContractExamples.transferBatchCheckRequest, walletTransferBatchCheckRequestSchema],
  ['wallet.transferBatchCheckAnswer', walletContractExamples.transferBatchCheckAnswer, walletTransferBatchCheckAnswerSchema],
  ['quotes.bulkQuoteRequest', quotesContractExamples.bulkQuoteRequest, bulkQuoteRequestSchema],
  ['quotes.bulkQuoteAnswer', quotesContractExamples.bulkQuoteAnswer, bulkQuoteAnswerSchema],
  ['quotes.consumeBulkQuoteRequest', quotesContractExamples.consumeBulkQuoteRequest, bulkQuoteConsumeRequestSchema],
  ['quotes.consumedBulkQuoteAnswer', quotesContractExamples.consumedBulkQuoteAnswer, consumedBulkQuoteAnswerSchema],
];

describe('docs/internal-contracts.md against libs/contracts', () => {
  it.each(examples)('when the %s example is read from the document, then it equals the contract example and parses', (name, example, schema) => {
    expect(documentedExample(name)).toEqual(example);
    expect(schema.safeParse(example).success).toBe(true);
  });

  it('when the cancellation examples are read, then both states are documented and parse', () => {
    expect(documentedExample('wallet.cancellationAnswers')).toEqual(walletContractExamples.cancellationAnswers);
    for (const answer of walletContractExamples.cancellationAnswers) expect(walletCancellationAnswerSchema.safeParse(answer).success).toBe(true);
  });

  const objectSchemas: [string, z.ZodObject][] = [
    ['wallet check request', walletCheckRequestSchema],
    ['wallet check answer', walletCheckAnswerSchema],
    ['wallet transfer request', walletTransferRequestSchema],
    ['wallet transfer answer', walletTransferAnswerSchema],
    ['wallet transfer batch request', walletTransferBatchRequestSchema],
    ['wallet transfer batch item', walletTransferBatchItemSchema],
    ['wallet transfer batch answer', walletTransferBatchAnswerSchema],
    ['quote consume request', quoteConsumeRequestSchema],
    ['consumed quote answer', consumedQuoteAnswerSchema],
    ['wallet transfer batch check request', walletTransferBatchCheckRequestSchema],
    ['wallet transfer batch check item', walletTransferBatchCheckItemSchema],
    ['wallet transfer batch check answer', walletTransferBatchCheckAnswerSchema],
    ['bulk quote item', bulkQuoteItemSchema],
    ['bulk quote answer', bulkQuoteAnswerSchema],
    ['bulk quote consume request', bulkQuoteConsumeRequestSchema],
    ['consumed bulk quote answer', consumedBulkQuoteAnswerSchema],
    ['auth partner lookup answer', internal.partnerLookupAnswerSchema],
  ];

  it.each(objectSchemas)('when the %s schema is read, then every field is named in the document', (_name, schema) => {
    for (const field of Object.keys(schema.shape)) expect([field, documentation.includes(field)]).toEqual([field, true]);
  });
});
